/// The names a bank defines, by kind, for resolving references.
struct BankNames {
    var sounds: Set<String>
    var containers: Set<String>
    /// This bank's buses, the existing ones and `"master"`.
    var buses: Set<String>
    var attenuations: Set<String>
    var rtpcs: Set<String>
    var stateGroups: [String: [String]]
    var switchGroups: [String: [String]]
    var events: Set<String>
}

extension BankDecoder {
    /// The second pass: every recorded name must resolve, no two names of
    /// one kind may share an ID, and the bus tree, container nesting and
    /// zero-delay posts must have no cycles.
    mutating func resolveReferences(_ names: BankNames) {
        for reference in references {
            if let problem = problem(with: reference, names) {
                report(reference.path, at: reference.offset, problem)
            }
        }
        checkNamespaces()
        checkCycles()
    }

    private func problem(with reference: BankReference, _ names: BankNames) -> String? {
        let name = reference.name
        let known: [String]
        switch reference.kind {
        case .sound:
            if names.sounds.contains(name) { return nil }
            if names.containers.contains(name) { return "'\(name)' is a container, not a sound: write \"container\"" }
            known = names.sounds.sorted()
        case .container:
            if names.containers.contains(name) { return nil }
            if names.sounds.contains(name) { return "'\(name)' is a sound, not a container: write \"sound\"" }
            known = names.containers.sorted()
        case .object:
            if names.sounds.contains(name) || names.containers.contains(name) { return nil }
            known = (names.sounds.union(names.containers)).sorted()
        case .bus:
            if names.buses.contains(name) { return nil }
            known = names.buses.sorted()
        case .attenuation:
            if names.attenuations.contains(name) { return nil }
            known = names.attenuations.sorted()
        case .rtpc:
            if names.rtpcs.contains(name) { return nil }
            known = names.rtpcs.sorted()
        case .stateGroup:
            if names.stateGroups[name] != nil { return nil }
            known = names.stateGroups.keys.sorted()
        case .switchGroup:
            if names.switchGroups[name] != nil { return nil }
            known = names.switchGroups.keys.sorted()
        case .event:
            if names.events.contains(name) { return nil }
            known = names.events.sorted()
        case .state(let group):
            guard let states = names.stateGroups[group], !states.contains(name) else { return nil }
            known = states
        case .switchValue(let group):
            guard let values = names.switchGroups[group], !values.contains(name) else { return nil }
            known = values
        }
        let hint = NameSuggestion.closest(to: name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
        let list = known.isEmpty ? "none are defined" : "known: " + known.prefix(12).joined(separator: ", ")
            + (known.count > 12 ? ", …" : "")
        return "unknown \(reference.kind.noun) '\(name)'\(hint); \(list)"
    }

    /// Sounds and containers share one namespace; within each kind no two
    /// names may have the same ``ContentID`` (the game refers to them by ID).
    private mutating func checkNamespaces() {
        let objects = (definitions[.sound] ?? []) + (definitions[.container] ?? [])
        let sounds = Set((definitions[.sound] ?? []).map(\.name))
        for container in definitions[.container] ?? [] where sounds.contains(container.name) {
            report(container.path, at: container.offset,
                   "'\(container.name)' is both a sound and a container; they share one namespace")
        }
        let existing = options.existingBuses.union(["master"]).sorted().map {
            BankReference(kind: .bus, name: $0, path: .root, offset: -1)
        }
        let groups: [[BankReference]] = [
            objects.sorted { $0.offset < $1.offset }, existing + (definitions[.bus] ?? []),
            definitions[.attenuation] ?? [], definitions[.rtpc] ?? [], definitions[.stateGroup] ?? [],
            definitions[.switchGroup] ?? [], definitions[.event] ?? [],
        ]
        for group in groups {
            var byID: [ContentID: String] = [:]
            for definition in group {
                let id = ContentID(definition.name)
                guard let other = byID[id] else {
                    byID[id] = definition.name
                    continue
                }
                guard other != definition.name else { continue }  // sound and container: reported above
                let why = other.lowercased() == definition.name.lowercased()
                    ? "names differ only in case, and IDs ignore case"
                    : "an FNV-1 hash collision"
                report(definition.path, at: definition.offset,
                       "'\(definition.name)' has the same ID (\(id)) as the \(definition.kind.noun) '\(other)' "
                       + "(\(why)); rename one")
            }
        }
    }

    private mutating func checkCycles() {
        var buses = CycleFinder(), containers = CycleFinder(), events = CycleFinder()
        for reference in references {
            switch reference.edge {
            case .busParent(let bus)?: buses.add(from: bus, reference)
            case .containerChild(let container)?: containers.add(from: container, reference)
            case .postWithoutDelay(let event)?: events.add(from: event, reference)
            case nil: break
            }
        }
        let checks: [(CycleFinder, String)] = [
            (buses, "the bus tree has a cycle"), (containers, "a container contains itself"),
            (events, "events post each other with no delay, forever"),
        ]
        for (finder, problem) in checks {
            for cycle in finder.cycles() {
                report(cycle.closingEdge.path, at: cycle.closingEdge.offset,
                       "\(problem): \(cycle.names.joined(separator: " → "))")
            }
        }
    }
}
