import Dispatch
import Foundation
import SoundCore
import Synchronization


/// The backend's reconnect thread (`SoundEngine-reconnect`, one per `open`):
/// sleeps until a connection is lost, then reconnects. ``stop()`` wakes and joins it; a
/// sleep between attempts ends at once.
final class Reconnector: @unchecked Sendable {
    // @unchecked: `thread` is written once in init; the rest is atomics and a semaphore.
    private let semaphore = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private var thread = pthread_t()

    init(backend: PulseAudioBackend) {
        // The thread holds the backend weakly (it owns us), and ourselves weakly.
        thread = EngineThread.start("SoundEngine-reconnect") { [weak self, weak backend] in
            self?.run { reconnector in backend?.reconnect(reconnector) }
        }
    }

    func wake() { semaphore.signal() }

    /// Sleeps `duration` unless stopped meanwhile; returns false when stopped.
    func sleep(_ duration: Duration) -> Bool {
        let (s, atto) = duration.components
        _ = semaphore.wait(timeout: .now() + .nanoseconds(Int(s) * 1_000_000_000 + Int(atto / 1_000_000_000)))
        return !stopping.load(ordering: .acquiring)
    }

    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        semaphore.signal()
        pthread_join(thread, nil)
    }

    private func run(_ reconnect: (Reconnector) -> Void) {
        while !stopping.load(ordering: .acquiring) {
            semaphore.wait()
            if stopping.load(ordering: .acquiring) { return }
            reconnect(self)
        }
    }
}
