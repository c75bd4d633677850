import SoundMixer
import Synchronization

/// Idle corking (issue 8, item 6): a stream that keeps running with nothing
/// to play wakes the render thread every few milliseconds forever and keeps
/// the sink from suspending (the Godot complaint in peer-backends section 3).
/// After ``PlatformInitSettings/idleCorkTimeout`` with no voice (and no
/// delayed content action waiting for the mixer clock), the engine corks
/// the stream and holds the mixer on its clock; `play` uncorks it
/// before returning. The game's view (``SoundEngineInstance/status``) stays
/// `running`: this is the engine's business, not a pause.
extension SoundEngineInstance {
    /// Event thread, every poll: corks the stream once it has been idle long enough.
    func checkIdle() {
        guard let timeout = platformSettings.idleCorkTimeout else { return }
        // A delayed content action waits for the mixer clock, which idling would hold.
        let playing = mixer.statistics.voicesActive > 0 || content.waitsForMixerClock
        if idleCorked.load(ordering: .acquiring) {
            // A voice queued while the cork was being made (its play saw no
            // cork yet): the clock has started it meanwhile; uncork now.
            if playing { wakeFromIdle() }
            return
        }
        let now = ContinuousClock.now
        let due = idleSince.withLock { idleSince -> Bool in
            if playing {
                idleSince = nil
                return false
            }
            let since = idleSince ?? now
            idleSince = since
            return now - since >= timeout
        }
        guard due else { return }
        _ = try? withControl { c in
            // Re-checked on the control path: a play or a pause may have come first.
            guard c.state == .running, !idleCorked.load(ordering: .acquiring),
                mixer.statistics.voicesActive == 0, !content.waitsForMixerClock
            else { return }
            do {
                try backend.setPaused(true)
            } catch {
                log.log(.debug, "idle cork: \(error)")
                return
            }
            // Commands (a bus volume, a stop) keep being applied while corked, unhurried.
            clock.start(.idle)
            idleCorked.store(true, ordering: .releasing)
            log.log(.debug, "idle for \(timeout): stream corked")
        }
        idleSince.withLock { $0 = nil }
    }

    /// Any thread, after a voice was queued: uncorks an idle-corked stream
    /// (the pre-fill renders the new voice at once).
    func wakeFromIdle() {
        guard idleCorked.load(ordering: .acquiring) else { return }
        _ = try? withControl { c in leaveIdle(&c) }
    }

    /// Control path: if the stream is idle-corked, uncork it first, so what
    /// follows (a pause, a swap, a move, terminate) starts from a running
    /// stream. Clears the flag even when the server is gone.
    func leaveIdle(_ c: inout Control) {
        guard idleCorked.exchange(false, ordering: .acquiringAndReleasing) else { return }
        clock.stop()
        guard c.state == .running else { return }
        do {
            try backend.setPaused(false)
        } catch {
            log.log(.debug, "idle uncork: \(error)")
        }
    }
}
