public import SoundContent
public import SoundCore

/// Content: banks, game objects, events, RTPCs, states and switches, the
/// Wwise way (docs/content-engine.md). Game code posts events on game
/// objects; the banks decide what plays.
///
/// Every method may be called from any thread. A call that throws changed
/// nothing. Unknown names and IDs throw `idNotFound` naming what was not
/// found; bad arguments throw `invalidParameter` naming the argument; every
/// call after ``terminate()`` throws `notInitialized`.
extension SoundEngineInstance {
    // MARK: Banks

    /// Loads a bank file (docs/banks.md), like Wwise `LoadBank`: parses and
    /// validates it, decodes its in-memory sounds, creates its buses. All or
    /// nothing: on any failure, everything it made is undone.
    ///
    /// Its buses may name the buses of banks loaded earlier (they are added
    /// to `options.existingBuses`).
    /// - Throws: `invalidFile` listing every problem of the file;
    ///   `invalidParameter` naming both banks when a name (sound, container,
    ///   event, bus, RTPC, state or switch group) is already defined by a
    ///   loaded bank, or the bank is loaded; `fileNotFound`/`invalidFile`
    ///   naming a sound file that does not decode; `invalidParameter` for a
    ///   path with a NUL character; `maxReached` for sounds or buses.
    @discardableResult
    public func loadBank(path: String, options: BankLoadOptions = BankLoadOptions()) throws(SoundEngineError) -> BankID {
        try checkAlive()
        return try content.loadBank(path: path, options: options)
    }

    /// Loads a bank built in code (tools, tests) with the same checks and
    /// guarantees as ``loadBank(path:options:)``: every value must keep the
    /// range a bank file's would (docs/banks.md; volumes, pitches, curves,
    /// weights, priorities, marker times, and every time 0…3600 s), else
    /// `invalidParameter` naming the bank, the definition and the field; and
    /// every name it uses must resolve (in it, or for buses, groups and
    /// posted events, in a loaded bank), else `idNotFound` naming it.
    @discardableResult
    public func loadBank(_ bank: Bank) throws(SoundEngineError) -> BankID {
        try checkAlive()
        return try content.loadBank(bank)
    }

    /// Unloads a bank: voices of its sounds fade out (the de-click fade) and
    /// end, so their playing IDs end and their end-of-event callbacks run;
    /// delayed actions of its events are cancelled; its RTPC, state and
    /// setVolume values are forgotten. Its buses are faded to silence and
    /// kept (the mixer cannot remove a bus) for the next bank that defines
    /// the same bus name.
    /// - Throws: `idNotFound` for a bank not loaded; `invalidParameter` while
    ///   another loaded bank's buses or sounds sit on its buses (unload that first).
    public func unloadBank(_ bank: BankID) throws(SoundEngineError) {
        try checkAlive()
        try content.unloadBank(bank)
    }

    // MARK: Game objects

    /// Registers a game object (Wwise `RegisterGameObj`); `name` is for logs.
    /// Registering it again does nothing.
    /// - Throws: `invalidParameter` for ID 0 or `UInt64.max`.
    public func registerGameObject(_ object: GameObjectID, name: String? = nil) throws(SoundEngineError) {
        try checkAlive()
        try content.registerGameObject(object, name: name)
    }

    /// Unregisters a game object (Wwise `UnregisterGameObj`): its playing IDs
    /// stop with the short de-click fade and end; its switches, RTPC values
    /// and sequence positions are forgotten; it stops being a listener.
    /// - Throws: `idNotFound` when it is not registered; `invalidParameter` for an invalid ID.
    public func unregisterGameObject(_ object: GameObjectID) throws(SoundEngineError) {
        try checkAlive()
        try content.unregisterGameObject(object)
    }

    /// Places a game object (Wwise `SetPosition`), emitter or listener, in
    /// Wwise's left-handed coordinates (X right, Y up, Z forward). Voices of
    /// 3D sounds on it, or all of them when it is the listener, follow
    /// within about one game frame (16 ms ramps).
    /// - Throws: `invalidParameter` for a position that is not finite or an
    ///   orientation that cannot be normalised (zero, non-finite or parallel
    ///   vectors); `idNotFound` when the object is not registered.
    public func setPosition(
        _ object: GameObjectID, position: Vector3, orientation: Orientation = .default
    ) throws(SoundEngineError) {
        try checkAlive()
        try content.setPosition(object, position: position, orientation: orientation)
    }

