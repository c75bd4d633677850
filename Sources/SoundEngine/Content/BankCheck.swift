import SoundContent
import SoundCore

/// The load-time check of a bank against what is loaded: no name of it may
/// collide with another loaded bank's (by name or by ID), and every name it
/// uses must resolve — in the bank, or, for buses, state and switch groups
/// and events, in a loaded bank, and every value must keep the ranges of a
/// bank file (BankCheck+Values). A `Bank` from the parser has passed its own
/// checks; one built in code (tools, tests) gets the same guarantees here.
struct BankCheck {
    let bank: Bank
    let id: BankID
    let s: ContentState

    init(_ bank: Bank, _ id: BankID, _ s: ContentState) {
        self.bank = bank
        self.id = id
        self.s = s
    }

    func run() throws(SoundEngineError) {
        guard !bank.name.isEmpty else { throw .invalidParameter("bank name must not be empty") }
        try values()
        if let other = s.banks[id] {
            throw other.bank.name == bank.name
                ? .invalidParameter("bank '\(bank.name)' is already loaded")
                : .invalidParameter("bank '\(bank.name)' has the same ID as loaded bank '\(other.bank.name)'")
        }
        try collisions()
        try references()
    }

    // MARK: Collisions

    private func collisions() throws(SoundEngineError) {
        let objects = bank.sounds.values.map { ("sound", $0.name) } + bank.containers.values.map { ("container", $0.name) }
        try unique(objects) { s.objects[$0].map { (kind(of: $0), $0.name, $0.bank) } }
        try unique(bank.events.keys.map { ("event", $0) }) { s.events[$0].map { ("event", $0.value.name, $0.bank) } }
        try unique(bank.buses.map { ("bus", $0.name) }) { key in
            s.buses[key].map { ("bus", $0.name, $0.bank) }
        }
        try unique(bank.rtpcs.keys.map { ("RTPC", $0) }) { s.rtpcs[$0].map { ("RTPC", $0.value.name, $0.bank) } }
        try unique(bank.stateGroups.keys.map { ("state group", $0) }) {
            s.stateGroups[$0].map { ("state group", $0.value.name, $0.bank) }
        }
        try unique(bank.switchGroups.keys.map { ("switch group", $0) }) {
            s.switchGroups[$0].map { ("switch group", $0.value.name, $0.bank) }
        }
    }

    /// Each name's ID must be new: within the bank and among loaded banks.
    private func unique(
        _ names: [(String, String)], loaded: (ContentID) -> (kind: String, name: String, bank: BankID?)?
    ) throws(SoundEngineError) {
        var mine: [ContentID: String] = [:]
        for (kind, name) in names.sorted(by: { $0.1 < $1.1 }) {
            let key = ContentID(name)
            if let other = mine[key] {
                throw .invalidParameter("\(kind) '\(name)' of bank '\(bank.name)' has the same ID as '\(other)' in the same bank")
            }
            mine[key] = name
            if let (otherKind, otherName, otherBank) = loaded(key) {
                let owner = otherBank.flatMap { s.banks[$0]?.bank.name }.map { "bank '\($0)'" } ?? "the engine"
                throw .invalidParameter(
                    "\(kind) '\(name)' of bank '\(bank.name)' collides with \(otherKind) '\(otherName)' of \(owner)")
            }
        }
    }

    private func kind(of entry: ObjectEntry) -> String {
        if case .sound = entry.kind { return "sound" }
        return "container"
    }

    // MARK: References

