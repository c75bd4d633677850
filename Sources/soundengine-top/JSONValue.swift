import Foundation

/// Any JSON value, decoded without a schema: the protocol lets new fields
/// appear, and notifications carry fields that differ by name, so the tool
/// reads what it knows by hand and shows the rest as it came.
enum JSONValue: Decodable, Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses one line of JSON text.
    static func parse(_ line: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    var string: String? { if case .string(let s) = self { s } else { nil } }
    var double: Double? { if case .number(let n) = self { n } else { nil } }
    var int: Int? { double.flatMap { $0.isFinite && $0.rounded() == $0 && abs($0) < 1e15 ? Int($0) : nil } }
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    var isNull: Bool { self == .null }

    /// A number, string or bool as the text a person reads (`42`, `player`,
    /// `0.5`); nil for null. Game object and bus IDs may be numbers or names.
    var label: String? {
        switch self {
        case .null: nil
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        case .number: int.map(String.init) ?? double.map { String(format: "%g", $0) }
        case .array, .object: compact
        }
    }

    /// Compact JSON-like text, for showing fields the tool does not know.
    var compact: String {
        switch self {
        case .null: "null"
        case .bool, .number: label ?? ""
        case .string(let s): "\"\(s)\""
        case .array(let items): "[" + items.map(\.compact).joined(separator: ",") + "]"
        case .object(let object):
            "{" + object.keys.sorted().map { "\($0):\(object[$0]?.compact ?? "")" }.joined(separator: ",") + "}"
        }
    }
}
