/// What a ``ServerIndex`` numbers: a sink input, a client.
package protocol ServerObjectKind: Sendable {
    /// The word an index of this kind prints with, e.g. `"stream"`.
    static var label: String { get }
}

/// The index the sound server gives one of its objects (a PulseAudio
/// `uint32_t` index). The kind keeps stream and client indices apart.
package struct ServerIndex<Kind: ServerObjectKind>: RawRepresentable, Hashable, Sendable, Codable, Comparable,
    CustomStringConvertible, ExpressibleByIntegerLiteral
{
    /// The server's index.
    package var rawValue: UInt32

    /// Creates an index.
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Creates an index from a literal.
    package init(integerLiteral value: UInt32) { self.rawValue = value }

    /// Orders by index.
    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The kind and the index, e.g. `stream 7`.
    package var description: String { "\(Kind.label) \(rawValue)" }
}
