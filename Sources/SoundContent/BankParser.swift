package import SoundCore
import Foundation

/// How a bank may be loaded.
package struct BankLoadOptions: Sendable, Hashable {
    /// Lets sound files live outside the bank's folder (absolute paths, or
    /// paths that climb out with `..`). Off by default: banks can come from
    /// mods, and a bank should not read arbitrary files.
    package var allowFilesOutsideBankFolder: Bool
    /// Buses that exist already (`"master"` and the buses of banks loaded
    /// earlier): this bank's buses, sounds, ducking rules and states may name them.
    package var existingBuses: Set<String>
    /// Whether every sound file must exist (and be a regular file) at load time.
    package var checkFilesExist: Bool

    package init(
        allowFilesOutsideBankFolder: Bool = false, existingBuses: Set<String> = ["master"],
        checkFilesExist: Bool = true
    ) {
        self.allowFilesOutsideBankFolder = allowFilesOutsideBankFolder
        self.existingBuses = existingBuses
        self.checkFilesExist = checkFilesExist
    }
}

/// Every problem found in a bank; loading it changed nothing.
package struct BankIssues: Error, Sendable, CustomStringConvertible {
    /// The problems, in document order.
    package var issues: [BankIssue]

    package init(_ issues: [BankIssue]) { self.issues = issues }

    package var description: String { issues.map(\.description).joined(separator: "\n") }

    /// The engine's error for it: `invalidFile` listing every issue.
    package var engineError: SoundEngineError {
        .invalidFile("bank has \(issues.count) error(s):\n" + description)
    }
}

