public import SoundMixer
package import SoundCore

extension SoundEngine {
    /// How ``SoundEngine/play(_:on:_:callback:)`` starts a sound. Defaults:
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

        /// Creates parameters; every argument has the default described on the type.
        public init(
            volume: Float = 1, pan: Float = 0, pitch: Double = 1, loop: Bool = false, fadeIn: Duration = .zero,
            delay: Duration = .zero, quality: ResamplerQuality? = nil, lowPassHz: Float? = nil
        ) {
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
            return VoiceParameters(
                volume: volume, pan: pan, pitch: pitch, loop: loop, fadeIn: fadeIn,
                start: delay == .zero ? .immediately : .after(delay), quality: quality, lowPassHz: lowPassHz)
        }
    }
}
