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

/// Frequency from upward zero crossings of the left channel of interleaved stereo.
func leftFrequency(_ stereo: [Float], rate: Double) -> Double {
    var crossings: [Int] = []
    for i in 1..<(stereo.count / 2) where stereo[2 * (i - 1)] < 0 && stereo[2 * i] >= 0 { crossings.append(i) }
    guard crossings.count > 2, let first = crossings.first, let last = crossings.last else { return 0 }
    return Double(crossings.count - 1) * rate / Double(last - first)
}

/// The engine on the offline backend: no server, a manual clock.
@Suite struct OfflineEngineTests {
    @Test func aFileAtAnotherRatePlaysAtItsOwnPitch() throws {
        let backend = OfflineBackend()
        let engine = try SoundEngineInstance(InitSettings(), PlatformInitSettings(), backend: backend)
        defer { engine.terminate() }
        let flac = PrivateSoundServer.repositoryRoot + "/Tests/SoundDecodingTests/Fixtures/sine440-stereo-44k.flac"
        try engine.play(try engine.loadSound(path: flac))
        var out: [Float] = []
        for _ in 0..<20 { out += try #require(backend.renderFloat(frames: 480)) }  // 0.2 s at 48 kHz
        let hz = leftFrequency(Array(out[1920...]), rate: 48_000)  // skip the first quantum's fade-in
        #expect(abs(hz - 440) < 2, "a 440 Hz file recorded at 44.1 kHz played at \(hz) Hz on a 48 kHz engine")
    }

    @Test func int16OutputCarriesTheMix() throws {
        let backend = OfflineBackend(grantedFormat: StreamFormat(sampleRate: 48_000, channelCount: 2, sampleFormat: .int16))
        var platform = PlatformInitSettings()
        platform.sampleFormat = .int16
        let engine = try SoundEngineInstance(InitSettings(), platform, backend: backend)
        defer { engine.terminate() }
        try engine.play(try engine.loadSound(sine(amplitude: 0.5), name: "s"), PlayParameters(loop: true))
        var peak: Int16 = 0
        for _ in 0..<10 {
            let bytes = try #require(backend.render(frames: 480))
            bytes.withUnsafeBytes { raw in
                for s in raw.bindMemory(to: Int16.self) { peak = max(peak, s) }
            }
        }
        // 0.5 × cos(π/4) centre pan ≈ 0.354 of full scale.
        #expect(abs(Double(peak) / 32767 - 0.3536) < 0.01, "peak \(peak)")
    }

    @Test("Every bad setting is refused naming its field, and nothing starts", arguments: BadSetting.all)
    func badSettings(_ bad: BadSetting) {
        var settings = InitSettings()
        var platform = PlatformInitSettings()
        bad.apply(&settings, &platform)
        let field = bad.field
        let backend = OfflineBackend()
        #expect {
            _ = try SoundEngineInstance(settings, platform, backend: backend)
        } throws: { error in
            guard let e = error as? SoundEngineError else { return false }
            switch e {
            case .invalidParameter(let why), .incompatibleCategory(let why): return why.contains(field)
            default: return false
            }
        }
        #expect(backend.render(frames: 64) == nil, "the backend was opened")
    }

    @Test func callsAfterTerminateAreNotInitialized() throws {
        let engine = try SoundEngineInstance(InitSettings(), PlatformInitSettings(), backend: OfflineBackend())
        let sound = try engine.loadSound(sine(), name: "s")
        engine.terminate()
        #expect(throws: SoundEngineError.notInitialized) { try engine.play(sound) }
        #expect(throws: SoundEngineError.notInitialized) { try engine.suspend() }
        #expect(throws: SoundEngineError.notInitialized) { try engine.loadSound(sine(), name: "t") }
        #expect(engine.status == .stopped)
    }

