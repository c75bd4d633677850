import Foundation
import SoundCore
@testable import SoundEngine
import SoundBackend
import SoundContent
import SoundMixer
import SoundSession
import SoundServerSupport
import Synchronization
import Testing

/// Issue 16, item 2: no input ever traps (docs/input-validation.md). A
/// seeded generator of hostile values drives every public entry point
/// (``EntryPoint/all``); each call must succeed, clamp where Wwise clamps,
/// or throw a `SoundEngineError` — an `invalidParameter` naming the argument
/// — having changed nothing; no sample or reading may be NaN or infinite;
/// and afterwards the engine must still play. A trap ends the test process:
/// that is this suite's failure too.
///
/// Replay a failure with its seed: `HOSTILE_SEED=<seed> swift test --filter HostileInputTests`.
/// Each test prints its seed on stderr before its first hostile call, so a
/// run that traps (and ends the process before any `#expect` can report)
/// can be replayed too. `HOSTILE_CALLS` sets how many calls each phase makes
/// (default: a few seconds' worth, for CI).
@Suite struct HostileInputTests {
    /// The seed of one test: `HOSTILE_SEED`, or a random one. Printed on
    /// stderr at once (unbuffered), with the command that replays it.
    static func seed(for test: String = #function) -> UInt64 {
        let seed =
            ProcessInfo.processInfo.environment["HOSTILE_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        let name = test.prefix { $0 != "(" }
        FileHandle.standardError.write(
            Data("HostileInputTests \(name): seed \(seed) (replay: HOSTILE_SEED=\(seed) swift test --filter \(name))\n".utf8))
        return seed
    }

    static var calls: Int { ProcessInfo.processInfo.environment["HOSTILE_CALLS"].flatMap { Int($0) } ?? 1500 }

    /// An engine on the offline backend (idle cork off: the test renders
    /// when it wants), with the hostile bank loaded and game object 1.
    static func offlineRig(seed: UInt64) throws -> HostileRig {
        let backend = OfflineBackend()
        var platform = PlatformInitSettings()
        platform.idleCorkTimeout = nil
        let engine = try SoundEngineInstance(InitSettings(), platform, backend: backend)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID())").path
        let rig = try HostileRig(engine: engine, door: engine, backend: backend, seed: seed, folder: folder)
        try rig.prepare()
        return rig
    }

    @Test func everyEntryPointRefusesOrClampsHostileInputChangingNothingAndTheEnginePlaysOn() throws {
        let seed = Self.seed()
        let rig = try Self.offlineRig(seed: seed)
        defer { rig.close() }
        var h = HostileValues(seed: seed)
        for i in 0..<Self.calls {
            let entry = EntryPoint.draw(&h)
            let before = rig.fingerprint()
            if let error = entry.run(&h, rig), entry.usesEngine {
                let after = rig.fingerprint()
                if after != before { rig.fail("\(entry.name) threw \(error) but changed the engine:\n\(before)\n\(after)") }
            }
            if i % 10 == 0 { rig.renderAndCheck(1024) }
        }
        try Self.expectStillPlaying(rig)
    }

    @Test func hostileCallsFromManyThreadsLeaveTheEnginePlaying() throws {
        let seed = Self.seed()
        let rig = try Self.offlineRig(seed: seed)
        defer { rig.close() }
        let done = ControlLock(false)
        // The render thread, as a server's would: all the while, every block checked.
        let renderer = JoinableThread {
            while !done.withLock({ $0 }) { rig.renderAndCheck(256) }
        }
        renderer.start()
        let callers = (0..<4).map { index in
            JoinableThread {
                var h = HostileValues(seed: seed &+ UInt64(index))
                for _ in 0..<(Self.calls / 4) { EntryPoint.draw(&h).run(&h, rig) }
            }
        }
        callers.forEach { $0.start() }
        callers.forEach { $0.join() }
        done.withLock { $0 = true }
        renderer.join()
        try Self.expectStillPlaying(rig)
    }

    /// After the storm: the engine runs, renders finite audio, and a new
    /// voice is heard; nothing broke a promise on the way.
    static func expectStillPlaying(_ rig: HostileRig, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let engine = try #require(rig.engine)
        let backend = try #require(rig.backend)
        try rig.recover()
        // The session thread performs the wake-up: the offline stream runs again.
        #expect(eventually { engine.status == .running && backend.renderFloat(frames: 512) != nil },
                "seed \(rig.seed): the engine did not run again: \(engine.status)", sourceLocation: sourceLocation)
        let voice = try rig.playTone()
        var out: [Float] = []
        let heard = eventually {
            out = backend.renderFloat(frames: 4800) ?? []
            return rms(out) > 0.15
        }
        #expect(heard, "seed \(rig.seed): the tone played after the hostile calls is not heard (RMS \(rms(out)))",
                sourceLocation: sourceLocation)
        let finite = out.allSatisfy { $0.isFinite }
        #expect(finite, "seed \(rig.seed): the output holds NaN or an infinity", sourceLocation: sourceLocation)
        #expect(try engine.isPlaying(voice), "seed \(rig.seed)", sourceLocation: sourceLocation)
        rig.renderAndCheck()
        let badMeter = rig.badMeter.load(ordering: .relaxed)  // relaxed: the callbacks ran before (a flag)
        #expect(!badMeter, "seed \(rig.seed): a meter callback got a reading that is not finite")
        let failures = rig.failures.withLock { $0 }
        #expect(failures.isEmpty, "\(failures.count) broken promise(s):\n\(failures.prefix(20).joined(separator: "\n"))",
                sourceLocation: sourceLocation)
    }

    static func rms(_ samples: [Float]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    // MARK: The traps found, one by one

    /// Each of these took the process down before issue 16: they are
    /// here so that a trap reintroduced fails a named test, whatever the
    /// random test happens to draw.
    @Test func theTrapsFoundAreRefusedNamingTheArgument() throws {
        let rig = try Self.offlineRig(seed: 0)
        defer { rig.close() }
        let e = try #require(rig.engine)
        let sound = try e.loadSound(path: rig.tone)
        let voice = try e.play(sound, PlayParameters(loop: true))
        let forever = Duration.seconds(Int64.max)
        func refused(_ name: String, _ call: () throws -> Void) {
            #expect { try call() } throws: { isInvalidParameter($0, naming: name) }
        }
        // Mixer.frames converted a huge Duration to Int before any range check.
        refused("stop fade") { try e.stop(voice, fade: forever) }
        refused("stopAll fade") { try e.stopAll(fade: forever) }
        refused("stop fade") { try e.stop(PlayingID(rawValue: 1), fade: forever) }
        refused("stopAll fade") { try e.stopAll(on: GameObjectID(1), fade: forever) }
        // A negative or huge ramp (the demo's -1e10 s interpolation).
        refused("setRTPCValue ramp") { try e.setRTPCValue("RPM", 1, ramp: .seconds(-10_000_000_000)) }
        refused("setRTPCValue ramp") { try e.setRTPCValue("RPM", 1, ramp: forever) }
        refused("suspend fade") { try e.suspend(fade: forever) }
        refused("pause fade") { try e.pause(voice, fade: Duration(secondsComponent: .min, attosecondsComponent: .min)) }
        refused("PlayParameters.fadeIn") { try e.play(sound, PlayParameters(fadeIn: forever)) }
        // DecodedAudio's initialiser trapped on 0 channels; NaN samples reached the mix.
        refused("channelCount") { _ = try e.loadSound(DecodedAudio(sampleRate: 48_000, channelCount: 0, samples: [0]), name: "x") }
        refused("samples") { _ = try e.loadSound(DecodedAudio(sampleRate: 48_000, channelCount: 2, samples: [0, 0, 0]), name: "x") }
        refused("samples[1]") { _ = try e.loadSound(DecodedAudio(sampleRate: 48_000, channelCount: 1, samples: [0, .nan]), name: "x") }
        // A bank built in code: a NaN marker time trapped converting it to a
        // frame, infinite weights trapped the random pick, a delay of
        // Int64.max seconds trapped the mixer clock.
        var bank = rig.bank
        bank.name = "hostile2"
        bank.sounds["blip"]?.markers = [BankMarker(name: "m", time: .nan)]
        refused("sound 'blip' marker 'm' time") { try e.loadBank(bank) }
        bank = rig.bank
        bank.containers["pick"]?.kind = .random(weights: [.greatestFiniteMagnitude, .greatestFiniteMagnitude], avoidRepeatCount: 0)
        refused("container 'pick' weights[0]") { try e.loadBank(bank) }
        bank = rig.bank
        bank.events["Play"]?.actions[0].delay = forever
        refused("event 'Play' actions[0] delay") { try e.loadBank(bank) }
        // A path with a NUL would have opened another file.
        refused("loadSound path") { _ = try e.loadSound(path: rig.tone + "\u{0}.ogg") }
        refused("loadBank path") { try e.loadBank(path: rig.bankFile + "\u{0}x") }
        // Nothing changed: the voice plays on.
        #expect(try e.isPlaying(voice))
        // The public value types and the offline backend no longer trap either.
        #expect(DecodedAudio(sampleRate: 0, channelCount: 0, samples: [1]).frameCount == 0)
        #expect(StreamFormat(sampleRate: 1, channelCount: .max, sampleFormat: .float32).bytesPerFrame == .max)
        #expect(rig.backend?.render(frames: -1) == [])
    }

}

