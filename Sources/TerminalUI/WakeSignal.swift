/// Wakes a loop waiting in ``RawTerminal/waitForInput(timeout:wake:)`` from
/// any thread or task, so a full-screen program redraws the moment something
/// happens (a notification arrives) instead of at its next timer tick.
///
/// A non-blocking pipe: ``signal()`` writes a byte (never blocks; when the
/// pipe is full a wake-up is already pending), the waiting loop drains it.
/// Not for signal handlers (use ``RawTerminal``'s own handling there).
public final class WakeSignal: Sendable {
    /// The read end: readable while a wake-up is pending.
    public let descriptor: Int32
    private let writeEnd: Int32

    /// A signal with nothing pending; nil when no pipe can be made.
    public init?() {
        guard let pipe = TerminalCalls.nonBlockingPipe() else { return nil }
        descriptor = pipe.read
        writeEnd = pipe.write
    }

    deinit {
        TerminalCalls.closeDescriptor(descriptor)
        TerminalCalls.closeDescriptor(writeEnd)
    }

    /// Wakes the waiting loop (or the next wait, if none is waiting now).
    public func signal() { TerminalCalls.writeByte(to: writeEnd) }

    /// Takes every pending wake-up; true when there was one.
    @discardableResult
    public func drain() -> Bool {
        var woken = false
        while let bytes = TerminalCalls.readAvailable(from: descriptor, limit: 64), !bytes.isEmpty { woken = true }
        return woken
    }
}
