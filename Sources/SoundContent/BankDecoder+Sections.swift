extension BankDecoder {
    /// The top-level keys of a bank.
    static let sectionKeys = ["sounds", "events", "containers", "buses", "attenuations", "rtpcs", "states", "switches"]

    /// The definitions in section `key` of the bank (an object keyed by
    /// name), each recorded as a definition of `kind`.
    mutating func entries(_ root: JSONFields, _ key: String, kind: BankReference.Kind)
        -> [(name: String, node: JSONNode, path: JSONPath)]
    {
        guard let node = root[key] else { return [] }
        let path = root.path.key(key)
        guard let section = object(node, at: path, what: "the '\(key)' section", optional: nil) else { return [] }
        var result: [(name: String, node: JSONNode, path: JSONPath)] = []
        for member in section.members {
            let entryPath = path.key(member.key)
            guard !member.key.isEmpty else {
                report(entryPath, at: member.keyOffset, "a name may not be empty")
                continue
            }
            define(kind, member.key, at: entryPath, offset: member.keyOffset)
            result.append((member.key, member.value, entryPath))
        }
        return result
    }

    /// Reads the name at `key` and records it as a reference of `kind`.
    @discardableResult
    mutating func reference(
        _ fields: JSONFields, _ key: String, as kind: BankReference.Kind, edge: BankReference.Edge? = nil
    ) -> String? {
        guard let value = name(fields, key), let node = fields[key] else { return nil }
        refer(kind, value, at: fields.path.key(key), offset: node.offset, edge: edge)
        return value
    }

    /// The sound or container an action or binding acts on: exactly one of
    /// `"sound"` and `"container"`.
    mutating func objectTarget(_ fields: JSONFields, edge: BankReference.Edge? = nil) -> String? {
        switch (fields["sound"], fields["container"]) {
        case (.some, .some):
            report(fields.path.key("container"), at: fields.offset, "give either 'sound' or 'container', not both")
            return nil
        case (.some, nil): return reference(fields, "sound", as: .sound, edge: edge)
        case (nil, .some): return reference(fields, "container", as: .container, edge: edge)
        case (nil, nil):
            report(fields.path.key("sound"), at: fields.offset, "missing the required key 'sound' (or 'container')")
            return nil
        }
    }

    /// The `"type"` word of an object whose allowed keys depend on it, read
    /// before the object's keys are checked. Nil (reported) when absent or
    /// not one of `Kind`'s words; the object is then checked against every
    /// key any type allows, so other mistakes are still found.
    mutating func typeWord<Kind: RawRepresentable<String> & CaseIterable>(
        _ node: JSONNode, at path: JSONPath, as _: Kind.Type, key: String = "type"
    ) -> Kind? {
        guard case .object(let members) = node.value, let member = members.first(where: { $0.key == key }) else {
            return nil  // not an object, or no type: object() reports it
        }
        guard let word = stringValue(member.value, at: path.key(key)) else { return nil }
        if let kind = Kind(rawValue: word) { return kind }
        let words = Kind.allCases.map(\.rawValue)
        let hint = NameSuggestion.closest(to: word, among: words).map { " (did you mean '\($0)'?)" } ?? ""
        report(path.key(key), at: member.value.offset,
               "unknown \(key) '\(word)'\(hint); choose one of \(words.joined(separator: ", "))")
        return nil
    }
}
