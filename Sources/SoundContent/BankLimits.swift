import SoundCore

/// The ranges a bank's values must keep (docs/banks.md). One list for both
/// doors: ``BankParser`` reports a value of a bank file outside them as an
/// issue with its JSON path, and the engine refuses a ``Bank`` built in code
/// with one (`invalidParameter` naming the field), so neither can put a NaN,
/// an infinity or a runaway time into the mix.
package enum BankLimits {
    /// A volume offset in dB (sounds, containers, buses, actions, states, curves).
    package static let volumeDB: ClosedRange<Double> = -96...24
    /// How far a ducking rule turns a bus down, in dB.
    package static let duckingDB: ClosedRange<Double> = -96...0
    /// A pitch offset in cents.
    package static let pitchCents: ClosedRange<Double> = -2400...2400
    /// A time in seconds (delays, fades, transitions, attack and release,
    /// markers): the engine's one rule for times (``TimeArgument``), 0…3600.
    package static let seconds: ClosedRange<Double> = 0...TimeArgument.seconds(TimeArgument.maximum)
    /// A sound's voice priority.
    package static let priority: ClosedRange<Int> = 0...100
    /// A random container child's weight.
    package static let weight: ClosedRange<Double> = 0...1_000_000
    /// A random container's `avoidRepeat`.
    package static let avoidRepeat: ClosedRange<Int> = 0...1_000_000
    /// A distance of an attenuation curve, in game units.
    package static let distance: ClosedRange<Double> = 0...1e9
    /// An RTPC's bounds and the `x` of its curves.
    package static let rtpcValue: ClosedRange<Double> = -1e9...1e9
    /// A low-pass cut-off in Hz: the audible band with some room.
    package static let lowPassHz: ClosedRange<Double> = 10...24_000
    /// How far a 3D sound spreads over the speakers, in percent (Wwise's spread).
    package static let spreadPercent: ClosedRange<Double> = 0...100
    /// Aux sends a voice can have (a sound's own and its game object's
    /// together); a sound may declare at most this many.
    package static let auxSends = 4
    /// Insert effects a bus may have (Wwise: four bus effects).
    package static let busEffects = 4
}
