/// Where a value sits in a bank file, written the way JSONPath writes it:
/// `$.events.Play_Footstep.actions[2].sound`. Keys that are not plain names
/// (spaces, dots, quotes, non-ASCII) are written `$["a key"]` so the path
/// stays unambiguous.
struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// The path as text, starting with `$`.
    private(set) var description: String

    /// The whole document.
    static let root = JSONPath(description: "$")

    /// The member `key` of the object at this path.
    func key(_ key: String) -> JSONPath {
        if !key.isEmpty, key.utf8.allSatisfy(Self.isPlain) {
            return JSONPath(description: description + "." + key)
        }
        var quoted = ""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case _ where scalar.value < 0x20: quoted += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return JSONPath(description: description + "[\"" + quoted + "\"]")
    }

    /// The element `index` of the array at this path.
    func index(_ index: Int) -> JSONPath {
        JSONPath(description: description + "[\(index)]")
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
