package import SoundBackend
package import SoundEffects
package import SoundCore
package import SoundMixer
import SoundDecoding
import Synchronization

/// Sounds, plays, buses and meters; each member is the one the façade
/// member of the same name forwards to, and is documented there.
extension SoundEngineInstance {
    // MARK: Sounds

    /// ``SoundEngine/loadSound(path:streaming:loop:quality:)``.
    package func loadSound(
        path: String, streaming: Bool = false, loop: LoopRegion? = .whole, quality: ResamplerQuality = .linear
    ) throws(SoundEngineError) -> SoundID {
        try playback.loadSound(path: path, streaming: streaming, loop: loop, quality: quality)
    }

    /// ``SoundEngine/loadSound(_:name:loop:quality:)``.
    package func loadSound(
        _ audio: DecodedAudio, name: String, loop: LoopRegion? = .whole, quality: ResamplerQuality = .linear
    ) throws(SoundEngineError) -> SoundID {
        try playback.loadSound(audio, name: name, loop: loop, quality: quality)
    }

    /// ``SoundEngine/unloadSound(_:)``.
    package func unloadSound(_ sound: SoundID) throws(SoundEngineError) {
        try playback.unloadSound(sound)
    }

    // MARK: Plays

    /// ``SoundEngine/play(_:on:_:callbackTypes:callback:)``.
    @discardableResult
    package func play(
        _ sound: SoundID, on bus: BusID = .master, _ parameters: SoundEngine.PlayParameters = .init(),
        callbackTypes: SoundEngine.CallbackTypes = .default, callback: (@Sendable (SoundEngine.CallbackInfo) -> Void)? = nil
    ) throws(SoundEngineError) -> SoundEngine.PlayingID {
        let voiceParameters = try parameters.voiceParameters()
        guard let callback = filtered(callback, callbackTypes) else {
            return SoundEngine.PlayingID(voice: try playback.play(sound, on: bus, voiceParameters, completion: nil))
        }
        // The duration callback goes out through the content outbox (the
        // event thread's next poll), or first thing in the completion when
        // the voice ends before that: whichever comes first sends it, once.
        let info = callbackTypes.contains(.duration) ? playback.soundInfo(sound) : nil
        let started = StartOnce()
        let duration = { @Sendable (id: SoundEngine.PlayingID) -> SoundEngine.CallbackInfo? in
            info.map { .duration(id, sound: $0.name, length: $0.length, streaming: $0.streaming) }
        }
        let completion: VoiceCompletion = { (voice: VoiceID, end: VoiceEnd) in
            let id = SoundEngine.PlayingID(voice: voice)
            if started.take(), let message = duration(id) { callback(message) }
            if case .failed(let error) = end { callback(.voiceFailed(id, error)) }
            callback(.endOfEvent(id))
        }
        let id = SoundEngine.PlayingID(voice: try playback.play(sound, on: bus, voiceParameters, completion: completion))
        if let message = duration(id) {
            content.post({ message in if started.take() { callback(message) } }, message)
        }
        return id
    }

    /// The voice of a play, or why `playing` (a posting) has none for `call`.
    private func voice(of playing: SoundEngine.PlayingID, _ call: String) throws(SoundEngineError) -> VoiceID {
        guard let voice = playing.voice else {
            throw .invalidParameter(
                "\(call) playing = \(playing): a posting of an event, whose voices' levels come from its bank (RTPCs, states, positions); only a play's can be set")
        }
        return voice
    }

    /// ``SoundEngine/stop(_:fade:)``.
    package func stop(_ playing: SoundEngine.PlayingID, fade: Duration = .zero) throws(SoundEngineError) {
        if let voice = playing.voice {
            do { try playback.stop(voice, fade: fade) } catch .idNotFound { try checkAlive() }  // it ended meanwhile
        } else {
            try checkAlive()
            try content.stop(playing, fade: fade)
        }
    }

    /// ``SoundEngine/stopAll(fade:)``.
    package func stopAll(fade: Duration = .zero) throws(SoundEngineError) {
        try playback.stopAll(fade: fade)
    }

    /// ``SoundEngine/pause(_:fade:)``.
    package func pause(_ playing: SoundEngine.PlayingID, fade: Duration = .zero) throws(SoundEngineError) {
        if let voice = playing.voice {
            do { try playback.pause(voice, fade: fade) } catch .idNotFound { try checkAlive() }
        } else {
            try checkAlive()
            try content.pause(playing, fade: fade)
        }
    }

