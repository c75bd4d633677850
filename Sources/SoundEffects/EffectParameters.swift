/// The parameters of one insert effect: a fixed block of 32 Floats whose
/// meaning depends on the ``EffectKind``.
///
/// Plain data (BitwiseCopyable), so the control side can put it in a
/// command and the render side can keep copies. Each kind has named
/// accessors (`compressorRatio`, ``eqBand(_:)``…), index constants
/// (``Compressor/ratio``…) for binding RTPCs by index, a description of
/// every parameter (``EffectKind/parameters``: name, unit, range, default)
/// and a validating constructor (``compressor(threshold:ratio:attack:release:makeup:knee:detector:)``…)
/// for the control side. Slots a kind does not use are ignored.
///
/// Layout (index: name, unit, range, default):
///
/// parametricEQ — 0: outputGain dB −24…+24, 0; then band b = 0…5 at
/// 1 + 4b: type (``EQBandType`` raw value 0…7; defaults lowShelf, peak,
/// peak, peak, peak, highShelf), 2 + 4b: frequency Hz 20…20000 (defaults
/// 80, 200, 500, 1250, 3150, 8000), 3 + 4b: gain dB −24…+24, 0 (shelves
/// and peak only), 4 + 4b: q 0.1…20, 0.7071. With every gain at 0 dB the
/// default EQ is flat and costs nothing.
///
/// compressor — 0: threshold dB −60…0, −20; 1: ratio (:1) 1…50, 4;
/// 2: attack ms 0.1…500, 10; 3: release ms 1…5000, 100; 4: makeup dB
/// −24…+24, 0; 5: knee dB 0…24, 0 (hard); 6: detector 0 peak / 1 RMS, 0.
///
/// limiter — 0: ceiling dBFS −30…0, −1; 1: release ms 1…2000, 100;
/// 2: lookahead ms 0.5…10, 5.
///
/// delay — 0: time ms 1…2000, 250; 1: feedback 0…0.95, 0.3; 2: wet
/// (linear gain) 0…1, 0.5; 3: dry (linear gain) 0…1, 1; 4: damping (pole
/// of the feedback low-pass at 48 kHz) 0…0.95, 0.
///
/// reverb — 0: rt60 s 0.1…20, 1.5; 1: roomSize 0…1, 0.5; 2: preDelay ms
/// 0…200, 20; 3: damping 0…1, 0.5; 4: wet (linear gain) 0…1, 0.3; 5: dry
/// (linear gain) 0…1, 1; 6: stereoInput 0 (mono sum)…1 (stereo), 1.
package struct EffectParameters: BitwiseCopyable, Sendable {
    /// The number of slots in every block.
    package static var capacity: Int { @_noLocks @inline(__always) get { 32 } }

    /// The raw values, by index (see the layout above).
    package var values: InlineArray<32, Float>

    /// A block of zeros (not valid for any kind: start from ``defaults(for:)``). Render-safe.
    @_noLocks
    package init() {
        values = InlineArray(repeating: 0)
    }

    /// The value at `index` (0..<32). Render-safe.
    package subscript(index: Int) -> Float {
        @_noLocks @inline(__always) get { values[index] }
        @_noLocks @inline(__always) set { values[index] = newValue }
    }

    /// Every parameter of `kind` at its default. Render-safe.
    @_noLocks
    package static func defaults(for kind: EffectKind) -> EffectParameters {
        var p = EffectParameters()
        for i in 0..<kind.parameterCount { p[i] = kind.spec(i).defaultValue }
        return p
    }

    /// Whether the first `count` values equal those of `other` bit for bit. Render-safe.
    @_noLocks
    func sameValues(as other: EffectParameters, count: Int) -> Bool {
        for i in 0..<count where self[i].bitPattern != other[i].bitPattern { return false }
        return true
    }
}

// MARK: - Errors

/// A parameter value the control side refused: NaN, infinite, out of
/// range, or not one of a discrete parameter's values.
package struct EffectParameterError: Error, Sendable, CustomStringConvertible {
    /// The effect the parameter belongs to.
    package let kind: EffectKind
    /// The parameter's name as in ``EffectParameterInfo/name`` (e.g. `"ratio"`, `"band3Frequency"`),
    /// or `"bands"` for a band list that is too long.
    package let field: String
    /// What is wrong, naming the effect, the field, the value and the allowed range.
    package let message: String

    /// The message.
    package var description: String { message }
}

// MARK: - Descriptions

