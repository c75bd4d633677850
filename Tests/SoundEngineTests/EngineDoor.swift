import SoundEngine
import SoundBackend
import SoundContent
import SoundCore
import SoundMixer
import SoundSession

/// Every call a game makes, so that one table of hostile calls
/// (``EntryPoint/all``) drives either way in to the engine: a
/// ``SoundEngineInstance`` (whose own methods satisfy it) or the
/// process-wide ``SoundEngine`` façade (``Facade``, one forwarder a call).
protocol EngineDoor: Sendable {
    var liveSession: AudioSession { get throws(SoundEngineError) }
    /// Reads every getter the door has (none may trap, none may throw but `notInitialized`).
    func readGetters() throws(SoundEngineError)

    func suspend(renderAnyway: Bool, fade: Duration) throws(SoundEngineError)
    func wakeupFromSuspend() throws(SoundEngineError)
    func setApplicationState(_ state: SoundEngine.ApplicationState) throws(SoundEngineError)
    func changeAudioSessionProperties(_ configuration: SessionConfiguration) throws(SoundEngineError)
    func muteBackgroundMusic(_ mute: Bool) throws(SoundEngineError)
    func readInput(into buffer: UnsafeMutableBufferPointer<Float>) throws(SoundEngineError) -> Int

    func loadSound(path: String, streaming: Bool, loop: LoopRegion?, quality: ResamplerQuality)
        throws(SoundEngineError) -> SoundID
    func loadSound(_ audio: DecodedAudio, name: String, loop: LoopRegion?, quality: ResamplerQuality)
        throws(SoundEngineError) -> SoundID
    func unloadSound(_ sound: SoundID) throws(SoundEngineError)
    func play(
        _ sound: SoundID, on bus: BusID, _ parameters: PlayParameters, callbackTypes: CallbackTypes,
        callback: (@Sendable (CallbackInfo) -> Void)?
    ) throws(SoundEngineError) -> PlayingID
    func stop(_ playing: PlayingID, fade: Duration) throws(SoundEngineError)
    func stopAll(fade: Duration) throws(SoundEngineError)
    func setVolume(_ playing: PlayingID, _ volume: Float, ramp: Duration) throws(SoundEngineError)
    func setPan(_ playing: PlayingID, _ pan: Float, ramp: Duration) throws(SoundEngineError)
    func setPitch(_ playing: PlayingID, _ pitch: Double) throws(SoundEngineError)
    func setLowPass(_ playing: PlayingID, cutoffHz: Float?, ramp: Duration) throws(SoundEngineError)
    func pause(_ playing: PlayingID, fade: Duration) throws(SoundEngineError)
    func resume(_ playing: PlayingID, fade: Duration) throws(SoundEngineError)
    func isPlaying(_ playing: PlayingID) throws(SoundEngineError) -> Bool
    func seek(_ playing: PlayingID, to position: Duration) throws(SoundEngineError)
    func seek(_ playing: PlayingID, toFraction fraction: Double) throws(SoundEngineError)
    func playPosition(_ playing: PlayingID) throws(SoundEngineError) -> Duration?

    func createBus(name: String, parent: BusID) throws(SoundEngineError) -> BusID
    func bus(named name: String) throws(SoundEngineError) -> BusID?
    func setBusVolume(_ bus: BusID, _ volume: Float, ramp: Duration) throws(SoundEngineError)
    func setBusEffect(_ bus: BusID, index: Int, _ effect: SoundEngine.BusEffect?) throws(SoundEngineError)
    func setBusEffectParameter(_ bus: BusID, index: Int, _ name: String, _ value: Float, ramp: Duration) throws(SoundEngineError)
    func setGameObjectAuxSendValues(_ object: GameObjectID, _ sends: [SoundEngine.AuxSend]) throws(SoundEngineError)
    func setBus(_ bus: BusID, muted: Bool, ramp: Duration) throws(SoundEngineError)
    func setBus(_ bus: BusID, mutedForBackgroundMusic: Bool) throws(SoundEngineError)
    func meter(_ bus: BusID) throws(SoundEngineError) -> BusMeter
    func setBusMeterCallback(_ bus: BusID, _ callback: (@Sendable (BusMeter) -> Void)?) throws(SoundEngineError)

