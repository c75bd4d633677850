import SoundEngine

/// Every call a game makes, so that one table of hostile calls
/// (``EntryPoint/all``) drives either door to the engine: a
/// ``SoundEngineInstance`` (whose own methods satisfy it) or the
/// process-wide ``SoundEngine`` façade (``Facade``, one forwarder a call).
protocol EngineDoor: Sendable {
    var liveSession: AudioSession { get throws(SoundEngineError) }
    /// Reads every getter the door has (none may trap, none may throw but `notInitialized`).
    func readGetters() throws(SoundEngineError)

    func suspend(renderAnyway: Bool, fadeOut: Duration?) throws(SoundEngineError)
    func wakeupFromSuspend() throws(SoundEngineError)
    func setApplicationState(_ state: ApplicationState) throws(SoundEngineError)
    func changeAudioSessionProperties(_ configuration: SessionConfiguration) throws(SoundEngineError)
    func muteBackgroundMusic(_ mute: Bool) throws(SoundEngineError)
    func readInput(into buffer: UnsafeMutableBufferPointer<Float>) -> Int

    func loadSound(path: String, streaming: Bool, loop: LoopRegion?, quality: ResamplerQuality)
        throws(SoundEngineError) -> SoundID
    func loadSound(_ audio: DecodedAudio, name: String, loop: LoopRegion?, quality: ResamplerQuality)
        throws(SoundEngineError) -> SoundID
    func unloadSound(_ sound: SoundID) throws(SoundEngineError)
    func play(_ sound: SoundID, on bus: BusID, _ parameters: VoiceParameters, completion: (@Sendable (VoiceEnd) -> Void)?)
        throws(SoundEngineError) -> VoiceID
    func stop(_ voice: VoiceID, fadeOut: Duration) throws(SoundEngineError)
    func stopAll(fadeOut: Duration) throws(SoundEngineError)
    func setVolume(_ voice: VoiceID, _ volume: Float, ramp: Duration?) throws(SoundEngineError)
    func setPan(_ voice: VoiceID, _ pan: Float, ramp: Duration?) throws(SoundEngineError)
    func setPitch(_ voice: VoiceID, _ pitch: Double) throws(SoundEngineError)
    func setLowPass(_ voice: VoiceID, cutoffHz: Float?, ramp: Duration?) throws(SoundEngineError)
    func pause(_ voice: VoiceID, fade: Duration) throws(SoundEngineError)
    func resume(_ voice: VoiceID, fade: Duration) throws(SoundEngineError)
    func isPlaying(_ voice: VoiceID) -> Bool

    func createBus(name: String, parent: BusID) throws(SoundEngineError) -> BusID
    func bus(named name: String) -> BusID?
    func setBusVolume(_ bus: BusID, _ volume: Float, ramp: Duration?) throws(SoundEngineError)
    func setBus(_ bus: BusID, muted: Bool, ramp: Duration?) throws(SoundEngineError)
    func setBus(_ bus: BusID, mutedForBackgroundMusic: Bool) throws(SoundEngineError)
    func meter(_ bus: BusID) throws(SoundEngineError) -> BusMeter
    func setBusMeterCallback(_ bus: BusID, _ callback: (@Sendable (BusMeter) -> Void)?) throws(SoundEngineError)