/// Reads bank files (docs/banks.md) into validated ``Bank`` values.
///
/// Pure apart from reading the bank and checking its sound files exist:
/// nothing global changes, so a bad bank can simply be refused. Every
/// problem is reported at once, each with its JSON path.
package enum BankParser {
    /// Bank files larger than this are refused unread (a bank of thousands
    /// of sounds is a few hundred kilobytes).
    package static let maxFileSize = 64 << 20

    /// Parses and validates a bank file at `path` (its name is the file name
    /// without extension; its sound files resolve in its folder).
    package static func load(path: String, options: BankLoadOptions = BankLoadOptions()) -> Result<Bank, BankIssues> {
        let absolute = BankFilePath.absolute(path)
        var status = stat()
        guard stat(absolute, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return .failure(BankIssues([BankIssue(path: "$", reason: "bank file '\(absolute)' does not exist or is "
                + "not a regular file")]))
        }
        guard status.st_size <= maxFileSize else {
            return .failure(BankIssues([BankIssue(path: "$", reason: "bank file '\(absolute)' is \(status.st_size) "
                + "bytes; the limit is \(maxFileSize)")]))
        }
        guard let data = FileManager.default.contents(atPath: absolute) else {
            return .failure(BankIssues([BankIssue(path: "$", reason: "bank file '\(absolute)' cannot be read")]))
        }
        let file = absolute.split(separator: "/").last.map(String.init) ?? absolute
        let name = file.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
        let folder = String(absolute.dropLast(file.count))
        return parse([UInt8](data), name: name.isEmpty ? file : name, folder: folder, options: options)
    }

    /// Parses and validates bank JSON text. `folder` is where its sound files
    /// resolve (made absolute against the current directory if relative).
    package static func parse(
        _ bytes: [UInt8], name: String, folder: String, options: BankLoadOptions = BankLoadOptions()
    ) -> Result<Bank, BankIssues> {
        let root: JSONNode
        do {
            root = try JSONReader.parse(bytes)
        } catch {
            let (line, column) = JSONReader.location(of: error.offset, in: bytes)
            return .failure(BankIssues([BankIssue(
                path: error.path.description,
                reason: "malformed JSON at line \(line), column \(column) (byte \(error.offset)): \(error.message)")]))
        }
        var decoder = BankDecoder(bytes: bytes, options: options, folder: BankFilePath.absolute(folder))
        let bank = decode(root, name: name, with: &decoder)
        let issues = decoder.issues
        if let bank, issues.isEmpty { return .success(bank) }
        return .failure(BankIssues(issues.isEmpty ? [BankIssue(path: "$", reason: "the bank is invalid")] : issues))
    }

    private static func decode(_ root: JSONNode, name: String, with decoder: inout BankDecoder) -> Bank? {
        guard
            let fields = decoder.object(root, at: .root, what: "a bank", required: ["sounds", "events"],
                                        optional: Array(BankDecoder.sectionKeys.dropFirst(2)))
        else { return nil }
        var bank = Bank(
            name: name, folder: decoder.folder,
            allowsFilesOutsideFolder: decoder.options.allowFilesOutsideBankFolder)
        for entry in decoder.entries(fields, "sounds", kind: .sound) {
            bank.sounds[entry.name] = decoder.sound(entry.name, entry.node, at: entry.path)
        }
        for entry in decoder.entries(fields, "containers", kind: .container) {
            bank.containers[entry.name] = decoder.container(entry.name, entry.node, at: entry.path)
        }
        var buses: [BankBus] = []
        for entry in decoder.entries(fields, "buses", kind: .bus) {
            if let bus = decoder.bus(entry.name, entry.node, at: entry.path) { buses.append(bus) }
        }
        bank.buses = parentsFirst(buses)
        for entry in decoder.entries(fields, "attenuations", kind: .attenuation) {
            bank.attenuations[entry.name] = decoder.attenuation(entry.name, entry.node, at: entry.path)
        }
        for entry in decoder.entries(fields, "rtpcs", kind: .rtpc) {
            bank.rtpcs[entry.name] = decoder.rtpc(entry.name, entry.node, at: entry.path)
        }
        for entry in decoder.entries(fields, "states", kind: .stateGroup) {
            bank.stateGroups[entry.name] = decoder.stateGroup(entry.name, entry.node, at: entry.path)
        }
        for entry in decoder.entries(fields, "switches", kind: .switchGroup) {
            bank.switchGroups[entry.name] = decoder.switchGroup(entry.name, entry.node, at: entry.path)
        }
        for entry in decoder.entries(fields, "events", kind: .event) {
            bank.events[entry.name] = decoder.event(entry.name, entry.node, at: entry.path)
        }
        // Names defined, even by definitions that had errors, so that one
        // mistake in a sound does not also report every use of the sound.
        let definitions = decoder.definitions
        let defined = { (kind: BankReference.Kind) in Set((definitions[kind] ?? []).map(\.name)) }
        let groupMembers = { (groups: [String], members: (String) -> [String]?) in
            Dictionary(groups.map { ($0, members($0) ?? []) }, uniquingKeysWith: { a, _ in a })
        }
        let names = BankNames(
            sounds: defined(.sound), containers: defined(.container),
            buses: defined(.bus).union(decoder.options.existingBuses).union(["master"]),
            attenuations: defined(.attenuation), rtpcs: defined(.rtpc),
            stateGroups: groupMembers(defined(.stateGroup).sorted()) { bank.stateGroups[$0]?.states },
            switchGroups: groupMembers(defined(.switchGroup).sorted()) { bank.switchGroups[$0]?.values },
            events: defined(.event))
        decoder.resolveReferences(names)
        return bank
    }

    /// `buses` reordered so every parent comes before its children; otherwise
    /// in document order. Buses in a cycle (reported) come last.
    static func parentsFirst(_ buses: [BankBus]) -> [BankBus] {
        let byName = Dictionary(buses.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var placed: Set<String> = []
        var ordered: [BankBus] = []
        for bus in buses where !placed.contains(bus.name) {
            // Climb to the first ancestor already placed (or outside this bank), then place downwards.
            var chain: [BankBus] = []
            var seen: Set<String> = []
            var current: BankBus? = bus
            while let this = current, !placed.contains(this.name), seen.insert(this.name).inserted {
                chain.append(this)
                current = byName[this.parent]
            }
            for link in chain.reversed() {
                placed.insert(link.name)
                ordered.append(link)
            }
        }
        return ordered
    }
}