    /// ``SoundEngine/resume(_:fade:)``.
    package func resume(_ playing: SoundEngine.PlayingID, fade: Duration = .zero) throws(SoundEngineError) {
        if let voice = playing.voice {
            do { try playback.resume(voice, fade: fade) } catch .idNotFound { try checkAlive() }
        } else {
            try checkAlive()
            try content.resume(playing, fade: fade)
        }
    }

    /// For the C API, which refuses a playing ID no posting ever had
    /// (SE_InvalidParameter) while it ignores one that has ended: `nil`
    /// when this engine has handed `posting` out, else the last posting ID
    /// it has handed out (0: none yet).
    package func unissued(posting: SoundEngine.PlayingID) throws(SoundEngineError) -> UInt32? {
        try checkAlive()
        return content.unissued(posting)
    }

    /// ``SoundEngine/isPlaying(_:)``.
    package func isPlaying(_ playing: SoundEngine.PlayingID) throws(SoundEngineError) -> Bool {
        try checkAlive()
        if let voice = playing.voice { return playback.isPlaying(voice) }
        return content.isPlaying(playing)
    }

    /// ``SoundEngine/seek(_:to:)``.
    package func seek(_ playing: SoundEngine.PlayingID, to position: Duration) throws(SoundEngineError) {
        try seek(playing, .time(position))
    }

    /// ``SoundEngine/seek(_:toFraction:)``.
    package func seek(_ playing: SoundEngine.PlayingID, toFraction fraction: Double) throws(SoundEngineError) {
        try seek(playing, .fraction(fraction))
    }

    private func seek(_ playing: SoundEngine.PlayingID, _ target: Mixer.SeekTarget) throws(SoundEngineError) {
        try Mixer.check(target)
        if let voice = playing.voice {
            do { try playback.seek(voice, to: target) } catch .idNotFound { try checkAlive() }  // it ended meanwhile
        } else {
            try checkAlive()
            try content.seek(playing, to: target)
        }
    }

    /// ``SoundEngine/playPosition(_:)``.
    package func playPosition(_ playing: SoundEngine.PlayingID) throws(SoundEngineError) -> Duration? {
        try checkAlive()
        if let voice = playing.voice { return playback.playPosition(voice) }
        return content.playPosition(playing)
    }

    /// ``SoundEngine/setVolume(_:_:ramp:)``.
    package func setVolume(_ playing: SoundEngine.PlayingID, _ volume: Float, ramp: Duration = .zero)
        throws(SoundEngineError)
    {
        try playback.setVolume(voice(of: playing, "setVolume"), volume, ramp: ramp)
    }

    /// ``SoundEngine/setPan(_:_:ramp:)``.
    package func setPan(_ playing: SoundEngine.PlayingID, _ pan: Float, ramp: Duration = .zero) throws(SoundEngineError) {
        try playback.setPan(voice(of: playing, "setPan"), pan, ramp: ramp)
    }

    /// ``SoundEngine/setPitch(_:_:)``.
    package func setPitch(_ playing: SoundEngine.PlayingID, _ pitch: Double) throws(SoundEngineError) {
        try playback.setPitch(voice(of: playing, "setPitch"), pitch)
    }

    /// ``SoundEngine/setLowPass(_:cutoffHz:ramp:)``.
    package func setLowPass(_ playing: SoundEngine.PlayingID, cutoffHz: Float?, ramp: Duration = .zero)
        throws(SoundEngineError)
    {
        try playback.setLowPass(voice(of: playing, "setLowPass"), cutoffHz: cutoffHz, ramp: ramp)
    }

    // MARK: Buses

    /// ``SoundEngine/createBus(name:parent:)``.
    package func createBus(name: String, parent: BusID = .master) throws(SoundEngineError) -> BusID {
        try playback.createBus(name: name, parent: parent)
    }

    /// ``SoundEngine/bus(named:)``.
    package func bus(named name: String) throws(SoundEngineError) -> BusID? {
        try checkAlive()
        return playback.bus(named: name)
    }

    /// ``SoundEngine/setBusVolume(_:_:ramp:)``.
    package func setBusVolume(_ bus: BusID, _ volume: Float, ramp: Duration = .zero) throws(SoundEngineError) {
        try playback.setBusVolume(bus, volume, ramp: ramp)
    }

