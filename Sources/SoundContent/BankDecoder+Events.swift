/// The scopes a bank's `"scope"` may name, in the order messages list them.
extension BankAction.Scope: CaseIterable {
    /// `gameObject`, then `global`.
    package static var allCases: [BankAction.Scope] { [.gameObject, .global] }
}

extension BankDecoder {
    /// The words of an action's `"type"`.
    enum ActionType: String, CaseIterable {
        case play, stop, stopAll, pause, resume, setVolume, setBusVolume, setState, setSwitch, post

        /// Keys this type allows besides `type` and `delay`. Actions on a
        /// sound or container take `"sound"` or `"container"`, checked apart.
        var keys: (required: [String], optional: [String]) {
            switch self {
            case .play: ([], ["sound", "container", "fade"])
            case .stop, .pause, .resume: ([], ["sound", "container", "fade", "scope"])
            case .stopAll: ([], ["fade", "scope"])
            case .setVolume: (["volume"], ["sound", "container", "fade", "scope"])
            case .setBusVolume: (["bus", "volume"], ["fade"])
            case .setState: (["group", "state"], [])
            case .setSwitch: (["group", "value"], [])
            case .post: (["event"], [])
            }
        }
    }

    /// An `"events"` entry.
    mutating func event(_ name: String, _ node: JSONNode, at path: JSONPath) -> BankEvent? {
        guard let fields = object(node, at: path, what: "event '\(name)'", required: ["actions"]),
            let list = fields["actions"],
            let elements = listValue(list, at: path.key("actions"), what: "actions")
        else { return nil }
        let actions = elements.enumerated().compactMap { index, element in
            action(element, at: path.key("actions").index(index), event: name)
        }
        return actions.count == elements.count ? BankEvent(name: name, actions: actions) : nil
    }

    /// One action of event `event`.
    private mutating func action(_ node: JSONNode, at path: JSONPath, event: String) -> BankAction? {
        let type = typeWord(node, at: path, as: ActionType.self)
        let keys: (required: [String], optional: [String]) = type?.keys ?? ([], Array(Set(ActionType.allCases.flatMap { $0.keys.required + $0.keys.optional })).sorted())
        guard
            let fields = object(node, at: path, what: "a\(type.map { " \($0.rawValue)" } ?? "n") action",
                                required: ["type"] + keys.required, optional: ["delay"] + keys.optional),
            let type
        else { return nil }
        let delay = seconds(fields, "delay")
        let kind: BankAction.Kind?
        switch type {
        case .play:
            kind = objectTarget(fields).map { .play(object: $0, fadeIn: seconds(fields, "fade")) }
        case .stop:
            kind = objectTarget(fields).map { .stop(object: $0, fadeOut: seconds(fields, "fade"), scope: scope(fields)) }
        case .stopAll:
            kind = .stopAll(fadeOut: seconds(fields, "fade"), scope: scope(fields))
        case .pause:
            kind = objectTarget(fields).map { .pause(object: $0, fade: seconds(fields, "fade"), scope: scope(fields)) }
        case .resume:
            kind = objectTarget(fields).map { .resume(object: $0, fade: seconds(fields, "fade"), scope: scope(fields)) }
        case .setVolume:
            kind = objectTarget(fields).map {
                .setVolume(object: $0, volumeDB: decibels(fields, "volume"), fade: seconds(fields, "fade"),
                           scope: scope(fields))
            }
        case .setBusVolume:
            kind = reference(fields, "bus", as: .bus).map {
                .setBusVolume(bus: $0, volumeDB: decibels(fields, "volume"), fade: seconds(fields, "fade"))
            }
        case .setState:
            kind = groupValueAction(fields, "state", group: .stateGroup) { .setState(group: $0, state: $1) }
        case .setSwitch:
            kind = groupValueAction(fields, "value", group: .switchGroup) { .setSwitch(group: $0, value: $1) }
        case .post:
            let edge: BankReference.Edge? = delay == .zero ? .postWithoutDelay(event: event) : nil
            kind = reference(fields, "event", as: .event, edge: edge).map { .post(event: $0) }
        }
        return kind.map { BankAction($0, delay: delay) }
    }

    private mutating func scope(_ fields: JSONFields) -> BankAction.Scope {
        choice(fields, "scope", default: .gameObject)
    }

    /// setState/setSwitch: a group and one of its states or values.
    private mutating func groupValueAction(
        _ fields: JSONFields, _ key: String, group kind: BankReference.Kind,
        make: (String, String) -> BankAction.Kind
    ) -> BankAction.Kind? {
        guard let group = reference(fields, "group", as: kind) else {
            _ = name(fields, key)  // still report a wrong type
            return nil
        }
        let valueKind: BankReference.Kind = kind == .stateGroup ? .state(group: group) : .switchValue(group: group)
        guard let value = reference(fields, key, as: valueKind) else { return nil }
        return make(group, value)
    }
}
