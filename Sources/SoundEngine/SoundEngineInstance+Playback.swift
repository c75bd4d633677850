public import SoundCore
public import SoundMixer
import SoundDecoding

extension SoundEngineInstance {
    // MARK: Sounds

    /// Loads a sound file (WAV, FLAC, Ogg Vorbis, Opus, MP3 — what libsndfile
    /// decodes) for playback.
    ///
    /// - Parameters:
    ///   - streaming: `false` (default) decodes the whole file into memory now;
    ///     `true` decodes it ahead of playback on the streaming thread (for
    ///     music and other long sounds).
    ///   - loop: the region a looping voice repeats (in-memory sounds), default the whole sound.
    ///   - quality: the resampler of the sound's voices unless a voice chooses
    ///     its own (``VoiceParameters/quality``); default linear.
    /// - Throws: `fileNotFound`, `invalidFile` naming the file (also for a
    ///   sample that is NaN or infinite); `invalidParameter` for a path with
    ///   a NUL character; `maxReached` when ``InitSettings/maxSounds`` are
    ///   loaded. The engine keeps playing what it had.
    public func loadSound(
        path: String, streaming: Bool = false, loop: LoopRegion? = .whole, quality: ResamplerQuality = .linear
    ) throws(SoundEngineError) -> SoundID {
        try playback.loadSound(path: path, streaming: streaming, loop: loop, quality: quality)
    }

    /// Loads decoded audio already in memory, with `loop` and `quality` as in
    /// ``loadSound(path:streaming:loop:quality:)``.
    ///
    /// - Throws: `invalidParameter` naming the field when `audio` has no
    ///   frames, a rate outside 1000…768000, a channel count outside 1…1024,
    ///   a partial last frame or a sample that is NaN or infinite, or when
    ///   `loop` is not inside it; `maxReached` as above. Nothing is loaded then.
    public func loadSound(
        _ audio: DecodedAudio, name: String, loop: LoopRegion? = .whole, quality: ResamplerQuality = .linear
    ) throws(SoundEngineError) -> SoundID {
        try playback.loadSound(audio, name: name, loop: loop, quality: quality)
    }

    /// Unloads a sound; voices playing it fade out first.
    public func unloadSound(_ sound: SoundID) throws(SoundEngineError) {
        try playback.unloadSound(sound)
    }

    // MARK: Voices

    /// Starts a voice playing `sound` on `bus`.
    ///
    /// - Parameter completion: called exactly once when the voice ends —
    ///   played out, stopped, its sound unloaded, its stream failed, or the
    ///   engine terminated — on the engine's event thread, never the render
    ///   thread, however many voices end at once. It may call the engine.
    /// - Throws: `idNotFound` for an unknown sound or bus; `invalidParameter`
    ///   naming a bad parameter (volume, pan, pitch); `maxReached` when every
    ///   voice plays; `commandQueueFull` when the command queue is full.
    @discardableResult
    public func play(
        _ sound: SoundID, on bus: BusID = .master, _ parameters: VoiceParameters = VoiceParameters(),
        completion: (@Sendable (VoiceEnd) -> Void)? = nil
    ) throws(SoundEngineError) -> VoiceID {
        try playback.play(sound, on: bus, parameters, completion: completion)
    }

    /// Stops a voice, fading out over `fadeOut` (default: the short de-click fade).
    ///
    /// - Throws: `idNotFound` for a voice that ended; `invalidParameter`
    ///   naming `fadeOut` when it is negative or over an hour (the one rule
    ///   for times, docs/input-validation.md); nothing changes then.
    public func stop(_ voice: VoiceID, fadeOut: Duration = .zero) throws(SoundEngineError) {
        try playback.stop(voice, fadeOut: fadeOut)
    }

    /// Stops every voice, like Wwise `StopAll`.
    ///
    /// - Throws: `invalidParameter` naming `fadeOut` when it is negative or
    ///   over an hour (docs/input-validation.md); nothing changes then.
    public func stopAll(fadeOut: Duration = .zero) throws(SoundEngineError) {
        try playback.stopAll(fadeOut: fadeOut)
    }

    /// Sets a voice's linear volume (0…16), ramped over `ramp` (`nil`: one quantum).
    ///
    /// Every voice and bus setter below throws alike, before anything
    /// changes: `idNotFound` for a voice that ended or a bus that does not
    /// exist; `invalidParameter` naming the argument for a value that is NaN,
    /// infinite or out of its range, or a time (`ramp`, `fade`) that is
    /// negative or over an hour (docs/input-validation.md). Nothing is clamped.
    public func setVolume(_ voice: VoiceID, _ volume: Float, ramp: Duration? = nil) throws(SoundEngineError) {
        try playback.setVolume(voice, volume, ramp: ramp)
    }

