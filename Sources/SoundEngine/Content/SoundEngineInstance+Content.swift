package import SoundContent
package import SoundCore

/// Content: banks, game objects, events, RTPCs, states and switches, the
/// Wwise way (docs/content-engine.md); each member is the one the façade
/// member of the same name forwards to, and is documented there.
extension SoundEngineInstance {
    // MARK: Banks

    /// ``SoundEngine/loadBank(path:allowFilesOutsideBankFolder:)``, with
    /// every option of the parser (the package's tests).
    @discardableResult
    package func loadBank(path: String, options: BankLoadOptions = BankLoadOptions()) throws(SoundEngineError)
        -> SoundEngine.BankID
    {
        try checkAlive()
        return try content.loadBank(path: path, options: options)
    }

    /// Loads a bank built in code (the package's tools and tests) with the
    /// same checks and guarantees as a bank file: every value must keep the
    /// range a bank file's would (docs/banks.md; volumes, pitches, curves,
    /// weights, priorities, marker times, and every time 0…3600 s), else
    /// `invalidParameter` naming the bank, the definition and the field; and
    /// every name it uses must resolve (in it, or for buses, groups and
    /// posted events, in a loaded bank), else `idNotFound` naming it.
    @discardableResult
    package func loadBank(_ bank: Bank) throws(SoundEngineError) -> SoundEngine.BankID {
        try checkAlive()
        return try content.loadBank(bank)
    }

    /// ``SoundEngine/unloadBank(_:)``.
    package func unloadBank(_ bank: SoundEngine.BankID) throws(SoundEngineError) {
        try checkAlive()
        try content.unloadBank(bank)
    }

    // MARK: Game objects

    /// ``SoundEngine/registerGameObject(_:name:)``.
    package func registerGameObject(_ object: SoundEngine.GameObjectID, name: String? = nil) throws(SoundEngineError) {
        try checkAlive()
        try content.registerGameObject(object, name: name)
    }

    /// ``SoundEngine/unregisterGameObject(_:)``.
    package func unregisterGameObject(_ object: SoundEngine.GameObjectID) throws(SoundEngineError) {
        try checkAlive()
        try content.unregisterGameObject(object)
    }

    /// ``SoundEngine/setPosition(_:_:orientation:)``.
    package func setPosition(
        _ object: SoundEngine.GameObjectID, _ position: SoundEngine.Vector3,
        orientation: SoundEngine.Orientation = .default
    ) throws(SoundEngineError) {
        try checkAlive()
        try content.setPosition(object, position: position, orientation: orientation)
    }

    /// ``SoundEngine/setGameObjectAuxSendValues(_:_:)``.
    package func setGameObjectAuxSendValues(
        _ object: SoundEngine.GameObjectID, _ sends: [SoundEngine.AuxSend]
    ) throws(SoundEngineError) {
        try checkAlive()
        try content.setAuxSends(object, sends)
    }

    /// ``SoundEngine/setDefaultListeners(_:)``.
    package func setDefaultListeners(_ listeners: [SoundEngine.GameObjectID]) throws(SoundEngineError) {
        try checkAlive()
        try content.setDefaultListeners(listeners)
    }

    // MARK: Events

    /// ``SoundEngine/postEvent(_:on:callbackTypes:callback:)``.
    @discardableResult
    package func postEvent(
        _ event: SoundEngine.ContentReference, on object: SoundEngine.GameObjectID,
        callbackTypes: SoundEngine.CallbackTypes = .default,
        callback: (@Sendable (SoundEngine.CallbackInfo) -> Void)? = nil
    ) throws(SoundEngineError) -> SoundEngine.PlayingID {
        try checkAlive()
        return try content.postEvent(event, on: object, callback: filtered(callback, callbackTypes), durations: callbackTypes.contains(.duration))
    }

    /// ``SoundEngine/stopAll(on:fade:)``.
    package func stopAll(on object: SoundEngine.GameObjectID, fade: Duration = .zero) throws(SoundEngineError) {
        try checkAlive()
        try content.stopAll(on: object, fade: fade)
    }

