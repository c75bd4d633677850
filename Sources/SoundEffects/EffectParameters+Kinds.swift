// Named accessors and index constants per kind. Each accessor reads or
// writes one slot and is render-safe; none validates (the constructors and
// `validated(as:)` do, on the control side; `RenderEffect.setTarget`
// clamps).

/// One band of the parametric EQ, as the validating constructor takes it.
package struct EQBand: BitwiseCopyable, Sendable {
    /// The band's response.
    package var type: EQBandType
    /// Centre, corner or shelf frequency, Hz (20…20000; above 0.49 × the
    /// sample rate it is rendered at 0.49 × the sample rate).
    package var frequency: Float
    /// Gain of shelves and peaks, dB (−24…+24; unused by the other types).
    package var gain: Float
    /// Quality factor (0.1…20): bandwidth of peaks, notches and band-passes,
    /// resonance of the passes, knee of the shelves (0.7071: no overshoot).
    package var q: Float

    /// A band (render-safe).
    @_noLocks
    package init(_ type: EQBandType, frequency: Float, gain: Float = 0, q: Float = 0.707_106_77) {
        self.type = type
        self.frequency = frequency
        self.gain = gain
        self.q = q
    }
}

extension EffectParameters {
    // MARK: Parametric EQ

    /// Slot indices of ``EffectKind/parametricEQ``.
    package enum EQ {
        /// How many bands the EQ has.
        package static var bandCount: Int { @_noLocks @inline(__always) get { 6 } }
        /// Output gain, dB (−24…+24, default 0).
        package static var outputGain: Int { @_noLocks @inline(__always) get { 0 } }
        /// Band `band`'s type (``EQBandType`` raw value, 0…7).
        @_noLocks @inline(__always) package static func type(band: Int) -> Int { 1 + 4 * band }
        /// Band `band`'s frequency, Hz (20…20000).
        @_noLocks @inline(__always) package static func frequency(band: Int) -> Int { 2 + 4 * band }
        /// Band `band`'s gain, dB (−24…+24).
        @_noLocks @inline(__always) package static func gain(band: Int) -> Int { 3 + 4 * band }
        /// Band `band`'s Q (0.1…20).
        @_noLocks @inline(__always) package static func q(band: Int) -> Int { 4 + 4 * band }
    }

    /// EQ output gain, dB (−24…+24, default 0).
    package var eqOutputGain: Float {
        @_noLocks get { self[EQ.outputGain] }
        @_noLocks set { self[EQ.outputGain] = newValue }
    }

    /// EQ band `band` (0…5). Render-safe.
    @_noLocks
    package func eqBand(_ band: Int) -> EQBand {
        EQBand(
            EQBandType(parameter: self[EQ.type(band: band)]), frequency: self[EQ.frequency(band: band)],
            gain: self[EQ.gain(band: band)], q: self[EQ.q(band: band)])
    }

    /// Sets EQ band `band` (0…5). Render-safe.
    @_noLocks
    package mutating func setEQBand(_ band: Int, to value: EQBand) {
        self[EQ.type(band: band)] = value.type.parameterValue
        self[EQ.frequency(band: band)] = value.frequency
        self[EQ.gain(band: band)] = value.gain
        self[EQ.q(band: band)] = value.q
    }

    // MARK: Compressor

    /// Slot indices of ``EffectKind/compressor``.
    package enum Compressor {
        /// Threshold, dB (−60…0, default −20).
        package static var threshold: Int { @_noLocks @inline(__always) get { 0 } }
        /// Ratio, :1 (1…50, default 4).
        package static var ratio: Int { @_noLocks @inline(__always) get { 1 } }
        /// Attack time constant, ms (0.1…500, default 10).
        package static var attack: Int { @_noLocks @inline(__always) get { 2 } }
        /// Release time constant, ms (1…5000, default 100).
        package static var release: Int { @_noLocks @inline(__always) get { 3 } }
        /// Makeup gain, dB (−24…+24, default 0).
        package static var makeup: Int { @_noLocks @inline(__always) get { 4 } }
        /// Soft-knee width, dB (0…24, default 0: hard knee).
        package static var knee: Int { @_noLocks @inline(__always) get { 5 } }
        /// Detector: 0 peak, 1 RMS (default 0).
        package static var detector: Int { @_noLocks @inline(__always) get { 6 } }
    }

