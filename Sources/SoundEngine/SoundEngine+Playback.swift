package import SoundCore
public import SoundMixer

/// Sounds, plays and buses: playing files directly, without banks (the
/// content calls are in SoundEngine+Content).
extension SoundEngine {
    // MARK: Sounds

    /// Loads a sound file (WAV, FLAC, Ogg Vorbis, Opus, MP3 — what libsndfile
    /// decodes) for ``play(_:on:_:callbackTypes:callback:)``.
    ///
    /// - Parameters:
    ///   - streaming: `false` (default) decodes the whole file into memory now;
    ///     `true` decodes it ahead of playback on the streaming thread (for
    ///     music and other long sounds).
    ///   - loop: the region a looping play repeats (in-memory sounds), default
    ///     the whole sound; `nil` makes the sound unable to loop.
    ///   - quality: the resampler of the sound's plays unless a play chooses
    ///     its own (``PlayParameters/quality``); default linear.
    /// - Throws: `fileNotFound`, `invalidFile` naming the file (also for a
    ///   sample that is NaN or infinite); `invalidParameter` for a path with
    ///   a NUL character; `maxReached` when ``InitSettings/maxSounds`` are
    ///   loaded. The engine keeps playing what it had.
    public static func loadSound(
        path: String, streaming: Bool = false, loop: LoopRegion? = .whole, quality: ResamplerQuality = .linear
    ) throws(SoundEngineError) -> SoundID {
        try current.loadSound(path: path, streaming: streaming, loop: loop, quality: quality)
    }

    /// Loads audio the game decoded or synthesised itself, with `loop` and
    /// `quality` as in ``loadSound(path:streaming:loop:quality:)``; `name`
    /// is what logs and errors call it.
    ///
    /// - Throws: `invalidParameter` naming the field when `audio` has no
    ///   frames, a rate outside 1000…768000, a channel count outside 1…1024,
    ///   a partial last frame or a sample that is NaN or infinite, or when
    ///   `loop` is not inside it; `maxReached` as above. Nothing is loaded then.
    public static func loadSound(
        _ audio: DecodedAudio, name: String, loop: LoopRegion? = .whole, quality: ResamplerQuality = .linear
    ) throws(SoundEngineError) -> SoundID {
        try current.loadSound(audio, name: name, loop: loop, quality: quality)
    }

    /// Unloads a sound; its plays fade out (the de-click fade) and end.
    /// - Throws: `idNotFound` for a sound not loaded.
    public static func unloadSound(_ sound: SoundID) throws(SoundEngineError) {
        try current.unloadSound(sound)
    }

    // MARK: Playing

    /// Plays a sound on `bus`, directly (no bank, no game object): one voice.
    ///
    /// - Parameters:
    ///   - callbackTypes: which ``CallbackInfo`` cases `callback` is told, as
    ///     for ``postEvent(_:on:callbackTypes:callback:)``; add
    ///     ``CallbackTypes/duration`` for the sound's length when it starts.
    ///   - callback: told ``CallbackInfo/endOfEvent(_:)`` exactly
    ///     once when the voice ends — played out, stopped, its sound unloaded,
    ///     its stream failed (``CallbackInfo/voiceFailed(_:_:)`` first), or
    ///     the engine terminated — on the engine's event thread, never the
    ///     render thread, however many voices end at once. It may call the engine.
    /// - Returns: the play's ``PlayingID``, for ``stop(_:fade:)``,
    ///   ``setVolume(_:_:ramp:)`` and the rest.
    /// - Throws: `idNotFound` for an unknown sound or bus; `invalidParameter`
    ///   naming the bad field (`PlayParameters.volume`…), or `loop` for a
    ///   sound loaded without a loop region; `maxReached` when every voice
    ///   plays; `commandQueueFull` when the command queue is full.
    @discardableResult
    public static func play(
        _ sound: SoundID, on bus: BusID = .master, _ parameters: PlayParameters = PlayParameters(),
        callbackTypes: CallbackTypes = .default, callback: (@Sendable (CallbackInfo) -> Void)? = nil
    ) throws(SoundEngineError) -> PlayingID {
        try current.play(sound, on: bus, parameters, callbackTypes: callbackTypes, callback: callback)
    }

    /// Stops a play or a posting (Wwise `StopPlayingID`), fading out over
    /// `fade` (`.zero`: the de-click fade): a posting's delayed actions are
    /// cancelled and its voices fade out. A playing ID that has ended already
    /// is ignored (it may have ended while the call was on its way).
    /// - Throws: `invalidParameter` naming `fade` when it is negative or over
    ///   an hour (docs/input-validation.md); nothing changes then.
    public static func stop(_ playing: PlayingID, fade: Duration = .zero) throws(SoundEngineError) {
        try current.stop(playing, fade: fade)
    }

    /// Stops everything playing (Wwise `StopAll()`), fading over `fade`.
    /// - Throws: `invalidParameter` naming `fade` when it is negative or over an hour.
    public static func stopAll(fade: Duration = .zero) throws(SoundEngineError) {
        try current.stopAll(fade: fade)
    }

