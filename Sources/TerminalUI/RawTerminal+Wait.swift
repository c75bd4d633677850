extension RawTerminal {
    /// What ended a ``waitForInput(timeout:wake:)``; all false when the time ran out.
    public struct Readiness: Hashable, Sendable {
        /// Keys are waiting on ``input`` (or it hung up): call ``readInput()``.
        public var input = false
        /// The window was resized: call ``takeResize()``.
        public var resize = false
        /// The ``WakeSignal`` was signalled: call its ``WakeSignal/drain()``.
        public var woken = false
    }

    /// Blocks until keys arrive on ``input``, the window is resized
    /// (``resizeDescriptor``), `wake` is signalled, or `timeout` passes —
    /// the one wait of a full-screen loop that redraws on input, on events
    /// and on a timer. Returns at once when any is already pending; it
    /// consumes nothing.
    ///
    /// Read input only when ``Readiness/input`` is set: in raw mode a read
    /// with nothing waiting returns nothing, which ``readInput()`` reports as
    /// the end of input; after this wait said the input is ready, nil really
    /// is the terminal going away.
    @discardableResult
    public func waitForInput(timeout: Duration, wake: WakeSignal? = nil) -> Readiness {
        let parts = timeout.components
        let milliseconds = max(0, parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000)
        var descriptors = [input, resizeDescriptor]
        if let wake { descriptors.append(wake.descriptor) }
        let ready = TerminalCalls.waitForReadable(descriptors.filter { $0 >= 0 }, milliseconds: Int32(clamping: milliseconds))
        return Readiness(
            input: ready.contains(input), resize: ready.contains(resizeDescriptor),
            woken: wake.map { ready.contains($0.descriptor) } ?? false)
    }
}