/// What one parameter of a kind is: where it lives in the block, its
/// name, unit, range and default. For banks, RTPC binding and messages
/// (control side).
package struct EffectParameterInfo: Sendable, Hashable {
    /// Index in ``EffectParameters/values``.
    package let index: Int
    /// Name as banks and errors spell it (`"threshold"`, `"band1Frequency"`…).
    package let name: String
    /// Unit: `"dB"`, `"dBFS"`, `"Hz"`, `"ms"`, `"s"`, `":1"`, `"linear"` (a gain factor),
    /// or `""` for a plain number or an enumeration's raw value.
    package let unit: String
    /// Smallest allowed value.
    package let minimum: Float
    /// Largest allowed value.
    package let maximum: Float
    /// The value ``EffectParameters/defaults(for:)`` gives it.
    package let defaultValue: Float
    /// Whether only whole values are meaningful (an enumeration's raw value).
    package let isDiscrete: Bool
}

/// How a parameter moves while it is smoothed toward a new target.
enum SmoothingDomain: UInt8, BitwiseCopyable {
    /// Linearly in its own unit (dB, ms of pre-delay, a linear gain…).
    case linear
    /// Linearly in log2 of its value (frequencies, Q, ratios, times).
    case logarithmic
    /// Takes the new value at once; the effect crossfades the change itself
    /// (an EQ band's type).
    case discrete

    /// Whether two domains are the same (render-safe).
    @_noLocks @inline(__always)
    static func == (a: SmoothingDomain, b: SmoothingDomain) -> Bool { a.rawValue == b.rawValue }
}

/// Range, default and smoothing of one parameter (render-safe data).
struct ParameterSpec: BitwiseCopyable {
    /// Smallest allowed value.
    var minimum: Float
    /// Largest allowed value.
    var maximum: Float
    /// The default.
    var defaultValue: Float
    /// How it moves while smoothed.
    var domain: SmoothingDomain

    /// A spec (render-safe).
    @_noLocks @inline(__always)
    init(_ minimum: Float, _ maximum: Float, _ defaultValue: Float, _ domain: SmoothingDomain) {
        self.minimum = minimum
        self.maximum = maximum
        self.defaultValue = defaultValue
        self.domain = domain
    }
}

extension EffectKind {
    /// How many of the 32 slots this kind uses. Render-safe.
    package var parameterCount: Int {
        @_noLocks get {
            switch self {
            case .parametricEQ: 1 + 4 * EffectParameters.EQ.bandCount
            case .compressor: 7
            case .limiter: 3
            case .delay: 5
            case .reverb: 7
            }
        }
    }

    /// Range, default and smoothing of parameter `index` (< ``parameterCount``). Render-safe.
    @_noLocks
    func spec(_ index: Int) -> ParameterSpec {
        switch self {
        case .parametricEQ:
            if index == 0 { return ParameterSpec(-24, 24, 0, .linear) }
            let band = (index - 1) >> 2
            switch (index - 1) & 3 {
            case 0:
                let type: EQBandType = band == 0 ? .lowShelf : (band == 5 ? .highShelf : .peak)
                return ParameterSpec(0, 7, type.parameterValue, .discrete)
            case 1:
                let frequency: Float =
                    switch band {
                    case 0: 80
                    case 1: 200
                    case 2: 500
                    case 3: 1250
                    case 4: 3150
                    default: 8000
                    }
                return ParameterSpec(20, 20000, frequency, .logarithmic)
            case 2: return ParameterSpec(-24, 24, 0, .linear)
            default: return ParameterSpec(0.1, 20, 0.707_106_77, .logarithmic)
            }
        case .compressor:
            switch index {
            case 0: return ParameterSpec(-60, 0, -20, .linear)
            case 1: return ParameterSpec(1, 50, 4, .logarithmic)
            case 2: return ParameterSpec(0.1, 500, 10, .logarithmic)
            case 3: return ParameterSpec(1, 5000, 100, .logarithmic)
            case 4: return ParameterSpec(-24, 24, 0, .linear)
            case 5: return ParameterSpec(0, 24, 0, .linear)
            default: return ParameterSpec(0, 1, 0, .linear)  // detector: a crossfade of the two levels
            }
        case .limiter:
            switch index {
            case 0: return ParameterSpec(-30, 0, -1, .linear)
            case 1: return ParameterSpec(1, 2000, 100, .logarithmic)
            default: return ParameterSpec(0.5, 10, 5, .linear)
            }
        case .delay:
            switch index {
            case 0: return ParameterSpec(1, 2000, 250, .logarithmic)
            case 1: return ParameterSpec(0, 0.95, 0.3, .linear)
            case 2: return ParameterSpec(0, 1, 0.5, .linear)
            case 3: return ParameterSpec(0, 1, 1, .linear)
            default: return ParameterSpec(0, 0.95, 0, .linear)
            }
        case .reverb:
            switch index {
            case 0: return ParameterSpec(0.1, 20, 1.5, .logarithmic)
            case 1: return ParameterSpec(0, 1, 0.5, .linear)
            case 2: return ParameterSpec(0, 200, 20, .linear)
            case 3: return ParameterSpec(0, 1, 0.5, .linear)
            case 4: return ParameterSpec(0, 1, 0.3, .linear)
            case 5: return ParameterSpec(0, 1, 1, .linear)
            default: return ParameterSpec(0, 1, 1, .linear)
            }
        }
    }

