import Foundation
import Glibc

/// What a PipeWire server's graph is doing, read from outside with its own
/// tools (Debian's pipewire-bin), as a user would look at it.
extension PrivateSoundServer {
    /// The quantum (frames per graph cycle, at the speaker's 48 kHz) of each
    /// of the next `cycles` cycles of the running graph, from `pw-profiler`
    /// (pipewire loads its profiler module by default; `pw-top` shows the
    /// same figure as QUANT). Waits at most `seconds` for them; throws if the
    /// graph ran fewer cycles (nothing playing). PipeWire only.
    public func graphQuanta(cycles: Int = 20, within seconds: Double = 10) throws -> [Int] {
        guard kind == .pipewire else { throw ServerError("graphQuanta: \(kind) has no PipeWire graph") }
        let log = directory + "/profiler.log"
        unlink(log)
        defer { unlink(log) }
        let profiler = try Subprocess(
            ["pw-profiler", "-o", log], extraEnvironment: ["XDG_RUNTIME_DIR": runtimeDirectory], captureStderr: false)
        // SIGKILL, not SIGTERM: on a signal it can catch, pw-profiler writes
        // its plotting scripts into the working directory (the package's).
        defer { profiler.kill() }
        var quanta: [Int] = []
        let enough = eventually(within: seconds) {
            quanta = Self.profiledQuanta(log)
            return quanta.count >= cycles
        }
        guard enough else { throw ServerError("pw-profiler saw \(quanta.count) graph cycles in \(seconds) s, not \(cycles)") }
        return Array(quanta.prefix(cycles))
    }

    /// The quanta in a `pw-profiler` log so far: one line per cycle (only
    /// whole lines: the file is written in blocks), the driver's period in
    /// microseconds in its fourth column (pw-profiler.c, `dump_point`).
    private static func profiledQuanta(_ path: String) -> [Int] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count > 3, let micros = Double(columns[3]) else { return nil }
            return Int((micros * 48_000 / 1_000_000).rounded())
        }
    }
}
