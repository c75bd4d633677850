extension BankDecoder {
    /// A `"sounds"` entry.
    mutating func sound(_ name: String, _ node: JSONNode, at path: JSONPath) -> BankSound? {
        guard
            let fields = object(
                node, at: path, what: "sound '\(name)'", required: ["file"],
                optional: ["stream", "loop", "volume", "pitch", "bus", "attenuation", "priority", "virtualBehavior",
                           "markers", "lfe", "auxSends"])
        else { return nil }
        var file = ""
        if let written = string(fields, "file"), let fileNode = fields["file"] {
            switch BankFilePath.resolve(written, in: folder, options: options) {
            case .success(let resolved): file = resolved
            case .failure(let refusal): report(path.key("file"), at: fileNode.offset, refusal.reason)
            }
        }
        return BankSound(
            name: name, file: file,
            stream: bool(fields, "stream", default: false),
            loop: bool(fields, "loop", default: false),
            volumeDB: decibels(fields, "volume"),
            pitchCents: cents(fields, "pitch"),
            bus: reference(fields, "bus", as: .bus) ?? "master",
            attenuation: reference(fields, "attenuation", as: .attenuation),
            priority: integer(fields, "priority", default: 50, range: BankLimits.priority),
            virtualBehavior: virtualBehavior(fields),
            markers: markers(fields, of: name),
            lfeDB: fields["lfe"] == nil ? nil : decibels(fields, "lfe"),
            auxSends: auxSends(fields, of: name))
    }

    /// `"auxSends": [{"bus": "reverb", "volume": -6}, …]`: at most
    /// ``BankLimits/auxSends``, each to another bus.
    mutating func auxSends(_ fields: JSONFields, of sound: String) -> [BankAuxSend] {
        guard let node = fields["auxSends"] else { return [] }
        let path = fields.path.key("auxSends")
        guard let elements = listValue(node, at: path, what: "the aux sends of sound '\(sound)'") else { return [] }
        if elements.count > BankLimits.auxSends {
            report(path, at: node.offset, "sound '\(sound)' has \(elements.count) aux sends; at most \(BankLimits.auxSends)")
        }
        var seen = Set<String>()
        return elements.enumerated().compactMap { index, element in
            guard
                let send = object(element, at: path.index(index), what: "an aux send", required: ["bus"],
                                  optional: ["volume"])
            else { return nil }
            guard let bus = reference(send, "bus", as: .bus) else { return nil }
            if !seen.insert(bus).inserted, let busNode = send["bus"] {
                report(send.path.key("bus"), at: busNode.offset, "sound '\(sound)' sends to bus '\(bus)' twice")
            }
            return BankAuxSend(bus: bus, volumeDB: decibels(send, "volume"))
        }
    }

    /// `"virtualBehavior"`: kill, continue or restart; `"resume"` is the old
    /// name of continue.
    mutating func virtualBehavior(_ fields: JSONFields) -> VirtualVoiceBehavior {
        if case .string("resume")? = fields["virtualBehavior"]?.value { return .continue }
        return choice(fields, "virtualBehavior", default: .kill)
    }

    /// `"markers": {"name": seconds, …}`: named points in the sound.
    mutating func markers(_ fields: JSONFields, of sound: String) -> [BankMarker] {
        guard let node = fields["markers"] else { return [] }
        let path = fields.path.key("markers")
        guard let entries = object(node, at: path, what: "the markers of sound '\(sound)'", optional: nil) else {
            return []
        }
        return entries.members.compactMap { member in
            guard !member.key.isEmpty else {
                report(path.key(member.key), at: member.keyOffset, "a marker needs a non-empty name")
                return nil
            }
            return numberValue(member.value, at: path.key(member.key), range: BankLimits.seconds, unit: "seconds")
                .map { BankMarker(name: member.key, time: $0) }
        }
    }
}
