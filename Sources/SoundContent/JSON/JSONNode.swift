/// A parsed JSON value and the byte offset where it starts, so that problems
/// found later (a wrong type, an unknown name) can be reported in document
/// order and duplicate keys can say where the first one was.
struct JSONNode: Sendable {
    /// The value's shape.
    indirect enum Value: Sendable {
        case null
        case bool(Bool)
        /// Every JSON number, as the nearest `Double` (`1e999` becomes
        /// infinity, which the bank checks refuse).
        case number(Double)
        case string(String)
        case array([JSONNode])
        /// Members in document order, duplicates kept: JSON text may repeat a
        /// key, and a hand-written bank that does so is almost always a
        /// copy-paste mistake the designer should hear about.
        case object([Member])
    }

    /// One `"key": value` of an object.
    struct Member: Sendable {
        var key: String
        /// Offset of the key's opening quote.
        var keyOffset: Int
        var value: JSONNode
    }

    var value: Value
    /// Offset of the value's first byte in the file.
    var offset: Int

    /// The type's name as a designer would say it, for "expected … but found …".
    var typeName: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}
