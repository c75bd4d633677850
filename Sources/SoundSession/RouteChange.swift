/// A route-change notification: the user info of AVAudioSession's
/// `routeChangeNotification`, plus the new route.
public struct RouteChange: Hashable, Sendable, Codable {
    /// Why the route changed.
    public var reason: RouteChangeReason
    /// The route before the change.
    public var previousRoute: RouteDescription
    /// The route after the change.
    public var currentRoute: RouteDescription

    /// Creates a notification.
    public init(reason: RouteChangeReason, previousRoute: RouteDescription, currentRoute: RouteDescription) {
        self.reason = reason
        self.previousRoute = previousRoute
        self.currentRoute = currentRoute
    }
}
