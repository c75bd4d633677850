import SoundCore
import Synchronization
import Testing

/// Keeps the messages at or above `minimum`, in the order they came: the way a
/// game's logger uses `LogLevel`'s ordering to filter.
private final class FilteringLogger: SoundLogger {
    let minimum: LogLevel
    private let kept = ControlLock<[(LogLevel, String)]>([])

    init(minimum: LogLevel) { self.minimum = minimum }

    func log(_ level: LogLevel, _ message: String) {
        guard level >= minimum else { return }
        kept.withLock { $0.append((level, message)) }
    }

    var messages: [String] { kept.withLock { $0.map(\.1) } }
}

@Suite struct LoggerTests {
    static let bySeverity: [LogLevel] = [.debug, .info, .warning, .error]

    @Test func levelsAreOrderedBySeverity() {
        for (i, a) in Self.bySeverity.enumerated() {
            for (j, b) in Self.bySeverity.enumerated() {
                #expect((a < b) == (i < j), "\(a) < \(b)")
                #expect((a == b) == (i == j), "\(a) == \(b)")
            }
        }
        #expect(Self.bySeverity.reversed().sorted() == Self.bySeverity)
    }

    @Test(arguments: zip([LogLevel.debug, .info, .warning, .error], ["debug", "info", "warning", "error"]))
    func levelsPrintTheirNames(level: LogLevel, name: String) {
        #expect(level.description == name)
        #expect("\(level)" == name)
    }

    @Test(arguments: [LogLevel.debug, .info, .warning, .error])
    func aMinimumLevelKeepsThatLevelAndAboveInOrder(minimum: LogLevel) {
        let logger = FilteringLogger(minimum: minimum)
        let asProtocol: any SoundLogger = logger
        for round in 0..<2 {
            for level in Self.bySeverity { asProtocol.log(level, "\(round) \(level)") }
        }
        let expected = (0..<2).flatMap { round in Self.bySeverity.filter { $0 >= minimum }.map { "\(round) \($0)" } }
        #expect(logger.messages == expected)
    }

    /// The default logger accepts every level from any thread and keeps nothing.
    @Test func silentLoggerAcceptsEverythingFromManyThreads() async {
        let logger: any SoundLogger = SilentLogger()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for level in Self.bySeverity { logger.log(level, "task \(task) \(level)") }
                }
            }
        }
        #expect(logger is SilentLogger)
    }
}
