/// The one rule for every time a caller gives the engine: fades, ramps,
/// interpolations, delays, transitions (docs/input-validation.md).
///
/// A time is **0 s…1 hour** (``maximum``), unless a call documents a
/// shorter limit for a reason of its own (a suspend's fade-out holds the
/// engine's session thread while it is heard: at most 10 s). A negative time,
/// or one past the limit, is refused with `invalidParameter` naming the
/// argument, its value and the range, before anything changes; nothing is
/// clamped. An hour is far from every frame-count and clock limit, so a
/// checked time converts to frames (`Int32`) and adds to clock instants
/// without overflow, and it catches milliseconds passed where seconds were
/// meant.
///
/// Every façade call that takes a time checks it here, on the caller's
/// thread; the render thread never sees an unchecked one.
package enum TimeArgument {
    /// The longest time any call accepts: one hour.
    package static let maximum: Duration = .seconds(3600)

    /// `duration` itself when it is 0…`limit`.
    ///
    /// - Parameters:
    ///   - name: the argument as the caller knows it, e.g. `"stop fadeOut"`;
    ///     the error names it.
    ///   - limit: a shorter limit a call documents; at most ``maximum``.
    /// - Throws: `invalidParameter("<name> = <value> s: must be 0…<limit> s")`,
    ///   e.g. `stop fadeOut = -1 s: must be 0…3600 s`.
    @discardableResult
    package static func check(_ duration: Duration, _ name: String, limit: Duration = maximum)
        throws(SoundEngineError) -> Duration
    {
        let limit = min(limit, maximum)
        guard duration >= .zero, duration <= limit else {
            throw .invalidParameter("\(name) = \(text(duration)): must be 0…\(text(limit))")
        }
        return duration
    }

    /// A time given as a number of seconds (a bank's marker, a command
    /// line, a C caller), checked as ``check(_:_:limit:)`` does — NaN and
    /// infinities are refused too — and converted without trapping.
    package static func duration(seconds: Double, _ name: String, limit: Duration = maximum)
        throws(SoundEngineError) -> Duration
    {
        let limit = min(limit, maximum)
        guard seconds.isFinite, seconds >= 0, seconds <= Self.seconds(limit) else {
            let value = seconds.isFinite ? "\(seconds) s" : "\(seconds)"
            throw .invalidParameter("\(name) = \(value): must be 0…\(text(limit))")
        }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// `duration`, checked as ``check(_:_:limit:)`` does, in frames at
    /// `sampleRate` (rounded to the nearest frame).
    package static func frames(_ duration: Duration, _ name: String, sampleRate: Int, limit: Duration = maximum)
        throws(SoundEngineError) -> Int
    {
        try frames(check(duration, name, limit: limit), sampleRate: sampleRate)
    }

    /// `duration` in frames at `sampleRate`, rounded to the nearest frame,
    /// for a time already checked (or one of the engine's own). Never traps:
    /// out of 0…2^31−1 frames it saturates, so even a time that skipped the
    /// check cannot crash the caller.
    package static func frames(_ duration: Duration, sampleRate: Int) -> Int {
        let exact = (seconds(duration) * Double(sampleRate)).rounded()
        guard exact > 0 else { return 0 }  // also NaN, from a nonsense rate
        return exact < Double(Int32.max) ? Int(exact) : Int(Int32.max)
    }

    /// `duration` as an error message shows it: `-1.5 s`, `3600 s`.
    package static func text(_ duration: Duration) -> String {
        let s = seconds(duration)
        return s == s.rounded() && abs(s) < 1e15 ? "\(Int64(s)) s" : "\(s) s"
    }

    /// `duration` in seconds, as a `Double` (to well under a nanosecond
    /// for every time the engine accepts). Never traps: `components` would,
    /// for a duration past `Int64.max` seconds, which `Duration` can hold.
    package static func seconds(_ duration: Duration) -> Double {
        duration / .seconds(1)
    }
}
