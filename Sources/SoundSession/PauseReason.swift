/// Why the engine is paused (its streams corked).
///
/// When several hold at once, the first in this list is reported.
public enum PauseReason: Hashable, Sendable, Codable {
    /// Not connected to the server yet.
    case notConnected
    /// The server went away; waiting for the reset.
    case mediaServicesLost
    /// The session is not active.
    case sessionInactive
    /// An interruption is in progress.
    case interrupted
    /// The app is in the background and the category (or
    /// ``SessionBehavior/suspendInBackground``) stops rendering there.
    case appInBackground
    /// The game suspended the engine; with `renderAnyway` the mixer keeps
    /// processing while the output stays corked.
    case suspendedByGame(renderAnyway: Bool)
}
