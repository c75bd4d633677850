/// How SoundEngine reports what it does. The game injects one; the default
/// discards everything.
///
/// Threading: called from the game's threads, the backend's control thread and
/// the event thread — never from the real-time render thread (the render thread
/// counts and reports through the event ring instead). Implementations must be
/// thread-safe and should not block for long.
public protocol SoundLogger: Sendable {
    /// Records one message.
    func log(_ level: LogLevel, _ message: String)
}

/// Severity of a log message.
public enum LogLevel: Int, Sendable, Comparable, CustomStringConvertible {
    /// Detailed tracing (every PulseAudio event).
    case debug
    /// Normal milestones (connected, stream ready, route chosen).
    case info
    /// Something degraded but the engine keeps going.
    case warning
    /// Something failed.
    case error

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }
}

/// A logger that drops every message: the default.
package struct SilentLogger: SoundLogger {
    /// Creates the silent logger.
    package init() {}
    package func log(_ level: LogLevel, _ message: String) {}
}