    /// Makes these registered game objects the listeners (Wwise
    /// `SetDefaultListeners`). Panning and distance use the first one that
    /// is registered; with none, an implicit listener sits at the origin
    /// facing +Z with +Y up.
    /// - Throws: `idNotFound` naming one that is not registered.
    public func setDefaultListeners(_ listeners: [GameObjectID]) throws(SoundEngineError) {
        try checkAlive()
        try content.setDefaultListeners(listeners)
    }

    // MARK: Events

    /// Posts an event on a game object (Wwise `PostEvent`): its actions run
    /// in order, each after its delay (counted from this call). Returns at
    /// once with the playing ID of this posting, which plays from then on
    /// (``isPlaying(_:)``): like Wwise, the call checks the event and the
    /// game object and queues the actions, which the engine's posting thread
    /// runs — or any later content call runs first, so calls take effect in
    /// the order they were made (docs/content-engine.md, "Queued posting").
    ///
    /// - Parameter callback: told ``EventCallback/endOfEvent(_:)`` exactly
    ///   once, when every voice of the posting has ended and no delayed
    ///   action is left (at once for an event that plays nothing), on the
    ///   engine's event thread, outside every engine lock.
    /// - Throws: `idNotFound` for an unknown event or an unregistered game
    ///   object; `invalidParameter` for an invalid game object ID. A voice
    ///   the mixer cannot start (all voices busy) is skipped and logged; the
    ///   post still succeeds.
    @discardableResult
    public func postEvent(
        _ event: String, on object: GameObjectID, callback: (@Sendable (EventCallback) -> Void)? = nil
    ) throws(SoundEngineError) -> PlayingID {
        try checkAlive()
        return try content.postEvent(.name(event), on: object, callback: callback)
    }

    /// Posts an event by its ID (``ContentID`` of its name); see ``postEvent(_:on:callback:)-(String,_,_)``.
    @discardableResult
    public func postEvent(
        _ event: ContentID, on object: GameObjectID, callback: (@Sendable (EventCallback) -> Void)? = nil
    ) throws(SoundEngineError) -> PlayingID {
        try checkAlive()
        return try content.postEvent(.id(event), on: object, callback: callback)
    }

    /// Stops one posting (Wwise `StopPlayingID`): its delayed actions are
    /// cancelled and its voices fade out over `fadeOut` (at least the
    /// de-click fade). A playing ID that has already ended is ignored (it may
    /// have ended while the call was on its way).
    /// - Throws: `invalidParameter` naming `fadeOut` when it is negative or
    ///   over an hour (the one rule for times, docs/input-validation.md).
    public func stopPlayingID(_ playing: PlayingID, fadeOut: Duration = .zero) throws(SoundEngineError) {
        try checkAlive()
        try content.stopPlayingID(playing, fadeOut: fadeOut)
    }

    /// Stops every posting on one game object (Wwise `StopAll(gameObject)`).
    /// ``stopAll(fadeOut:)`` stops every voice of the engine.
    /// - Throws: `idNotFound` when the object is not registered;
    ///   `invalidParameter` for an invalid game object ID, or naming
    ///   `fadeOut` when it is negative or over an hour.
    public func stopAll(gameObject: GameObjectID, fadeOut: Duration = .zero) throws(SoundEngineError) {
        try checkAlive()
        try content.stopAll(gameObject: gameObject, fadeOut: fadeOut)
    }

    /// Whether a posting has not ended yet.
    public func isPlaying(_ playing: PlayingID) -> Bool { content.isPlaying(playing) }

    // MARK: RTPCs

