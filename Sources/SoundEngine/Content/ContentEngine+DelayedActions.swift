import Dispatch
import SoundContent
import SoundCore
import SoundMixer
import Synchronization

/// Delayed actions other than plays (stop, pause, setVolume, post, …), on
/// the mixer clock like delayed plays (docs/content-engine.md, "Actions").
///
/// A delayed play starts at a frame of the mixer clock (`VoiceStart.atFrame`),
/// and that clock holds while the engine is suspended. A stop delayed on
/// wall time would then fire before the play it follows. So every delayed
/// action is due at a frame, `renderedFrames` at posting + its delay: a
/// timer fires when the mixer should get there at real-time pace, looks at
/// the mixer clock, and waits again for what is left if it has not got
/// there yet (held by a suspend, or just behind). Gradual changes (RTPC
/// interpolation, fades, ducking) stay on wall time: they shape levels
/// heard now, not the order of an event's actions.
extension ContentEngine {
    /// The shortest and longest wait between two looks at the mixer clock.
    /// The longest bounds how late an action runs when the mixer renders
    /// faster than real time (an offline engine, a pre-fill) and how long a
    /// cancelled action's timer lives on.
    static let delayRecheck: ClosedRange<Duration> = .milliseconds(1) ... .milliseconds(100)

    /// Schedules `action` of posting `id` to run once the mixer clock reaches
    /// `frame`, unless the posting is stopped (or its bank unloaded) first:
    /// like a delayed play, it holds the posting open until then. Lock held.
    func schedule(
        _ action: BankAction, _ id: PlayingID, on object: GameObjectID, atFrame frame: Int64, depth: Int,
        _ s: inout ContentState
    ) {
        let token = newToken(&s)
        s.playings[id]?.timers.insert(token)
        delayedActionsWaiting.wrappingAdd(1, ordering: .relaxed)  // relaxed: a count (see its declaration)
        waitForFrame(frame, token: token, id: id) { [self] s in
            perform(action, id, on: object, start: .immediately, from: frame, depth: depth, &s)
            endIfDone(id, &s)
        }
    }

    /// Runs `body` under the lock, on the timer queue, once the mixer clock
    /// has reached `frame`; gives up when `token` has left the posting's
    /// timers (cancelled) or the engine closed.
    private func waitForFrame(
        _ frame: Int64, token: UInt64, id: PlayingID, _ body: @escaping @Sendable (inout ContentState) -> Void
    ) {
        let remaining = max(0, frame - mixer.renderedFrames)
        let rate = Double(max(1, mixer.outputFormat.sampleRate))
        let wait = min(max(Duration.seconds(Double(remaining) / rate), Self.delayRecheck.lowerBound),
                       Self.delayRecheck.upperBound)
        let (seconds, attoseconds) = wait.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        timers.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
            guard let self else { return }
            var queued = false
            let ran: Bool? = state.withLock { s in
                // Stopped, unloaded or terminated meanwhile: the wait ends.
                guard !s.closed, s.playings[id]?.timers.contains(token) == true else { return nil }
                guard mixer.renderedFrames >= frame else { return false }
                s.playings[id]?.timers.remove(token)
                body(&s)
                queued = refresh(&s)
                return true
            }
            if queued { playback.voiceQueued() }
            if ran == false {
                waitForFrame(frame, token: token, id: id, body)
            } else {
                delayedActionsWaiting.wrappingSubtract(1, ordering: .relaxed)  // relaxed: a count
            }
        }
    }

    /// Whether a delayed action waits for the mixer clock: the engine then
    /// keeps the stream (and so the clock) running instead of idle-corking
    /// it, which would hold the clock and the action with it.
    var waitsForMixerClock: Bool { delayedActionsWaiting.load(ordering: .relaxed) > 0 }  // relaxed: a count
}
