/// A parsed JSON value, as the headless demo reads commands on stdin.
///
/// Numbers keep their literal text, so a command's `id` is echoed exactly as
/// given (`1.50` stays `1.50`), and `true` is never confused with `1` (which
/// Foundation's `NSNumber` bridging does on Linux). Objects keep their keys
/// in order, duplicates included, so a command with a repeated field can be
/// refused instead of silently using one of them.
enum JSONValue: Sendable {
    case null
    case bool(Bool)
    /// The number's text, checked against JSON's number grammar.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// Whether this is a string, number, boolean or null.
    var isScalar: Bool {
        switch self {
        case .null, .bool, .number, .string: true
        case .array, .object: false
        }
    }

    /// The value as compact JSON text (numbers as given).
    var json: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let text): text
        case .string(let s): JSONLine.quote(s)
        case .array(let items): "[" + items.map(\.json).joined(separator: ",") + "]"
        case .object(let fields): "{" + fields.map { JSONLine.quote($0.key) + ":" + $0.value.json }.joined(separator: ",") + "}"
        }
    }

    /// The value's JSON type, for error messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Parses one JSON text (RFC 8259), surrounded by optional whitespace.
    static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8))
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }
}

/// Why a line is not JSON, with the byte offset.
struct JSONParseError: Error, CustomStringConvertible {
    let message: String
    let offset: Int
    var description: String { "\(message) at byte \(offset)" }
}

private struct JSONParser {
    let bytes: [UInt8]
    var index = 0

    /// Deeper nesting than any command needs is refused rather than recursed into.
    static let maxDepth = 32

    func failure(_ message: String) -> JSONParseError { JSONParseError(message: message, offset: index) }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { index += 1 }
    }

    mutating func expect(_ literal: String) throws(JSONParseError) {
        let start = index
        for b in literal.utf8 {
            guard peek == b else {
                index = start
                throw failure("expected a value (an object, array, string, number, true, false or null)")
            }
            index += 1
        }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < Self.maxDepth else { throw failure("nested more than \(Self.maxDepth) levels deep") }
        guard let b = peek else { throw failure("unexpected end of input, expected a value") }
        switch b {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure("expected a value (an object, array, string, number, true, false or null)")
        }
    }

    mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1  // {
        var fields: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return .object(fields)
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw failure("expected a quoted key") }
            let key = try string()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw failure("expected ':' after key \"\(key)\"") }
            index += 1
            skipWhitespace()
            fields.append((key, try value(depth: depth + 1)))
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(fields)
            default: throw failure("expected ',' or '}' in an object")
            }
        }
    }

    mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1  // [
        var items: [JSONValue] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            default: throw failure("expected ',' or ']' in an array")
            }
        }
    }

    mutating func number() throws(JSONParseError) -> String {
        let start = index
        func digits(_ p: inout JSONParser) -> Int {
            let from = p.index
            while let b = p.peek, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { p.index += 1 }
            return p.index - from
        }
        if peek == UInt8(ascii: "-") { index += 1 }
        if peek == UInt8(ascii: "0") {
            index += 1
        } else if digits(&self) == 0 {
            throw failure("invalid number")
        }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw failure("invalid number: digits must follow '.'") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw failure("invalid number: digits must follow the exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func string() throws(JSONParseError) -> String {
        index += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard let b = peek else { throw failure("unterminated string") }
            index += 1
            switch b {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let e = peek else { throw failure("unterminated escape") }
                index += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): out.append(contentsOf: try unicodeEscape())
                default: throw failure("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
                }
            case 0..<0x20:
                throw failure("control character in a string (escape it)")
            default:
                out.append(b)
            }
        }
    }

    /// After `\u`: four hex digits, or a surrogate pair; returns UTF-8.
    mutating func unicodeEscape() throws(JSONParseError) -> [UInt8] {
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
            guard peek == UInt8(ascii: "\\") else { throw failure("lone high surrogate in \\u escape") }
            index += 1
            guard peek == UInt8(ascii: "u") else { throw failure("lone high surrogate in \\u escape") }
            index += 1
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("invalid low surrogate in \\u escape") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(code) {
            throw failure("lone low surrogate in \\u escape")
        }
        guard let scalar = Unicode.Scalar(code) else { throw failure("invalid \\u escape") }
        return Array(String(Character(scalar)).utf8)
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let b = peek, let digit = Self.hexValue(b) else { throw failure("\\u needs four hex digits") }
            code = code << 4 | digit
            index += 1
        }
        return code
    }

    static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