    /// Sets a game parameter (Wwise `SetRTPCValue`), clamped to its range:
    /// globally (`gameObject` nil) or for one game object, whose value then
    /// overrides the global one for its voices. With an `interpolation`, the
    /// value moves linearly from where it is to the new one over that time,
    /// and the bound volumes, pitches and filters follow their curves on the
    /// way (re-evaluated every 16 ms).
    /// - Throws: `idNotFound` for an unknown RTPC or unregistered game
    ///   object; `invalidParameter` naming `value` when it is NaN or
    ///   infinite (a finite value out of the RTPC's range is clamped, as
    ///   Wwise does), or naming `interpolation` when it is negative or over
    ///   an hour (the one rule for times, docs/input-validation.md).
    public func setRTPCValue(
        _ rtpc: String, _ value: Double, gameObject: GameObjectID? = nil, interpolation: Duration = .zero
    ) throws(SoundEngineError) {
        try checkAlive()
        try content.setRTPCValue(.name(rtpc), value, gameObject: gameObject, interpolation: interpolation)
    }

    /// Sets a game parameter by ID; see ``setRTPCValue(_:_:gameObject:interpolation:)-(String,_,_,_)``.
    public func setRTPCValue(
        _ rtpc: ContentID, _ value: Double, gameObject: GameObjectID? = nil, interpolation: Duration = .zero
    ) throws(SoundEngineError) {
        try checkAlive()
        try content.setRTPCValue(.id(rtpc), value, gameObject: gameObject, interpolation: interpolation)
    }

    /// Forgets a set value (Wwise `ResetRTPCValue`): a game object's falls
    /// back to the global value, the global one to the RTPC's default. Immediate.
    public func resetRTPCValue(_ rtpc: String, gameObject: GameObjectID? = nil) throws(SoundEngineError) {
        try checkAlive()
        try content.resetRTPCValue(.name(rtpc), gameObject: gameObject)
    }

    /// Resets by ID; see ``resetRTPCValue(_:gameObject:)-(String,_)``.
    public func resetRTPCValue(_ rtpc: ContentID, gameObject: GameObjectID? = nil) throws(SoundEngineError) {
        try checkAlive()
        try content.resetRTPCValue(.id(rtpc), gameObject: gameObject)
    }

    /// The value in force now (part way through an interpolation, where it
    /// has got to): the game object's own, else the global, else the default.
    public func rtpcValue(_ rtpc: String, gameObject: GameObjectID? = nil) throws(SoundEngineError) -> Double {
        try checkAlive()
        return try content.rtpcValue(.name(rtpc), gameObject: gameObject)
    }

    /// The value by ID; see ``rtpcValue(_:gameObject:)-(String,_)``.
    public func rtpcValue(_ rtpc: ContentID, gameObject: GameObjectID? = nil) throws(SoundEngineError) -> Double {
        try checkAlive()
        return try content.rtpcValue(.id(rtpc), gameObject: gameObject)
    }

    // MARK: States and switches

    /// Sets a state group's state (Wwise `SetState`), for the whole game: bus
    /// volume offsets move to the new state's over the group's transition time.
    /// - Throws: `idNotFound` naming the unknown group or state.
    public func setState(_ group: String, _ state: String) throws(SoundEngineError) {
        try checkAlive()
        try content.setState(.name(group), .name(state))
    }

    /// Sets a state by IDs; see ``setState(_:_:)-(String,String)``.
    public func setState(_ group: ContentID, _ state: ContentID) throws(SoundEngineError) {
        try checkAlive()
        try content.setState(.id(group), .id(state))
    }

    /// The current state of a group.
    public func currentState(_ group: String) throws(SoundEngineError) -> String {
        try checkAlive()
        return try content.currentState(.name(group))
    }

    /// Sets a game object's switch (Wwise `SetSwitch`): switch containers
    /// played on it from now on pick the child of that value.
    /// - Throws: `idNotFound` naming the unknown group, value or game object.
    public func setSwitch(_ group: String, _ value: String, gameObject: GameObjectID) throws(SoundEngineError) {
        try checkAlive()
        try content.setSwitch(.name(group), .name(value), on: gameObject)
    }

    /// Sets a switch by IDs; see ``setSwitch(_:_:gameObject:)-(String,String,_)``.
    public func setSwitch(_ group: ContentID, _ value: ContentID, gameObject: GameObjectID) throws(SoundEngineError) {
        try checkAlive()
        try content.setSwitch(.id(group), .id(value), on: gameObject)
    }

    /// A game object's current value of a switch group (the group's default
    /// until one is set).
    public func switchValue(_ group: String, gameObject: GameObjectID) throws(SoundEngineError) -> String {
        try checkAlive()
        return try content.switchValue(.name(group), on: gameObject)
    }
}
