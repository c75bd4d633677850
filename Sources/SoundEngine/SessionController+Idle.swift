import SoundMixer
import Synchronization

/// Idle corking (issue 8, item 6): a stream that keeps running with nothing
/// to play wakes the render thread every few milliseconds forever and keeps
/// the sink from suspending (the Godot complaint in peer-backends section 3).
/// After ``PlatformInitSettings/idleCorkTimeout`` with no voice (and no
/// delayed content action waiting for the mixer clock, which idling would
/// hold), the session thread corks the stream and holds the mixer on its clock; a voice queued
/// then (``voiceQueued()``) has the session thread uncork it, while the game's
/// call returns at once. The game's view (``SoundEngine/status``)
/// stays `running`: this is the engine's business, not a pause.
extension SessionController {
    /// Any thread, after a voice was queued: an idle-corked stream is
    /// uncorked by the session thread (the pre-fill renders the new voice
    /// from its start). Never blocks, and takes no lock: a flag and the
    /// session thread's semaphore (the wake is the one system call a game
    /// thread makes, and only on an idle-corked stream).
    func voiceQueued() {
        guard idleCorked.load(ordering: .acquiring),
            !wakeQueued.exchange(true, ordering: .acquiringAndReleasing)  // one wake per burst
        else { return }
        wake.signal()
    }

    /// Session thread, every pass: corks the stream once it has been idle
    /// long enough; uncorks it if a voice came while the cork was being made.
    func checkIdle() {
        guard let timeout = idleCorkTimeout else { return }
        let playing = mixer.statistics.voicesActive > 0 || needsMixerClock()
        if idleCorked.load(ordering: .acquiring) {
            if playing { leaveIdle() }
            return
        }
        guard execution.state == .running, !playing else {
            execution.idleSince = nil
            return
        }
        let now = ContinuousClock.now
        let since = execution.idleSince ?? now
        execution.idleSince = since
        guard now - since >= timeout else { return }
        do {
            try backend.setPaused(true)
        } catch {
            log.log(.debug, "idle cork: \(error)")
            return
        }
        // Commands (a bus volume, a stop) keep being applied while corked, unhurried.
        clock.start(.idle)
        idleCorked.store(true, ordering: .releasing)  // releasing: pairs with voiceQueued's acquiring load
        execution.idleSince = nil
        log.log(.debug, "idle for \(timeout): stream corked")
    }

    /// Session thread: if the stream is idle-corked, uncorks it, so what
    /// follows (a pause, a swap, a move, terminate) starts from a running
    /// stream. Clears the flag even when the server is gone.
    func leaveIdle() {
        guard idleCorked.exchange(false, ordering: .acquiringAndReleasing) else { return }
        clock.stop()
        guard execution.state == .running else { return }
        do {
            try backend.setPaused(false)
        } catch {
            log.log(.debug, "idle uncork: \(error)")
        }
    }
}
