import Foundation
import Glibc

/// A recorded session: the raw lines the link sent, each with the seconds
/// since the recording began at which it arrived.
///
/// The file is text, one line a message: `# soundengine-top recording 1`
/// first, then `<seconds> <raw JSON line>` (seconds with microseconds).
/// Lines starting with `#` are comments.
enum SessionRecording {
    static let header = "# soundengine-top recording 1"

    /// One recorded line.
    struct Entry: Equatable, Sendable {
        var offset: Double
        var line: String
    }

    /// Reads a recording; throws when the file cannot be read or a line is not `<seconds> <text>`.
    static func read(path: String) throws -> [Entry] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var entries: [Entry] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            if raw.hasPrefix("#") { continue }
            guard let space = raw.firstIndex(of: " "), let offset = Double(raw[..<space]), offset.isFinite, offset >= 0 else {
                throw Failure(description: "\(path):\(number + 1): not \"<seconds> <line>\"")
            }
            entries.append(Entry(offset: offset, line: String(raw[raw.index(after: space)...])))
        }
        return entries
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes lines to a recording as they arrive.
    final class Recorder {
        let path: String
        private let handle: FileHandle
        private let started: Double

        /// Creates (or truncates) `path` and writes the header; `now` is the
        /// monotonic time in seconds the offsets count from.
        init(path: String, now: Double) throws {
            guard FileManager.default.createFile(atPath: path, contents: Data((SessionRecording.header + "\n").utf8)) else {
                throw Failure(description: "cannot create \(path): \(String(cString: strerror(errno)))")
            }
            guard let handle = FileHandle(forWritingAtPath: path) else { throw Failure(description: "cannot open \(path)") }
            handle.seekToEndOfFile()
            self.handle = handle
            self.path = path
            started = now
        }

        deinit { try? handle.close() }

        /// Appends `line`, arrived at monotonic time `now`.
        func record(_ line: String, now: Double) {
            let entry = String(format: "%.6f ", max(0, now - started)) + line + "\n"
            try? handle.write(contentsOf: Data(entry.utf8))
        }
    }

    /// Plays a recording back at the speed it was recorded, with pause.
    struct Player: Sendable {
        let entries: [Entry]
        private(set) var next = 0
        /// Seconds of the recording played so far.
        private(set) var position = 0.0
        private(set) var isPaused = false

        init(entries: [Entry]) { self.entries = entries }

        var isFinished: Bool { next >= entries.count }
        var duration: Double { entries.last?.offset ?? 0 }

        /// Advances by `elapsed` seconds (nothing while paused) and returns the lines now due.
        mutating func advance(by elapsed: Double) -> [String] {
            if !isPaused { position += elapsed }
            var due: [String] = []
            while next < entries.count, entries[next].offset <= position {
                due.append(entries[next].line)
                next += 1
            }
            return due
        }

        mutating func togglePause() { isPaused.toggle() }

        /// Seconds until the next line is due; nil when paused or finished.
        var secondsToNext: Double? {
            guard !isPaused, next < entries.count else { return nil }
            return max(0, entries[next].offset - position)
        }
    }
}
