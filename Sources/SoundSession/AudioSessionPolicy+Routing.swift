extension AudioSessionPolicy {
    /// The route the rules choose now.
    struct PlannedRoute: Hashable {
        /// Where our playback stream plays.
        var output: AudioEndpoint?
        /// multiRoute only: the other eligible outputs.
        var extraOutputs: [AudioEndpoint] = []
        /// Where our capture stream records.
        var input: AudioEndpoint?

        /// As the game sees it.
        var description: RouteDescription {
            RouteDescription(
                inputs: [input].compactMap(\.self).map(\.portDescription),
                outputs: ([output].compactMap(\.self) + extraOutputs).map(\.portDescription))
        }
    }

    /// Chooses the route.
    ///
    /// Output, first rule that gives one:
    /// 1. ``PortOverride/speaker``: the built-in speaker;
    /// 2. the user's move of our stream (in the desktop's mixer), always;
    /// 3. the output the game pinned (``pinnedOutput``: the player's choice in
    ///    its settings menu), when present and allowed — over the server's
    ///    default and over devices that arrive later;
    /// 4. the user's default change, if allowed;
    /// 5. a preferred Bluetooth HFP input brings its accessory's HFP output;
    /// 6. the most recently connected accessory the category and options
    ///    allow (last in wins), its HFP endpoint when its accessory has one;
    /// 7. playAndRecord without defaultToSpeaker: the receiver; then the
    ///    speaker; then (playAndRecord) the receiver after all; then a
    ///    virtual device (a null sink: no accessory, so it never takes the
    ///    route from real hardware by appearing — OBS and friends make them).
    ///
    /// Input: the built-in microphone under the speaker override; a move of
    /// our capture stream by the user; the game's preferred input; the user's
    /// default source; the HFP microphone of an HFP output; the most recent
    /// accessory input; the built-in microphone.
    func plannedRoute() -> PlannedRoute {
        guard isConnected else { return PlannedRoute() }
        var route = PlannedRoute()
        if configurationInEffect.category.hasOutput {
            route.output = plannedOutput()
            if configurationInEffect.category == .multiRoute, let primary = route.output, !primary.portType.isBuiltIn {
                route.extraOutputs = registry.newestFirst(.output) {
                    $0.id != primary.id && !$0.portType.isBuiltIn && configurationInEffect.permits($0)
                }
            }
        }
        if configurationInEffect.category.hasInput {
            route.input = plannedInput(output: route.output)
        }
        return route
    }

    /// Whether the route gives the category what it needs: an output for
    /// categories that play, an input for record.
    func isSuitable(_ route: PlannedRoute) -> Bool {
        let category = configurationInEffect.category
        if category.hasOutput && route.output == nil { return false }
        if category == .record && route.input == nil { return false }
        return true
    }

    /// Whether the speaker override holds for the route: set, and the
    /// category in effect is playAndRecord.
    private var overridesToSpeaker: Bool {
        routedOverride == .speaker && configurationInEffect.category == .playAndRecord
    }

    private func plannedOutput() -> AudioEndpoint? {
        let allowed = configurationInEffect.permits as (AudioEndpoint) -> Bool
        if overridesToSpeaker, let speaker = registry.newest(.output, where: { $0.portType == .builtInSpeaker }) {
            return speaker
        }
        if let choice = userOutput, choice.forced, let moved = registry[choice.id] { return moved }
        if let pin = pinnedOutput, let pinned = registry[pin], allowed(pinned) { return pinned }
        if let choice = userOutput, let chosen = registry[choice.id], allowed(chosen) { return chosen }
        if let id = preferredInput, let input = registry[id], input.portType == .bluetoothHFP,
            let hfp = hfpPartner(of: input, direction: .output)
        {
            return hfp
        }
        if let accessory = registry.newest(.output, where: { $0.portType.isAccessory && allowed($0) }) {
            return hfpPartner(of: accessory, direction: .output) ?? accessory
        }
        let wantsReceiver =
            configurationInEffect.category == .playAndRecord && !configurationInEffect.effectiveOptions.contains(.defaultToSpeaker)
        if wantsReceiver, let receiver = registry.newest(.output, where: { $0.portType == .builtInReceiver }) {
            return receiver
        }
        // Whatever built-in output is left: the receiver with defaultToSpeaker
        // when there is no speaker is better than no output at all.
        return registry.newest(.output) { $0.portType == .builtInSpeaker && allowed($0) }
            ?? registry.newest(.output) { $0.portType == .builtInReceiver && allowed($0) }
            ?? registry.newest(.output) { $0.portType == .virtual && allowed($0) }
    }

    private func plannedInput(output: AudioEndpoint?) -> AudioEndpoint? {
        let allowed = configurationInEffect.permits as (AudioEndpoint) -> Bool
        let builtInMic = registry.newest(.input) { $0.portType == .builtInMic && allowed($0) }
        if overridesToSpeaker, let builtInMic { return builtInMic }
        if let choice = userInput, choice.forced, let moved = registry[choice.id] { return moved }
        if let id = preferredInput, let preferred = registry[id], allowed(preferred) { return preferred }
        if let choice = userInput, let chosen = registry[choice.id], allowed(chosen) { return chosen }
        if let output, output.portType == .bluetoothHFP, let hfp = hfpPartner(of: output, direction: .input) {
            return hfp
        }
        return registry.newest(.input, where: { $0.portType.isAccessory && allowed($0) }) ?? builtInMic
            ?? registry.newest(.input) { $0.portType == .virtual && allowed($0) }
    }

    /// The allowed Bluetooth HFP endpoint in `direction` of the same accessory,
    /// if any: when one device offers both HFP and A2DP, HFP wins.
    private func hfpPartner(of endpoint: AudioEndpoint, direction: EndpointDirection) -> AudioEndpoint? {
        guard let accessory = endpoint.accessory else { return nil }
        return registry.newest(direction) {
            $0.accessory == accessory && $0.portType == .bluetoothHFP && configurationInEffect.permits($0)
        }
    }
}
