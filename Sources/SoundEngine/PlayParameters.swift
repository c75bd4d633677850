public import SoundMixer
package import SoundCore

extension SoundEngine {
    /// How ``SoundEngine/play(_:on:_:callbackTypes:callback:)`` starts a sound. Defaults:
    /// unity volume, centre, original pitch, no loop, no fade-in, no delay,
    /// the sound's own resampler, no low-pass filter.
    ///
    /// Any values can be stored; `play` checks each field against the range
    /// its doc gives and refuses one outside it (NaN and infinities included)
    /// with `invalidParameter` naming it (`PlayParameters.<field>`), starting nothing.
    public struct PlayParameters: Sendable, Hashable {
        /// Linear gain, 0…16 (1 = unchanged).
        public var volume: Float
        /// Stereo position, -1 (left) … 1 (right), equal-power law: a mono source
        /// gets `cos θ`, `sin θ` with `θ = (pan + 1) · π/4` (−3 dB each at 0); a
        /// stereo source is balanced (each side `min(1, √2 · cos θ / sin θ)`, so
        /// 0 leaves it unchanged).
        public var pan: Float
        /// Playback-rate ratio, 1/256 … 16 (2 = an octave up). The conversion
        /// from the sound's sample rate to the mixer's is applied on top.
        public var pitch: Double
        /// Whether the voice repeats the sound's ``SoundEngine/LoopRegion``
        /// until stopped (the sound must have one: see `loadSound`'s `loop`).
        public var loop: Bool
        /// How long the voice fades in from silence; `.zero`: the shortest
        /// fade that does not click. 0…1 hour.
        public var fadeIn: Duration
        /// How long after the call the first frame plays (counted on the
        /// engine's clock, to the frame); 0…1 hour.
        public var delay: Duration
        /// Interpolation between source samples, overriding the sound's own
        /// (the `quality` it was loaded with); `nil` (the default) uses the sound's.
        public var quality: ResamplerQuality?
        /// Cutoff of the voice's low-pass filter in Hz, 10…24000, or `nil` (the
        /// default) for none: 2-pole (−12 dB per octave, −3 dB at the cutoff
        /// rounded to 1/8 octave); voices in the same band of a bus share one filter.
        public var lowPassHz: Float?
        /// Importance, 0…100 (default 50), against every voice (plays and
        /// postings' voices alike): beyond ``InitSettings/maxAudibleVoices``
        /// the lowest are not mixed, and with every voice slot in use a play
        /// takes the slot of a voice of lower priority.
        public var priority: Int
        /// What happens to it while the voice limit leaves it out: `.kill`
        /// (the default) ends it; `.continue` keeps its place in time and it
        /// is heard again where it would have been; `.restart` brings it back
        /// from its start. A streamed sound is killed.
        public var virtualBehavior: VirtualBehavior

        /// Creates parameters; every argument has the default described on the type.
        public init(
            volume: Float = 1, pan: Float = 0, pitch: Double = 1, loop: Bool = false, fadeIn: Duration = .zero,
            delay: Duration = .zero, quality: ResamplerQuality? = nil, lowPassHz: Float? = nil, priority: Int = 50,
            virtualBehavior: VirtualBehavior = .kill
        ) {
            self.priority = priority
            self.virtualBehavior = virtualBehavior
            self.volume = volume
            self.pan = pan
            self.pitch = pitch
            self.loop = loop
            self.fadeIn = fadeIn
            self.delay = delay
            self.quality = quality
            self.lowPassHz = lowPassHz
        }

        /// The mixer's parameters for these, each field checked first with
        /// the name the game knows it by.
        package func voiceParameters() throws(SoundEngineError) -> VoiceParameters {
            try Mixer.check(volume: volume, "PlayParameters.volume")
            try Mixer.check(pan: pan, "PlayParameters.pan")
            try Mixer.check(pitch: pitch, "PlayParameters.pitch")
            try TimeArgument.check(fadeIn, "PlayParameters.fadeIn")
            try TimeArgument.check(delay, "PlayParameters.delay")
            if let lowPassHz { try Mixer.check(cutoffHz: lowPassHz, "PlayParameters.lowPassHz") }
            guard (0...100).contains(priority) else {
                throw .invalidParameter("PlayParameters.priority = \(priority): must be 0…100")
            }
            return VoiceParameters(
                volume: volume, pan: pan, pitch: pitch, loop: loop, fadeIn: fadeIn,
                start: delay == .zero ? .immediately : .after(delay), quality: quality, lowPassHz: lowPassHz,
                priority: priority, whenInaudible: virtualBehavior.mixerBehavior)
        }
    }
}

extension SoundEngine {
    /// What a voice does while the voice limit (``InitSettings/maxAudibleVoices``)
    /// leaves it out: a bank sound's `virtualBehavior`, a play's
    /// ``PlayParameters/virtualBehavior`` (Wwise's virtual voice behaviours).
    public enum VirtualBehavior: String, Sendable, Hashable, CaseIterable {
        /// It ends (fading out over the de-click if it was heard).
        case kill
        /// It goes silent but keeps its place in time, and is heard again,
        /// in sync, where it would have been (Wwise's "play from elapsed time").
        case `continue`
        /// It goes silent holding its start, and plays from the beginning
        /// when it is heard again (Wwise's "play from beginning").
        case restart

        package var mixerBehavior: VoiceLimitBehavior {
            switch self {
            case .kill: .kill
            case .continue: .resume
            case .restart: .restart
            }
        }
    }
}
