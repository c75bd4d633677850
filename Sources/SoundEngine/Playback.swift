import SoundEffects
import SoundCore
import SoundContent
import SoundDecoding
import SoundMixer
import Synchronization

/// Sounds, voices and buses: the part of the engine that both the public API
/// (``SoundEngineInstance``) and the content engine (events) play through.
/// It owns the mixer's voice callbacks; it knows nothing of the session, but
/// tells it (``onVoiceQueued``) when a voice was queued, so an idle-corked
/// stream is uncorked — off the calling thread.
///
/// Every method may be called from any thread; none waits on the sound
/// server or the render thread.
final class Playback: Sendable {
    let mixer: Mixer
    /// Game callbacks for voices and bus meters, looked up by the event thread.
    let callbacks = ControlLock(PlaybackCallbacks())
    /// Set by terminate: every call throws `notInitialized` from then on.
    let closed = Atomic<Bool>(false)
    /// Called after a voice was queued (the session uncorks an idle stream; never blocks).
    let onVoiceQueued: @Sendable () -> Void

    init(mixer: Mixer, onVoiceQueued: @escaping @Sendable () -> Void) {
        self.mixer = mixer
        self.onVoiceQueued = onVoiceQueued
    }

    func checkAlive() throws(SoundEngineError) {
        if closed.load(ordering: .acquiring) { throw .notInitialized }  // acquiring: pairs with terminate's store
    }

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
    /// - Throws: `fileNotFound`, `invalidFile` naming the file; `maxReached`
    ///   when ``InitSettings/maxSounds`` are loaded. The engine keeps playing
    ///   what it had.
    func loadSound(
        path: String, streaming: Bool = false, loop: LoopRegion? = .whole, quality: ResamplerQuality = .linear
    ) throws(SoundEngineError) -> SoundID {
        try loadSound(path: path, streaming: streaming, loop: loop, quality: quality, markers: [])
    }

    /// Loads a sound file as ``loadSound(path:streaming:loop:quality:)`` does,
    /// with a bank sound's markers (seconds in the file's time), which its
    /// voices report as they cross them, streamed or not (a streamed file's
    /// markers need its length from the file's header).
    /// - Throws: as ``loadSound(path:streaming:loop:quality:)``, and
    ///   `invalidParameter` naming a marker past the end of the file.
    /// A streamed sound with a `folder` is opened beneath it, through no
    /// symbolic link, at load and by every voice (``SoundFolder``).
    func loadSound(
        path: String, streaming: Bool, loop: LoopRegion?, quality: ResamplerQuality = .linear, markers: [BankMarker],
        folder: SoundFolder? = nil
    ) throws(SoundEngineError) -> SoundID {
        try checkAlive()
        try Self.checkPath(path, "loadSound path")
        /// The markers' frames in a file of `frameCount` frames at `rate`.
        func markerFrames(rate: Int, frameCount: Int?) throws(SoundEngineError) -> [Int] {
            var frames: [Int] = []
            for marker in markers {
                guard let frameCount else {
                    throw .invalidParameter(
                        "marker '\(marker.name)': the length of \(path) is not in its header, and a streamed sound's markers need it")
                }
                // Checked first: a NaN or huge time would trap in the conversion.
                _ = try TimeArgument.duration(seconds: marker.time, "marker '\(marker.name)' time")
                let frame = Int((marker.time * Double(rate)).rounded(.down))
                guard frame < frameCount else {
                    let length = Double(frameCount) / Double(rate)
                    throw .invalidParameter(
                        "marker '\(marker.name)' at \(marker.time) s is past the end of \(path) (\(length) s)")
                }
                frames.append(frame)
            }
            return frames
        }
        if streaming {
            // Refuse a missing or corrupt file now, not at play time.
            let format = try SoundFileDecoder(path: path, in: folder).format
            let frames = try markerFrames(rate: format.sampleRate, frameCount: format.frameCount)
            let open: AudioSourceOpener = { () throws(SoundEngineError) -> any AudioFrameSource in
                try SoundFileDecoder(path: path, in: folder)
            }
            return try mixer.loadStream(
                name: path, quality: quality, markers: frames, frames: format.frameCount, sampleRate: format.sampleRate,
                open: open)
        }
        let audio = try SoundFileDecoder.decode(path: path)
        // A float file may hold NaN or infinities: refused before they reach the mix.
        if let problem = audio.problem { throw .invalidFile("sound file '\(path)': \(problem)") }
        let frames = try markerFrames(rate: audio.sampleRate, frameCount: audio.frameCount)
        return try mixer.loadSound(audio, name: path, loop: loop, quality: quality, markers: frames)
    }