    func loadBank(path: String, options: BankLoadOptions) throws(SoundEngineError) -> BankID
    func loadBank(_ bank: Bank) throws(SoundEngineError) -> BankID
    func unloadBank(_ bank: BankID) throws(SoundEngineError)
    func registerGameObject(_ object: GameObjectID, name: String?) throws(SoundEngineError)
    func unregisterGameObject(_ object: GameObjectID) throws(SoundEngineError)
    func setPosition(_ object: GameObjectID, _ position: Vector3, orientation: Orientation) throws(SoundEngineError)
    func setDefaultListeners(_ listeners: [GameObjectID]) throws(SoundEngineError)
    func postEvent(
        _ event: SoundEngine.ContentReference, on object: GameObjectID, callbackTypes: CallbackTypes,
        callback: (@Sendable (CallbackInfo) -> Void)?
    ) throws(SoundEngineError) -> PlayingID
    func stopAll(on object: GameObjectID, fade: Duration) throws(SoundEngineError)
    func setRTPCValue(_ rtpc: SoundEngine.ContentReference, _ value: Double, on object: GameObjectID?, ramp: Duration)
        throws(SoundEngineError)
    func resetRTPCValue(_ rtpc: SoundEngine.ContentReference, on object: GameObjectID?) throws(SoundEngineError)
    func rtpcValue(_ rtpc: SoundEngine.ContentReference, on object: GameObjectID?) throws(SoundEngineError) -> Double
    func setRTPCValue(_ rtpc: SoundEngine.ContentReference, _ value: Double, on playing: PlayingID, ramp: Duration)
        throws(SoundEngineError)
    func resetRTPCValue(_ rtpc: SoundEngine.ContentReference, on playing: PlayingID) throws(SoundEngineError)
    func rtpcValue(_ rtpc: SoundEngine.ContentReference, on playing: PlayingID) throws(SoundEngineError) -> Double
    func setState(_ group: SoundEngine.ContentReference, _ state: SoundEngine.ContentReference) throws(SoundEngineError)
    func currentState(_ group: SoundEngine.ContentReference) throws(SoundEngineError) -> String
    func setSwitch(_ group: SoundEngine.ContentReference, _ value: SoundEngine.ContentReference, on object: GameObjectID)
        throws(SoundEngineError)
    func switchValue(_ group: SoundEngine.ContentReference, on object: GameObjectID) throws(SoundEngineError) -> String
}

extension SoundEngineInstance: EngineDoor {
    var liveSession: AudioSession { audioSession }

    func readGetters() throws(SoundEngineError) {
        let session = audioSession
        _ = (status, outputStream, outputLatency, statistics, try applicationState, audioSessionConfiguration)
        _ = (try isBackgroundMusicMuted, isTerminated, settings.maxVoices, platformSettings.sampleRate)
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
        _ = (SoundEngine.isInitialized, SoundEngine.events())
        _ = (try SoundEngine.isBackgroundMusicMuted, try SoundEngine.outputLatency, try SoundEngine.applicationState)
        _ = (try SoundEngine.status, try SoundEngine.outputStream, try SoundEngine.statistics)
    }