extension HostileRig {
    /// Loads the bank and registers game object 1 through the door, and
    /// remembers them.
    func prepare() throws {
        remember(\.banks, try door.loadBank(bank))
        try door.registerGameObject(GameObjectID(1), name: "hostile")
        remember(\.objects, GameObjectID(1))
    }

    /// Ends the offline engine (the façade's is terminated by its test) and removes the files.
    func close() {
        if backend != nil { engine?.terminate() }
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// The façade: before initialize every hostile call is `notInitialized`;
/// on a real server, hostile calls through it leave the engine playing.
/// In the serialized façade suite: these share the one process-wide engine.
extension SoundEngineFacadeTests {
    @Test func beforeInitializeEveryHostileCallIsNotInitialized() throws {
        SoundEngine.terminate()
        let seed = HostileInputTests.seed()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID())").path
        let rig = try HostileRig(engine: nil, door: Facade(), backend: nil, seed: seed, folder: folder)
        defer { rig.close() }
        var h = HostileValues(seed: seed)
        for entry in EntryPoint.all where entry.usesEngine {
            for _ in 0..<5 {
                let error = entry.run(&h, rig)
                // The one rule before initialize: every call that needs the engine, getters too.
                #expect(error == .notInitialized, "seed \(seed): \(entry.name) threw \(String(describing: error))")
            }
        }
        // A hostile initialize is refused naming the setting, or finds no server; nothing starts.
        // (A valid set fails connecting, in about 0.3 s: a few of them.)
        for _ in 0..<8 {
            let (settings, platform) = h.settings()
            do throws(SoundEngineError) {
                try SoundEngine.initialize(settings, platform)
                Issue.record("seed \(seed): initialize reached a server at \(platform.serverAddress ?? "")")
            } catch .invalidParameter(let why) {
                #expect(EntryPoint.settingsFields.contains { why.contains($0) }, "seed \(seed): \(why)")
            } catch {
                #expect(error.caseName == "deviceNotReady", "seed \(seed): \(error)")
            }
            #expect(!SoundEngine.isInitialized)
        }
        #expect(rig.failures.withLock { $0 }.isEmpty, "\(rig.failures.withLock { $0 })")
    }

    @Test func hostileCallsThroughTheFacadeLeaveTheEngineOnARealServerPlaying() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        try SoundEngine.initialize(SoundEngine.defaultInitSettings(), platform(server))
        defer { SoundEngine.terminate() }
        let seed = HostileInputTests.seed()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID())").path
        let rig = try HostileRig(engine: try SoundEngine.current, door: Facade(), backend: nil, seed: seed, folder: folder)
        defer { rig.close() }
        try rig.prepare()
        var h = HostileValues(seed: seed)
        for _ in 0..<(HostileInputTests.calls / 4) { EntryPoint.draw(&h).run(&h, rig) }
        // The running engine refuses a second initialize, hostile or not, without a second stream.
        let (settings, platform) = h.settings()
        #expect(throws: SoundEngineError.self) { try SoundEngine.initialize(settings, platform) }

        try rig.recover()
        let recorder = try server.record()
        defer { recorder.stop() }
        _ = try rig.playTone()
        let heard = recorder.waitForLevel(windows: 3) { $0.allSatisfy { $0 > 0.1 } }
        #expect(heard.met, "seed \(seed): the tone is not heard after the hostile calls: \(heard.rms)")
        #expect(eventually { (try? server.sinkInputs().count) == 1 }, "seed \(seed): not exactly one stream of ours")
        let failures = rig.failures.withLock { $0 }
        #expect(failures.isEmpty, "\(failures.count) broken promise(s):\n\(failures.prefix(20).joined(separator: "\n"))")
    }
}