    @Test func badVoiceArgumentsChangeNothing() throws {
        let backend = OfflineBackend()
        let engine = try SoundEngineInstance(InitSettings(), PlatformInitSettings(), backend: backend)
        defer { engine.terminate() }
        let sound = try engine.loadSound(sine(amplitude: 0.5), name: "s")
        let voice = try engine.play(sound, PlayParameters(loop: true))
        #expect(throws: SoundEngineError.self) { try engine.setVolume(voice, .nan) }
        #expect(throws: SoundEngineError.self) { try engine.setPitch(voice, 0) }
        #expect(throws: SoundEngineError.self) { try engine.play(sound, on: BusID(index: 999)) }
        _ = backend.renderFloat(frames: 4800)
        let level = try #require(backend.renderFloat(frames: 4800)).map(abs).max() ?? 0
        #expect(abs(level - 0.3536) < 0.01, "the voice's level changed after refused calls: \(level)")
    }

    /// Durations out of range (negative, or beyond their bound) are refused
    /// naming the parameter, and nothing changes: the voice keeps its level,
    /// the engine keeps running.
    @Test func badDurationsAreRefusedNamingThemAndChangeNothing() throws {
        let backend = OfflineBackend()
        let engine = try SoundEngineInstance(InitSettings(), PlatformInitSettings(), backend: backend)
        defer { engine.terminate() }
        let sound = try engine.loadSound(sine(amplitude: 0.5), name: "s")
        let voice = try engine.play(sound, PlayParameters(loop: true))
        func refused(naming what: String, _ call: () throws -> Void) -> Bool {
            do {
                try call()
                return false
            } catch let error as SoundEngineError {
                guard case .invalidParameter(let why) = error else { return false }
                return why.contains(what)
            } catch {
                return false
            }
        }
        #expect(refused(naming: "suspend fade") { try engine.suspend(fade: .seconds(-1)) })
        #expect(refused(naming: "suspend fade") { try engine.suspend(fade: .seconds(11)) })
        #expect(refused(naming: "ramp") { try engine.setVolume(voice, 0.1, ramp: .milliseconds(-5)) })
        #expect(refused(naming: "fade") { try engine.pause(voice, fade: .seconds(3601)) })
        #expect(refused(naming: "PlayParameters.delay") { try engine.play(sound, PlayParameters(delay: .seconds(-1))) })
        #expect(engine.status == .running)
        _ = backend.renderFloat(frames: 4800)
        let level = try #require(backend.renderFloat(frames: 4800)).map(abs).max() ?? 0
        #expect(abs(level - 0.3536) < 0.01, "the voice's level changed after refused calls: \(level)")
    }
}

/// One invalid setting and the field its error must name.
struct BadSetting: Sendable, CustomTestStringConvertible {
    let field: String
    let apply: @Sendable (inout InitSettings, inout PlatformInitSettings) -> Void
    var testDescription: String { field }

    static let all: [BadSetting] = [
        BadSetting(field: "samplesPerFrame") { s, _ in s.samplesPerFrame = 500 },
        BadSetting(field: "samplesPerFrame") { s, _ in s.samplesPerFrame = 32 },
        BadSetting(field: "samplesPerFrame") { s, _ in s.samplesPerFrame = 16_384 },
        BadSetting(field: "commandQueueSize") { s, _ in s.commandQueueSize = 0 },
        BadSetting(field: "maxVoices") { s, _ in s.maxVoices = 0 },
        BadSetting(field: "sampleRate") { _, p in p.sampleRate = 0 },
        BadSetting(field: "sampleRate") { _, p in p.sampleRate = 10_000_000 },
        BadSetting(field: "channelCount") { _, p in p.channelCount = 9 },
        BadSetting(field: "latency") { _, p in p.latency = LatencyRequest(targetFrames: 100, requestFrames: 256) },
        BadSetting(field: "latency.requestFrames = 235") { _, p in
            p.latency = LatencyRequest(targetFrames: 940, requestFrames: 235)
        },
        BadSetting(field: "latency.requestFrames = 16") { _, p in p.latency = LatencyRequest(targetFrames: 64, requestFrames: 16) },
        BadSetting(field: "latency.targetFrames = 1000") { _, p in
            p.latency = LatencyRequest(targetFrames: 1000, requestFrames: 256)
        },
        BadSetting(field: "latency.targetFrames = 48000") { _, p in
            p.latency = LatencyRequest(targetFrames: 48_000, requestFrames: 256)
        },
        BadSetting(field: "serverAddress") { _, p in p.serverAddress = " " },
        BadSetting(field: "applicationName") { _, p in p.applicationName = "" },
        BadSetting(field: "connectTimeout") { _, p in p.connectTimeout = .zero },
        BadSetting(field: "realtimePriority") { _, p in p.realtimePriority = 0 },
        BadSetting(field: "audioSession") { _, p in
            p.audioSession = SessionConfiguration(category: .playback, categoryOptions: [.defaultToSpeaker])
        },
        BadSetting(field: "audioSession") { _, p in p.audioSession = SessionConfiguration(category: .ambient, mode: .voiceChat) },
    ]
}