    /// Compressor threshold, dB (−60…0, default −20): levels above it are reduced.
    package var compressorThreshold: Float {
        @_noLocks get { self[Compressor.threshold] }
        @_noLocks set { self[Compressor.threshold] = newValue }
    }
    /// Compressor ratio, :1 (1…50, default 4): above the threshold, `ratio` dB in gives 1 dB out.
    package var compressorRatio: Float {
        @_noLocks get { self[Compressor.ratio] }
        @_noLocks set { self[Compressor.ratio] = newValue }
    }
    /// Compressor attack, ms (0.1…500, default 10): the time constant in
    /// which the gain reduction moves 63 % of the way toward a higher target.
    package var compressorAttack: Float {
        @_noLocks get { self[Compressor.attack] }
        @_noLocks set { self[Compressor.attack] = newValue }
    }
    /// Compressor release, ms (1…5000, default 100): the time constant in
    /// which the gain reduction falls 63 % of the way toward a lower target
    /// (plus up to one attack time constant).
    package var compressorRelease: Float {
        @_noLocks get { self[Compressor.release] }
        @_noLocks set { self[Compressor.release] = newValue }
    }
    /// Compressor makeup gain, dB (−24…+24, default 0), applied after the reduction.
    package var compressorMakeup: Float {
        @_noLocks get { self[Compressor.makeup] }
        @_noLocks set { self[Compressor.makeup] = newValue }
    }
    /// Compressor soft-knee width, dB (0…24, default 0 = hard knee): the
    /// curve bends quadratically from threshold − knee/2 to threshold + knee/2.
    package var compressorKnee: Float {
        @_noLocks get { self[Compressor.knee] }
        @_noLocks set { self[Compressor.knee] = newValue }
    }
    /// Compressor detector, peak or RMS (default peak). A change crossfades
    /// the two levels over the ramp.
    package var compressorDetector: CompressorDetector {
        @_noLocks get { self[Compressor.detector] >= 0.5 ? .rms : .peak }
        @_noLocks set { self[Compressor.detector] = newValue.parameterValue }
    }

    // MARK: Limiter

    /// Slot indices of ``EffectKind/limiter``.
    package enum Limiter {
        /// Ceiling, dBFS (−30…0, default −1).
        package static var ceiling: Int { @_noLocks @inline(__always) get { 0 } }
        /// Release time constant, ms (1…2000, default 100).
        package static var release: Int { @_noLocks @inline(__always) get { 1 } }
        /// Look-ahead, ms (0.5…10, default 5): also the limiter's latency.
        package static var lookahead: Int { @_noLocks @inline(__always) get { 2 } }
    }

    /// Limiter ceiling, dBFS (−30…0, default −1): no output sample exceeds it.
    package var limiterCeiling: Float {
        @_noLocks get { self[Limiter.ceiling] }
        @_noLocks set { self[Limiter.ceiling] = newValue }
    }
    /// Limiter release, ms (1…2000, default 100): the time constant of the
    /// gain's recovery once the peak has passed.
    package var limiterRelease: Float {
        @_noLocks get { self[Limiter.release] }
        @_noLocks set { self[Limiter.release] = newValue }
    }
    /// Limiter look-ahead, ms (0.5…10, default 5): the gain falls over this
    /// time before a peak, and the signal is delayed by it (``RenderEffect/latencyFrames``).
    package var limiterLookahead: Float {
        @_noLocks get { self[Limiter.lookahead] }
        @_noLocks set { self[Limiter.lookahead] = newValue }
    }

    // MARK: Delay

    /// Slot indices of ``EffectKind/delay``.
    package enum Delay {
        /// Delay time, ms (1…2000, default 250).
        package static var time: Int { @_noLocks @inline(__always) get { 0 } }
        /// Feedback gain (0…0.95, default 0.3).
        package static var feedback: Int { @_noLocks @inline(__always) get { 1 } }
        /// Wet (delayed) level, linear gain (0…1, default 0.5).
        package static var wet: Int { @_noLocks @inline(__always) get { 2 } }
        /// Dry (input) level, linear gain (0…1, default 1).
        package static var dry: Int { @_noLocks @inline(__always) get { 3 } }
        /// Feedback damping: pole of the feedback low-pass at 48 kHz (0…0.95, default 0).
        package static var damping: Int { @_noLocks @inline(__always) get { 4 } }
    }

