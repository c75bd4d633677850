/// One result of handling an input: a notification for the game or an
/// action for the engine. ``AudioSessionPolicy/handle(_:)`` returns them in
/// the order they must take effect.
package enum SessionOutput: Hashable, Sendable {
    /// Tell the game.
    case notification(SessionEvent)
    /// Do it.
    case action(SessionAction)

    /// The notification, if this is one.
    package var notification: SessionEvent? {
        if case .notification(let value) = self { value } else { nil }
    }

    /// The action, if this is one.
    package var action: SessionAction? {
        if case .action(let value) = self { value } else { nil }
    }
}
