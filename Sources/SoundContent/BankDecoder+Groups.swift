extension BankDecoder {
    /// A `"states"` entry: a state group.
    mutating func stateGroup(_ name: String, _ node: JSONNode, at path: JSONPath) -> BankStateGroup? {
        guard
            let fields = object(node, at: path, what: "state group '\(name)'", required: ["states"],
                                optional: ["default", "busVolumes", "transition"])
        else { return nil }
        let states = groupValues(fields, "states")
        let initial = defaultValue(fields, among: states)
        var busVolumes: [String: [String: Double]] = [:]
        if let node = fields["busVolumes"],
            let perState = object(node, at: path.key("busVolumes"), what: "busVolumes (state → bus → dB)",
                                  optional: nil)
        {
            for member in perState.members {
                let statePath = perState.path.key(member.key)
                if !states.isEmpty, !states.contains(member.key) {
                    report(statePath, at: member.keyOffset, "'\(member.key)' is not one of the group's states "
                           + "(\(states.joined(separator: ", ")))")
                }
                guard let buses = object(member.value, at: statePath, what: "bus volumes (bus → dB)", optional: nil)
                else { continue }
                for bus in buses.members {
                    refer(.bus, bus.key, at: buses.path.key(bus.key), offset: bus.keyOffset)
                    busVolumes[member.key, default: [:]][bus.key] = decibels(buses, bus.key)
                }
            }
        }
        let transition = seconds(fields, "transition")
        guard let initial else { return nil }
        return BankStateGroup(name: name, states: states, defaultState: initial, busVolumes: busVolumes,
                              transition: transition)
    }

    /// A `"switches"` entry: a switch group.
    mutating func switchGroup(_ name: String, _ node: JSONNode, at path: JSONPath) -> BankSwitchGroup? {
        guard
            let fields = object(node, at: path, what: "switch group '\(name)'", required: ["values"],
                                optional: ["default"])
        else { return nil }
        let values = groupValues(fields, "values")
        guard let initial = defaultValue(fields, among: values) else { return nil }
        return BankSwitchGroup(name: name, values: values, defaultValue: initial)
    }

    /// A group's list of states or values: at least one, no two with the same
    /// ID (names differing only in case count as the same).
    private mutating func groupValues(_ fields: JSONFields, _ key: String) -> [String] {
        let listed = names(fields, key)
        if case .array(let elements)? = fields[key]?.value, elements.isEmpty {
            report(fields.path.key(key), at: fields[key]!.offset, "a group needs at least one entry")
        }
        var seen: [ContentID: String] = [:]
        var values: [String] = []
        for entry in listed {
            if let other = seen[ContentID(entry.name)] {
                report(entry.path, at: entry.offset, other == entry.name
                       ? "'\(entry.name)' is listed twice"
                       : "'\(entry.name)' has the same ID as '\(other)' (\(ContentID(entry.name))); rename one")
                continue
            }
            seen[ContentID(entry.name)] = entry.name
            values.append(entry.name)
        }
        return values
    }

    /// The group's `"default"`, which must be one of `values`; the first
    /// value when absent. Nil when there is no valid default.
    private mutating func defaultValue(_ fields: JSONFields, among values: [String]) -> String? {
        guard let node = fields["default"] else { return values.first }
        guard let value = name(fields, "default") else { return nil }
        guard values.contains(value) else {
            if !values.isEmpty {
                report(fields.path.key("default"), at: node.offset,
                       "default '\(value)' is not in the group (\(values.joined(separator: ", ")))")
            }
            return nil
        }
        return value
    }
}
