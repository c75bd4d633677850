import SoundCore
import Foundation
@testable import SoundEngine
import SoundBackend
import SoundContent
import SoundMixer
import SoundSession
import SoundServerSupport
import Synchronization
import Testing

/// Completion callbacks under bursts larger than the mixer's event ring
/// (1,024 events): every voice's end reaches its callback exactly once, and
/// the engine keeps no callback for a voice that has ended.
@Suite struct CompletionTests {
    /// How many times each voice's completion ran, by the order it was started in.
    final class Tally: Sendable {
        private let calls: ControlLock<[Int]>
        init(_ voices: Int) { calls = ControlLock([Int](repeating: 0, count: voices)) }
        /// Counts the end of the play (a stream failure would come first, and is not counted).
        func callback(_ index: Int) -> @Sendable (CallbackInfo) -> Void {
            { info in if case .endOfEvent = info { self.calls.withLock { $0[index] += 1 } } }
        }
        var total: Int { calls.withLock { $0.reduce(0, +) } }
        /// Every completion ran exactly once.
        var exactlyOnce: Bool { calls.withLock { $0.allSatisfy { $0 == 1 } } }
        var summary: String {
            calls.withLock { c in "\(c.filter { $0 == 0 }.count) never, \(c.filter { $0 > 1 }.count) more than once" }
        }
    }

    static func engine(_ backend: OfflineBackend, maxVoices: Int = 4096) throws -> SoundEngineInstance {
        var settings = InitSettings()
        settings.maxVoices = maxVoices
        settings.commandQueueSize = 1 << 20  // 4,096 starts and a stopAll before the first render
        return try SoundEngineInstance(settings, PlatformInitSettings(), backend: backend)
    }

    /// Callbacks the engine still holds for voices (none once all have ended).
    static func registered(_ engine: SoundEngineInstance) -> Int {
        engine.playback.callbacks.withLock { $0.voiceEnded.count + $0.voiceFailures.count }
    }

    /// Renders and lets the event thread poll a few times more: a late
    /// duplicate would show up now.
    static func settle(_ backend: OfflineBackend) {
        for _ in 0..<5 {
            _ = backend.render(frames: 512)
            Thread.sleep(forTimeInterval: 0.012)
        }
    }

    @Test func fourThousandVoicesStoppedAtOnceEachCompleteExactlyOnce() throws {
        let backend = OfflineBackend()
        let engine = try Self.engine(backend)
        defer { engine.terminate() }
        let bed = try engine.loadSound(sine(amplitude: 0.001, seconds: 0.1), name: "bed")
        let tally = Tally(4096)
        for i in 0..<4096 { try engine.play(bed, PlayParameters(loop: true), callback: tally.callback(i)) }
        #expect(eventually { _ = backend.render(frames: 512); return engine.statistics.mixer.voicesActive == 4096 })
        try engine.stopAll()
        // The stop rendered with the event thread held off, so the 4,096
        // ends meet the 1,024-event ring together however the threads are
        // scheduled (under ThreadSanitizer and load, an event thread that
        // kept pace emptied the ring as fast as the render filled it).
        engine.playback.mixer.holdingEventDrain {
            for _ in 0..<16 where engine.statistics.mixer.voicesActive > 0 { _ = backend.render(frames: 512) }
        }
        #expect(engine.statistics.mixer.voicesActive == 0)
        #expect(eventually { _ = backend.render(frames: 512); return tally.total >= 4096 }, "\(tally.summary)")
        Self.settle(backend)
        #expect(tally.exactlyOnce, "\(tally.summary)")
        #expect(Self.registered(engine) == 0)
        // All 4,096 ended with nothing drained: the ring overflowed and the sweep found the rest.
        #expect(engine.statistics.mixer.voiceEndsDeferred > 0)
        #expect(engine.statistics.mixer.eventsDropped == 0)
    }

    @Test func fourThousandVoicesPlayingOutTogetherEachCompleteExactlyOnce() throws {
        let backend = OfflineBackend()
        let engine = try Self.engine(backend)
        defer { engine.terminate() }
        let blip = try engine.loadSound(sine(amplitude: 0.001, seconds: 0.005), name: "blip", loop: nil)
        let tally = Tally(4096)
        for i in 0..<4096 { try engine.play(blip, callback: tally.callback(i)) }
        #expect(eventually { _ = backend.render(frames: 512); return tally.total >= 4096 }, "\(tally.summary)")
        Self.settle(backend)
        #expect(tally.exactlyOnce, "\(tally.summary)")
        #expect(Self.registered(engine) == 0)
        #expect(engine.statistics.mixer.voicesActive == 0)
    }

    /// Voices still playing when the engine terminates were stopped by it:
    /// their completions run before terminate returns, once, and those that
    /// had already ended are not called again.
    @Test func terminateCompletesTheVoicesStillPlayingOnce() throws {
        let backend = OfflineBackend()
        let engine = try Self.engine(backend, maxVoices: 256)
        let bed = try engine.loadSound(sine(amplitude: 0.001, seconds: 0.1), name: "bed")
        let tally = Tally(200)
        var voices: [PlayingID] = []
        for i in 0..<200 { voices.append(try engine.play(bed, PlayParameters(loop: true), callback: tally.callback(i))) }
        #expect(eventually { _ = backend.render(frames: 512); return engine.statistics.mixer.voicesActive == 200 })
        for voice in voices[..<100] { try engine.stop(voice) }
        #expect(eventually { _ = backend.render(frames: 512); return tally.total >= 100 })
        engine.terminate()
        #expect(tally.total == 200 && tally.exactlyOnce, "\(tally.summary)")
        #expect(Self.registered(engine) == 0)
        #expect(throws: SoundEngineError.notInitialized) {
            try engine.play(bed, callback: { _ in Issue.record("a voice played after terminate completed") })
        }
    }
}