    func suspend(renderAnyway: Bool, fade: Duration) throws(SoundEngineError) {
        try SoundEngine.suspend(renderAnyway: renderAnyway, fade: fade)
    }
    func wakeupFromSuspend() throws(SoundEngineError) { try SoundEngine.wakeupFromSuspend() }
    func setApplicationState(_ state: SoundEngine.ApplicationState) throws(SoundEngineError) {
        try SoundEngine.setApplicationState(state)
    }
    func changeAudioSessionProperties(_ c: SessionConfiguration) throws(SoundEngineError) {
        try SoundEngine.changeAudioSessionProperties(c)
    }
    func muteBackgroundMusic(_ mute: Bool) throws(SoundEngineError) { try SoundEngine.muteBackgroundMusic(mute) }
    func readInput(into buffer: UnsafeMutableBufferPointer<Float>) throws(SoundEngineError) -> Int {
        try SoundEngine.readInput(into: buffer)
    }

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
    func play(
        _ sound: SoundID, on bus: BusID, _ p: PlayParameters, callbackTypes: CallbackTypes,
        callback: (@Sendable (CallbackInfo) -> Void)?
    ) throws(SoundEngineError) -> PlayingID {
        try SoundEngine.play(sound, on: bus, p, callbackTypes: callbackTypes, callback: callback)
    }
    func stop(_ p: PlayingID, fade: Duration) throws(SoundEngineError) { try SoundEngine.stop(p, fade: fade) }
    func stopAll(fade: Duration) throws(SoundEngineError) { try SoundEngine.stopAll(fade: fade) }
    func setVolume(_ p: PlayingID, _ volume: Float, ramp: Duration) throws(SoundEngineError) {
        try SoundEngine.setVolume(p, volume, ramp: ramp)
    }
    func setPan(_ p: PlayingID, _ pan: Float, ramp: Duration) throws(SoundEngineError) {
        try SoundEngine.setPan(p, pan, ramp: ramp)
    }
    func setPitch(_ p: PlayingID, _ pitch: Double) throws(SoundEngineError) { try SoundEngine.setPitch(p, pitch) }
    func setLowPass(_ p: PlayingID, cutoffHz: Float?, ramp: Duration) throws(SoundEngineError) {
        try SoundEngine.setLowPass(p, cutoffHz: cutoffHz, ramp: ramp)
    }
    func pause(_ p: PlayingID, fade: Duration) throws(SoundEngineError) { try SoundEngine.pause(p, fade: fade) }
    func resume(_ p: PlayingID, fade: Duration) throws(SoundEngineError) { try SoundEngine.resume(p, fade: fade) }
    func isPlaying(_ p: PlayingID) throws(SoundEngineError) -> Bool { try SoundEngine.isPlaying(p) }
    func seek(_ p: PlayingID, to position: Duration) throws(SoundEngineError) { try SoundEngine.seek(p, to: position) }
    func seek(_ p: PlayingID, toFraction f: Double) throws(SoundEngineError) { try SoundEngine.seek(p, toFraction: f) }
    func playPosition(_ p: PlayingID) throws(SoundEngineError) -> Duration? { try SoundEngine.playPosition(p) }

    func createBus(name: String, parent: BusID) throws(SoundEngineError) -> BusID {
        try SoundEngine.createBus(name: name, parent: parent)
    }
    func bus(named name: String) throws(SoundEngineError) -> BusID? { try SoundEngine.bus(named: name) }
    func setBusVolume(_ b: BusID, _ volume: Float, ramp: Duration) throws(SoundEngineError) {
        try SoundEngine.setBusVolume(b, volume, ramp: ramp)
    }
    func setBusEffect(_ b: BusID, index: Int, _ effect: SoundEngine.BusEffect?) throws(SoundEngineError) {
        try SoundEngine.setBusEffect(b, index: index, effect)
    }
    func setBusEffectParameter(_ b: BusID, index: Int, _ name: String, _ value: Float, ramp: Duration) throws(SoundEngineError) {
        try SoundEngine.setBusEffectParameter(b, index: index, name, value, ramp: ramp)
    }
    func setGameObjectAuxSendValues(_ o: GameObjectID, _ sends: [SoundEngine.AuxSend]) throws(SoundEngineError) {
        try SoundEngine.setGameObjectAuxSendValues(o, sends)
    }
    func setBus(_ b: BusID, muted: Bool, ramp: Duration) throws(SoundEngineError) {
        try SoundEngine.setBus(b, muted: muted, ramp: ramp)
    }
    func setBus(_ b: BusID, mutedForBackgroundMusic m: Bool) throws(SoundEngineError) {
        try SoundEngine.setBus(b, mutedForBackgroundMusic: m)
    }
    func meter(_ b: BusID) throws(SoundEngineError) -> BusMeter { try SoundEngine.meter(b) }
    func setBusMeterCallback(_ b: BusID, _ callback: (@Sendable (BusMeter) -> Void)?) throws(SoundEngineError) {
        try SoundEngine.setBusMeterCallback(b, callback)
    }