    func loadBank(path: String, options: BankLoadOptions) throws(SoundEngineError) -> BankID
    func loadBank(_ bank: Bank) throws(SoundEngineError) -> BankID
    func unloadBank(_ bank: BankID) throws(SoundEngineError)
    func registerGameObject(_ object: GameObjectID, name: String?) throws(SoundEngineError)
    func unregisterGameObject(_ object: GameObjectID) throws(SoundEngineError)
    func setPosition(_ object: GameObjectID, position: Vector3, orientation: Orientation) throws(SoundEngineError)
    func setDefaultListeners(_ listeners: [GameObjectID]) throws(SoundEngineError)
    func postEvent(_ event: String, on object: GameObjectID, callback: (@Sendable (EventCallback) -> Void)?)
        throws(SoundEngineError) -> PlayingID
    func postEvent(_ event: ContentID, on object: GameObjectID, callback: (@Sendable (EventCallback) -> Void)?)
        throws(SoundEngineError) -> PlayingID
    func stopPlayingID(_ playing: PlayingID, fadeOut: Duration) throws(SoundEngineError)
    func stopAll(gameObject: GameObjectID, fadeOut: Duration) throws(SoundEngineError)
    func isPlaying(_ playing: PlayingID) -> Bool
    func setRTPCValue(_ rtpc: String, _ value: Double, gameObject: GameObjectID?, interpolation: Duration)
        throws(SoundEngineError)
    func setRTPCValue(_ rtpc: ContentID, _ value: Double, gameObject: GameObjectID?, interpolation: Duration)
        throws(SoundEngineError)
    func resetRTPCValue(_ rtpc: String, gameObject: GameObjectID?) throws(SoundEngineError)
    func resetRTPCValue(_ rtpc: ContentID, gameObject: GameObjectID?) throws(SoundEngineError)
    func rtpcValue(_ rtpc: String, gameObject: GameObjectID?) throws(SoundEngineError) -> Double
    func rtpcValue(_ rtpc: ContentID, gameObject: GameObjectID?) throws(SoundEngineError) -> Double
    func setState(_ group: String, _ state: String) throws(SoundEngineError)
    func setState(_ group: ContentID, _ state: ContentID) throws(SoundEngineError)
    func currentState(_ group: String) throws(SoundEngineError) -> String
    func setSwitch(_ group: String, _ value: String, gameObject: GameObjectID) throws(SoundEngineError)
    func setSwitch(_ group: ContentID, _ value: ContentID, gameObject: GameObjectID) throws(SoundEngineError)
    func switchValue(_ group: String, gameObject: GameObjectID) throws(SoundEngineError) -> String
}

extension SoundEngineInstance: EngineDoor {
    var liveSession: AudioSession { audioSession }

    func readGetters() {
        let session = audioSession
        _ = (status, grantedStream, outputLatency, statistics, applicationState, audioSessionConfiguration)
        _ = (isBackgroundMusicMuted, isTerminated, settings.maxVoices, platformSettings.sampleRate)
        _ = (session.configuration, session.isActive, session.isInterrupted, session.currentRoute)
        _ = (session.availableOutputs, session.availableInputs, session.isInputAvailable, session.isInputMuted)
        _ = (session.outputPortOverride, session.preferredInput, session.isOtherAudioPlaying)
        _ = (session.secondaryAudioShouldBeSilencedHint, session.isEchoCancellationRequested)
        _ = session.isEchoCancellationAvailable
        _ = events()
    }
}

/// The process-wide ``SoundEngine`` façade as an ``EngineDoor``: each call
/// is the static call of the same name.
struct Facade: EngineDoor {
    var liveSession: AudioSession { get throws(SoundEngineError) { try SoundEngine.audioSession } }

    func readGetters() throws(SoundEngineError) {
        _ = (SoundEngine.isInitialized, SoundEngine.isBackgroundMusicMuted, SoundEngine.outputLatency)
        _ = SoundEngine.events()
        _ = (try SoundEngine.status(), try SoundEngine.grantedStream(), try SoundEngine.statistics())
        _ = try SoundEngine.current
    }

    func suspend(renderAnyway: Bool, fadeOut: Duration?) throws(SoundEngineError) {
        try SoundEngine.suspend(renderAnyway: renderAnyway, fadeOut: fadeOut)
    }
    func wakeupFromSuspend() throws(SoundEngineError) { try SoundEngine.wakeupFromSuspend() }
    func setApplicationState(_ state: ApplicationState) throws(SoundEngineError) {
        // Both of the façade's doors for it.
        switch state {
        case .background: try SoundEngine.applicationDidEnterBackground()
        case .foreground: try SoundEngine.applicationWillEnterForeground()
        }
        try SoundEngine.setApplicationState(state)
    }
    func changeAudioSessionProperties(_ c: SessionConfiguration) throws(SoundEngineError) {
        try SoundEngine.changeAudioSessionProperties(c)
    }
    func muteBackgroundMusic(_ mute: Bool) throws(SoundEngineError) { try SoundEngine.muteBackgroundMusic(mute) }
    func readInput(into buffer: UnsafeMutableBufferPointer<Float>) -> Int { SoundEngine.readInput(into: buffer) }

