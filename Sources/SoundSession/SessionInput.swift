/// Everything ``AudioSessionPolicy/handle(_:)`` accepts.
package enum SessionInput: Hashable, Sendable {
    /// A call on the session; may be refused.
    case request(SessionRequest)
    /// A fact from the sound server.
    case system(SystemEvent)
    /// A fact from the application or the game.
    case lifecycle(LifecycleEvent)
}