    /// The façade's bank call takes one option; the parser's others are the package's.
    func loadBank(path: String, options: BankLoadOptions) throws(SoundEngineError) -> BankID {
        try SoundEngine.loadBank(path: path, allowFilesOutsideBankFolder: options.allowFilesOutsideBankFolder)
    }
    /// A bank built in code has no façade call: the engine behind the façade loads it.
    func loadBank(_ bank: Bank) throws(SoundEngineError) -> BankID { try SoundEngine.current.loadBank(bank) }
    func unloadBank(_ bank: BankID) throws(SoundEngineError) { try SoundEngine.unloadBank(bank) }
    func registerGameObject(_ o: GameObjectID, name: String?) throws(SoundEngineError) {
        try SoundEngine.registerGameObject(o, name: name)
    }
    func unregisterGameObject(_ o: GameObjectID) throws(SoundEngineError) { try SoundEngine.unregisterGameObject(o) }
    func setPosition(_ o: GameObjectID, _ position: Vector3, orientation: Orientation) throws(SoundEngineError) {
        try SoundEngine.setPosition(o, position, orientation: orientation)
    }
    func setDefaultListeners(_ l: [GameObjectID]) throws(SoundEngineError) { try SoundEngine.setDefaultListeners(l) }
    func postEvent(
        _ e: SoundEngine.ContentReference, on o: GameObjectID, callbackTypes: CallbackTypes,
        callback: (@Sendable (CallbackInfo) -> Void)?
    ) throws(SoundEngineError) -> PlayingID {
        try SoundEngine.postEvent(e, on: o, callbackTypes: callbackTypes, callback: callback)
    }
    func stopAll(on o: GameObjectID, fade: Duration) throws(SoundEngineError) { try SoundEngine.stopAll(on: o, fade: fade) }
    func setRTPCValue(_ r: SoundEngine.ContentReference, _ v: Double, on o: GameObjectID?, ramp: Duration)
        throws(SoundEngineError)
    {
        try SoundEngine.setRTPCValue(r, v, on: o, ramp: ramp)
    }
    func resetRTPCValue(_ r: SoundEngine.ContentReference, on o: GameObjectID?) throws(SoundEngineError) {
        try SoundEngine.resetRTPCValue(r, on: o)
    }
    func rtpcValue(_ r: SoundEngine.ContentReference, on o: GameObjectID?) throws(SoundEngineError) -> Double {
        try SoundEngine.rtpcValue(r, on: o)
    }
    func setRTPCValue(_ r: SoundEngine.ContentReference, _ v: Double, on p: PlayingID, ramp: Duration)
        throws(SoundEngineError)
    {
        try SoundEngine.setRTPCValue(r, v, on: p, ramp: ramp)
    }
    func resetRTPCValue(_ r: SoundEngine.ContentReference, on p: PlayingID) throws(SoundEngineError) {
        try SoundEngine.resetRTPCValue(r, on: p)
    }
    func rtpcValue(_ r: SoundEngine.ContentReference, on p: PlayingID) throws(SoundEngineError) -> Double {
        try SoundEngine.rtpcValue(r, on: p)
    }
    func setState(_ g: SoundEngine.ContentReference, _ s: SoundEngine.ContentReference) throws(SoundEngineError) {
        try SoundEngine.setState(g, s)
    }
    func currentState(_ g: SoundEngine.ContentReference) throws(SoundEngineError) -> String {
        try SoundEngine.currentState(g)
    }
    func setSwitch(_ g: SoundEngine.ContentReference, _ v: SoundEngine.ContentReference, on o: GameObjectID)
        throws(SoundEngineError)
    {
        try SoundEngine.setSwitch(g, v, on: o)
    }
    func switchValue(_ g: SoundEngine.ContentReference, on o: GameObjectID) throws(SoundEngineError) -> String {
        try SoundEngine.switchValue(g, on: o)
    }
}
