extension BankDecoder {
    /// The words of a container's `"type"`.
    enum ContainerType: String, CaseIterable {
        case random, sequence, `switch`, blend

        /// Keys only this type allows (besides type, volume, pitch).
        var keys: (required: [String], optional: [String]) {
            switch self {
            case .random: (["children"], ["weights", "avoidRepeat"])
            case .sequence: (["children"], ["loop"])
            case .switch: (["group", "cases"], ["default"])
            case .blend: (["children"], [])
            }
        }
    }

    /// A `"containers"` entry.
    mutating func container(_ name: String, _ node: JSONNode, at path: JSONPath) -> BankContainer? {
        let type = typeWord(node, at: path, as: ContainerType.self)
        let common = ["volume", "pitch"]
        let keys: (required: [String], optional: [String]) = type?.keys ?? ([], ContainerType.allCases.flatMap { $0.keys.required + $0.keys.optional })
        guard
            let fields = object(node, at: path, what: "\(type.map { "\($0.rawValue) " } ?? "")container '\(name)'",
                                required: ["type"] + keys.required, optional: common + keys.optional),
            let type
        else { return nil }
        let edge = BankReference.Edge.containerChild(container: name)
        var children: [String] = []
        var switchChildren: [String: String] = [:]
        let kind: BankContainer.Kind
        if type == .switch {
            let group = reference(fields, "group", as: .switchGroup)
            for (value, child, casePath, offset) in cases(fields) {
                if let group { refer(.switchValue(group: group), value, at: casePath, offset: offset) }
                refer(.object, child, at: casePath, offset: offset, edge: edge)
                switchChildren[value] = child
                if !children.contains(child) { children.append(child) }
            }
            let fallback = reference(fields, "default", as: .object, edge: edge)
            if let fallback, !children.contains(fallback) { children.append(fallback) }
            kind = .switchGroup(group: group ?? "", defaultChild: fallback)
        } else {
            let listed = names(fields, "children")
            for child in listed { refer(.object, child.name, at: child.path, offset: child.offset, edge: edge) }
            children = listed.map { $0.name }
            if isEmptyList(fields["children"]) {
                report(path.key("children"), at: fields["children"]!.offset, "a container needs at least one child")
            }
            switch type {
            case .random:
                kind = .random(weights: weights(fields, count: children.count),
                               avoidRepeatCount: avoidRepeat(fields, count: children.count))
            case .sequence: kind = .sequence(loop: bool(fields, "loop", default: false))
            default: kind = .blend
            }
        }
        return BankContainer(name: name, kind: kind, children: children, switchChildren: switchChildren,
                             volumeDB: decibels(fields, "volume"), pitchCents: cents(fields, "pitch"))
    }

    private func isEmptyList(_ node: JSONNode?) -> Bool {
        if case .array(let elements)? = node?.value { return elements.isEmpty }
        return false
    }

    /// A switch container's `"cases"`: switch value → child name.
    private mutating func cases(_ fields: JSONFields) -> [(String, String, JSONPath, Int)] {
        guard let node = fields["cases"],
            let cases = object(node, at: fields.path.key("cases"), what: "the cases (switch value → child)",
                               optional: nil)
        else { return [] }
        if cases.members.isEmpty {
            report(cases.path, at: node.offset, "a switch container needs at least one case")
        }
        return cases.members.compactMap { member in
            let path = cases.path.key(member.key)
            guard let child = nameValue(member.value, at: path) else { return nil }
            return (member.key, child, path, member.value.offset)
        }
    }

    /// A random container's `"weights"`: one per child, ≥ 0, not all zero;
    /// all 1 when absent.
    private mutating func weights(_ fields: JSONFields, count: Int) -> [Double] {
        let even = [Double](repeating: 1, count: count)
        guard let node = fields["weights"] else { return even }
        let path = fields.path.key("weights")
        guard let elements = listValue(node, at: path, what: "weights") else { return even }
        guard elements.count == count else {
            report(path, at: node.offset, "\(elements.count) weight(s) for \(count) child(ren); give one per child")
            return even
        }
        let weights = elements.enumerated().map { index, element in
            numberValue(element, at: path.index(index), range: BankLimits.weight, unit: "(weight)") ?? 1
        }
        if !weights.isEmpty, weights.allSatisfy({ $0 == 0 }) {
            report(path, at: node.offset, "every weight is 0, so nothing could be picked")
        }
        return weights
    }

    /// A random container's `"avoidRepeat"`: 0…children − 1.
    private mutating func avoidRepeat(_ fields: JSONFields, count: Int) -> Int {
        let value = integer(fields, "avoidRepeat", default: 0, range: BankLimits.avoidRepeat)
        if value > 0, value >= count, let node = fields["avoidRepeat"] {
            report(fields.path.key("avoidRepeat"), at: node.offset,
                   "avoidRepeat \(value) must be less than the number of children (\(count)), "
                   + "or no child could ever be picked")
            return 0
        }
        return value
    }
}