    func loadSound(path: String, streaming: Bool, loop: LoopRegion?, quality: ResamplerQuality)
        throws(SoundEngineError) -> SoundID
    {
        try SoundEngine.loadSound(path: path, streaming: streaming, loop: loop, quality: quality)
    }
    func loadSound(_ audio: DecodedAudio, name: String, loop: LoopRegion?, quality: ResamplerQuality)
        throws(SoundEngineError) -> SoundID
    {
        try SoundEngine.loadSound(audio, name: name, loop: loop, quality: quality)
    }
    func unloadSound(_ sound: SoundID) throws(SoundEngineError) { try SoundEngine.unloadSound(sound) }
    func play(_ sound: SoundID, on bus: BusID, _ p: VoiceParameters, completion: (@Sendable (VoiceEnd) -> Void)?)
        throws(SoundEngineError) -> VoiceID
    {
        try SoundEngine.play(sound, on: bus, p, completion: completion)
    }
    func stop(_ voice: VoiceID, fadeOut: Duration) throws(SoundEngineError) { try SoundEngine.stop(voice, fadeOut: fadeOut) }
    func stopAll(fadeOut: Duration) throws(SoundEngineError) { try SoundEngine.stopAll(fadeOut: fadeOut) }
    func setVolume(_ v: VoiceID, _ volume: Float, ramp: Duration?) throws(SoundEngineError) {
        try SoundEngine.setVolume(v, volume, ramp: ramp)
    }
    func setPan(_ v: VoiceID, _ pan: Float, ramp: Duration?) throws(SoundEngineError) { try SoundEngine.setPan(v, pan, ramp: ramp) }
    func setPitch(_ v: VoiceID, _ pitch: Double) throws(SoundEngineError) { try SoundEngine.setPitch(v, pitch) }
    func setLowPass(_ v: VoiceID, cutoffHz: Float?, ramp: Duration?) throws(SoundEngineError) {
        try SoundEngine.setLowPass(v, cutoffHz: cutoffHz, ramp: ramp)
    }
    func pause(_ v: VoiceID, fade: Duration) throws(SoundEngineError) { try SoundEngine.pause(v, fade: fade) }
    func resume(_ v: VoiceID, fade: Duration) throws(SoundEngineError) { try SoundEngine.resume(v, fade: fade) }
    func isPlaying(_ v: VoiceID) -> Bool { SoundEngine.isPlaying(v) }

    func createBus(name: String, parent: BusID) throws(SoundEngineError) -> BusID {
        try SoundEngine.createBus(name: name, parent: parent)
    }
    func bus(named name: String) -> BusID? { SoundEngine.bus(named: name) }
    func setBusVolume(_ b: BusID, _ volume: Float, ramp: Duration?) throws(SoundEngineError) {
        try SoundEngine.setBusVolume(b, volume, ramp: ramp)
    }
    func setBus(_ b: BusID, muted: Bool, ramp: Duration?) throws(SoundEngineError) { try SoundEngine.setBus(b, muted: muted, ramp: ramp) }
    func setBus(_ b: BusID, mutedForBackgroundMusic m: Bool) throws(SoundEngineError) {
        try SoundEngine.setBus(b, mutedForBackgroundMusic: m)
    }
    func meter(_ b: BusID) throws(SoundEngineError) -> BusMeter { try SoundEngine.meter(b) }
    func setBusMeterCallback(_ b: BusID, _ callback: (@Sendable (BusMeter) -> Void)?) throws(SoundEngineError) {
        try SoundEngine.setBusMeterCallback(b, callback)
    }