    /// Every parameter of this kind: index, name, unit, range and default (control side).
    package var parameters: [EffectParameterInfo] {
        (0..<parameterCount).map { index in
            let s = spec(index)
            let (name, unit) = parameterName(index)
            return EffectParameterInfo(
                index: index, name: name, unit: unit, minimum: s.minimum, maximum: s.maximum,
                defaultValue: s.defaultValue, isDiscrete: s.domain == .discrete || (self == .compressor && index == 6))
        }
    }

    /// Name and unit of parameter `index` (control side).
    func parameterName(_ index: Int) -> (String, String) {
        switch self {
        case .parametricEQ:
            if index == 0 { return ("outputGain", "dB") }
            let band = "band\((index - 1) / 4 + 1)"
            switch (index - 1) % 4 {
            case 0: return (band + "Type", "")
            case 1: return (band + "Frequency", "Hz")
            case 2: return (band + "Gain", "dB")
            default: return (band + "Q", "")
            }
        case .compressor:
            return [
                ("threshold", "dB"), ("ratio", ":1"), ("attack", "ms"), ("release", "ms"), ("makeup", "dB"),
                ("knee", "dB"), ("detector", ""),
            ][index]
        case .limiter:
            return [("ceiling", "dBFS"), ("release", "ms"), ("lookahead", "ms")][index]
        case .delay:
            return [("time", "ms"), ("feedback", "linear"), ("wet", "linear"), ("dry", "linear"), ("damping", "")][index]
        case .reverb:
            return [
                ("rt60", "s"), ("roomSize", ""), ("preDelay", "ms"), ("damping", ""), ("wet", "linear"), ("dry", "linear"),
                ("stereoInput", ""),
            ][index]
        }
    }
}

// MARK: - Validation (control side)

extension EffectParameters {
    /// This block checked as parameters of `kind` (control side): every
    /// used slot must be finite and within its range, and a discrete one
    /// (an EQ band's type, the compressor's detector) one of its whole
    /// values. Unused slots are set to 0. Throws an error naming the first
    /// bad field.
    package func validated(as kind: EffectKind) throws(EffectParameterError) -> EffectParameters {
        var result = EffectParameters()
        for info in kind.parameters {
            let value = self[info.index]
            func fail(_ problem: String) -> EffectParameterError {
                let unit = info.unit.isEmpty || info.unit == "linear" ? "" : " " + info.unit
                return EffectParameterError(
                    kind: kind, field: info.name,
                    message: "\(kind.name) parameter \(info.name) is \(problem); it must be a finite number "
                        + "from \(info.minimum) to \(info.maximum)\(unit)"
                        + (info.isDiscrete ? " (a whole number)" : ""))
            }
            if value.isNaN { throw fail("NaN") }
            if value.isInfinite { throw fail(value > 0 ? "+infinity" : "-infinity") }
            if value < info.minimum || value > info.maximum { throw fail("\(value), out of range") }
            if info.isDiscrete && value != Float(Int(value)) { throw fail("\(value), not a whole number") }
            result[info.index] = value
        }
        return result
    }

    /// A parametric EQ (control side): `bands` fill bands 1… in order (at
    /// most 6; the rest are off), `outputGain` in dB (−24…+24). Throws an
    /// error naming the first bad field (`"band2Q"`, `"outputGain"`, `"bands"`).
    package static func parametricEQ(
        bands: [EQBand], outputGain: Float = 0
    ) throws(EffectParameterError) -> EffectParameters {
        guard bands.count <= EQ.bandCount else {
            throw EffectParameterError(
                kind: .parametricEQ, field: "bands",
                message: "parametricEQ has \(bands.count) bands; it takes at most \(EQ.bandCount)")
        }
        var p = defaults(for: .parametricEQ)
        for band in 0..<EQ.bandCount { p[EQ.type(band: band)] = EQBandType.off.parameterValue }
        p.eqOutputGain = outputGain
        for (i, band) in bands.enumerated() { p.setEQBand(i, to: band) }
        return try p.validated(as: .parametricEQ)
    }