    private func references() throws(SoundEngineError) {
        var buses = Set(s.buses.keys)
        for bus in bank.buses {
            try need(buses.contains(ContentID(bus.parent)), "bus '\(bus.parent)' (parent of bus '\(bus.name)')")
            buses.insert(ContentID(bus.name))
        }
        for bus in bank.buses {
            for rule in bus.ducking {
                try need(buses.contains(ContentID(rule.bus)), "bus '\(rule.bus)' (ducked by bus '\(bus.name)')")
            }
            for (index, effect) in bus.effects.enumerated() {
                guard let key = effect.sidechain else { continue }
                try need(buses.contains(ContentID(key)), "bus '\(key)' (sidechain of effect \(index) of bus '\(bus.name)')")
            }
        }
        for sound in bank.sounds.values {
            try need(buses.contains(ContentID(sound.bus)), "bus '\(sound.bus)' (of sound '\(sound.name)')")
            for send in sound.auxSends {
                try need(buses.contains(ContentID(send.bus)), "bus '\(send.bus)' (aux send of sound '\(sound.name)')")
                let aux = bank.buses.first { $0.name == send.bus }?.aux ?? s.buses[ContentID(send.bus)]?.definition?.aux
                guard aux == true else {
                    throw .invalidParameter(
                        "bank '\(bank.name)': sound '\(sound.name)' sends to bus '\(send.bus)', which is not an aux bus (\"aux\": true)")
                }
            }
            if let a = sound.attenuation {
                try need(bank.attenuations[a] != nil, "attenuation '\(a)' (of sound '\(sound.name)')")
            }
        }
        for container in bank.containers.values {
            for child in container.children + Array(container.switchChildren.values) {
                try need(isObject(child), "object '\(child)' (child of container '\(container.name)')")
            }
            if case .switchGroup(let group, _) = container.kind {
                try need(switchGroup(group) != nil, "switch group '\(group)' (of container '\(container.name)')")
            }
        }
        for rtpc in bank.rtpcs.values {
            for binding in rtpc.bindings {
                switch binding.target {
                case .volume(let o), .pitch(let o), .lowPass(let o), .auxSendVolume(let o):
                    try need(isObject(o), "object '\(o)' (driven by RTPC '\(rtpc.name)')")
                case .busVolume(let b):
                    try need(buses.contains(ContentID(b)), "bus '\(b)' (driven by RTPC '\(rtpc.name)')")
                case .effectParameter(let b, let slot, let parameter):
                    try need(buses.contains(ContentID(b)), "bus '\(b)' (driven by RTPC '\(rtpc.name)')")
                    guard let effect = effect(on: b, slot) else {
                        throw .invalidParameter(
                            "bank '\(bank.name)': RTPC '\(rtpc.name)' drives effect \(slot) of bus '\(b)', which has none")
                    }
                    guard effect.kind.parameters.contains(where: { $0.name == parameter }) else {
                        let names = effect.kind.parameters.map(\.name).joined(separator: ", ")
                        throw .invalidParameter(
                            "bank '\(bank.name)': RTPC '\(rtpc.name)': a \(effect.kind.name) has no parameter '\(parameter)'; it has \(names)")
                    }
                }
            }
        }
        for group in bank.stateGroups.values {
            for bus in group.busVolumes.values.flatMap(\.keys) {
                try need(buses.contains(ContentID(bus)), "bus '\(bus)' (of state group '\(group.name)')")
            }
        }
        for event in bank.events.values {
            for action in event.actions { try check(action, in: event.name, buses: buses) }
        }
    }

    private func check(_ action: BankAction, in event: String, buses: Set<ContentID>) throws(SoundEngineError) {
        let place = "(in event '\(event)')"
        switch action.kind {
        case .play(let o, _), .stop(let o, _, _), .pause(let o, _, _), .resume(let o, _, _), .setVolume(let o, _, _, _):
            try need(isObject(o) || s.objects[ContentID(o)] != nil, "object '\(o)' \(place)")
        case .stopAll:
            break
        case .setBusVolume(let b, _, _):
            try need(buses.contains(ContentID(b)), "bus '\(b)' \(place)")
        case .setState(let g, let v):
            let states = bank.stateGroups[g]?.states ?? s.stateGroups[ContentID(g)]?.value.states
            try need(states != nil, "state group '\(g)' \(place)")
            try need(states?.contains(v) == true, "state '\(v)' in group '\(g)' \(place)")
        case .setSwitch(let g, let v):
            let group = switchGroup(g)
            try need(group != nil, "switch group '\(g)' \(place)")
            try need(group?.values.contains(v) == true, "switch '\(v)' in group '\(g)' \(place)")
        case .post(let e):
            try need(bank.events[e] != nil || s.events[ContentID(e)] != nil, "event '\(e)' \(place)")
        }
    }

    /// The effect in slot `slot` of bus `bus` (of this bank or a loaded one).
    func effect(on bus: String, _ slot: Int) -> BankEffect? {
        let effects = bank.buses.first { $0.name == bus }?.effects ?? s.buses[ContentID(bus)]?.definition?.effects ?? []
        return slot < effects.count ? effects[slot] : nil
    }

    private func isObject(_ name: String) -> Bool { bank.sounds[name] != nil || bank.containers[name] != nil }

    private func switchGroup(_ name: String) -> BankSwitchGroup? {
        bank.switchGroups[name] ?? s.switchGroups[ContentID(name)]?.value
    }

    private func need(_ ok: Bool, _ what: @autoclosure () -> String) throws(SoundEngineError) {
        if !ok { throw .idNotFound("\(what()) in bank '\(bank.name)'") }
    }
}