    /// Refuses a path the C library would read only part of (it stops at a
    /// NUL character, so it would open another file).
    static func checkPath(_ path: String, _ name: String) throws(SoundEngineError) {
        guard !path.utf8.contains(0) else { throw .invalidParameter("\(name) contains a NUL character") }
    }

    /// Loads decoded audio already in memory, with `loop` and `quality` as in
    /// ``loadSound(path:streaming:loop:quality:)``.
    func loadSound(
        _ audio: DecodedAudio, name: String, loop: LoopRegion? = .whole, quality: ResamplerQuality = .linear
    ) throws(SoundEngineError) -> SoundID {
        try checkAlive()
        return try mixer.loadSound(audio, name: name, loop: loop, quality: quality)
    }

    /// Unloads a sound; voices playing it fade out first.
    func unloadSound(_ sound: SoundID) throws(SoundEngineError) {
        try checkAlive()
        try mixer.unloadSound(sound)
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
    /// - Parameter wake: whether to wake an idle-corked stream now; a caller
    ///   holding a lock passes `false` and calls ``voiceQueued()`` after it
    ///   released it (the wake is a system call, and may let the session
    ///   thread run first).
    @discardableResult
    func play(
        _ sound: SoundID, on bus: BusID = .master, _ parameters: VoiceParameters = VoiceParameters(),
        wake: Bool = true, completion: VoiceCompletion? = nil
    ) throws(SoundEngineError) -> VoiceID {
        try checkAlive()
        // An idle-corked stream is uncorked by the session thread (SessionController+Idle).
        defer { if wake { onVoiceQueued() } }
        guard let completion else { return try mixer.play(sound, on: bus, parameters) }
        // Start and register under the callbacks lock: the event thread looks
        // the voice up under it, so even a voice that ends at once finds its callback.
        return try callbacks.withLock { c throws(SoundEngineError) -> VoiceID in
            guard !c.closed else { throw .notInitialized }  // terminate ran the last completions
            let voice = try mixer.play(sound, on: bus, parameters)
            c.voiceEnded[voice] = completion
            return voice
        }
    }

    /// Wakes an idle-corked stream for voices queued with `wake: false`. Never blocks.
    func voiceQueued() { onVoiceQueued() }

    /// Stops a voice, fading out over `fade` (`.zero`: the short de-click fade).
    func stop(_ voice: VoiceID, fade: Duration = .zero) throws(SoundEngineError) {
        try checkAlive()
        try mixer.stop(voice, fadeOutFrames: mixer.frames(fade, checking: "stop fade"))
    }

    /// Stops every voice, like Wwise `StopAll`.
    func stopAll(fade: Duration = .zero) throws(SoundEngineError) {
        try checkAlive()
        try mixer.stopAll(fadeOutFrames: mixer.frames(fade, checking: "stopAll fade"))
    }

    /// Sets a voice's linear volume (0…16), ramped over `ramp` (`.zero`: one quantum).
    func setVolume(_ voice: VoiceID, _ volume: Float, ramp: Duration = .zero) throws(SoundEngineError) {
        try checkAlive()
        try mixer.setVolume(voice, volume, rampFrames: try rampFrames(ramp, "setVolume ramp"))
    }

    /// Sets a voice's pan (-1 left … 1 right, equal power), ramped over `ramp` (`.zero`: one quantum).
    func setPan(_ voice: VoiceID, _ pan: Float, ramp: Duration = .zero) throws(SoundEngineError) {
        try checkAlive()
        try mixer.setPan(voice, pan, rampFrames: try rampFrames(ramp, "setPan ramp"))
    }

    /// Sets a voice's pitch as a playback-rate ratio (2 = an octave up), from the next quantum.
    func setPitch(_ voice: VoiceID, _ pitch: Double) throws(SoundEngineError) {
        try checkAlive()
        try mixer.setPitch(voice, pitch)
    }

    /// Sets a voice's low-pass cut-off in Hz (10…24 000, rounded to 1/8
    /// octave: voices in one band of a bus share a filter), ramped over
    /// `ramp` (`.zero`: one quantum); `nil` cut-off opens the filter. A change
    /// of band crossfades, so nothing clicks.
    func setLowPass(_ voice: VoiceID, cutoffHz: Float?, ramp: Duration = .zero) throws(SoundEngineError) {
        try checkAlive()
        try mixer.setLowPass(voice, cutoffHz: cutoffHz, rampFrames: try rampFrames(ramp, "setLowPass ramp"))
    }

    /// Pauses a voice where it is, fading out over `fade` (at least the short de-click).
    func pause(_ voice: VoiceID, fade: Duration = .zero) throws(SoundEngineError) {
        try checkAlive()
        try mixer.pause(voice, fadeFrames: try mixer.frames(fade, checking: "pause fade"))
    }

    /// Resumes a paused voice, fading in over `fade` (at least the short de-click).
    func resume(_ voice: VoiceID, fade: Duration = .zero) throws(SoundEngineError) {
        try checkAlive()
        try mixer.resume(voice, fadeFrames: try mixer.frames(fade, checking: "resume fade"))
    }

    /// Whether a voice is still playing (or paused) rather than ended.
    func isPlaying(_ voice: VoiceID) -> Bool { mixer.isActive(voice) }

    /// Moves a voice in its source (``Mixer/seek(_:to:)``).
    func seek(_ voice: VoiceID, to target: Mixer.SeekTarget) throws(SoundEngineError) {
        try checkAlive()
        try mixer.seek(voice, to: target)
    }

    /// Where a voice is in its source, as of the last quantum mixed; `nil`
    /// once it has ended.
    func playPosition(_ voice: VoiceID) -> Duration? {
        guard let (frame, rate) = mixer.position(of: voice), rate > 0 else { return nil }
        return Self.duration(frames: frame, sampleRate: rate)
    }

    /// A loaded sound's name, length (`nil` for a stream whose header does
    /// not say) and whether it streams.
    func soundInfo(_ sound: SoundID) -> (name: String, length: Duration?, streaming: Bool)? {
        guard let info = mixer.soundInfo(sound) else { return nil }
        let length = info.frames.flatMap { info.sampleRate > 0 ? Self.duration(frames: $0, sampleRate: info.sampleRate) : nil }
        return (info.name, length, info.streaming)
    }

    /// `frames` at `sampleRate` as a time, to the nanosecond (no trap: both are the engine's).
    static func duration(frames: Int, sampleRate: Int) -> Duration {
        let seconds = Int64(frames / sampleRate), rest = Int64(frames % sampleRate)
        return .seconds(seconds) + .nanoseconds(rest * 1_000_000_000 / Int64(sampleRate))
    }

    // MARK: Buses

    /// Creates a bus under `parent`.
    func createBus(name: String, parent: BusID = .master) throws(SoundEngineError) -> BusID {
        try checkAlive()
        return try mixer.createBus(name: name, parent: parent)
    }

    /// The bus created with `name`, if any (`"master"` is the master bus).
    func bus(named name: String) -> BusID? { mixer.bus(named: name) }

    /// Sets a bus's linear volume, ramped over `ramp` (`.zero`: one quantum).
    func setBusVolume(_ bus: BusID, _ volume: Float, ramp: Duration = .zero) throws(SoundEngineError) {
        try checkAlive()
        try mixer.setBusVolume(bus, volume, rampFrames: try rampFrames(ramp, "setBusVolume ramp"))
    }

    /// Mutes or unmutes a bus, ramped over `ramp` (`.zero`: one quantum).
    func setBus(_ bus: BusID, muted: Bool, ramp: Duration = .zero) throws(SoundEngineError) {
        try checkAlive()
        try mixer.setBusMuted(bus, muted, rampFrames: try rampFrames(ramp, "setBus ramp"))
    }

    /// Marks a bus "mute for background music" (Wwise's bus property): it
    /// fades to silence while another app plays music (iOS's secondary-audio hint).
    func setBus(_ bus: BusID, mutedForBackgroundMusic: Bool) throws(SoundEngineError) {
        try checkAlive()
        try mixer.setBusMutedForBackgroundMusic(bus, mutedForBackgroundMusic)
    }

    /// Puts an insert effect in slot `index` (0…3) of `bus`, or removes it (`nil`).
    func setBusEffect(_ bus: BusID, index: Int, _ effect: SoundEngine.BusEffect?) throws(SoundEngineError) {
        try checkAlive()
        let resolved = try effect?.resolved()
        try mixer.setBusEffect(
            bus, index: index, resolved.map { ($0.kind, $0.parameters) }, sidechain: resolved?.sidechain)
    }

    /// Puts an effect of `kind` in slot `index` of `bus` with the parameters
    /// `settings` gives by name (`"rt60=2.5 wet=0.6"`: names and units as in
    /// banks; a discrete one may be a word; separated by spaces, commas or
    /// semicolons), the others at their defaults; `nil` removes the slot's
    /// effect. The C API's way in.
    func setBusEffect(_ bus: BusID, index: Int, kind: EffectKind?, settings: String, sidechain: BusID?)
        throws(SoundEngineError)
    {
        try checkAlive()
        guard let kind else {
            try mixer.setBusEffect(bus, index: index, nil)
            return
        }
        var parameters = EffectParameters.defaults(for: kind)
        for item in settings.split(whereSeparator: { " ,;\t\n".contains($0) }) {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw .invalidParameter("parameters: '\(item)' is not name=value") }
            let info = try parameterInfo(kind, parts[0])
            if let word = info.value(ofWord: parts[1]) {
                parameters.values[info.index] = word
                continue
            }
            guard let value = Float(parts[1]), value.isFinite, info.bankRange.contains(Double(value)) else {
                throw .invalidParameter(
                    "\(kind.name) \(info.name) = \(parts[1]): must be a number \(info.bankRange.lowerBound)…\(info.bankRange.upperBound) \(info.bankUnit)")
            }
            parameters.values[info.index] = min(info.maximum, max(info.minimum, value * info.bankScale))
        }
        try mixer.setBusEffect(bus, index: index, (kind, parameters), sidechain: sidechain)
    }

