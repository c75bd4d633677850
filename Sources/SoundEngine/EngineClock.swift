import Foundation
import SoundCore
import SoundMixer
import Synchronization

/// The engine's own clock (`SoundEngine-clock`): keeps the mixer going while
/// the output stream is corked, so the game's calls keep working whatever
/// the server does.
///
/// - ``Mode/advance``: renders one quantum per quantum of wall-clock time
///   (monotonic) into a scratch buffer and discards it. Voices, fades,
///   streaming and end-of-sound callbacks carry on — Wwise's "render anyway"
///   — during interruptions, while the server is away, and in
///   `suspend(renderAnyway: true)`.
/// - ``Mode/hold``: applies queued commands without rendering, every
///   quantum, so the command queue never fills; voices keep their place
///   (`suspend()`, inactive session, app in the background).
/// - ``Mode/off``: the stream renders; the clock sleeps.
///
/// Only one thread renders the mixer at a time: the engine switches the
/// clock off (``stop()`` waits for a render in progress) before it uncorks
/// the stream, and on only after the cork is confirmed. The mixer's own
/// guard makes an overlap harmless (the late caller writes silence).
final class EngineClock: @unchecked Sendable {
    // @unchecked: `scratch` is written only by the clock thread; `thread` is
    // written once in init; everything shared is atomic.

    enum Mode: Int {
        case off = 0
        case hold = 1
        case advance = 2
        /// As ``hold``, every ``idleQuanta`` quanta: the stream is corked
        /// because nothing plays, and a command may wait that long.
        case idle = 3
    }

    /// How many quanta the idle mode sleeps between command passes (≈ 85 ms at 512 frames, 48 kHz).
    static let idleQuanta = 8

    private let mixer: Mixer
    private let quantumFrames: Int
    private let period: Duration
    private let mode = Atomic<Int>(Mode.off.rawValue)
    /// True while the clock thread is inside the mixer (release/acquire with ``stop()``).
    private let busy = Atomic<Bool>(false)
    private let quit = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let scratch: UnsafeMutableRawPointer
    private var thread = pthread_t()
    /// Quanta rendered and discarded (for tests and statistics).
    let discardedQuanta = Atomic<UInt64>(0)

    init(mixer: Mixer, quantumFrames: Int, sampleRate: Int) {
        self.mixer = mixer
        self.quantumFrames = quantumFrames
        self.period = .nanoseconds(Int64(quantumFrames) * 1_000_000_000 / Int64(sampleRate))
        // Room for any output format the mixer may write: 64 channels of float32.
        scratch = UnsafeMutableRawPointer.allocate(byteCount: quantumFrames * 64 * 4, alignment: 64)
        thread = EngineThread.start("SoundEngine-clock") { self.run() }
    }

    deinit { scratch.deallocate() }

    /// The current mode.
    var current: Mode { Mode(rawValue: mode.load(ordering: .acquiring)) ?? .off }

    /// Starts holding or advancing. Call only once the stream is corked.
    func start(_ newMode: Mode) {
        mode.store(newMode.rawValue, ordering: .releasing)
        wake.signal()
    }

    /// Switches the clock off and waits until it is no longer inside the
    /// mixer, so the stream may render from now on.
    func stop() {
        // Sequentially consistent, with the thread's busy store and mode
        // re-check: a store then a load on each side (Dekker), so either
        // the thread sees off or we see it busy.
        mode.store(Mode.off.rawValue, ordering: .sequentiallyConsistent)
        while busy.load(ordering: .sequentiallyConsistent) { sched_yield() }
    }

    /// Ends the thread and joins it. Idempotent.
    func shutdown() {
        guard !quit.exchange(true, ordering: .acquiringAndReleasing) else { return }
        mode.store(Mode.off.rawValue, ordering: .releasing)
        wake.signal()
        pthread_join(thread, nil)
    }

    private func run() {
        var next = ContinuousClock.now
        while !quit.load(ordering: .acquiring) {
            let m = current
            if m == .off {
                _ = wake.wait(timeout: .now() + .seconds(1))
                next = ContinuousClock.now
                continue
            }
            busy.store(true, ordering: .sequentiallyConsistent)
            // Re-check after announcing (see stop()): it may have switched us off in between.
            switch Mode(rawValue: mode.load(ordering: .sequentiallyConsistent)) ?? .off {
            case .advance:
                mixer.render(into: scratch, frames: quantumFrames)
                discardedQuanta.wrappingAdd(1, ordering: .relaxed)  // relaxed: a counter
            case .hold, .idle:
                mixer.applyPendingCommands()
            case .off:
                break
            }
            busy.store(false, ordering: .releasing)
            // Absolute deadlines on the monotonic clock: no drift, no wall-clock steps.
            next = next.advanced(by: m == .idle ? period * Self.idleQuanta : period)
            let now = ContinuousClock.now
            if next < now - period * 8 { next = now }  // fell far behind (machine stalled): do not burst
            if next > now {
                let wait = now.duration(to: next)
                let (s, atto) = wait.components
                var ts = timespec(tv_sec: Int(s), tv_nsec: Int(atto / 1_000_000_000))
                _ = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, nil)
            }
        }
    }
}