    func loadBank(path: String, options: BankLoadOptions) throws(SoundEngineError) -> BankID {
        try SoundEngine.loadBank(path: path, options: options)
    }
    func loadBank(_ bank: Bank) throws(SoundEngineError) -> BankID { try SoundEngine.loadBank(bank) }
    func unloadBank(_ bank: BankID) throws(SoundEngineError) { try SoundEngine.unloadBank(bank) }
    func registerGameObject(_ o: GameObjectID, name: String?) throws(SoundEngineError) {
        try SoundEngine.registerGameObject(o, name: name)
    }
    func unregisterGameObject(_ o: GameObjectID) throws(SoundEngineError) { try SoundEngine.unregisterGameObject(o) }
    func setPosition(_ o: GameObjectID, position: Vector3, orientation: Orientation) throws(SoundEngineError) {
        try SoundEngine.setPosition(o, position: position, orientation: orientation)
    }
    func setDefaultListeners(_ l: [GameObjectID]) throws(SoundEngineError) { try SoundEngine.setDefaultListeners(l) }
    func postEvent(_ e: String, on o: GameObjectID, callback: (@Sendable (EventCallback) -> Void)?)
        throws(SoundEngineError) -> PlayingID
    {
        try SoundEngine.postEvent(e, on: o, callback: callback)
    }
    func postEvent(_ e: ContentID, on o: GameObjectID, callback: (@Sendable (EventCallback) -> Void)?)
        throws(SoundEngineError) -> PlayingID
    {
        try SoundEngine.postEvent(e, on: o, callback: callback)
    }
    func stopPlayingID(_ p: PlayingID, fadeOut: Duration) throws(SoundEngineError) {
        try SoundEngine.stopPlayingID(p, fadeOut: fadeOut)
    }
    func stopAll(gameObject o: GameObjectID, fadeOut: Duration) throws(SoundEngineError) {
        try SoundEngine.stopAll(gameObject: o, fadeOut: fadeOut)
    }
    func isPlaying(_ p: PlayingID) -> Bool { SoundEngine.isPlaying(p) }
    func setRTPCValue(_ r: String, _ v: Double, gameObject o: GameObjectID?, interpolation i: Duration)
        throws(SoundEngineError)
    {
        try SoundEngine.setRTPCValue(r, v, gameObject: o, interpolation: i)
    }
    func setRTPCValue(_ r: ContentID, _ v: Double, gameObject o: GameObjectID?, interpolation i: Duration)
        throws(SoundEngineError)
    {
        try SoundEngine.setRTPCValue(r, v, gameObject: o, interpolation: i)
    }
    func resetRTPCValue(_ r: String, gameObject o: GameObjectID?) throws(SoundEngineError) {
        try SoundEngine.resetRTPCValue(r, gameObject: o)
    }
    func resetRTPCValue(_ r: ContentID, gameObject o: GameObjectID?) throws(SoundEngineError) {
        try SoundEngine.resetRTPCValue(r, gameObject: o)
    }
    func rtpcValue(_ r: String, gameObject o: GameObjectID?) throws(SoundEngineError) -> Double {
        try SoundEngine.rtpcValue(r, gameObject: o)
    }
    func rtpcValue(_ r: ContentID, gameObject o: GameObjectID?) throws(SoundEngineError) -> Double {
        try SoundEngine.rtpcValue(r, gameObject: o)
    }
    func setState(_ g: String, _ s: String) throws(SoundEngineError) { try SoundEngine.setState(g, s) }
    func setState(_ g: ContentID, _ s: ContentID) throws(SoundEngineError) { try SoundEngine.setState(g, s) }
    func currentState(_ g: String) throws(SoundEngineError) -> String { try SoundEngine.currentState(g) }
    func setSwitch(_ g: String, _ v: String, gameObject o: GameObjectID) throws(SoundEngineError) {
        try SoundEngine.setSwitch(g, v, gameObject: o)
    }
    func setSwitch(_ g: ContentID, _ v: ContentID, gameObject o: GameObjectID) throws(SoundEngineError) {
        try SoundEngine.setSwitch(g, v, gameObject: o)
    }
    func switchValue(_ g: String, gameObject o: GameObjectID) throws(SoundEngineError) -> String {
        try SoundEngine.switchValue(g, gameObject: o)
    }
}