    /// The parameter of `kind` named `name`, or `invalidParameter` listing its parameters.
    private func parameterInfo(_ kind: EffectKind, _ name: String) throws(SoundEngineError) -> EffectParameterInfo {
        guard let info = kind.parameters.first(where: { $0.name == name }) else {
            let names = kind.parameters.map(\.name).joined(separator: ", ")
            throw .invalidParameter("a \(kind.name) has no parameter '\(name)'; it has \(names)")
        }
        return info
    }

    /// Moves the parameter `name` (as banks name it, in their units:
    /// seconds for times) of the effect in slot `index` of `bus` to `value`
    /// over `ramp` (`.zero`: one quantum).
    func setBusEffectParameter(_ bus: BusID, index: Int, _ name: String, _ value: Float, ramp: Duration)
        throws(SoundEngineError)
    {
        try checkAlive()
        guard let effect = mixer.busEffect(bus, index: index) else {
            throw .idNotFound("bus \(bus.index) has no effect in slot \(index)")
        }
        let info = try parameterInfo(effect.kind, name)
        guard value.isFinite, info.bankRange.contains(Double(value)) else {
            throw .invalidParameter(
                "\(effect.kind.name) parameter \(name) = \(value): must be finite, \(info.bankRange.lowerBound)…\(info.bankRange.upperBound) \(info.bankUnit)")
        }
        try mixer.setBusEffectParameter(
            bus, index: index, parameter: info.index, value: min(info.maximum, max(info.minimum, value * info.bankScale)),
            rampFrames: try rampFrames(ramp, "setBusEffectParameter ramp"))
    }

    /// A ramp in frames at the mix rate, checked by the one rule for times
    /// (``TimeArgument``: 0…3600 s); `.zero` is `nil`, the mixer's one
    /// quantum: the shortest change that does not click.
    func rampFrames(_ ramp: Duration, _ what: String) throws(SoundEngineError) -> Int? {
        let frames = try mixer.frames(ramp, checking: what)
        return frames == 0 ? nil : frames
    }

    /// The bus's latest peak and RMS reading (any thread; polled).
    func meter(_ bus: BusID) -> BusMeter { mixer.meter(bus) }

    /// Calls `callback` with the bus's peak and RMS at the end of every
    /// metering window (Wwise `RegisterBusMeteringCallback`), on the engine's
    /// event thread; `nil` stops it.
    func setBusMeterCallback(_ bus: BusID, _ callback: (@Sendable (BusMeter) -> Void)?) throws(SoundEngineError) {
        try checkAlive()
        try callbacks.withLock { c throws(SoundEngineError) in
            try mixer.setBusMeterEvents(bus, callback != nil)
            c.meters[bus] = callback
        }
    }

}