/// Voice-end and meter callbacks, delivered on the engine's event thread.
@Suite struct PlaybackCallbackTests {
    static func threadName() -> String {
        (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    }

    @Test func aVoiceThatPlaysOutCallsItsCompletionOnTheEventThread() throws {
        let backend = OfflineBackend()
        let engine = try SoundEngineInstance(InitSettings(), PlatformInitSettings(), backend: backend)
        defer { engine.terminate() }
        let outcome = PlayOutcome()
        let voice = try engine.play(try engine.loadSound(sine(seconds: 0.05), name: "blip"), callback: outcome.callback)
        #expect(eventually { _ = backend.render(frames: 480); return !outcome.all.isEmpty })
        let calls = outcome.all
        #expect(calls.count == 1)
        #expect(calls.first?.info == .endOfEvent(voice))
        #expect(calls.first?.thread == "SoundEngine-evt")
        #expect(try !engine.isPlaying(voice))
    }

    @Test func aStoppedVoiceCompletesToo() throws {
        let backend = OfflineBackend()
        let engine = try SoundEngineInstance(InitSettings(), PlatformInitSettings(), backend: backend)
        defer { engine.terminate() }
        let ended = ControlLock(0)
        let voice = try engine.play(try engine.loadSound(sine(), name: "bed"), PlayParameters(loop: true)) { _ in
            ended.withLock { $0 += 1 }
        }
        _ = backend.render(frames: 4800)
        try engine.stop(voice)
        #expect(eventually { _ = backend.render(frames: 480); return ended.withLock { $0 } == 1 })
    }

    @Test func aStreamWhoseFileVanishedCompletesWithTheError() throws {
        let backend = OfflineBackend()
        let engine = try SoundEngineInstance(InitSettings(), PlatformInitSettings(), backend: backend)
        defer { engine.terminate() }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("vanishing-\(UUID()).ogg").path
        try FileManager.default.copyItem(
            atPath: PrivateSoundServer.repositoryRoot + "/Examples/IntegrationDemo/Resources/chime.ogg", toPath: copy)
        let stream = try engine.loadSound(path: copy, streaming: true)
        try FileManager.default.removeItem(atPath: copy)
        let outcome = PlayOutcome()
        let playing = try engine.play(stream, callback: outcome.callback)
        #expect(eventually { _ = backend.render(frames: 480); return outcome.ended })
        // The failure first, then the end of the play, once each.
        #expect(outcome.all.map(\.info).last == .endOfEvent(playing) && outcome.all.count == 2)
        guard case .fileNotFound(let why)? = outcome.failure else {
            Issue.record("expected voiceFailed(fileNotFound), got \(outcome.all.map(\.info))")
            return
        }
        #expect(why.contains(copy))
    }

    @Test func aBusMeterCallbackReportsTheLevelOfItsSignal() throws {
        let backend = OfflineBackend()
        let engine = try SoundEngineInstance(InitSettings(), PlatformInitSettings(), backend: backend)
        defer { engine.terminate() }
        let bus = try engine.createBus(name: "sfx")
        let readings = ControlLock<[BusMeter]>([])
        try engine.setBusMeterCallback(bus) { meter in readings.withLock { $0.append(meter) } }
        try engine.play(try engine.loadSound(sine(amplitude: 0.5), name: "s"), on: bus, PlayParameters(pan: -1, loop: true))
        #expect(eventually { _ = backend.render(frames: 2048); return readings.withLock { $0.count } >= 3 })
        let last = try #require(readings.withLock { $0.last })
        #expect(abs(last.peak - 0.5) < 0.01, "peak \(last.peak)")
        try engine.setBusMeterCallback(bus, nil)
        #expect(throws: SoundEngineError.self) { try engine.setBusMeterCallback(BusID(index: 777)) { _ in } }
    }
}
