/// A strict JSON reader (RFC 8259) for hand-written bank files.
///
/// Written here rather than using Foundation's `JSONSerialization` because a
/// designer needs a line and column for a syntax error, and because duplicate
/// keys must survive parsing to be reported (`JSONSerialization` keeps one
/// silently). It never traps on any input: nesting is capped at
/// ``maxDepth``, and every read is bounds-checked.
struct JSONReader {
    /// Deepest nesting of lists and objects accepted. A bank needs about 8;
    /// the cap keeps the recursive descent far from the stack limit.
    static let maxDepth = 64

    /// Why the text is not JSON, and where.
    struct SyntaxError: Error, Sendable {
        var offset: Int
        var message: String
        /// The value being read when it happened (`$.sounds.step`).
        var path: JSONPath
    }

    private let bytes: [UInt8]
    private var position = 0

    /// Parses `bytes` as one JSON document (a UTF-8 byte-order mark is skipped).
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONNode {
        var reader = JSONReader(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.position = 3 }
        reader.skipWhitespace()
        guard reader.position < bytes.count else {
            throw SyntaxError(offset: reader.position, message: "the file is empty (expected a JSON object)", path: .root)
        }
        let root = try reader.value(path: .root, depth: 0)
        reader.skipWhitespace()
        if reader.position < bytes.count {
            throw reader.error("unexpected \(reader.describeCurrent()) after the end of the top-level value", path: .root)
        }
        return root
    }

    /// 1-based line and column (in characters) of `offset` in `bytes`.
    static func location(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // count characters, not UTF-8 continuation bytes
                column += 1
            }
        }
        return (line, column)
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    // MARK: - Values

    private mutating func value(path: JSONPath, depth: Int) throws(SyntaxError) -> JSONNode {
        skipWhitespace()
        let start = position
        guard let byte = peek() else { throw error("the file ends where a value was expected", path: path) }
        switch byte {
        case UInt8(ascii: "{"): return try object(path: path, depth: depth + 1)
        case UInt8(ascii: "["): return try array(path: path, depth: depth + 1)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try string(path: path)), offset: start)
        case UInt8(ascii: "t"): try literal("true", path: path); return JSONNode(value: .bool(true), offset: start)
        case UInt8(ascii: "f"): try literal("false", path: path); return JSONNode(value: .bool(false), offset: start)
        case UInt8(ascii: "n"): try literal("null", path: path); return JSONNode(value: .null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try number(path: path)), offset: start)
        default:
            throw error("expected a value but found \(describeCurrent())", path: path)
        }
    }

    private mutating func object(path: JSONPath, depth: Int) throws(SyntaxError) -> JSONNode {
        let start = position
        try checkDepth(depth, path: path)
        position += 1  // {
        var members: [JSONNode.Member] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return JSONNode(value: .object(members), offset: start)
        }
        while true {
            skipWhitespace()
            let keyOffset = position
            guard peek() == UInt8(ascii: "\"") else {
                throw error("expected a quoted key but found \(describeCurrent())", path: path)
            }
            let key = try string(path: path)
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw error("expected ':' after the key \"\(key)\" but found \(describeCurrent())", path: path)
            }
            position += 1
            let child = try value(path: path.key(key), depth: depth)
            members.append(JSONNode.Member(key: key, keyOffset: keyOffset, value: child))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return JSONNode(value: .object(members), offset: start)
            default:
                throw error("expected ',' or '}' after the member \"\(key)\" but found \(describeCurrent())", path: path)
            }
        }
    }

    private mutating func array(path: JSONPath, depth: Int) throws(SyntaxError) -> JSONNode {
        let start = position
        try checkDepth(depth, path: path)
        position += 1  // [
        var elements: [JSONNode] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return JSONNode(value: .array(elements), offset: start)
        }
        while true {
            elements.append(try value(path: path.index(elements.count), depth: depth))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return JSONNode(value: .array(elements), offset: start)
            default:
                throw error("expected ',' or ']' in the list but found \(describeCurrent())", path: path)
            }
        }
    }

    private func checkDepth(_ depth: Int, path: JSONPath) throws(SyntaxError) {
        guard depth <= Self.maxDepth else {
            throw error("lists and objects are nested deeper than \(Self.maxDepth) levels", path: path)
        }
    }

    // MARK: - Scalars

    private mutating func literal(_ word: StaticString, path: JSONPath) throws(SyntaxError) {
        let expected = word.withUTF8Buffer { Array($0) }
        guard bytes[position...].starts(with: expected) else {
            throw error("expected a value but found \(describeCurrent())", path: path)
        }
        position += expected.count
    }

    private mutating func number(path: JSONPath) throws(SyntaxError) -> Double {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), isDigit(first) else {
            throw error("a number needs a digit after '-'", path: path)
        }
        position += 1
        if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
            throw error("numbers may not have leading zeros", path: path)
        }
        skipDigits()
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard let d = peek(), isDigit(d) else { throw error("a number needs digits after '.'", path: path) }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let d = peek(), isDigit(d) else { throw error("a number needs digits in its exponent", path: path) }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        // The grammar above is a subset of what Double(_:) accepts, so this
        // only fails for pathological input; treat that as out of range.
        return Double(text) ?? .infinity
    }

    private mutating func string(path: JSONPath) throws(SyntaxError) -> String {
        let start = position
        position += 1  // opening quote
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek() else {
                throw SyntaxError(offset: start, message: "a string starting here is never closed", path: path)
            }
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw SyntaxError(offset: start, message: "a string contains bytes that are not UTF-8", path: path)
                }
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &utf8, path: path)
            case 0..<0x20:
                position -= 1
                throw error("a string contains a raw control character (write it as an escape, e.g. \\n)", path: path)
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8], path: JSONPath) throws(SyntaxError) {
        guard let byte = peek() else { throw error("the file ends inside an escape", path: path) }
        position += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let plain = simple[byte] {
            utf8.append(plain)
            return
        }
        guard byte == UInt8(ascii: "u") else {
            position -= 1
            throw error("unknown escape '\\\(describeCurrent())'", path: path)
        }
        var scalar = try hex4(path: path)
        if (0xD800..<0xDC00).contains(scalar) {
            // A high surrogate must be followed by \u and a low surrogate.
            guard bytes[position...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                throw error("a \\u escape holds half of a surrogate pair", path: path)
            }
            position += 2
            let low = try hex4(path: path)
            guard (0xDC00..<0xE000).contains(low) else {
                throw error("a \\u escape holds half of a surrogate pair", path: path)
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
            throw error("a \\u escape holds half of a surrogate pair", path: path)
        }
        guard let unicode = Unicode.Scalar(scalar) else {
            throw error("a \\u escape is not a Unicode character", path: path)
        }
        utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
    }

    private mutating func hex4(path: JSONPath) throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = hexValue(byte) else {
                throw error("a \\u escape needs four hex digits", path: path)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    // MARK: - Bytes

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { position += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The current byte as a designer would read it: `'x'`, `end of file`, `byte 0xFF`.
    private func describeCurrent() -> String {
        guard let byte = peek() else { return "the end of the file" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return hexByte(byte)
    }

    private func hexByte(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
    }

    private func error(_ message: String, path: JSONPath) -> SyntaxError {
        SyntaxError(offset: position, message: message, path: path)
    }
}
