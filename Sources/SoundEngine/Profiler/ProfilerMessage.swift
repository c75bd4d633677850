import Foundation
import SoundSession

/// One line the link sends: a JSON object whose keys keep their order
/// (`type` and `t` first), built as text (docs/profiling.md lists every field).
struct ProfilerMessage {
    private(set) var text: String

    /// A message of `type` at `t` seconds since initialize.
    init(_ type: String, t: Double) {
        text = "{\"type\":\(Self.string(type)),\"t\":\(Self.number((t * 1000).rounded() / 1000))"
    }

    /// Adds `key` with `json`, already JSON text.
    mutating func add(_ key: String, json: String) {
        text += "," + Self.string(key) + ":" + json
    }

    /// The finished line (without its `\n`).
    var line: String { text + "}" }

    // MARK: JSON values as text

    /// A JSON string.
    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0..<0x20: out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A JSON number, or `null` for NaN and infinities (JSON has neither).
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    static func bool(_ value: Bool) -> String { value ? "true" : "false" }

    /// `[a,b,…]` of JSON texts.
    static func array(_ items: some Sequence<String>) -> String { "[" + items.joined(separator: ",") + "]" }

    /// `{"k":v,…}` of JSON texts, in the order given.
    static func object(_ fields: KeyValuePairs<String, String>) -> String {
        object(fields.map { ($0.key, $0.value) })
    }

    /// `{…}` of `fields` in their order (values already JSON).
    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// `{"portType","portName","uid"}`, as in the demo's lines.
    static func port(_ p: PortDescription) -> String {
        object(["portType": string(p.portType.rawValue), "portName": string(p.portName), "uid": string(p.uid)])
    }

    /// `{"outputs":[port…],"inputs":[port…]}`.
    static func route(_ r: RouteDescription) -> String {
        object(["outputs": array(r.outputs.map(port)), "inputs": array(r.inputs.map(port))])
    }
}
