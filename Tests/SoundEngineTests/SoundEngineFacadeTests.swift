import SoundCore
import Foundation
import SoundEngine
import SoundBackend
import SoundContent
import SoundMixer
import SoundSession
import SoundServerSupport
import Synchronization
import Testing

/// The process-wide façade. Serialized: these tests share the one global engine.
@Suite(.serialized) struct SoundEngineFacadeTests {
    @Test func callsBeforeInitializeAreNotInitialized() {
        SoundEngine.terminate()
        #expect(!SoundEngine.isInitialized)
        #expect(throws: SoundEngineError.notInitialized) { try SoundEngine.suspend() }
        #expect(throws: SoundEngineError.notInitialized) { try SoundEngine.wakeupFromSuspend() }
        #expect(throws: SoundEngineError.notInitialized) { try SoundEngine.stopAll() }
        #expect(throws: SoundEngineError.notInitialized) { try SoundEngine.muteBackgroundMusic(true) }
        #expect(throws: SoundEngineError.notInitialized) { try SoundEngine.loadSound(path: "/x.wav") }
        #expect(throws: SoundEngineError.notInitialized) { try SoundEngine.changeAudioSessionProperties(SessionConfiguration()) }
        #expect(throws: SoundEngineError.notInitialized) { _ = try SoundEngine.audioSession }
        #expect(throws: SoundEngineError.notInitialized) { try SoundEngine.isBackgroundMusicMuted }
        SoundEngine.terminate()  // harmless when not initialized
    }

    @Test func initializeTwiceIsAlreadyInitializedAndTerminateEndsIt() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        try SoundEngine.initialize(SoundEngine.defaultInitSettings(), platform(server))
        #expect(SoundEngine.isInitialized)
        #expect(throws: SoundEngineError.alreadyInitialized) {
            try SoundEngine.initialize(SoundEngine.defaultInitSettings(), platform(server))
        }
        #expect(try server.sinkInputs().count == 1, "the refused second initialize opened a stream")
        SoundEngine.terminate()
        #expect(!SoundEngine.isInitialized)
        #expect(eventually { (try? server.sinkInputs().isEmpty) == true })
    }

    @Test func whileOneThreadConnectsTheOthersAreAnsweredWithoutWaiting() throws {
        let silent = try SilentListener()
        defer { silent.close() }
        var slow = SoundEngine.defaultPlatformInitSettings()
        slow.serverAddress = silent.address
        slow.connectTimeout = .seconds(3)
        let platform = slow
        let outcome = ControlLock<SoundEngineError?>(nil)
        let connecting = Thread {
            do throws(SoundEngineError) {
                try SoundEngine.initialize(SoundEngine.defaultInitSettings(), platform)
            } catch {
                outcome.withLock { $0 = error }
            }
        }
        connecting.start()
        // The connecting thread is inside initialize once its TCP connection arrives.
        let client = try #require(silent.acceptClient(within: 5), "initialize never connected to the silent server")
        defer { close(client) }
        let asked = ContinuousClock.now
        #expect(!SoundEngine.isInitialized)
        #expect(throws: SoundEngineError.notInitialized) { try SoundEngine.suspend() }
        var unreachable = SoundEngine.defaultPlatformInitSettings()
        unreachable.serverAddress = "unix:/nonexistent/facade-test/native"
        #expect(throws: SoundEngineError.alreadyInitialized) {
            try SoundEngine.initialize(SoundEngine.defaultInitSettings(), unreachable)
        }
        // All three answered while the connect still has seconds to run.
        #expect(ContinuousClock.now - asked < .seconds(1))
        #expect(eventually(within: 10) { outcome.withLock { $0 } != nil })
        guard case .deviceNotReady? = outcome.withLock({ $0 }) else {
            Issue.record("the connecting initialize ended with \(String(describing: outcome.withLock { $0 }))")
            return
        }
        #expect(!SoundEngine.isInitialized)
    }

    @Test func failedInitializeLeavesTheEngineUninitialized() throws {
        var bad = SoundEngine.defaultInitSettings()
        bad.samplesPerFrame = 1000
        #expect(throws: SoundEngineError.self) { try SoundEngine.initialize(bad, SoundEngine.defaultPlatformInitSettings()) }
        #expect(!SoundEngine.isInitialized)

        var unreachable = SoundEngine.defaultPlatformInitSettings()
        unreachable.serverAddress = "unix:/nonexistent/facade-test/native"
        let started = ContinuousClock.now
        #expect {
            try SoundEngine.initialize(SoundEngine.defaultInitSettings(), unreachable)
        } throws: { error in
            guard case SoundEngineError.deviceNotReady(let why) = error else { return false }
            return why.contains("unix:/nonexistent/facade-test/native")
        }
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(!SoundEngine.isInitialized)
    }

    /// A game's unit test of its audio logic, through the one door: the
    /// façade on an offline output renders a play and a posting when told to.
    @Test func theFacadeRunsOnAnOfflineOutput() throws {
        let output = SoundEngine.OfflineOutput()
        #expect(output.render(frames: 512).isEmpty, "nothing renders before initialize")
        var platform = SoundEngine.defaultPlatformInitSettings()
        platform.idleCorkTimeout = nil
        try SoundEngine.initialize(SoundEngine.defaultInitSettings(), platform, offline: output)
        defer { SoundEngine.terminate() }
        #expect(try SoundEngine.status == .running)
        let tone = try SoundEngine.loadSound(sine(amplitude: 0.5), name: "tone")
        let ended = PlayOutcome()
        let playing = try SoundEngine.play(tone, .init(volume: 0.5, loop: true), callback: ended.callback)
        let rendered = (0..<4).flatMap { _ in output.render(frames: 1024) }
        #expect(rendered.count == 4 * 1024 * 2)
        let peak = rendered.map(abs).max() ?? 0
        #expect(abs(peak - 0.25 * 0.7071) < 0.01, "peak \(peak): a 0.5 sine at half volume, centred (a mono source: -3 dB each side)")
        try SoundEngine.stop(playing)
        #expect(eventually { _ = output.render(frames: 512); return ended.ended })
        #expect(try SoundEngine.statistics.quantaRendered > 0)
        #expect(try SoundEngine.outputStream.deviceName == "offline")
    }

    /// The façade's event stream tells a subscriber the engine's state once,
    /// also when it subscribed between the state's change and its delivery.
    @Test func theEventStreamStartsWithTheStateOnce() async throws {
        let output = SoundEngine.OfflineOutput()
        try SoundEngine.initialize(SoundEngine.defaultInitSettings(), SoundEngine.defaultPlatformInitSettings(), offline: output)
        let events = SoundEngine.events()
        try SoundEngine.suspend()
        try SoundEngine.wakeupFromSuspend()
        SoundEngine.terminate()
        var states: [SoundEngine.State] = []
        for await event in events {
            guard case .engineState(let state) = event else { continue }
            states.append(state)
            if state == .stopped { break }
        }
        #expect(states.first == .running && states.last == .stopped, "\(states)")
        #expect(zip(states, states.dropFirst()).allSatisfy { $0 != $1 }, "a state told twice in a row: \(states)")
    }
}