    /// Delay time, ms (1…2000, default 250). A change crossfades from the old
    /// delay to the new one over 20 ms.
    package var delayTime: Float {
        @_noLocks get { self[Delay.time] }
        @_noLocks set { self[Delay.time] = newValue }
    }
    /// Delay feedback (0…0.95, default 0.3): each repeat is this much of the previous one.
    package var delayFeedback: Float {
        @_noLocks get { self[Delay.feedback] }
        @_noLocks set { self[Delay.feedback] = newValue }
    }
    /// Delay wet level, a linear gain (0…1, default 0.5).
    package var delayWet: Float {
        @_noLocks get { self[Delay.wet] }
        @_noLocks set { self[Delay.wet] = newValue }
    }
    /// Delay dry level, a linear gain (0…1, default 1).
    package var delayDry: Float {
        @_noLocks get { self[Delay.dry] }
        @_noLocks set { self[Delay.dry] = newValue }
    }
    /// Delay damping (0…0.95, default 0 = off): the pole p of the one-pole
    /// low-pass y += (1 − p)(x − y) in the feedback, at 48 kHz (the same time
    /// constant at any rate). Its −3 dB cutoff is about 48000·ln(1/p)/(2π) Hz
    /// for p ≥ 0.5: 0.5 → 5.3 kHz, 0.8 → 1.7 kHz, 0.9 → 800 Hz, 0.95 → 390 Hz.
    package var delayDamping: Float {
        @_noLocks get { self[Delay.damping] }
        @_noLocks set { self[Delay.damping] = newValue }
    }

    // MARK: Reverb

    /// Slot indices of ``EffectKind/reverb``.
    package enum Reverb {
        /// Decay time to −60 dB at low and middle frequencies, s (0.1…20, default 1.5).
        package static var rt60: Int { @_noLocks @inline(__always) get { 0 } }
        /// Room size (0…1, default 0.5): scales the delay lines.
        package static var roomSize: Int { @_noLocks @inline(__always) get { 1 } }
        /// Pre-delay, ms (0…200, default 20).
        package static var preDelay: Int { @_noLocks @inline(__always) get { 2 } }
        /// High-frequency damping (0…1, default 0.5).
        package static var damping: Int { @_noLocks @inline(__always) get { 3 } }
        /// Wet (reverb) level, linear gain (0…1, default 0.3).
        package static var wet: Int { @_noLocks @inline(__always) get { 4 } }
        /// Dry (input) level, linear gain (0…1, default 1).
        package static var dry: Int { @_noLocks @inline(__always) get { 5 } }
        /// Stereo input (0 mono sum … 1 left and right apart, default 1).
        package static var stereoInput: Int { @_noLocks @inline(__always) get { 6 } }
    }

    /// Reverb decay time, s (0.1…20, default 1.5): the time the tail takes
    /// to fall 60 dB, exactly at 0 Hz and, with damping 0, at every frequency.
    package var reverbRT60: Float {
        @_noLocks get { self[Reverb.rt60] }
        @_noLocks set { self[Reverb.rt60] = newValue }
    }
    /// Reverb room size (0…1, default 0.5): the 16 delay lines are 23…83 ms
    /// long times 0.25 + 0.75·roomSize. A change crossfades the lines'
    /// read heads over 40 ms.
    package var reverbRoomSize: Float {
        @_noLocks get { self[Reverb.roomSize] }
        @_noLocks set { self[Reverb.roomSize] = newValue }
    }
    /// Reverb pre-delay, ms (0…200, default 20): the time before the tail
    /// starts. A change crossfades over 20 ms.
    package var reverbPreDelay: Float {
        @_noLocks get { self[Reverb.preDelay] }
        @_noLocks set { self[Reverb.preDelay] = newValue }
    }
    /// Reverb damping (0…1, default 0.5): the decay time at the Nyquist
    /// frequency is rt60 × (1 − 0.9·damping), falling smoothly (one pole per
    /// line) from the full rt60 at 0 Hz.
    package var reverbDamping: Float {
        @_noLocks get { self[Reverb.damping] }
        @_noLocks set { self[Reverb.damping] = newValue }
    }
    /// Reverb wet level, a linear gain (0…1, default 0.3).
    package var reverbWet: Float {
        @_noLocks get { self[Reverb.wet] }
        @_noLocks set { self[Reverb.wet] = newValue }
    }
    /// Reverb dry level, a linear gain (0…1, default 1; 0 on an aux bus).
    package var reverbDry: Float {
        @_noLocks get { self[Reverb.dry] }
        @_noLocks set { self[Reverb.dry] = newValue }
    }
    /// Reverb stereo input (0…1, default 1): at 0 the lines are fed the mono
    /// sum of the channels; at 1 left-side channels feed half the lines and
    /// right-side channels the other half (centre channels feed both).
    package var reverbStereoInput: Float {
        @_noLocks get { self[Reverb.stereoInput] }
        @_noLocks set { self[Reverb.stereoInput] = newValue }
    }
}
