import SoundCore

extension AudioSessionPolicy {
    /// Applies a configuration call, or throws before changing anything.
    mutating func apply(_ request: SessionRequest, _ pass: inout HandlingPass) throws(SoundEngineError) {
        guard connection != .lost else {
            throw .mediaServicesFailed("the sound server is gone; wait for mediaServicesWereReset before \(request)")
        }
        switch request {
        case .setCategory(let category, let mode, let policy, let options):
            var proposed = configuration
            proposed.category = category
            proposed.mode = mode
            proposed.routeSharingPolicy = policy
            proposed.categoryOptions = options
            try proposed.validate()
            adopt(proposed, &pass)
        case .setMode(let mode):
            guard configuration.category.allows(mode) else {
                throw .incompatibleCategory(
                    "mode \(mode) is not allowed with the current category \(configuration.category); "
                        + "it allows \(configuration.category.allowedModes.map(\.name).joined(separator: ", "))")
            }
            var proposed = configuration
            proposed.mode = mode
            try proposed.validate()
            adopt(proposed, &pass)
        case .setConfiguration(let proposed):
            try proposed.validate()
            adopt(proposed, &pass)
        case .setActive(let active, let options):
            try setActive(active, options: options, &pass)
        case .overrideOutputAudioPort(let override):
            try overrideOutput(override, &pass)
        case .setPreferredInput(let id):
            try setPreferredInput(id, &pass)
        case .pinOutput(let id):
            try pinOutput(id, &pass)
        }
    }

    /// Takes a validated configuration. A new category drops the port
    /// override. While the session is inactive the change is stored and takes
    /// effect at the next activation (Apple): no stream or route action, no
    /// route change until then.
    private mutating func adopt(_ proposed: SessionConfiguration, _ pass: inout HandlingPass) {
        if proposed.category != configuration.category {
            let routed = routedOverride
            portOverride = .none
            if !isActive { routedOverride = routed }
        }
        configuration = proposed
        if isActive { putConfigurationInEffect(&pass, called: true) }
    }

    /// Makes the configuration the game set the one in effect. `called`: a
    /// configuration call was made now (reason categoryChange even when only
    /// the route moves).
    private mutating func putConfigurationInEffect(_ pass: inout HandlingPass, called: Bool) {
        if configuration.category != configurationInEffect.category { pass.categoryChanged = true }
        if called || configuration != configurationInEffect { pass.configurationChanged = true }
        if routedOverride != portOverride { pass.overridden = true }
        configurationInEffect = configuration
        routedOverride = portOverride
    }

    private mutating func setActive(
        _ active: Bool, options: SetActiveOptions, _ pass: inout HandlingPass
    ) throws(SoundEngineError) {
        guard options.unknownBits == 0 else {
            throw .invalidParameter("setActive options have unknown bits 0x\(String(options.unknownBits, radix: 16))")
        }
        guard active != isActive else { return }
        if active {
            guard isInForeground || configuration.isMixable else {
                throw .cannotInterruptOthers(
                    "a non-mixable \(configuration.category) session cannot be activated while the app is in the "
                        + "background; add mixWithOthers or activate in the foreground")
            }
            isActive = true
            putConfigurationInEffect(&pass, called: false)
            if isInForeground { takeOver(&pass) }
        } else {
            isActive = false
            pass.interruptionVoided = true
        }
    }

    private mutating func overrideOutput(_ override: PortOverride, _ pass: inout HandlingPass) throws(SoundEngineError) {
        if override == .speaker {
            guard configuration.category == .playAndRecord else {
                throw .incompatibleCategory(
                    "overrideOutputAudioPort(.speaker) needs category playAndRecord, not \(configuration.category)")
            }
            guard registry.newest(.output, where: { $0.portType == .builtInSpeaker }) != nil else {
                throw .resourceNotAvailable("overrideOutputAudioPort(.speaker): no built-in speaker is present")
            }
        }
        guard override != portOverride else { return }
        portOverride = override
        pass.overridden = true
    }

    private mutating func setPreferredInput(_ id: EndpointID?, _ pass: inout HandlingPass) throws(SoundEngineError) {
        if let id { try checkChoice(id, .input, "setPreferredInput", verb: "prefer") }
        // The game asks now: an earlier move of the capture stream by the user gives way.
        let movedByUser = userInput?.forced == true
        guard id != preferredInput || movedByUser else { return }
        if movedByUser { userInput = nil }
        preferredInput = id
        pass.overridden = true
    }

    private mutating func pinOutput(_ id: EndpointID?, _ pass: inout HandlingPass) throws(SoundEngineError) {
        if let id { try checkChoice(id, .output, "pinOutput", verb: "pin") }
        // The game asks now: an earlier move of our stream by the user gives way.
        let movedByUser = userOutput?.forced == true
        guard id != pinnedOutput || movedByUser else { return }
        if movedByUser { userOutput = nil }
        pinnedOutput = id
        pass.overridden = true
    }

    /// Refuses a game's choice of `id` as its `direction` endpoint: a
    /// category without that direction, an endpoint not present (or of the
    /// other direction), one the configuration does not allow.
    private func checkChoice(_ id: EndpointID, _ direction: EndpointDirection, _ call: String, verb: String)
        throws(SoundEngineError)
    {
        let word = direction == .input ? "input" : "output"
        let category = configuration.category
        guard direction == .input ? category.hasInput : category.hasOutput else {
            throw .incompatibleCategory("category \(category) has no \(word); cannot \(verb) \(id)")
        }
        guard id.direction == direction, let endpoint = registry[id] else {
            throw .invalidParameter("\(call): \(id) is not a present \(word)")
        }
        guard configuration.permits(endpoint) else {
            throw .invalidParameter("\(call): \(endpoint.portType) \(word) \(id) is not allowed with \(configuration)")
        }
    }

    /// The app takes the audio back (activation, return to the foreground,
    /// media-services reset): it mixes with calls already in progress unless
    /// `acceptingCalls` is false, and media that won over a non-mixable
    /// session is silenced again.
    mutating func takeOver(_ pass: inout HandlingPass, acceptingCalls: Bool = true) {
        if acceptingCalls { acceptedCalls = Set(others.values.filter { $0.isCall && $0.isRunning }.map(\.id)) }
        winningMedia = []
        winningMediaPausedForCall = []
        pass.takeOver = true
    }
}