    /// A compressor (control side). `threshold` dB (−60…0), `ratio` :1
    /// (1…50), `attack` ms (0.1…500), `release` ms (1…5000), `makeup` dB
    /// (−24…+24), `knee` dB (0…24; 0 is a hard knee), `detector` peak or
    /// RMS. Throws an error naming the first bad field.
    package static func compressor(
        threshold: Float = -20, ratio: Float = 4, attack: Float = 10, release: Float = 100, makeup: Float = 0,
        knee: Float = 0, detector: CompressorDetector = .peak
    ) throws(EffectParameterError) -> EffectParameters {
        var p = EffectParameters()
        p.compressorThreshold = threshold
        p.compressorRatio = ratio
        p.compressorAttack = attack
        p.compressorRelease = release
        p.compressorMakeup = makeup
        p.compressorKnee = knee
        p.compressorDetector = detector
        return try p.validated(as: .compressor)
    }

    /// A limiter (control side). `ceiling` dBFS (−30…0), `release` ms
    /// (1…2000), `lookahead` ms (0.5…10; the limiter delays its signal by
    /// this much). Throws an error naming the first bad field.
    package static func limiter(
        ceiling: Float = -1, release: Float = 100, lookahead: Float = 5
    ) throws(EffectParameterError) -> EffectParameters {
        var p = EffectParameters()
        p.limiterCeiling = ceiling
        p.limiterRelease = release
        p.limiterLookahead = lookahead
        return try p.validated(as: .limiter)
    }

    /// A delay (control side). `time` ms (1…2000), `feedback` 0…0.95,
    /// `wet` and `dry` linear gains 0…1, `damping` 0…0.95 (the pole of the
    /// feedback low-pass at 48 kHz; 0 is off). Throws an error naming the
    /// first bad field.
    package static func delay(
        time: Float = 250, feedback: Float = 0.3, wet: Float = 0.5, dry: Float = 1, damping: Float = 0
    ) throws(EffectParameterError) -> EffectParameters {
        var p = EffectParameters()
        p.delayTime = time
        p.delayFeedback = feedback
        p.delayWet = wet
        p.delayDry = dry
        p.delayDamping = damping
        return try p.validated(as: .delay)
    }

    /// A reverb (control side). `rt60` s (0.1…20), `roomSize` 0…1,
    /// `preDelay` ms (0…200), `damping` 0…1, `wet` and `dry` linear gains
    /// 0…1, `stereoInput` 0 (mono sum)…1 (stereo). Throws an error naming
    /// the first bad field.
    package static func reverb(
        rt60: Float = 1.5, roomSize: Float = 0.5, preDelay: Float = 20, damping: Float = 0.5, wet: Float = 0.3,
        dry: Float = 1, stereoInput: Float = 1
    ) throws(EffectParameterError) -> EffectParameters {
        var p = EffectParameters()
        p.reverbRT60 = rt60
        p.reverbRoomSize = roomSize
        p.reverbPreDelay = preDelay
        p.reverbDamping = damping
        p.reverbWet = wet
        p.reverbDry = dry
        p.reverbStereoInput = stereoInput
        return try p.validated(as: .reverb)
    }
}

extension EffectParameters: Hashable {
    /// Equal when every value is (control side: banks compare definitions).
    package static func == (a: EffectParameters, b: EffectParameters) -> Bool {
        for i in 0..<32 where a.values[i] != b.values[i] { return false }
        return true
    }

    package func hash(into hasher: inout Hasher) {
        for i in 0..<32 { hasher.combine(values[i]) }
    }
}

extension EffectParameterInfo {
    /// The value of a parameter written as a word, as banks and the C API
    /// may write the discrete ones: an EQ band's type (`"peak"`,
    /// `"highPass"`…) or the compressor's detector (`"peak"`, `"rms"`).
    /// Nil for another word or a continuous parameter.
    package func value(ofWord word: String) -> Float? {
        guard isDiscrete else { return nil }
        if name.hasSuffix("Type") { return EQBandType.allCases.first { "\($0)" == word }.map { Float($0.rawValue) } }
        return CompressorDetector.allCases.first { "\($0)" == word }.map { Float($0.rawValue) }
    }
}
