public import SoundContent
public import SoundCore

/// The content calls of the process-wide engine, each forwarding to the
/// ``SoundEngineInstance`` method of the same name (which documents it).
/// Every one throws `notInitialized` before ``initialize(_:_:)``.
extension SoundEngine {
    // MARK: Banks

    /// Loads a bank file (Wwise `LoadBank`); see ``SoundEngineInstance/loadBank(path:options:)``.
    @discardableResult
    public static func loadBank(path: String, options: BankLoadOptions = BankLoadOptions()) throws(SoundEngineError)
        -> BankID
    {
        try current.loadBank(path: path, options: options)
    }

    /// Loads a bank built in code; see ``SoundEngineInstance/loadBank(_:)``.
    @discardableResult
    public static func loadBank(_ bank: Bank) throws(SoundEngineError) -> BankID { try current.loadBank(bank) }

    /// Unloads a bank (Wwise `UnloadBank`); see ``SoundEngineInstance/unloadBank(_:)``.
    public static func unloadBank(_ bank: BankID) throws(SoundEngineError) { try current.unloadBank(bank) }

    // MARK: Game objects

    /// Registers a game object (Wwise `RegisterGameObj`).
    public static func registerGameObject(_ object: GameObjectID, name: String? = nil) throws(SoundEngineError) {
        try current.registerGameObject(object, name: name)
    }

    /// Unregisters a game object (Wwise `UnregisterGameObj`).
    public static func unregisterGameObject(_ object: GameObjectID) throws(SoundEngineError) {
        try current.unregisterGameObject(object)
    }

    /// Places a game object (Wwise `SetPosition`).
    public static func setPosition(
        _ object: GameObjectID, position: Vector3, orientation: Orientation = .default
    ) throws(SoundEngineError) {
        try current.setPosition(object, position: position, orientation: orientation)
    }

    /// Sets the listeners (Wwise `SetDefaultListeners`).
    public static func setDefaultListeners(_ listeners: [GameObjectID]) throws(SoundEngineError) {
        try current.setDefaultListeners(listeners)
    }

    // MARK: Events

    /// Posts an event by name (Wwise `PostEvent`): checks the event and the
    /// game object, queues the event's actions for the engine's posting
    /// thread and returns the playing ID (``SoundEngineInstance/postEvent(_:on:callback:)-(String,_,_)``).
    @discardableResult
    public static func postEvent(
        _ event: String, on object: GameObjectID, callback: (@Sendable (EventCallback) -> Void)? = nil
    ) throws(SoundEngineError) -> PlayingID {
        try current.postEvent(event, on: object, callback: callback)
    }

    /// Posts an event by ID (Wwise `PostEvent`).
    @discardableResult
    public static func postEvent(
        _ event: ContentID, on object: GameObjectID, callback: (@Sendable (EventCallback) -> Void)? = nil
    ) throws(SoundEngineError) -> PlayingID {
        try current.postEvent(event, on: object, callback: callback)
    }

    /// Stops one posting (Wwise `StopPlayingID`); see ``SoundEngineInstance/stopPlayingID(_:fadeOut:)``.
    public static func stopPlayingID(_ playing: PlayingID, fadeOut: Duration = .zero) throws(SoundEngineError) {
        try current.stopPlayingID(playing, fadeOut: fadeOut)
    }

    /// Stops every posting on a game object (Wwise `StopAll(gameObject)`).
    public static func stopAll(gameObject: GameObjectID, fadeOut: Duration = .zero) throws(SoundEngineError) {
        try current.stopAll(gameObject: gameObject, fadeOut: fadeOut)
    }

    /// Whether a posting has not ended yet; `false` when not initialized.
    public static func isPlaying(_ playing: PlayingID) -> Bool { (try? current.isPlaying(playing)) ?? false }

    // MARK: RTPCs

    /// Sets a game parameter by name (Wwise `SetRTPCValue`), clamped to its
    /// range; see ``SoundEngineInstance/setRTPCValue(_:_:gameObject:interpolation:)-(String,_,_,_)``.
    public static func setRTPCValue(
        _ rtpc: String, _ value: Double, gameObject: GameObjectID? = nil, interpolation: Duration = .zero
    ) throws(SoundEngineError) {
        try current.setRTPCValue(rtpc, value, gameObject: gameObject, interpolation: interpolation)
    }

    /// Sets a game parameter by ID (Wwise `SetRTPCValue`).
    public static func setRTPCValue(
        _ rtpc: ContentID, _ value: Double, gameObject: GameObjectID? = nil, interpolation: Duration = .zero
    ) throws(SoundEngineError) {
        try current.setRTPCValue(rtpc, value, gameObject: gameObject, interpolation: interpolation)
    }

    /// Forgets a set value by name (Wwise `ResetRTPCValue`).
    public static func resetRTPCValue(_ rtpc: String, gameObject: GameObjectID? = nil) throws(SoundEngineError) {
        try current.resetRTPCValue(rtpc, gameObject: gameObject)
    }

    /// Forgets a set value by ID (Wwise `ResetRTPCValue`).
    public static func resetRTPCValue(_ rtpc: ContentID, gameObject: GameObjectID? = nil) throws(SoundEngineError) {
        try current.resetRTPCValue(rtpc, gameObject: gameObject)
    }

    /// A game parameter's value in force, by name (Wwise `GetRTPCValue`).
    public static func rtpcValue(_ rtpc: String, gameObject: GameObjectID? = nil) throws(SoundEngineError) -> Double {
        try current.rtpcValue(rtpc, gameObject: gameObject)
    }

    /// A game parameter's value in force, by ID (Wwise `GetRTPCValue`).
    public static func rtpcValue(_ rtpc: ContentID, gameObject: GameObjectID? = nil) throws(SoundEngineError)
        -> Double
    {
        try current.rtpcValue(rtpc, gameObject: gameObject)
    }

    // MARK: States and switches

    /// Sets a state by names (Wwise `SetState`).
    public static func setState(_ group: String, _ state: String) throws(SoundEngineError) {
        try current.setState(group, state)
    }

    /// Sets a state by IDs (Wwise `SetState`).
    public static func setState(_ group: ContentID, _ state: ContentID) throws(SoundEngineError) {
        try current.setState(group, state)
    }

    /// A state group's current state (Wwise `GetState`).
    public static func currentState(_ group: String) throws(SoundEngineError) -> String {
        try current.currentState(group)
    }

    /// Sets a game object's switch by names (Wwise `SetSwitch`).
    public static func setSwitch(_ group: String, _ value: String, gameObject: GameObjectID) throws(SoundEngineError) {
        try current.setSwitch(group, value, gameObject: gameObject)
    }

    /// Sets a game object's switch by IDs (Wwise `SetSwitch`).
    public static func setSwitch(_ group: ContentID, _ value: ContentID, gameObject: GameObjectID)
        throws(SoundEngineError)
    {
        try current.setSwitch(group, value, gameObject: gameObject)
    }

    /// A game object's current switch value (Wwise `GetSwitch`).
    public static func switchValue(_ group: String, gameObject: GameObjectID) throws(SoundEngineError) -> String {
        try current.switchValue(group, gameObject: gameObject)
    }
}