    // MARK: RTPCs

    /// ``SoundEngine/setRTPCValue(_:_:on:ramp:)``.
    package func setRTPCValue(
        _ rtpc: SoundEngine.ContentReference, _ value: Double, on object: SoundEngine.GameObjectID? = nil,
        ramp: Duration = .zero
    ) throws(SoundEngineError) {
        try checkAlive()
        try content.setRTPCValue(rtpc, value, on: object, ramp: ramp)
    }

    /// ``SoundEngine/resetRTPCValue(_:on:)``.
    package func resetRTPCValue(_ rtpc: SoundEngine.ContentReference, on object: SoundEngine.GameObjectID? = nil)
        throws(SoundEngineError)
    {
        try checkAlive()
        try content.resetRTPCValue(rtpc, on: object)
    }

    /// ``SoundEngine/rtpcValue(_:on:)``.
    package func rtpcValue(_ rtpc: SoundEngine.ContentReference, on object: SoundEngine.GameObjectID? = nil)
        throws(SoundEngineError) -> Double
    {
        try checkAlive()
        return try content.rtpcValue(rtpc, on: object)
    }

    /// ``SoundEngine/setRTPCValue(_:_:on:ramp:)`` for a posting.
    package func setRTPCValue(
        _ rtpc: SoundEngine.ContentReference, _ value: Double, on playing: SoundEngine.PlayingID, ramp: Duration = .zero
    ) throws(SoundEngineError) {
        try checkAlive()
        try requirePosting(playing, "setRTPCValue")
        try content.setRTPCValue(rtpc, value, on: playing, ramp: ramp)
    }

    /// ``SoundEngine/resetRTPCValue(_:on:)`` for a posting.
    package func resetRTPCValue(_ rtpc: SoundEngine.ContentReference, on playing: SoundEngine.PlayingID)
        throws(SoundEngineError)
    {
        try checkAlive()
        try requirePosting(playing, "resetRTPCValue")
        try content.resetRTPCValue(rtpc, on: playing)
    }

    /// ``SoundEngine/rtpcValue(_:on:)`` for a posting.
    package func rtpcValue(_ rtpc: SoundEngine.ContentReference, on playing: SoundEngine.PlayingID)
        throws(SoundEngineError) -> Double
    {
        try checkAlive()
        try requirePosting(playing, "rtpcValue")
        return try content.rtpcValue(rtpc, on: playing)
    }

    /// Refuses a play's ID where only a posting's makes sense.
    private func requirePosting(_ playing: SoundEngine.PlayingID, _ call: String) throws(SoundEngineError) {
        guard playing.voice != nil else { return }
        throw .invalidParameter(
            "\(call) playing = \(playing): a play of a sound, which no RTPC drives; only a posting of an event's voices follow RTPCs")
    }

    // MARK: States and switches

    /// ``SoundEngine/setState(_:_:)``.
    package func setState(_ group: SoundEngine.ContentReference, _ state: SoundEngine.ContentReference)
        throws(SoundEngineError)
    {
        try checkAlive()
        try content.setState(group, state)
    }

    /// ``SoundEngine/currentState(_:)``.
    package func currentState(_ group: SoundEngine.ContentReference) throws(SoundEngineError) -> String {
        try checkAlive()
        return try content.currentState(group)
    }

    /// ``SoundEngine/setSwitch(_:_:on:)``.
    package func setSwitch(
        _ group: SoundEngine.ContentReference, _ value: SoundEngine.ContentReference, on object: SoundEngine.GameObjectID
    ) throws(SoundEngineError) {
        try checkAlive()
        try content.setSwitch(group, value, on: object)
    }

    /// ``SoundEngine/switchValue(_:on:)``.
    package func switchValue(_ group: SoundEngine.ContentReference, on object: SoundEngine.GameObjectID)
        throws(SoundEngineError) -> String
    {
        try checkAlive()
        return try content.switchValue(group, on: object)
    }
}
