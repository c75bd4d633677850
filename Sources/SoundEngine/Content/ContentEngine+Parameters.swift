import SoundContent
import SoundCore

/// RTPCs, states and switches.
extension ContentEngine {
    func setRTPCValue(_ rtpc: ContentRef, _ value: Double, on gameObject: GameObjectID?, ramp: Duration)
        throws(SoundEngineError)
    {
        guard value.isFinite else { throw .invalidParameter("setRTPCValue value = \(value) (RTPC \(rtpc)): must be finite") }
        try TimeArgument.check(ramp, "setRTPCValue ramp")
        try withState { s throws(SoundEngineError) in
            let definition = try rtpc.resolve(s.rtpcs, "RTPC") { $0.name }
            if let gameObject { try requireRegistered(gameObject, s) }
            let range = definition.value.range
            let target = min(max(value, range.lowerBound), range.upperBound)
            let now = ContinuousClock.now
            // From wherever it is now for this scope, so a move never jumps.
            let current = rtpcValue(rtpc.key, gameObject, s, now: now)
            let move = Ramp(from: current, to: target, over: ramp, now: now)
            if let gameObject {
                s.gameObjects[gameObject]?.rtpc[rtpc.key] = move
            } else {
                s.globalRTPC[rtpc.key] = move
            }
        }
    }

    func resetRTPCValue(_ rtpc: ContentRef, on gameObject: GameObjectID?) throws(SoundEngineError) {
        try withState { s throws(SoundEngineError) in
            _ = try rtpc.resolve(s.rtpcs, "RTPC") { $0.name }
            if let gameObject {
                try requireRegistered(gameObject, s)
                s.gameObjects[gameObject]?.rtpc[rtpc.key] = nil
            } else {
                s.globalRTPC[rtpc.key] = nil
            }
        }
    }

    func rtpcValue(_ rtpc: ContentRef, on gameObject: GameObjectID?) throws(SoundEngineError) -> Double {
        try reading { s throws(SoundEngineError) -> Double in
            _ = try rtpc.resolve(s.rtpcs, "RTPC") { $0.name }
            if let gameObject { try requireRegistered(gameObject, s) }
            return rtpcValue(rtpc.key, gameObject, s, now: .now)
        }
    }

    /// Sets an RTPC for one posting's voices (Wwise
    /// `SetRTPCValueByPlayingID`), clamped to its range, moving from the
    /// value they hear now over `ramp`. An ended posting is ignored.
    func setRTPCValue(_ rtpc: ContentRef, _ value: Double, on playing: PlayingID, ramp: Duration)
        throws(SoundEngineError)
    {
        guard value.isFinite else { throw .invalidParameter("setRTPCValue value = \(value) (RTPC \(rtpc)): must be finite") }
        try TimeArgument.check(ramp, "setRTPCValue ramp")
        try withState { s throws(SoundEngineError) in
            let definition = try rtpc.resolve(s.rtpcs, "RTPC") { $0.name }
            guard let p = s.playings[playing] else { return }
            let range = definition.value.range
            let target = min(max(value, range.lowerBound), range.upperBound)
            let now = ContinuousClock.now
            let current = rtpcValue(rtpc.key, p.gameObject, playing: playing, s, now: now)
            s.playings[playing]?.rtpc[rtpc.key] = Ramp(from: current, to: target, over: ramp, now: now)
        }
    }

    /// Forgets a posting's own value of an RTPC: its voices follow their
    /// game object's (or the global) value again. An ended posting is ignored.
    func resetRTPCValue(_ rtpc: ContentRef, on playing: PlayingID) throws(SoundEngineError) {
        try withState { s throws(SoundEngineError) in
            _ = try rtpc.resolve(s.rtpcs, "RTPC") { $0.name }
            s.playings[playing]?.rtpc[rtpc.key] = nil
        }
    }

    /// The value a posting's voices hear now: its own, else its game
    /// object's, else the global, else the default.
    /// - Throws: `idNotFound` for an unknown RTPC or a posting that has ended.
    func rtpcValue(_ rtpc: ContentRef, on playing: PlayingID) throws(SoundEngineError) -> Double {
        try reading { s throws(SoundEngineError) -> Double in
            _ = try rtpc.resolve(s.rtpcs, "RTPC") { $0.name }
            guard let p = s.playings[playing] else { throw .idNotFound("playing ID \(playing) has ended") }
            return rtpcValue(rtpc.key, p.gameObject, playing: playing, s, now: .now)
        }
    }

    func setState(_ group: ContentRef, _ value: ContentRef) throws(SoundEngineError) {
        try withState { s throws(SoundEngineError) in try setState(group, value, &s) }
    }

    /// Moves the group's bus offsets from where they are now to the new
    /// state's over the group's transition time.
    func setState(_ group: ContentRef, _ value: ContentRef, _ s: inout ContentState) throws(SoundEngineError) {
        let definition = try group.resolve(s.stateGroups, "state group") { $0.name }.value
        guard let state = definition.states.first(where: { value.matches($0) && ContentID($0) == value.key }) else {
            throw .idNotFound("state \(value) in group '\(definition.name)'")
        }
        let key = ContentID(definition.name)
        let runtime = s.states[key] ?? StateRuntime(current: definition.defaultState)
        guard runtime.current != state else { return }
        let now = ContinuousClock.now
        var from: [ContentID: Double] = [:]
        for bus in Set(definition.busVolumes.values.flatMap(\.keys)).map(ContentID.init) {
            from[bus] = stateOffset(bus: bus, group: key, runtime, s, now: now)
        }
        s.states[key] = StateRuntime(
            current: state, from: from, progress: Ramp(from: 0, to: 1, over: definition.transition, now: now))
    }

    func currentState(_ group: ContentRef) throws(SoundEngineError) -> String {
        try reading { s throws(SoundEngineError) -> String in
            let definition = try group.resolve(s.stateGroups, "state group") { $0.name }.value
            return s.states[ContentID(definition.name)]?.current ?? definition.defaultState
        }
    }

    func setSwitch(_ group: ContentRef, _ value: ContentRef, on object: GameObjectID) throws(SoundEngineError) {
        try withState { s throws(SoundEngineError) in try setSwitch(group, value, on: object, &s) }
    }

    func setSwitch(_ group: ContentRef, _ value: ContentRef, on object: GameObjectID, _ s: inout ContentState)
        throws(SoundEngineError)
    {
        let definition = try group.resolve(s.switchGroups, "switch group") { $0.name }.value
        guard let switchValue = definition.values.first(where: { value.matches($0) && ContentID($0) == value.key })
        else { throw .idNotFound("switch \(value) in group '\(definition.name)'") }
        try requireRegistered(object, s)
        s.gameObjects[object]?.switches[ContentID(definition.name)] = switchValue
    }

    func switchValue(_ group: ContentRef, on object: GameObjectID) throws(SoundEngineError) -> String {
        try reading { s throws(SoundEngineError) -> String in
            let definition = try group.resolve(s.switchGroups, "switch group") { $0.name }.value
            try requireRegistered(object, s)
            return s.gameObjects[object]?.switches[ContentID(definition.name)] ?? definition.defaultValue
        }
    }
}
