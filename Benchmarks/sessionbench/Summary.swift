import Foundation

/// The samples of one interval on one server, and how they are reported.
struct Series {
    /// `phone → interruption`, …
    let name: String
    /// The target for p99, in ms; nil for the parts an interval is split into.
    let targetMs: Double?
    /// Whether this is a part of the interval above it (printed indented).
    let isPart: Bool
    var samples: [Double] = []
    /// Repetitions in which the end was not observed within the deadline.
    var failures = 0

    init(_ name: String, targetMs: Double? = nil, isPart: Bool = false) {
        self.name = name
        self.targetMs = targetMs
        self.isPart = isPart
    }

    /// Nearest-rank percentile: the ⌈p/100 · n⌉-th smallest sample (with 50
    /// samples p99 is the largest).
    func percentile(_ p: Double) -> Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// PASS when every repetition ended and p99 is within the target.
    var verdict: String? {
        guard let targetMs else { return nil }
        guard failures == 0, let p99 = percentile(99) else { return "MISS" }
        return p99 <= targetMs ? "PASS" : "MISS"
    }
}

/// All series measured on one server.
struct ServerReport {
    let kind: String
    /// What the server says it is (`pulseaudio 16.1`, `PulseAudio (on PipeWire 0.3.65) 15.0.0`).
    let version: String
    var series: [Series]
}

private func format(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "–" }

/// The human-readable table: one row per (server, interval), parts indented.
func printTable(_ reports: [ServerReport], reps: Int) {
    let header = ["server", "interval (ms)", "n", "fail", "min", "p50", "p99", "max", "target", "p99 vs target"]
    var rows: [[String]] = []
    for report in reports {
        for s in report.series {
            rows.append([
                report.kind, (s.isPart ? "  " : "") + s.name, "\(s.samples.count)", "\(s.failures)",
                format(s.samples.min()), format(s.percentile(50)), format(s.percentile(99)), format(s.samples.max()),
                s.targetMs.map { "≤ \(Int($0))" } ?? "", s.verdict ?? "",
            ])
        }
    }
    let widths = header.indices.map { column in
        ([header] + rows).map { $0[column].count }.max() ?? 0
    }
    func line(_ cells: [String]) -> String {
        cells.enumerated().map { column, cell in
            let pad = String(repeating: " ", count: widths[column] - cell.count)
            return column < 2 ? cell + pad : pad + cell
        }.joined(separator: "  ")
    }
    print("sessionbench: \(reps) repetitions; nearest-rank percentiles; verdict on p99")
    for report in reports { print("  \(report.kind): \(report.version)") }
    print(line(header))
    print(line(widths.map { String(repeating: "-", count: $0) }))
    for row in rows { print(line(row)) }
}

/// One JSON object per line and row.
func printJSON(_ reports: [ServerReport]) {
    func number(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "null" }
    func string(_ value: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes])
        return data.map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) } ?? "\"\""
    }
    for report in reports {
        for s in report.series {
            let fields: [(String, String)] = [
                ("bench", "\"session\""), ("server", string(report.kind)), ("server_version", string(report.version)),
                ("interval", string(s.name)), ("part", s.isPart ? "true" : "false"), ("n", "\(s.samples.count)"),
                ("failures", "\(s.failures)"), ("min_ms", number(s.samples.min())), ("p50_ms", number(s.percentile(50))),
                ("p99_ms", number(s.percentile(99))), ("max_ms", number(s.samples.max())),
                ("target_ms", number(s.targetMs)), ("verdict", s.verdict.map(string) ?? "null"),
            ]
            print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
        }
    }
}
