extension AudioSessionPolicy {
    /// Applies a server fact.
    mutating func apply(_ event: SystemEvent, _ pass: inout HandlingPass) {
        switch event {
        case .connected(let snapshot):
            connect(snapshot, &pass)
        case .connectionLost:
            loseConnection(&pass)
        case .endpointsChanged(let appeared, let disappeared):
            guard isConnected else { return }
            changeEndpoints(appeared: appeared, disappeared: disappeared, &pass)
        case .defaultOutputChanged(let id):
            // A default the category cannot use (the receiver in playback) is ignored.
            guard isConnected, id.direction == .output, let endpoint = registry[id], configurationInEffect.permits(endpoint)
            else { return }
            userOutput = UserChoice(id: id, forced: false)
            portOverride = .none
            pass.overridden = true
        case .defaultInputChanged(let id):
            guard isConnected, id.direction == .input, let endpoint = registry[id], configurationInEffect.permits(endpoint)
            else { return }
            userInput = UserChoice(id: id, forced: false)
            pass.overridden = true
        case .streamMovedByUser(let id):
            guard isConnected, registry[id] != nil else { return }
            // The stream is already there: record it as done, and honour it.
            switch id.direction {
            case .output:
                userOutput = UserChoice(id: id, forced: true)
                applied.output = id
                portOverride = .none
            case .input:
                userInput = UserChoice(id: id, forced: true)
                applied.input = id
            }
            pass.overridden = true
        case .otherStreamChanged(let stream):
            guard isConnected, stream.client != ownClient else { return }
            let callBefore = isCallPlaying
            streamChanged(stream, &pass)
            voidCorkRequestsAfterLastCall(callBefore, &pass)
        case .otherStreamRemoved(let id):
            guard isConnected else { return }
            let callBefore = isCallPlaying
            streamRemoved(id)
            voidCorkRequestsAfterLastCall(callBefore, &pass)
        case .corkRequested:
            guard isConnected else { return }
            corkRequests += 1
            pass.corkRequested = true
        case .uncorkRequested:
            guard isConnected else { return }
            corkRequests = max(0, corkRequests - 1)
        case .ownStreamReplaced:
            corkRequests = 0
        case .ownStreamLost:
            guard isConnected, !isOutputLost else { return }
            isOutputLost = true
            pass.lost = true
            // Cork requests were addressed to the stream that died.
            corkRequests = 0
            // The streams are created again (the backend still knows the
            // selected devices; other apps' streams are untouched).
            applied.streamProperties = nil
            applied.captureOpen = false
        case .ownStreamRestored:
            guard isConnected, isOutputLost else { return }
            isOutputLost = false
            pass.reset = true
            // (Cork requests already count for the new stream: the old one's
            // went with its loss and with ownStreamReplaced, said before the
            // new one was made.)
        case .inputMuteChanged(let id, let muted):
            guard isConnected, id.direction == .input, registry[id] != nil else { return }
            if muted { mutedInputs.insert(id) } else { mutedInputs.remove(id) }
        }
    }

    /// The last call stopped: the cork requests module-role-cork sent for it
    /// are void. It sends `request-uncork` only to a stream that is corked
    /// at that moment, so a call that ends while our cork is still under way
    /// (the fade is being heard) would otherwise leave us interrupted for good.
    /// The mute it put on our stream with the request goes too
    /// (``SessionAction/releaseCorkMute``).
    private mutating func voidCorkRequestsAfterLastCall(_ callBefore: Bool, _ pass: inout HandlingPass) {
        guard callBefore && !isCallPlaying else { return }
        corkRequests = 0
        pass.callEnded = true
    }

