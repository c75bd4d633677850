import SoundCore
import SoundEffects

extension SoundEngine {
    /// An insert effect for a bus (Wwise `SetBusEffect`, FMOD's DSP on a
    /// bus): up to four per bus, run in order on everything that reaches the
    /// bus, before its volume (docs/mixer.md, "Bus effects"). Times are
    /// `Duration`s, levels in dB unless said; every argument has the
    /// default shown, and ``SoundEngine/setBusEffect(_:index:_:)`` refuses
    /// one out of its range naming it. Banks declare the same effects
    /// (`"effects"` of a bus, docs/banks.md), and every parameter can be
    /// moved at run time (``SoundEngine/setBusEffectParameter(_:index:_:_:ramp:)``)
    /// or bound to an RTPC.
    public enum BusEffect: Sendable, Hashable {
        /// Up to six filter bands (RBJ designs, −24…+24 dB, 20 Hz…20 kHz,
        /// Q 0.1…20) and an output gain (−24…+24 dB).
        case parametricEQ(bands: [EQBand], outputGain: Float = 0)
        /// Gain reduction above `threshold` (−60…0 dB) by `ratio` (1…50),
        /// `attack` 0.1…500 ms and `release` 1…5000 ms (time constants),
        /// `makeup` −24…+24 dB, a soft `knee` 0…24 dB; keyed by its own
        /// input or by another bus's output (`sidechain`: music ducked
        /// under dialogue).
        case compressor(
            threshold: Float = -20, ratio: Float = 4, attack: Duration = .milliseconds(10),
            release: Duration = .milliseconds(100), makeup: Float = 0, knee: Float = 0,
            detector: CompressorDetector = .peak, sidechain: BusID? = nil)
        /// A look-ahead peak limiter: no sample over `ceiling` (−30…0 dBFS);
        /// `release` 1…2000 ms; `lookahead` 0.5…10 ms, which is also its delay.
        case limiter(ceiling: Float = -1, release: Duration = .milliseconds(100), lookahead: Duration = .milliseconds(5))
        /// An echo: `time` 1 ms…2 s, `feedback` 0…0.95, `wet` and `dry` linear
        /// 0…1, `damping` 0…0.95 (a low-pass in the feedback).
        case delay(
            time: Duration = .milliseconds(250), feedback: Float = 0.3, wet: Float = 0.5, dry: Float = 1,
            damping: Float = 0)
        /// An algorithmic room (a 16-line feedback delay network): decay
        /// `rt60` 0.1…20 s, `roomSize` 0…1, `preDelay` 0…200 ms, `damping`
        /// 0…1 (high frequencies die sooner), `wet` and `dry` linear 0…1.
        /// Put it on an aux bus and send to it.
        case reverb(
            rt60: Duration = .milliseconds(1500), roomSize: Float = 0.5, preDelay: Duration = .milliseconds(20),
            damping: Float = 0.5, wet: Float = 0.3, dry: Float = 1)

        /// The effect's kind, parameters (engine units) and sidechain; the
        /// times checked by the engine's one rule for times.
        func resolved() throws(SoundEngineError) -> (kind: EffectKind, parameters: EffectParameters, sidechain: BusID?) {
            func ms(_ d: Duration, _ name: String) throws(SoundEngineError) -> Float {
                Float(TimeArgument.seconds(try TimeArgument.check(d, name)) * 1000)
            }
            func made(_ build: () throws(EffectParameterError) -> EffectParameters) throws(SoundEngineError) -> EffectParameters {
                do throws(EffectParameterError) { return try build() } catch { throw .invalidParameter(error.description) }
            }
            switch self {
            case .parametricEQ(let bands, let gain):
                guard bands.count <= EffectParameters.EQ.bandCount else {
                    throw .invalidParameter("parametricEQ bands: \(bands.count) given, at most \(EffectParameters.EQ.bandCount)")
                }
                let eq = bands.map { SoundEffects.EQBand($0.shape.type, frequency: $0.frequency, gain: $0.gain, q: $0.q) }
                return (.parametricEQ, try made { () throws(EffectParameterError) in try .parametricEQ(bands: eq, outputGain: gain) }, nil)
            case .compressor(let t, let r, let a, let rel, let m, let k, let d, let key):
                let (attack, release) = (try ms(a, "compressor attack"), try ms(rel, "compressor release"))
                let p = try made { () throws(EffectParameterError) in
                    try .compressor(
                        threshold: t, ratio: r, attack: attack, release: release, makeup: m, knee: k,
                        detector: d == .peak ? .peak : .rms)
                }
                return (.compressor, p, key)
            case .limiter(let c, let r, let l):
                let (release, lookahead) = (try ms(r, "limiter release"), try ms(l, "limiter lookahead"))
                return (.limiter, try made { () throws(EffectParameterError) in try .limiter(ceiling: c, release: release, lookahead: lookahead) }, nil)
            case .delay(let t, let f, let w, let d, let damping):
                let time = try ms(t, "delay time")
                return (.delay, try made { () throws(EffectParameterError) in try .delay(time: time, feedback: f, wet: w, dry: d, damping: damping) }, nil)
            case .reverb(let rt60, let size, let pre, let damping, let wet, let dry):
                let decay = Float(TimeArgument.seconds(try TimeArgument.check(rt60, "reverb rt60")))
                let preDelay = try ms(pre, "reverb preDelay")
                let p = try made { () throws(EffectParameterError) in
                    try .reverb(rt60: decay, roomSize: size, preDelay: preDelay, damping: damping, wet: wet, dry: dry)
                }
                return (.reverb, p, nil)
            }
        }
    }

    /// One band of a ``BusEffect/parametricEQ(bands:outputGain:)``.
    public struct EQBand: Sendable, Hashable {
        /// The filter shape.
        public enum Shape: Sendable, Hashable, CaseIterable {
            case off, lowShelf, highShelf, peak, lowPass, highPass, bandPass, notch

            var type: EQBandType {
                switch self {
                case .off: .off
                case .lowShelf: .lowShelf
                case .highShelf: .highShelf
                case .peak: .peak
                case .lowPass: .lowPass
                case .highPass: .highPass
                case .bandPass: .bandPass
                case .notch: .notch
                }
            }
        }
        public var shape: Shape
        /// Centre or corner frequency, 20…20000 Hz.
        public var frequency: Float
        /// Gain of a shelf or peak, −24…+24 dB (others ignore it).
        public var gain: Float
        /// Q, 0.1…20 (0.707: Butterworth for the passes).
        public var q: Float

        /// A band; `gain` 0 dB and `q` 0.707 unless given.
        public init(_ shape: Shape, frequency: Float, gain: Float = 0, q: Float = 0.707_106_77) {
            self.shape = shape
            self.frequency = frequency
            self.gain = gain
            self.q = q
        }
    }

    /// What a ``BusEffect/compressor(threshold:ratio:attack:release:makeup:knee:detector:sidechain:)`` listens to.
    public enum CompressorDetector: Sendable, Hashable {
        /// The instantaneous peak of the loudest channel.
        case peak
        /// The RMS (10 ms) of the loudest channel.
        case rms
    }
}