    /// Pauses a play, or every voice of a posting, where it is (Wwise
    /// `ExecuteActionOnPlayingID(Pause)`), fading out over `fade` (`.zero`:
    /// the de-click fade); a posting's delayed actions keep their time. An
    /// ended playing ID is ignored.
    /// - Throws: `invalidParameter` naming `fade` as for ``stop(_:fade:)``.
    public static func pause(_ playing: PlayingID, fade: Duration = .zero) throws(SoundEngineError) {
        try current.pause(playing, fade: fade)
    }

    /// Resumes what ``pause(_:fade:)`` paused, fading in over `fade`. An
    /// ended playing ID is ignored.
    public static func resume(_ playing: PlayingID, fade: Duration = .zero) throws(SoundEngineError) {
        try current.resume(playing, fade: fade)
    }

    /// Whether a play or posting has not ended yet (a paused one has not).
    public static func isPlaying(_ playing: PlayingID) throws(SoundEngineError) -> Bool {
        try current.isPlaying(playing)
    }

    /// Moves a play, or every voice of a posting that has started, to
    /// `position` from the start of its sound (Wwise `SeekOnEvent` in
    /// milliseconds; FMOD `setTimelinePosition`), at the sound's own rate
    /// (pitch does not scale it). The jump is click-free: the old place
    /// fades out over the de-click as the new one fades in, from the next
    /// render quantum. A looping sound's position past its end wraps into its
    /// loop region; a one-shot's at or past its end stops it. A streamed
    /// sound re-reads from there and is silent until its buffer is filled
    /// again (a few milliseconds; `streamStarved` never reports it). A paused
    /// one stays paused at the new place. An ended playing ID is ignored.
    /// - Throws: `invalidParameter` naming `position` when it is negative or
    ///   over an hour; `maxReached` when a streamed sound needs a stream
    ///   buffer and all are playing; `commandQueueFull`. A posting's voices
    ///   that could move have moved when one of them throws.
    public static func seek(_ playing: PlayingID, to position: Duration) throws(SoundEngineError) {
        try current.seek(playing, to: position)
    }

    /// Moves a play, or every voice of a posting, to `fraction` (0…1) of its
    /// sound's length (Wwise `SeekOnEvent` with `in_fPercent`, which is also
    /// 0…1): 0.5 is half-way through each voice's own sound. Otherwise as
    /// ``seek(_:to:)``.
    /// - Throws: `invalidParameter` naming the fraction when it is NaN or
    ///   outside 0…1, or a streamed sound whose length its file does not
    ///   say; otherwise as ``seek(_:to:)``.
    public static func seek(_ playing: PlayingID, toFraction fraction: Double) throws(SoundEngineError) {
        try current.seek(playing, toFraction: fraction)
    }

    /// Where a play, or a posting's first voice still playing, is in its
    /// sound (Wwise `GetSourcePlayPosition`), as of the last render quantum
    /// mixed: a looping sound's position within its current lap. `nil` once
    /// it has ended, and for a posting with no voice yet (only delayed
    /// actions). Reading it costs a lock the render thread never takes.
    public static func playPosition(_ playing: PlayingID) throws(SoundEngineError) -> Duration? {
        try current.playPosition(playing)
    }

    /// Sets a play's linear volume (0…16), ramped over `ramp` (`.zero`: one
    /// render quantum).
    ///
    /// The four setters below throw alike, before anything changes:
    /// `idNotFound` for a play that ended; `invalidParameter` for a posting's
    /// ID (its levels are the bank's: RTPCs, states, positions), for a value
    /// that is NaN, infinite or out of its range, or a `ramp` negative or over
    /// an hour (docs/input-validation.md). Nothing is clamped.
    public static func setVolume(_ playing: PlayingID, _ volume: Float, ramp: Duration = .zero) throws(SoundEngineError) {
        try current.setVolume(playing, volume, ramp: ramp)
    }

    /// Sets a play's pan (-1 left … 1 right, equal power), ramped over `ramp`.
    public static func setPan(_ playing: PlayingID, _ pan: Float, ramp: Duration = .zero) throws(SoundEngineError) {
        try current.setPan(playing, pan, ramp: ramp)
    }

    /// Sets a play's pitch as a playback-rate ratio (1/256…16; 2 = an octave
    /// up), from the next render quantum.
    public static func setPitch(_ playing: PlayingID, _ pitch: Double) throws(SoundEngineError) {
        try current.setPitch(playing, pitch)
    }

    /// Sets a play's low-pass cut-off in Hz (10…24 000, rounded to 1/8
    /// octave: voices in one band of a bus share a filter), ramped over
    /// `ramp`; a `nil` cut-off opens the filter. A change of band
    /// crossfades, so nothing clicks.
    public static func setLowPass(_ playing: PlayingID, cutoffHz: Float?, ramp: Duration = .zero)
        throws(SoundEngineError)
    {
        try current.setLowPass(playing, cutoffHz: cutoffHz, ramp: ramp)
    }

