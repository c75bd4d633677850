import CAllocationCounter
import Foundation
import PulseAudioBackend
import SoundEngine
import SoundBackend
import SoundContent
import SoundCore
import SoundMixer
import SoundSession
import SoundServerSupport

/// Platform settings pointing at a private server.
func platform(_ server: PrivateSoundServer, _ session: SessionConfiguration = SessionConfiguration()) -> PlatformInitSettings {
    var p = SoundEngine.defaultPlatformInitSettings()
    p.serverAddress = server.address
    p.applicationName = "SoundEngine engine test"
    p.audioSession = session
    return p
}

/// The fixture of the live tests: a private server, an engine on it and a
/// recorder of its speaker's monitor. `stop()` ends all three, newest first.
final class LiveEngine {
    let server: PrivateSoundServer
    let engine: SoundEngineInstance
    let recorder: MonitorRecorder

    init(_ settings: InitSettings = InitSettings(), session: SessionConfiguration = SessionConfiguration(),
         backend: (any AudioBackend)? = nil) throws {
        server = try PrivateSoundServer()
        do {
            engine = try SoundEngineInstance(settings, platform(server, session), backend: backend)
            recorder = try server.record()
        } catch {
            server.stop()
            throw error
        }
    }

    func stop() {
        recorder.stop()
        engine.terminate()
        server.stop()
    }
}

/// A mono sine of `seconds` at `amplitude`, for looping.
func sine(frequency: Double = 1000, amplitude: Float = 0.5, seconds: Double = 1, rate: Int = 48_000) -> DecodedAudio {
    let frames = Int(seconds * Double(rate))
    return DecodedAudio(
        sampleRate: rate, channelCount: 1,
        samples: (0..<frames).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / Double(rate))) })
}


/// The real PulseAudio backend with the render entry wrapped so that the
/// render thread arms the malloc counter, in the test's slot, for the
/// duration of every render call: real server, real mixer, real engine,
/// allocations counted.
final class AllocationCountingBackend: AudioBackend, @unchecked Sendable {
    // @unchecked: `inner` is Sendable; `wrapped` is written in open() before
    // the backend can call it and read only by the render thread after.
    let inner = PulseAudioBackend()
    private let wrapped = UnsafeMutablePointer<CountingRender>.allocate(capacity: 1)
    private let slot: Int32

    init(slot: Int32) { self.slot = slot }

    deinit { wrapped.deallocate() }

    func open(_ configuration: BackendConfiguration, render: RenderEntry, events: @escaping BackendEventHandler)
        throws(SoundEngineError) -> ServerDescription
    {
        wrapped.initialize(to: CountingRender(entry: render, slot: slot))
        return try inner.open(configuration, render: RenderEntry(function: countingRender, context: wrapped), events: events)
    }
    func setPaused(_ paused: Bool) throws(SoundEngineError) { try inner.setPaused(paused) }
    func perform(_ action: ServerAction) throws(SoundEngineError) { try inner.perform(action) }
    var grantedStream: GrantedStream? { inner.grantedStream }
    func reconnect() { inner.reconnect() }
    func readCapture(into buffer: UnsafeMutableBufferPointer<Float>) -> Int { inner.readCapture(into: buffer) }
    func close() { inner.close() }
    var statistics: BackendStatistics { inner.statistics }
    var outputLatency: Duration? { inner.outputLatency }
    func waitUntilPlayed(extraFrames: Int, timeout: Duration) {
        inner.waitUntilPlayed(extraFrames: extraFrames, timeout: timeout)
    }
}

/// What the counting render function needs, in plain memory.
private struct CountingRender {
    var entry: RenderEntry
    var slot: Int32
}

private func countingRender(_ context: UnsafeMutableRawPointer?, _ destination: UnsafeMutableRawPointer, _ frames: Int) {
    let wrapped = context!.assumingMemoryBound(to: CountingRender.self)
    se_alloc_counter_arm(wrapped.pointee.slot)
    wrapped.pointee.entry(destination, frames: frames)
    se_alloc_counter_disarm()
}

extension MixerStatistics {
    /// Every queued command was applied and at most `voices` voices remain.
    func drained(leaving voices: Int) -> Bool {
        commandsProcessed == commandsQueued && voicesActive <= voices
    }
}

/// What a play's callback was told, in order: the source failures and the end.
final class PlayOutcome: Sendable {
    private let told = ControlLock<[(info: CallbackInfo, thread: String)]>([])

    var callback: @Sendable (CallbackInfo) -> Void {
        { [self] info in
            let thread = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            told.withLock { $0.append((info, thread)) }
        }
    }

    /// Everything told so far.
    var all: [(info: CallbackInfo, thread: String)] { told.withLock { $0 } }
    /// Whether the end of the play has been told.
    var ended: Bool { all.contains { if case .endOfEvent = $0.info { true } else { false } } }
    /// The failure told before the end, if any.
    var failure: SoundEngineError? {
        all.lazy.compactMap { if case .voiceFailed(_, let e) = $0.info { e } else { nil } }.first
    }
}
