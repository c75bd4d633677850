import Glibc

/// The terminal in full-screen mode: raw input, the alternate screen, the
/// cursor hidden, and a guarantee that all of it is undone.
///
/// ```swift
/// let terminal = try RawTerminal.enter()
/// defer { terminal.leave() }
/// ```
///
/// The terminal is restored by ``leave()``, at `exit(3)` (an `atexit`
/// handler), and on `SIGINT`, `SIGTERM`, `SIGHUP` and `SIGQUIT`: their handler is
/// async-signal-safe — it only calls `tcsetattr(3)` with the attributes saved
/// in static storage and `write(2)`s a fixed restore sequence (show the
/// cursor, reset colours, leave the alternate screen), then puts the default
/// disposition back and raises the signal again, so the process still dies
/// of it (a shell sees the usual status). In raw mode Ctrl-C is not a signal
/// but a key (``Key/control(_:)`` with `"c"`): the program decides what it means.
///
/// `SIGWINCH` writes a byte to a pipe whose read end is ``resizeDescriptor``:
/// poll it with your input, then call ``takeResize()``.
///
/// One instance at a time per process (the saved attributes are process-wide).
public final class RawTerminal {
    /// The descriptor keys are read from (standard input).
    public let input: Int32
    /// The descriptor frames are written to (standard output).
    public let output: Int32
    private var active = true

    /// Why the terminal could not enter full-screen mode.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, in words.
        public let description: String
    }

    private init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// Saves the attributes of `input` (default standard input, 0), makes it raw, switches `output` to the
    /// alternate screen and hides the cursor, and installs the restore
    /// handlers. Throws when `input` or `output` is not a terminal or another
    /// ``RawTerminal`` is active.
    public static func enter(input: Int32 = 0, output: Int32 = 1) throws -> RawTerminal {
        guard TerminalCalls.isTerminal(input), TerminalCalls.isTerminal(output) else {
            throw Failure(description: "standard input and output must be a terminal")
        }
        guard !TerminalState.saved else { throw Failure(description: "the terminal is already in full-screen mode") }
        guard let original = TerminalState.prepare(input: input, output: output) else {
            throw Failure(description: "cannot read the terminal's attributes")
        }
        TerminalCalls.set(TerminalCalls.raw(original), on: input)
        TerminalState.installHandlers()
        TerminalCalls.writeAll(UnsafeRawBufferPointer(start: ANSI.enterSequence.utf8Start, count: ANSI.enterSequence.utf8CodeUnitCount), to: output)
        return RawTerminal(input: input, output: output)
    }

    /// Restores the terminal as it was before ``enter(input:output:)``: the
    /// saved attributes, the main screen, the cursor shown. Safe to call twice.
    public func leave() {
        guard active else { return }
        active = false
        TerminalState.restore()
        TerminalState.removeHandlers()
    }

    deinit { leave() }

    /// The terminal's size in cells now (`TIOCGWINSZ`); 80×24 when it cannot be read.
    public var size: (columns: Int, rows: Int) {
        TerminalCalls.windowSize(of: output) ?? TerminalCalls.windowSize(of: input) ?? (80, 24)
    }

    /// A descriptor that becomes readable when the window was resized
    /// (`SIGWINCH`); poll it alongside ``input``.
    public var resizeDescriptor: Int32 { TerminalState.resizePipe.read }

    /// Whether the window was resized since the last call (drains ``resizeDescriptor``).
    public func takeResize() -> Bool {
        var resized = false
        while let bytes = TerminalCalls.readAvailable(from: TerminalState.resizePipe.read, limit: 64), !bytes.isEmpty {
            resized = true
        }
        return resized
    }

    /// Reads the bytes the keyboard sent that are there now (none when nothing is);
    /// nil when input ended (the terminal went away).
    public func readInput() -> [UInt8]? { TerminalCalls.readAvailable(from: input) }

    /// Writes `text` to the terminal as it is (a frame from ``ScreenRenderer``).
    public func write(_ text: String) {
        var text = text
        _ = text.withUTF8 { TerminalCalls.writeAll(UnsafeRawBufferPointer($0), to: output) }
    }
}

/// What the signal handlers need, in static storage set up before they are installed.
///
/// Invariant for the `nonisolated(unsafe)` statics: they are written only by
/// `prepare`/`restore` on the thread that owns the ``RawTerminal``, before the
/// handlers are installed or after they are removed; handlers only read them.
enum TerminalState {
    nonisolated(unsafe) static var original = termios()
    nonisolated(unsafe) static var input: Int32 = STDIN_FILENO
    nonisolated(unsafe) static var output: Int32 = STDOUT_FILENO
    nonisolated(unsafe) static var saved = false
    nonisolated(unsafe) static var resizePipe: (read: Int32, write: Int32) = (-1, -1)
    nonisolated(unsafe) private static var atExitInstalled = false
    static let fatalSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Saves the attributes and descriptors; touches every static so none is
    /// first initialised inside a handler.
    static func prepare(input: Int32, output: Int32) -> termios? {
        guard let attributes = TerminalCalls.attributes(of: input) else { return nil }
        original = attributes
        self.input = input
        self.output = output
        if resizePipe.read < 0, let pipe = TerminalCalls.nonBlockingPipe() { resizePipe = pipe }
        saved = true
        if !atExitInstalled {
            atExitInstalled = true
            atexit { TerminalState.restoreFromHandler() }
        }
        return attributes
    }

    static func installHandlers() {
        for signal in fatalSignals { TerminalCalls.install(fatalHandler, for: signal, restart: false) }
        TerminalCalls.install(resizeHandler, for: SIGWINCH, restart: true)
    }

    static func removeHandlers() {
        for signal in fatalSignals + [SIGWINCH] { TerminalCalls.resetToDefault(signal) }
    }

    static func restore() {
        restoreFromHandler()
    }

    /// Async-signal-safe: `tcsetattr` and `write` only, on static data.
    static func restoreFromHandler() {
        guard saved else { return }
        saved = false
        tcsetattr(input, TCSADRAIN, &original)
        TerminalCalls.writeAll(UnsafeRawBufferPointer(start: ANSI.restoreSequence.utf8Start, count: ANSI.restoreSequence.utf8CodeUnitCount), to: output)
    }
}

private func fatalHandler(_ signal: Int32) {
    TerminalState.restoreFromHandler()
    TerminalCalls.resetToDefault(signal)
    raise(signal)  // delivered when the handler returns: the process dies of it as it would have
}

private func resizeHandler(_: Int32) {
    let savedErrno = errno
    var byte: UInt8 = 1
    _ = write(TerminalState.resizePipe.write, &byte, 1)
    errno = savedErrno
}
