/// The kinds of bus insert effect the mixer runs (issue 17, item 2).
///
/// The raw value is stable: banks and commands may store it.
package enum EffectKind: UInt8, BitwiseCopyable, Sendable, CaseIterable {
    /// Up to six bands of state-variable (RBJ-equivalent) filters and an output gain.
    case parametricEQ
    /// A feed-forward, channel-linked compressor with a soft knee and an optional sidechain.
    case compressor
    /// A look-ahead peak limiter: no output sample ever exceeds the ceiling.
    case limiter
    /// A feedback delay per channel with an optional low-pass in the feedback.
    case delay
    /// An algorithmic reverb: a 16-line feedback delay network with a Hadamard matrix.
    case reverb

    // Concrete operators: the synthesized Equatable ones are generic and
    // not allowed on the render path.

    /// Whether two kinds are the same (render-safe).
    @_noLocks @inline(__always)
    package static func == (a: EffectKind, b: EffectKind) -> Bool { a.rawValue == b.rawValue }

    /// Whether two kinds differ (render-safe).
    @_noLocks @inline(__always)
    package static func != (a: EffectKind, b: EffectKind) -> Bool { a.rawValue != b.rawValue }

    /// The name banks and messages use for this kind.
    package var name: String {
        switch self {
        case .parametricEQ: "parametricEQ"
        case .compressor: "compressor"
        case .limiter: "limiter"
        case .delay: "delay"
        case .reverb: "reverb"
        }
    }
}

/// The response of one parametric-EQ band. Stored in ``EffectParameters``
/// as its raw value (a whole Float). Every type but ``off`` equals the RBJ
/// cookbook biquad of the same name at the same frequency, gain and Q.
package enum EQBandType: UInt8, BitwiseCopyable, Sendable, CaseIterable {
    /// The band does nothing (and costs nothing).
    case off
    /// Low shelf: `gain` below `frequency`, 0 dB above; `q` shapes the knee (0.707: no overshoot).
    case lowShelf
    /// High shelf: `gain` above `frequency`, 0 dB below.
    case highShelf
    /// Peaking (bell): `gain` at `frequency`, bandwidth from `q`.
    case peak
    /// Second-order low-pass at `frequency` (`q` 0.707: Butterworth). `gain` is unused.
    case lowPass
    /// Second-order high-pass at `frequency`. `gain` is unused.
    case highPass
    /// Band-pass with 0 dB at `frequency` (RBJ's "constant 0 dB peak gain"). `gain` is unused.
    case bandPass
    /// Notch at `frequency`, width from `q`. `gain` is unused.
    case notch

    /// Whether two types are the same (render-safe).
    @_noLocks @inline(__always)
    package static func == (a: EQBandType, b: EQBandType) -> Bool { a.rawValue == b.rawValue }

    /// Whether two types differ (render-safe).
    @_noLocks @inline(__always)
    package static func != (a: EQBandType, b: EQBandType) -> Bool { a.rawValue != b.rawValue }

    /// The raw value as a parameter block stores it (render-safe; the
    /// synthesized `rawValue` is not annotated for the performance checker).
    package var parameterValue: Float { @_noLocks @inline(__always) get { Float(rawValue) } }

    /// The type stored as `value` in a parameter block (render-safe; `.off` for anything not a valid raw value).
    @_noLocks @inline(__always)
    init(parameter value: Float) {
        let raw = value >= 0 && value <= 7 ? UInt8(Int(value + 0.5)) : 0
        self = EQBandType(rawValue: raw) ?? .off
    }
}

/// What the compressor's detector measures.
package enum CompressorDetector: UInt8, BitwiseCopyable, Sendable, CaseIterable {
    /// The largest sample magnitude (a sine's level is its amplitude).
    case peak
    /// The root mean square over a 10 ms window (a sine's level is 3.01 dB below its amplitude).
    case rms

    /// The raw value as a parameter block stores it (render-safe).
    package var parameterValue: Float { @_noLocks @inline(__always) get { Float(rawValue) } }
}
