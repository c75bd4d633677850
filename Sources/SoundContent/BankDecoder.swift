/// Turns a parsed bank document into model values, collecting every problem
/// instead of stopping at the first: a designer fixing a bank wants the whole
/// list in one go.
///
/// Decoding runs in two passes. The section decoders (`BankDecoder+Sounds`
/// and friends) check each definition on its own — types, ranges, unknown
/// keys — and record every name it uses as a ``BankReference``. Once all
/// sections are read, `resolveReferences()` checks those names and the
/// graphs they form (bus tree, container nesting, event posts).
struct BankDecoder {
    /// The file's bytes, for line/column numbers in messages.
    let bytes: [UInt8]
    let options: BankLoadOptions
    /// The bank's folder, absolute and normalised.
    let folder: String

    /// Problems so far, with the offset of the value each is about.
    private(set) var found: [(offset: Int, issue: BankIssue)] = []
    /// Every name a definition uses, checked once all sections are read.
    var references: [BankReference] = []
    /// Every definition by kind, in document order, for the namespace checks.
    var definitions: [BankReference.Kind: [BankReference]] = [:]

    /// The issues in document order (stable for issues at the same place).
    var issues: [BankIssue] {
        found.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element.issue)
    }

    /// Records a problem with the value at `path`, which starts at `offset`.
    mutating func report(_ path: JSONPath, at offset: Int, _ reason: String) {
        found.append((offset, BankIssue(path: path.description, reason: reason)))
    }

    /// Records a name used at `path`, checked by `resolveReferences()`.
    mutating func refer(_ kind: BankReference.Kind, _ name: String, at path: JSONPath, offset: Int,
                        edge: BankReference.Edge? = nil) {
        references.append(BankReference(kind: kind, name: name, path: path, offset: offset, edge: edge))
    }

    /// Records a definition of `name` (for the duplicate-ID checks).
    mutating func define(_ kind: BankReference.Kind, _ name: String, at path: JSONPath, offset: Int) {
        definitions[kind, default: []].append(BankReference(kind: kind, name: name, path: path, offset: offset))
    }

    /// "line 3, column 7", for messages that point at a second place.
    func location(_ offset: Int) -> String {
        let (line, column) = JSONReader.location(of: offset, in: bytes)
        return "line \(line), column \(column)"
    }
}
