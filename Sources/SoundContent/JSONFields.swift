/// The members of one JSON object of a bank, after the checks every object
/// gets (``BankDecoder/object(_:at:what:required:optional:)``): the first
/// value of each key, in document order.
struct JSONFields {
    /// Where the object is.
    let path: JSONPath
    /// Offset of its `{`.
    let offset: Int
    /// First occurrence of each key, in document order.
    let members: [JSONNode.Member]

    /// The value of `key`, if present.
    subscript(key: String) -> JSONNode? {
        members.first { $0.key == key }?.value
    }
}

extension BankDecoder {
    /// Checks that `node` is an object, reports duplicate keys, keys not in
    /// `required` ∪ `optional` (with the nearest allowed key as a hint) and
    /// missing required keys. `"comment"` (a string) is allowed everywhere,
    /// since JSON has no comments. Returns nil when `node` is not an object.
    ///
    /// `optional == nil` allows any key: the object is keyed by names.
    mutating func object(
        _ node: JSONNode, at path: JSONPath, what: String, required: [String] = [], optional: [String]? = []
    ) -> JSONFields? {
        guard case .object(let all) = node.value else {
            report(path, at: node.offset, "expected \(what) (an object) but found \(node.typeName)")
            return nil
        }
        var firstOffsets: [String: Int] = [:]
        var members: [JSONNode.Member] = []
        for member in all {
            if let first = firstOffsets[member.key] {
                report(path.key(member.key), at: member.keyOffset,
                       "duplicate key '\(member.key)' (first at \(location(first))); only one is allowed")
                continue
            }
            firstOffsets[member.key] = member.keyOffset
            if let optional, !required.contains(member.key), !optional.contains(member.key) {
                if member.key == "comment", case .string = member.value.value { continue }
                let allowed = required + optional
                let hint = NameSuggestion.closest(to: member.key, among: allowed).map { " (did you mean '\($0)'?)" } ?? ""
                report(path.key(member.key), at: member.keyOffset,
                       "unknown key '\(member.key)' in \(what)\(hint); allowed keys: \(allowed.joined(separator: ", "))")
                continue
            }
            members.append(member)
        }
        for key in required where firstOffsets[key] == nil {
            report(path.key(key), at: node.offset, "\(what) is missing the required key '\(key)'")
        }
        return JSONFields(path: path, offset: node.offset, members: members)
    }

    // MARK: - Values of nodes

    /// `node` as a string, or nil (reported) when it is not one.
    mutating func stringValue(_ node: JSONNode, at path: JSONPath) -> String? {
        guard case .string(let text) = node.value else {
            report(path, at: node.offset, "expected a string but found \(node.typeName)")
            return nil
        }
        return text
    }

    /// `node` as a name: a non-empty string.
    mutating func nameValue(_ node: JSONNode, at path: JSONPath) -> String? {
        guard let text = stringValue(node, at: path) else { return nil }
        guard !text.isEmpty else {
            report(path, at: node.offset, "a name may not be empty")
            return nil
        }
        return text
    }

    /// `node` as a finite number in `range`, or nil (reported).
    mutating func numberValue(_ node: JSONNode, at path: JSONPath, range: ClosedRange<Double>, unit: String)
        -> Double?
    {
        guard case .number(let number) = node.value else {
            report(path, at: node.offset, "expected a number (\(unit)) but found \(node.typeName)")
            return nil
        }
        guard number.isFinite else {
            report(path, at: node.offset, "the number is too large to be finite")
            return nil
        }
        guard range.contains(number) else {
            report(path, at: node.offset,
                   "\(number.formatted) \(unit) is out of range \(range.lowerBound.formatted)…\(range.upperBound.formatted)")
            return nil
        }
        return number
    }

    /// The elements of a list, or nil (reported) when `node` is not a list.
    mutating func listValue(_ node: JSONNode, at path: JSONPath, what: String) -> [JSONNode]? {
        guard case .array(let elements) = node.value else {
            report(path, at: node.offset, "expected \(what) (a list) but found \(node.typeName)")
            return nil
        }
        return elements
    }