    /// Sets a voice's pan (-1 left … 1 right, equal power), ramped over `ramp` (`nil`: one quantum).
    public func setPan(_ voice: VoiceID, _ pan: Float, ramp: Duration? = nil) throws(SoundEngineError) {
        try playback.setPan(voice, pan, ramp: ramp)
    }

    /// Sets a voice's pitch as a playback-rate ratio (1/256…16; 2 = an octave
    /// up), from the next quantum.
    public func setPitch(_ voice: VoiceID, _ pitch: Double) throws(SoundEngineError) {
        try playback.setPitch(voice, pitch)
    }

    /// Sets a voice's low-pass cut-off in Hz (10…24 000, rounded to 1/8
    /// octave: voices in one band of a bus share a filter), ramped over
    /// `ramp` (`nil`: one quantum); `nil` cut-off opens the filter. A change
    /// of band crossfades, so nothing clicks.
    public func setLowPass(_ voice: VoiceID, cutoffHz: Float?, ramp: Duration? = nil) throws(SoundEngineError) {
        try playback.setLowPass(voice, cutoffHz: cutoffHz, ramp: ramp)
    }

    /// Pauses a voice where it is, fading out over `fade` (at least the short de-click).
    public func pause(_ voice: VoiceID, fade: Duration = .zero) throws(SoundEngineError) {
        try playback.pause(voice, fade: fade)
    }

    /// Resumes a paused voice, fading in over `fade` (at least the short de-click).
    public func resume(_ voice: VoiceID, fade: Duration = .zero) throws(SoundEngineError) {
        try playback.resume(voice, fade: fade)
    }

    /// Whether a voice is still playing (or paused) rather than ended.
    public func isPlaying(_ voice: VoiceID) -> Bool {
        playback.isPlaying(voice)
    }

    // MARK: Buses

    /// Creates a bus under `parent`.
    public func createBus(name: String, parent: BusID = .master) throws(SoundEngineError) -> BusID {
        try playback.createBus(name: name, parent: parent)
    }

    /// The bus created with `name`, if any (`"master"` is the master bus).
    public func bus(named name: String) -> BusID? {
        playback.bus(named: name)
    }

    /// Sets a bus's linear volume (0…16), ramped over `ramp` (`nil`: one
    /// quantum); throws as ``setVolume(_:_:ramp:)``.
    public func setBusVolume(_ bus: BusID, _ volume: Float, ramp: Duration? = nil) throws(SoundEngineError) {
        try playback.setBusVolume(bus, volume, ramp: ramp)
    }

    /// Mutes or unmutes a bus, ramped over `ramp` (`nil`: one quantum);
    /// throws as ``setVolume(_:_:ramp:)``.
    public func setBus(_ bus: BusID, muted: Bool, ramp: Duration? = nil) throws(SoundEngineError) {
        try playback.setBus(bus, muted: muted, ramp: ramp)
    }

    /// Marks a bus "mute for background music" (Wwise's bus property): it
    /// fades to silence while another app plays music (iOS's secondary-audio hint).
    public func setBus(_ bus: BusID, mutedForBackgroundMusic: Bool) throws(SoundEngineError) {
        try playback.setBus(bus, mutedForBackgroundMusic: mutedForBackgroundMusic)
    }


    /// The bus's latest peak and RMS reading (any thread; polled).
    public func meter(_ bus: BusID) -> BusMeter {
        playback.meter(bus)
    }

    /// Calls `callback` with the bus's peak and RMS at the end of every
    /// metering window (Wwise `RegisterBusMeteringCallback`), on the engine's
    /// event thread; `nil` stops it.
    public func setBusMeterCallback(_ bus: BusID, _ callback: (@Sendable (BusMeter) -> Void)?) throws(SoundEngineError) {
        try playback.setBusMeterCallback(bus, callback)
    }

    /// Mixer and output counters.
    public var statistics: EngineStatistics {
        EngineStatistics(mixer: mixer.statistics, output: backend.statistics)
    }
}

/// Counters of a running engine.
public struct EngineStatistics: Sendable {
    /// The mixer's counters (quanta, voices, rejected commands, starvations).
    public var mixer: MixerStatistics
    /// The output's counters (render calls, frames, underflows).
    public var output: BackendStatistics
}
