/// Turns the bytes a terminal sends into ``Key``s: ASCII and UTF-8
/// characters, control keys, and the `ESC [ …` (CSI) and `ESC O …` (SS3)
/// sequences of xterm, VT100, tmux and the Linux console.
///
/// Bytes may arrive split anywhere: an incomplete sequence waits for the
/// next ``decode(_:)``. A lone `ESC` cannot be told from the start of a
/// sequence until time passes: when your poll times out with
/// ``hasPending`` true, call ``flush()`` to take it as ``Key/escape``.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// A decoder with nothing pending.
    public init() {}

    /// Whether bytes are waiting for the rest of a sequence.
    public var hasPending: Bool { !pending.isEmpty }

    /// The keys `bytes` complete, in order.
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.key(at: index, in: pending) else { break }
            keys.append(key)
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// Takes whatever is pending as keys now: a lone `ESC` becomes
    /// ``Key/escape``, an unfinished sequence ``Key/unknown(_:)``.
    public mutating func flush() -> [Key] {
        defer { pending.removeAll() }
        guard !pending.isEmpty else { return [] }
        return pending == [0x1B] ? [.escape] : [.unknown(pending)]
    }

    /// The key that starts at `index` and how many bytes it takes; nil when incomplete.
    static func key(at index: Int, in bytes: [UInt8]) -> (Key, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x1B: return escapeSequence(at: index, in: bytes)
        case 0x09: return (.tab, 1)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(byte - 1 + UInt8(ascii: "a")))), 1)
        case 0x00, 0x1C...0x1F: return (.unknown([byte]), 1)
        case 0x20..<0x80: return (.character(Character(Unicode.Scalar(byte))), 1)
        default: return utf8Character(at: index, in: bytes)
        }
    }

    private static func utf8Character(at index: Int, in bytes: [UInt8]) -> (Key, Int)? {
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard length > 1 else { return (.unknown([lead]), 1) }  // a stray continuation byte
        guard index + length <= bytes.count else { return nil }
        let text = String(decoding: bytes[index..<index + length], as: UTF8.self)
        guard text.count == 1, let character = text.first, character != "\u{FFFD}" else {
            return (.unknown(Array(bytes[index..<index + length])), length)
        }
        return (.character(character), length)
    }

    private static func escapeSequence(at index: Int, in bytes: [UInt8]) -> (Key, Int)? {
        guard index + 1 < bytes.count else { return nil }  // a lone ESC so far: wait, or flush()
        let second = bytes[index + 1]
        if second == UInt8(ascii: "O") {
            guard index + 2 < bytes.count else { return nil }
            return (letterKey(bytes[index + 2]) ?? .unknown(Array(bytes[index...index + 2])), 3)
        }
        // ESC then anything else (Alt-key, ESC ESC): a lone Escape, then the rest on the next round.
        guard second == UInt8(ascii: "[") else { return (.escape, 1) }
        // CSI: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, one final byte 0x40–0x7E.
        var end = index + 2
        while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return nil }
        let final = bytes[end]
        let length = end - index + 1
        guard (0x40...0x7E).contains(final) else { return (.unknown(Array(bytes[index..<index + length])), length) }
        let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        let first = Int(parameters.split(separator: ";").first ?? "") ?? 1
        let key = final == UInt8(ascii: "~") ? tildeKey(first) : letterKey(final)
        return (key ?? .unknown(Array(bytes[index..<index + length])), length)
    }

    /// The keys of `ESC [ x` and `ESC O x` that end in a letter (arrows, Home,
    /// End, Shift-Tab; F1–F4 as SS3 sends them).
    private static func letterKey(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "Z"): .backTab
        case UInt8(ascii: "P"): .function(1)
        case UInt8(ascii: "Q"): .function(2)
        case UInt8(ascii: "R"): .function(3)
        case UInt8(ascii: "S"): .function(4)
        default: nil
        }
    }

    /// The keys of `ESC [ n ~`.
    private static func tildeKey(_ number: Int) -> Key? {
        switch number {
        case 1, 7: .home
        case 2: .insert
        case 3: .delete
        case 4, 8: .end
        case 5: .pageUp
        case 6: .pageDown
        case 11...15: .function(number - 10)
        case 17...21: .function(number - 11)
        case 23, 24: .function(number - 12)
        default: nil
        }
    }
}
