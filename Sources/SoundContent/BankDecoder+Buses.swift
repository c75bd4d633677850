extension BankDecoder {
    /// A `"buses"` entry.
    mutating func bus(_ name: String, _ node: JSONNode, at path: JSONPath) -> BankBus? {
        guard
            let fields = object(node, at: path, what: "bus '\(name)'",
                                optional: ["parent", "volume", "muteForBackgroundMusic", "ducking", "aux", "effects"])
        else { return nil }
        if options.existingBuses.contains(name) || name == "master" {
            report(path, at: fields.offset, "bus '\(name)' exists already (the master bus or an earlier bank's bus)")
        }
        return BankBus(
            name: name,
            parent: reference(fields, "parent", as: .bus, edge: .busParent(bus: name)) ?? "master",
            volumeDB: decibels(fields, "volume"),
            muteForBackgroundMusic: bool(fields, "muteForBackgroundMusic", default: false),
            ducking: ducking(fields, owner: name),
            aux: bool(fields, "aux", default: false), effects: effects(fields, of: name))
    }

    /// A bus's `"ducking"` rules.
    private mutating func ducking(_ fields: JSONFields, owner: String) -> [BankDucking] {
        guard let node = fields["ducking"] else { return [] }
        let path = fields.path.key("ducking")
        guard let elements = listValue(node, at: path, what: "ducking rules") else { return [] }
        return elements.enumerated().compactMap { index, element in
            guard
                let rule = object(element, at: path.index(index), what: "a ducking rule",
                                  required: ["bus", "volume"], optional: ["attack", "release"])
            else { return nil }
            let bus = reference(rule, "bus", as: .bus)
            if bus == owner, let busNode = rule["bus"] {
                report(rule.path.key("bus"), at: busNode.offset, "bus '\(owner)' cannot duck itself")
            }
            return BankDucking(bus: bus ?? "", volumeDB: decibels(rule, "volume", range: BankLimits.duckingDB),
                               attack: seconds(rule, "attack"), release: seconds(rule, "release"))
        }
    }
}