    private mutating func connect(_ snapshot: SystemSnapshot, _ pass: inout HandlingPass) {
        pass.reset = connection == .lost || isOutputLost
        pass.routeNotificationSuppressed = true
        connection = .connected
        isOutputLost = false
        ownClient = snapshot.ownClient
        registry.removeAll()
        for endpoint in snapshot.endpoints { registry.insert(endpoint) }
        mutedInputs = snapshot.mutedInputs.filter { $0.direction == .input && registry[$0] != nil }
        // The server's defaults count as the most recently connected devices.
        for id in [snapshot.defaultOutput, snapshot.defaultInput].compactMap(\.self) { registry.promote(id) }
        others = Dictionary(
            snapshot.streams.filter { $0.client != snapshot.ownClient }.map { ($0.id, $0) },
            uniquingKeysWith: { _, last in last })
        corkRequests = 0
        forgetVanished()
        let present = Set(others.keys)
        mutedStreams.formIntersection(present)
        unconfirmedMutes.formIntersection(present)
        winningMedia.formIntersection(present)
        winningMediaPausedForCall.formIntersection(present)
        acceptedCalls.formIntersection(present)
        // Streams already there are not new: a mute on them is the user's.
        unplayedStreams = []
        // After a reset the session takes the audio back but does not mix
        // with a call still going on: the call interrupts it, whether the
        // call's stream is in this snapshot or reconnects after us.
        if isActive && isInForeground { takeOver(&pass, acceptingCalls: !pass.reset) }
    }

    private mutating func loseConnection(_ pass: inout HandlingPass) {
        guard isConnected else { return }
        connection = .lost
        // An output already lost was notified then: one lost, one reset.
        pass.lost = !isOutputLost
        isOutputLost = false
        pass.routeNotificationSuppressed = true
        pass.interruptionVoided = true
        registry.removeAll()
        mutedInputs = []
        others = [:]
        corkRequests = 0
        // Our streams are gone. Other apps' streams may not be (only our
        // client was dropped, or the server comes back with its restore
        // database): the backend's hold journal gives back what we held
        // before the next snapshot is taken, so the policy starts over from
        // the apps as their owners left them and applies its mutes and ducks again.
        acceptedCalls = []
        unplayedStreams = []
        winningMedia = []
        winningMediaPausedForCall = []
        mutedStreams = []
        unconfirmedMutes = []
        userOutput = nil
        userInput = nil
        // Like every server-side setting, the temporary override does not survive.
        portOverride = .none
        applied.forgetServerState()
    }

    private mutating func changeEndpoints(
        appeared: [AudioEndpoint], disappeared: [EndpointID], _ pass: inout HandlingPass
    ) {
        // The routes with and without the temporary override, to tell a route
        // change from a device that changes nothing.
        let routesBefore = routedOverride == .none ? nil : routesWithAndWithoutOverride
        var profilesGone: [String: Set<PortType>] = [:]
        for id in disappeared {
            guard let endpoint = registry.remove(id) else { continue }
            pass.disappeared.insert(id)
            mutedInputs.remove(id)
            if endpoint.portType.isBluetooth, let accessory = endpoint.accessory {
                profilesGone[accessory, default: []].insert(endpoint.portType)
            }
        }
        // One headset leaving one Bluetooth profile for another in the same
        // fact (module-bluetooth-policy switching to hands-free for a call).
        pass.profileSwitched = appeared.contains { endpoint in
            guard endpoint.portType.isBluetooth, let accessory = endpoint.accessory, let gone = profilesGone[accessory]
            else { return false }
            return !gone.contains(endpoint.portType)
        }
        for endpoint in appeared {
            if registry.insert(endpoint) {
                pass.appeared.insert(endpoint.id)
                // Last in wins over an earlier choice of the user.
                if endpoint.direction == .output && configurationInEffect.permits(endpoint) { userOutput = nil }
                if endpoint.direction == .input && configurationInEffect.permits(endpoint) { userInput = nil }
            } else {
                pass.reconfigured.insert(endpoint.id)
            }
        }
        forgetVanished()
        // Any route change ends the temporary speaker override (QA1754). A
        // device that changes neither route (Bluetooth HFP without
        // allowBluetooth, an accessory not in use going away) is no route change.
        if let routesBefore, routesWithAndWithoutOverride != routesBefore { portOverride = .none }
    }

    /// The endpoints of the route as overridden and of the route the rules
    /// would choose without the override: output, input, multiRoute's others.
    private var routesWithAndWithoutOverride: [[EndpointID?]] {
        [routedOverride, .none].map { override in
            var policy = self
            policy.routedOverride = override
            let route = policy.plannedRoute()
            return [route.output?.id, route.input?.id] + route.extraOutputs.map(\.id)
        }
    }

    /// Drops user choices of endpoints that are no longer present.
    private mutating func forgetVanished() {
        if let choice = userOutput, registry[choice.id] == nil { userOutput = nil }
        if let choice = userInput, registry[choice.id] == nil { userInput = nil }
    }
}