    /// ``SoundEngine/setBus(_:muted:ramp:)``.
    package func setBus(_ bus: BusID, muted: Bool, ramp: Duration = .zero) throws(SoundEngineError) {
        try playback.setBus(bus, muted: muted, ramp: ramp)
    }

    /// ``SoundEngine/setBusEffect(_:index:_:)``.
    package func setBusEffect(_ bus: BusID, index: Int, _ effect: SoundEngine.BusEffect?) throws(SoundEngineError) {
        try playback.setBusEffect(bus, index: index, effect)
    }

    /// The C API's `se_set_bus_effect`: an effect of `kind` (nil: none) with
    /// parameters by name in `settings` (``Playback/setBusEffect(_:index:kind:settings:sidechain:)``).
    package func setBusEffect(
        _ bus: BusID, index: Int, kind: EffectKind?, settings: String, sidechain: BusID?
    ) throws(SoundEngineError) {
        try playback.setBusEffect(bus, index: index, kind: kind, settings: settings, sidechain: sidechain)
    }

    /// ``SoundEngine/setBusEffectParameter(_:index:_:_:ramp:)``.
    package func setBusEffectParameter(
        _ bus: BusID, index: Int, _ name: String, _ value: Float, ramp: Duration = .zero
    ) throws(SoundEngineError) {
        try playback.setBusEffectParameter(bus, index: index, name, value, ramp: ramp)
    }

    /// ``SoundEngine/setBus(_:mutedForBackgroundMusic:)``.
    package func setBus(_ bus: BusID, mutedForBackgroundMusic: Bool) throws(SoundEngineError) {
        try playback.setBus(bus, mutedForBackgroundMusic: mutedForBackgroundMusic)
    }

    /// ``SoundEngine/meter(_:)``.
    package func meter(_ bus: BusID) throws(SoundEngineError) -> BusMeter {
        try checkAlive()
        return playback.meter(bus)
    }

    /// ``SoundEngine/setBusMeterCallback(_:_:)``.
    package func setBusMeterCallback(_ bus: BusID, _ callback: (@Sendable (BusMeter) -> Void)?) throws(SoundEngineError) {
        try playback.setBusMeterCallback(bus, callback)
    }

    /// ``SoundEngine/statistics``.
    package var statistics: SoundEngine.Statistics {
        SoundEngine.Statistics(mixer: mixer.statistics, output: backend.statistics)
    }
}

extension SoundEngine {
    /// Counters of the running engine (``SoundEngine/statistics``), each read
    /// on its own, so two of them may be a quantum apart.
    public struct Statistics: Sendable, Hashable {
        /// Voices playing, paused or waiting to start, as of the last quantum.
        public var voicesActive: Int { mixer.voicesActive }
        /// Voices not mixed because of the voice limit, as of the last quantum.
        public var voicesVirtual: Int { mixer.virtualVoices }
        /// Commands queued for the render thread.
        public var commandsQueued: UInt64 { mixer.commandsQueued }
        /// Commands the render thread has applied.
        public var commandsProcessed: UInt64 { mixer.commandsProcessed }
        /// Calls refused because the command queue was full (`commandQueueFull`).
        public var commandsRejected: UInt64 { mixer.commandsRejected }
        /// Render quanta mixed (``InitSettings/samplesPerFrame`` frames each).
        public var quantaRendered: UInt64 { mixer.quantaRendered }
        /// Times a streamed voice ran dry (its decoder fell behind; silence played).
        public var starvations: UInt64 { mixer.starvations }
        /// Meter readings, markers and notices lost because the render
        /// thread's event queue was full.
        public var eventsDropped: UInt64 { mixer.eventsDropped }
        /// Frames written to the sound server.
        public var framesRendered: UInt64 { output.framesRendered }
        /// Underflows the server reported (it played silence: the mix came late).
        public var underflows: UInt64 { output.underflows }
        /// Times the engine reconnected after losing the server.
        public var reconnects: UInt64 { output.reconnects }

        /// The mixer's counters, all of them.
        package var mixer: MixerStatistics
        /// The output's counters, all of them.
        package var output: BackendStatistics

        package init(mixer: MixerStatistics, output: BackendStatistics) {
            self.mixer = mixer
            self.output = output
        }
    }
}

/// Which of two paths sends a play's duration callback: the first to ask.
private final class StartOnce: Sendable {
    private let sent = Mutex(false)

    /// `true` the first time only.
    func take() -> Bool { sent.withLock { sent in defer { sent = true }; return !sent } }
}
