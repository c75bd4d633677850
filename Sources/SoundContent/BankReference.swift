/// A name used or defined somewhere in a bank, with where, so that checks
/// run after all sections are read can point at the exact JSON path.
struct BankReference {
    /// What the name must be.
    enum Kind: Hashable {
        case sound
        case container
        /// A sound or a container (they share one namespace).
        case object
        case bus
        case attenuation
        case rtpc
        case stateGroup
        case switchGroup
        case event
        /// A state of the state group `group`.
        case state(group: String)
        /// A value of the switch group `group`.
        case switchValue(group: String)

        /// How messages name it.
        var noun: String {
            switch self {
            case .sound: "sound"
            case .container: "container"
            case .object: "sound or container"
            case .bus: "bus"
            case .attenuation: "attenuation"
            case .rtpc: "RTPC"
            case .stateGroup: "state group"
            case .switchGroup: "switch group"
            case .event: "event"
            case .state(let group): "state of group '\(group)'"
            case .switchValue(let group): "value of switch group '\(group)'"
            }
        }
    }

    /// An edge of one of the graphs that must not have cycles.
    enum Edge: Hashable {
        /// `container` plays the referenced object.
        case containerChild(container: String)
        /// `bus` sits below the referenced bus.
        case busParent(bus: String)
        /// `event` posts the referenced event with no delay.
        case postWithoutDelay(event: String)
    }

    var kind: Kind
    var name: String
    var path: JSONPath
    /// Offset of the value holding the name (for document order).
    var offset: Int
    var edge: Edge?
}
