import SoundSession

extension [SessionOutput] {
    var notifications: [SessionEvent] { compactMap(\.notification) }
    var actions: [SessionAction] { compactMap(\.action) }

    var interruptions: [Interruption] {
        notifications.compactMap { if case .interruption(let value) = $0 { value } else { nil } }
    }

    var routeChanges: [RouteChange] {
        notifications.compactMap { if case .routeChange(let value) = $0 { value } else { nil } }
    }

    /// Every stream muted by these outputs.
    var muted: [StreamID] {
        actions.flatMap { action -> [StreamID] in
            if case .muteOtherStreams(let ids) = action { return ids }
            return []
        }
    }

    /// Every stream unmuted by these outputs.
    var unmuted: [StreamID] {
        actions.flatMap { action -> [StreamID] in
            if case .unmuteOtherStreams(let ids) = action { return ids }
            return []
        }
    }

    /// Every stream ducked by these outputs.
    var ducked: [StreamID] {
        actions.flatMap { action -> [StreamID] in
            if case .duckOtherStreams(let ids, _) = action { return ids }
            return []
        }
    }

    /// Every stream unducked by these outputs.
    var unducked: [StreamID] {
        actions.flatMap { action -> [StreamID] in
            if case .unduckOtherStreams(let ids) = action { return ids }
            return []
        }
    }

    /// The last output selected, if any output selection happened.
    var selectedOutput: EndpointID?? {
        actions.reversed().lazy.compactMap { if case .selectOutput(let id) = $0 { .some(id) } else { nil } }.first
    }

    /// Whether the engine was paused for `reason` / resumed.
    func pausesEngine(_ reason: PauseReason) -> Bool { actions.contains(.pauseEngine(reason)) }
    var resumesEngine: Bool { actions.contains(.resumeEngine) }

    /// The index of the first output matching `predicate`.
    func index(of predicate: (SessionOutput) -> Bool) -> Int? { firstIndex(where: predicate) }
}

extension AudioSessionPolicy {
    /// A policy with `configuration`, connected to a server with these
    /// endpoints (oldest first) and streams, and activated unless told otherwise.
    static func connected(
        _ configuration: SessionConfiguration = SessionConfiguration(),
        endpoints: [AudioEndpoint] = Endpoints.phone,
        streams: [OtherStream] = [],
        active: Bool = true
    ) throws -> AudioSessionPolicy {
        var policy = try AudioSessionPolicy(configuration: configuration)
        _ = policy.handle(.connected(SystemSnapshot(ownClient: Streams.ownClient, endpoints: endpoints, streams: streams)))
        if active { _ = try policy.handle(.setActive(true)) }
        return policy
    }

    /// The output port type of the current route, if any.
    var outputType: PortType? { currentRoute.outputs.first?.portType }
    /// The input port type of the current route, if any.
    var inputType: PortType? { currentRoute.inputs.first?.portType }
}

extension SessionConfiguration {
    /// A configuration in one line.
    static func with(
        _ category: Category, _ options: CategoryOptions = [], mode: Mode = .default,
        behavior: SessionBehavior = []
    ) -> SessionConfiguration {
        SessionConfiguration(category: category, categoryOptions: options, mode: mode, behavior: behavior)
    }
}
