/// What one input did, gathered while applying it, for the reconciliation
/// that follows (route-change reason, take-over, resets).
struct HandlingPass {
    /// The category itself changed: a route change is notified even when the
    /// ports stay the same.
    var categoryChanged = false
    /// A configuration call was made (reason categoryChange when the route moves).
    var configurationChanged = false
    /// The route was overridden (override call, preferred input, user choice).
    var overridden = false
    var appeared: Set<EndpointID> = []
    var disappeared: Set<EndpointID> = []
    /// A Bluetooth accessory changed profile (A2DP ↔ hands-free) in this fact:
    /// the same headset, another endpoint.
    var profileSwitched = false
    /// Known endpoints re-reported with other details.
    var reconfigured: Set<EndpointID> = []
    /// Connected or lost: the route is re-read, not notified.
    var routeNotificationSuppressed = false
    /// The app takes audio back: calls are mixed with, media that won is silenced.
    var takeOver = false
    /// Streams we muted that now win and must be unmuted.
    var unmute: Set<StreamID> = []
    /// The session stopped by itself (the game deactivated it, the server
    /// was lost): an interruption in progress is over without an `ended`,
    /// as on iOS.
    var interruptionVoided = false
    var lost = false
    var reset = false
    /// The server asked our stream to cork in this pass.
    var corkRequested = false
    /// The last call stopped playing in this pass.
    var callEnded = false
}
