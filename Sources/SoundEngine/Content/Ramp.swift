/// A value moving linearly from `from` to `to` over `duration`, by the
/// monotonic clock. Every gradual change of the content layer is one:
/// RTPC interpolation (in the RTPC's own units, so its curves are followed),
/// state transitions, fades of setVolume and setBusVolume actions, ducking.
struct Ramp: Sendable {
    var from: Double
    var to: Double
    var start: ContinuousClock.Instant
    var duration: Duration

    /// A value that is not moving.
    init(_ value: Double) {
        from = value
        to = value
        start = .now
        duration = .zero
    }

    /// A move from `from` to `to` starting at `now`.
    init(from: Double, to: Double, over duration: Duration, now: ContinuousClock.Instant) {
        self.from = from
        self.to = to
        start = now
        self.duration = duration
    }

    func value(at now: ContinuousClock.Instant) -> Double {
        guard duration > .zero else { return to }
        let t = (now - start) / duration
        if t >= 1 { return to }
        if t <= 0 { return from }
        return from + (to - from) * t
    }

    func isMoving(at now: ContinuousClock.Instant) -> Bool { duration > .zero && now - start < duration }

    /// Starts a new move from wherever this one is now.
    mutating func move(to target: Double, over duration: Duration, now: ContinuousClock.Instant) {
        self = Ramp(from: value(at: now), to: target, over: duration, now: now)
    }
}