    // MARK: Buses and meters

    /// Creates a bus under `parent` (at most ``InitSettings/maxBuses``, the
    /// master bus included).
    /// - Throws: `invalidParameter` for an empty name or one in use;
    ///   `idNotFound` for an unknown parent; `maxReached`.
    public static func createBus(name: String, parent: BusID = .master) throws(SoundEngineError) -> BusID {
        try current.createBus(name: name, parent: parent)
    }

    /// The bus created with `name` (by ``createBus(name:parent:)`` or a
    /// bank); `"master"` is the master bus; `nil` when there is none.
    public static func bus(named name: String) throws(SoundEngineError) -> BusID? {
        try current.bus(named: name)
    }

    /// Sets a bus's linear volume (0…16), ramped over `ramp` (`.zero`: one quantum).
    /// - Throws: `idNotFound` for a bus that does not exist; `invalidParameter`
    ///   naming a volume that is NaN, infinite or out of range, or the `ramp`.
    public static func setBusVolume(_ bus: BusID, _ volume: Float, ramp: Duration = .zero) throws(SoundEngineError) {
        try current.setBusVolume(bus, volume, ramp: ramp)
    }

    /// Mutes or unmutes a bus, ramped over `ramp`; throws as ``setBusVolume(_:_:ramp:)``.
    public static func setBus(_ bus: BusID, muted: Bool, ramp: Duration = .zero) throws(SoundEngineError) {
        try current.setBus(bus, muted: muted, ramp: ramp)
    }

    /// Marks a bus "mute for background music" (Wwise's bus property): it
    /// fades to silence while another app plays music in a mixable category,
    /// or while ``muteBackgroundMusic(_:)`` holds it.
    public static func setBus(_ bus: BusID, mutedForBackgroundMusic: Bool) throws(SoundEngineError) {
        try current.setBus(bus, mutedForBackgroundMusic: mutedForBackgroundMusic)
    }

    /// Puts an insert effect in slot `index` (0…3) of `bus` (Wwise
    /// `SetBusEffect`), replacing what was there, or removes it (`nil`).
    /// Effects run in slot order on everything reaching the bus, before its
    /// volume; a new effect starts without a tail, a removed one stops at
    /// once (docs/mixer.md, "Bus effects").
    ///
    /// ```swift
    /// let room = try SoundEngine.createBus(name: "room")
    /// try SoundEngine.setBusEffect(room, index: 0, .reverb(rt60: .seconds(2), wet: 0.5, dry: 0))
    /// try SoundEngine.setBusEffect(music, index: 0, .compressor(threshold: -30, ratio: 4, sidechain: dialogue))
    /// ```
    /// - Throws: `idNotFound` for a bus (or sidechain bus) that does not
    ///   exist; `invalidParameter` for an index outside 0…3, a value NaN,
    ///   infinite or out of its range (naming it), more than six EQ bands, a
    ///   sidechain bus that is the bus, one of its ancestors or keyed by it
    ///   in turn. Nothing changes when it throws.
    public static func setBusEffect(_ bus: BusID, index: Int, _ effect: BusEffect?) throws(SoundEngineError) {
        try current.setBusEffect(bus, index: index, effect)
    }

    /// Moves one parameter of the effect in slot `index` of `bus`, by the
    /// name banks give it (`"wet"`, `"threshold"`, `"band2Gain"`…; times in
    /// seconds, as in banks: docs/banks.md, "Effects"), over `ramp`
    /// (`.zero`: one quantum; an effect never changes faster than 10 ms, so
    /// nothing clicks). What an RTPC bound to the parameter does each frame.
    /// - Throws: `idNotFound` for a bus or an empty slot; `invalidParameter`
    ///   for a name the effect does not have (listing those it has), a value
    ///   NaN, infinite or out of range, or the `ramp`; `commandQueueFull`.
    public static func setBusEffectParameter(
        _ bus: BusID, index: Int, _ name: String, _ value: Float, ramp: Duration = .zero
    ) throws(SoundEngineError) {
        try current.setBusEffectParameter(bus, index: index, name, value, ramp: ramp)
    }

    /// A bus's latest peak and RMS reading (Wwise metering, polled); a bus
    /// that does not exist reads as silence.
    public static func meter(_ bus: BusID) throws(SoundEngineError) -> BusMeter {
        try current.meter(bus)
    }

    /// Calls `callback` with the bus's peak and RMS at the end of every
    /// metering window (Wwise `RegisterBusMeteringCallback`), on the engine's
    /// event thread; `nil` stops it.
    /// - Throws: `idNotFound` for a bus that does not exist.
    public static func setBusMeterCallback(_ bus: BusID, _ callback: (@Sendable (BusMeter) -> Void)?)
        throws(SoundEngineError)
    {
        try current.setBusMeterCallback(bus, callback)
    }
}
