package import SoundCore

/// Content: banks, game objects, events, RTPCs, states and switches, the
/// Wwise way (docs/content-engine.md). Game code posts events on game
/// objects; the banks decide what plays.
///
/// A call that throws changed nothing. Unknown names and IDs throw
/// `idNotFound` naming what was not found, as the game wrote it; bad
/// arguments throw `invalidParameter` naming the argument.
extension SoundEngine {
    // MARK: Banks

    /// Loads a bank file (docs/banks.md), like Wwise `LoadBank`: parses and
    /// validates it, decodes its in-memory sounds, creates its buses. All or
    /// nothing: on any failure, everything it made is undone. Its buses may
    /// name the buses of banks loaded earlier.
    ///
    /// - Parameter allowFilesOutsideBankFolder: let the bank's sound files
    ///   live outside its folder (absolute paths, or paths that climb out
    ///   with `..`). Off by default: banks can come from mods, and a bank
    ///   should not read arbitrary files. Streamed files are opened beneath
    ///   the bank's folder without following symbolic links either way.
    /// - Throws: `invalidFile` listing every problem of the file;
    ///   `invalidParameter` naming both banks when a name (sound, container,
    ///   event, bus, RTPC, state or switch group) is already defined by a
    ///   loaded bank, or the bank is loaded; `fileNotFound`/`invalidFile`
    ///   naming a sound file that does not decode; `invalidParameter` for a
    ///   path with a NUL character; `maxReached` for sounds or buses.
    @discardableResult
    public static func loadBank(path: String, allowFilesOutsideBankFolder: Bool = false) throws(SoundEngineError)
        -> BankID
    {
        try current.loadBank(path: path, options: .init(allowFilesOutsideBankFolder: allowFilesOutsideBankFolder))
    }

    /// Unloads a bank (Wwise `UnloadBank`): voices of its sounds fade out
    /// (the de-click fade) and end, so their playing IDs end and their
    /// end-of-event callbacks run; delayed actions of its events are
    /// cancelled; its RTPC, state and setVolume values are forgotten. Its
    /// buses are faded to silence and kept for the next bank that defines
    /// the same bus name.
    /// - Throws: `idNotFound` for a bank not loaded; `invalidParameter` while
    ///   another loaded bank's buses or sounds sit on its buses (unload that first).
    public static func unloadBank(_ bank: BankID) throws(SoundEngineError) { try current.unloadBank(bank) }

    // MARK: Game objects

    /// Registers a game object (Wwise `RegisterGameObj`); `name` is for logs.
    /// Registering it again does nothing.
    /// - Throws: `invalidParameter` for ID 0 or `UInt64.max`.
    public static func registerGameObject(_ object: GameObjectID, name: String? = nil) throws(SoundEngineError) {
        try current.registerGameObject(object, name: name)
    }

    /// Unregisters a game object (Wwise `UnregisterGameObj`): its playing IDs
    /// stop with the short de-click fade and end; its switches, RTPC values
    /// and sequence positions are forgotten; it stops being a listener.
    /// - Throws: `idNotFound` when it is not registered; `invalidParameter` for an invalid ID.
    public static func unregisterGameObject(_ object: GameObjectID) throws(SoundEngineError) {
        try current.unregisterGameObject(object)
    }

    /// Places a game object (Wwise `SetPosition`), emitter or listener, in
    /// Wwise's left-handed coordinates (X right, Y up, Z forward). Voices of
    /// 3D sounds on it, or all of them when it is the listener, follow
    /// within about one game frame (16 ms ramps).
    /// - Throws: `invalidParameter` for a position that is not finite or an
    ///   orientation that cannot be normalised (zero, non-finite or parallel
    ///   vectors); `idNotFound` when the object is not registered.
    public static func setPosition(
        _ object: GameObjectID, _ position: Vector3, orientation: Orientation = .default
    ) throws(SoundEngineError) {
        try current.setPosition(object, position, orientation: orientation)
    }

