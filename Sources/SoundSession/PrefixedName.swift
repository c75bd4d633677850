/// A string-valued AVAudioSession constant whose raw value is the iOS constant
/// (`"AVAudioSessionCategoryAmbient"`) and whose short name is the Swift case
/// name (`"ambient"`).
///
/// Conforming types print their short name, encode it, and decode either the
/// short name or the iOS constant, so configuration files can say `"ambient"`
/// while values copied from iOS code still load.
protocol PrefixedName: RawRepresentable<String>, CaseIterable, Codable, CustomStringConvertible {
    /// The prefix every raw value starts with, e.g. `"AVAudioSessionCategory"`.
    static var rawValuePrefix: String { get }
}

extension PrefixedName {
    /// The Swift case name: the raw value without the prefix, first letter lowered.
    var name: String {
        let bare = rawValue.dropFirst(Self.rawValuePrefix.count)
        return bare.prefix(1).lowercased() + bare.dropFirst()
    }

    /// Finds the case whose short name or raw value is `text`.
    init?(name text: String) {
        guard let match = Self.allCases.first(where: { $0.name == text || $0.rawValue == text }) else {
            return nil
        }
        self = match
    }

    /// The short name.
    public var description: String { name }

    /// Decodes the short name or the iOS constant.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(name: text) else {
            let known = Self.allCases.map(\.name).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "unknown \(Self.self) \"\(text)\"; expected one of \(known)")
        }
        self = value
    }

    /// Encodes the short name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
