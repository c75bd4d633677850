import Synchronization
import TerminalUI

/// Session notifications on their way from the engine's stream to the UI
/// loop: appended under a lock by the listening task, taken by the loop,
/// which the ``WakeSignal`` wakes at once.
final class NotificationInbox: Sendable {
    private let pending = Mutex<[EventLog.Entry]>([])
    /// Signalled on every delivery; nil when no pipe could be made (the loop then sees it at its next tick).
    let wake = WakeSignal()

    func deliver(_ entry: EventLog.Entry) {
        pending.withLock { $0.append(entry) }
        wake?.signal()
    }

    func take() -> [EventLog.Entry] {
        pending.withLock { entries in
            defer { entries.removeAll() }
            return entries
        }
    }
}