    /// Sets a game object's game-defined aux sends (Wwise
    /// `SetGameObjectAuxSendValues`), replacing the ones it had (`[]`: none):
    /// every voice it plays, now and later, also sends its output, after its
    /// volume, pan and filter, times each level to each aux bus — a reverb
    /// zone the player walks into. Up to four; a voice's sends are its game
    /// object's and its sound's own (`auxSends` in the bank; one bus in both
    /// adds the levels), each times its attenuation's `auxSend` curve and the
    /// RTPCs bound to `auxSendVolume`, the four loudest. Levels ramp over a
    /// game frame (16 ms).
    ///
    /// ```swift
    /// try SoundEngine.setGameObjectAuxSendValues(player, [.init(bus: "Cave", level: 0.5)])
    /// ```
    /// - Throws: `invalidParameter` for more than four sends, a level NaN,
    ///   infinite or outside 0…16, a bus named twice, or a bus that is not
    ///   an aux bus; `idNotFound` for an unregistered game object or a bus
    ///   not loaded; `notInitialized`. Nothing changes when it throws.
    public static func setGameObjectAuxSendValues(_ object: GameObjectID, _ sends: [AuxSend]) throws(SoundEngineError) {
        try current.setGameObjectAuxSendValues(object, sends)
    }

    /// Makes these registered game objects the listeners (Wwise
    /// `SetDefaultListeners`). Panning and distance use the first one that
    /// is registered; with none, an implicit listener sits at the origin
    /// facing +Z with +Y up.
    /// - Throws: `idNotFound` naming one that is not registered.
    public static func setDefaultListeners(_ listeners: [GameObjectID]) throws(SoundEngineError) {
        try current.setDefaultListeners(listeners)
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
    /// - Parameters:
    ///   - callbackTypes: which ``CallbackInfo`` cases `callback` is told
    ///     (Wwise `in_uFlags`); by default its end, markers and failed
    ///     voices; add ``CallbackTypes/duration`` for each voice's length.
    ///   - callback: told ``CallbackInfo/endOfEvent(_:)`` exactly
    ///     once, when every voice of the posting has ended and no delayed
    ///     action is left (at once for an event that plays nothing), and
    ///     ``CallbackInfo/marker(_:name:sound:)`` as its voices cross their
    ///     sounds' markers; on the engine's event thread, outside every lock.
    /// - Throws: `idNotFound` for an unknown event or an unregistered game
    ///   object; `invalidParameter` for an invalid game object ID. A voice
    ///   the mixer cannot start (all voices busy) is skipped and logged; the
    ///   post still succeeds, as in Wwise.
    @discardableResult
    public static func postEvent(
        _ event: ContentReference, on object: GameObjectID, callbackTypes: CallbackTypes = .default,
        callback: (@Sendable (CallbackInfo) -> Void)? = nil
    ) throws(SoundEngineError) -> PlayingID {
        try current.postEvent(event, on: object, callbackTypes: callbackTypes, callback: callback)
    }

    /// Stops every posting on one game object (Wwise `StopAll(gameObject)`),
    /// fading over `fade`; ``stopAll(fade:)`` stops everything.
    /// - Throws: `idNotFound` when the object is not registered;
    ///   `invalidParameter` for an invalid game object ID, or naming `fade`
    ///   when it is negative or over an hour.
    public static func stopAll(on object: GameObjectID, fade: Duration = .zero) throws(SoundEngineError) {
        try current.stopAll(on: object, fade: fade)
    }

    // MARK: RTPCs

    /// Sets a game parameter (Wwise `SetRTPCValue`), clamped to its range:
    /// globally (no `on:`) or for one game object, whose value then
    /// overrides the global one for its voices. With a `ramp`, the value
    /// moves linearly from where it is to the new one over that time, and
    /// the bound volumes, pitches and filters follow their curves on the way
    /// (re-evaluated every 16 ms).
    /// - Throws: `idNotFound` for an unknown RTPC or unregistered game
    ///   object; `invalidParameter` naming `value` when it is NaN or
    ///   infinite (a finite value out of the RTPC's range is clamped, as
    ///   Wwise does), or naming `ramp` when it is negative or over an hour.
    public static func setRTPCValue(
        _ rtpc: ContentReference, _ value: Double, on object: GameObjectID? = nil, ramp: Duration = .zero
    ) throws(SoundEngineError) {
        try current.setRTPCValue(rtpc, value, on: object, ramp: ramp)
    }

    /// Forgets a set value (Wwise `ResetRTPCValue`): a game object's falls
    /// back to the global value, the global one to the RTPC's default. Immediate.
    public static func resetRTPCValue(_ rtpc: ContentReference, on object: GameObjectID? = nil) throws(SoundEngineError) {
        try current.resetRTPCValue(rtpc, on: object)
    }

    /// The value in force now (Wwise `GetRTPCValue`; part way through a ramp,
    /// where it has got to): the game object's own, else the global, else
    /// the default.
    public static func rtpcValue(_ rtpc: ContentReference, on object: GameObjectID? = nil) throws(SoundEngineError)
        -> Double
    {
        try current.rtpcValue(rtpc, on: object)
    }

    /// Sets a game parameter for one posting's voices only (Wwise
    /// `SetRTPCValueByPlayingID`): it overrides the game object's and the
    /// global value for them, and moves from the value they hear now over
    /// `ramp`. Voices the posting's delayed actions start later hear it too.
    /// An ended posting is ignored.
    /// - Throws: `idNotFound` for an unknown RTPC; `invalidParameter` for a
    ///   play's ID (only a posting's voices follow RTPCs), a NaN or infinite
    ///   `value`, or a `ramp` negative or over an hour.
    public static func setRTPCValue(
        _ rtpc: ContentReference, _ value: Double, on playing: PlayingID, ramp: Duration = .zero
    ) throws(SoundEngineError) {
        try current.setRTPCValue(rtpc, value, on: playing, ramp: ramp)
    }

    /// Forgets a posting's own value (Wwise `ResetRTPCValue` with a playing
    /// ID): its voices follow their game object's or the global value again.
    /// An ended posting is ignored.
    public static func resetRTPCValue(_ rtpc: ContentReference, on playing: PlayingID) throws(SoundEngineError) {
        try current.resetRTPCValue(rtpc, on: playing)
    }

    /// The value a posting's voices hear now: its own, else its game
    /// object's, else the global, else the default.
    /// - Throws: `idNotFound` for an unknown RTPC or a posting that has
    ///   ended; `invalidParameter` for a play's ID.
    public static func rtpcValue(_ rtpc: ContentReference, on playing: PlayingID) throws(SoundEngineError) -> Double {
        try current.rtpcValue(rtpc, on: playing)
    }

    // MARK: States and switches

    /// Sets a state group's state (Wwise `SetState`), for the whole game: bus
    /// volume offsets move to the new state's over the group's transition time.
    /// - Throws: `idNotFound` naming the unknown group or state.
    public static func setState(_ group: ContentReference, _ state: ContentReference) throws(SoundEngineError) {
        try current.setState(group, state)
    }

    /// A state group's current state, by name (Wwise `GetState`).
    public static func currentState(_ group: ContentReference) throws(SoundEngineError) -> String {
        try current.currentState(group)
    }

    /// Sets a game object's switch (Wwise `SetSwitch`): switch containers
    /// played on it from now on pick the child of that value.
    /// - Throws: `idNotFound` naming the unknown group, value or game object.
    public static func setSwitch(_ group: ContentReference, _ value: ContentReference, on object: GameObjectID)
        throws(SoundEngineError)
    {
        try current.setSwitch(group, value, on: object)
    }

    /// A game object's current value of a switch group, by name (Wwise
    /// `GetSwitch`; the group's default until one is set).
    public static func switchValue(_ group: ContentReference, on object: GameObjectID) throws(SoundEngineError)
        -> String
    {
        try current.switchValue(group, on: object)
    }
}
