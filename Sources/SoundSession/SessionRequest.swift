/// A call the game (through the engine) makes on the session. Requests are
/// validated like iOS: a refused request throws and changes nothing.
package enum SessionRequest: Hashable, Sendable {
    /// Sets category, mode, route-sharing policy and options together, as
    /// `setCategory(_:mode:policy:options:)`. Options do not carry over from
    /// the previous category. Refused with `invalidParameter` when the
    /// combination is invalid.
    case setCategory(
        Category, mode: Mode = .default, policy: RouteSharingPolicy = .default, options: CategoryOptions = [])
    /// Sets the mode alone, as `setMode(_:)`. Refused with
    /// `incompatibleCategory` when the current category does not allow it.
    case setMode(Mode)
    /// Replaces the whole configuration (`changeAudioSessionProperties`).
    /// Refused with `invalidParameter` when it is invalid.
    case setConfiguration(SessionConfiguration)
    /// Activates or deactivates the session, as `setActive(_:options:)`.
    /// Activating a non-mixable session while the app is in the background is
    /// refused with `cannotInterruptOthers`.
    case setActive(Bool, options: SetActiveOptions = [])
    /// Overrides the output, as `overrideOutputAudioPort(_:)`. `.speaker` is
    /// refused with `incompatibleCategory` outside playAndRecord and with
    /// `resourceNotAvailable` when no speaker is present.
    case overrideOutputAudioPort(PortOverride)
    /// Prefers an input, as `setPreferredInput(_:)`; `nil` clears the
    /// preference. Refused with `incompatibleCategory` in a category without
    /// input and with `invalidParameter` for an endpoint that is not a present
    /// input the options allow.
    case setPreferredInput(EndpointID?)
    /// Pins the output to one endpoint — the player's choice in the game's
    /// settings menu — or, with `nil`, follows the routing rules again (the
    /// system default and last in wins). A pinned output is kept while it is
    /// absent: the route falls back meanwhile and returns to it when it
    /// comes back. Refused with `incompatibleCategory` in a category without
    /// output and with `invalidParameter` for an endpoint that is not a
    /// present output the options allow.
    case pinOutput(EndpointID?)
}
