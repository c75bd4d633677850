public import SoundCore

/// How a bank may be loaded.
public struct BankLoadOptions: Sendable, Hashable {
    /// Lets sound files live outside the bank's folder (absolute paths, or
    /// paths that climb out with `..`). Off by default: banks can come from
    /// mods, and a bank should not read arbitrary files.
    public var allowFilesOutsideBankFolder: Bool
    /// Buses that exist already (`"master"` and the buses of banks loaded
    /// earlier): this bank's buses, sounds, ducking rules and states may name them.
    public var existingBuses: Set<String>
    /// Whether every sound file must exist (and be a regular file) at load time.
    public var checkFilesExist: Bool

    public init(
        allowFilesOutsideBankFolder: Bool = false, existingBuses: Set<String> = ["master"],
        checkFilesExist: Bool = true
    ) {
        self.allowFilesOutsideBankFolder = allowFilesOutsideBankFolder
        self.existingBuses = existingBuses
        self.checkFilesExist = checkFilesExist
    }
}

/// Every problem found in a bank; loading it changed nothing.
public struct BankIssues: Error, Sendable, CustomStringConvertible {
    /// The problems, in document order.
    public var issues: [BankIssue]

    public init(_ issues: [BankIssue]) { self.issues = issues }

    public var description: String { issues.map(\.description).joined(separator: "\n") }

    /// The engine's error for it: `invalidFile` listing every issue.
    public var engineError: SoundEngineError {
        .invalidFile("bank has \(issues.count) error(s):\n" + description)
    }
}

/// Reads bank files (docs/banks.md) into validated ``Bank`` values.
public enum BankParser {
    /// Parses and validates a bank file at `path` (its name is the file name
    /// without extension; its sound files resolve in its folder).
    public static func load(path: String, options: BankLoadOptions = BankLoadOptions()) -> Result<Bank, BankIssues> {
        .failure(BankIssues([BankIssue(path: "$", reason: "bank parsing is not written yet")]))
    }

    /// Parses and validates bank JSON text.
    public static func parse(
        _ bytes: [UInt8], name: String, folder: String, options: BankLoadOptions = BankLoadOptions()
    ) -> Result<Bank, BankIssues> {
        .failure(BankIssues([BankIssue(path: "$", reason: "bank parsing is not written yet")]))
    }
}