    // MARK: - Fields

    /// The string at `key`, or nil when absent or not a string (reported).
    mutating func string(_ fields: JSONFields, _ key: String) -> String? {
        fields[key].flatMap { stringValue($0, at: fields.path.key(key)) }
    }

    /// The name at `key`, or nil when absent or not a non-empty string (reported).
    mutating func name(_ fields: JSONFields, _ key: String) -> String? {
        fields[key].flatMap { nameValue($0, at: fields.path.key(key)) }
    }

    /// The number at `key`, `fallback` when absent or invalid (reported).
    mutating func number(
        _ fields: JSONFields, _ key: String, default fallback: Double, range: ClosedRange<Double>, unit: String
    ) -> Double {
        fields[key].flatMap { numberValue($0, at: fields.path.key(key), range: range, unit: unit) } ?? fallback
    }

    /// A volume in dB at `key` (-96…+24 unless `range` narrows it).
    mutating func decibels(_ fields: JSONFields, _ key: String, range: ClosedRange<Double> = BankLimits.volumeDB) -> Double {
        number(fields, key, default: 0, range: range, unit: "dB")
    }

    /// A pitch offset in cents at `key` (-2400…+2400).
    mutating func cents(_ fields: JSONFields, _ key: String) -> Double {
        number(fields, key, default: 0, range: BankLimits.pitchCents, unit: "cents")
    }

    /// A whole number at `key` in `range`.
    mutating func integer(_ fields: JSONFields, _ key: String, default fallback: Int, range: ClosedRange<Int>) -> Int {
        guard let node = fields[key] else { return fallback }
        let path = fields.path.key(key)
        guard let number = numberValue(node, at: path, range: Double(range.lowerBound)...Double(range.upperBound),
                                       unit: "") else { return fallback }
        guard number.rounded() == number else {
            report(path, at: node.offset, "expected a whole number but found \(number.formatted)")
            return fallback
        }
        return Int(number)
    }

    /// A time in seconds at `key`: 0…3600 (the engine's one rule for times,
    /// ``BankLimits/seconds``), zero when absent.
    mutating func seconds(_ fields: JSONFields, _ key: String) -> Duration {
        .seconds(number(fields, key, default: 0, range: BankLimits.seconds, unit: "seconds"))
    }

    /// The boolean at `key`, `fallback` when absent or not a boolean (reported).
    mutating func bool(_ fields: JSONFields, _ key: String, default fallback: Bool) -> Bool {
        guard let node = fields[key] else { return fallback }
        guard case .bool(let value) = node.value else {
            report(fields.path.key(key), at: node.offset, "expected true or false but found \(node.typeName)")
            return fallback
        }
        return value
    }

    /// One of a fixed set of words at `key`.
    mutating func choice<Choice: RawRepresentable<String> & CaseIterable>(
        _ fields: JSONFields, _ key: String, default fallback: Choice
    ) -> Choice {
        guard let text = string(fields, key) else { return fallback }
        if let value = Choice(rawValue: text) { return value }
        let words = Choice.allCases.map(\.rawValue)
        let hint = NameSuggestion.closest(to: text, among: words).map { " (did you mean '\($0)'?)" } ?? ""
        report(fields.path.key(key), at: fields[key]!.offset,
               "'\(text)' is not one of \(words.joined(separator: ", "))\(hint)")
        return fallback
    }

    /// The names in the list at `key`, with the path of each (invalid
    /// elements reported and skipped).
    mutating func names(_ fields: JSONFields, _ key: String) -> [(name: String, path: JSONPath, offset: Int)] {
        guard let node = fields[key] else { return [] }
        let path = fields.path.key(key)
        guard let elements = listValue(node, at: path, what: "a list of names") else { return [] }
        return elements.enumerated().compactMap { index, element in
            nameValue(element, at: path.index(index)).map { ($0, path.index(index), element.offset) }
        }
    }
}

extension Double {
    /// `3` rather than `3.0`, for messages.
    var formatted: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
