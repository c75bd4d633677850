import Dispatch
import SoundContent
import SoundCore
import SoundMixer
import Synchronization

/// The content runtime of one ``SoundEngineInstance`` (docs/content-engine.md):
/// banks, game objects, events, RTPCs, states and switches, turned into
/// voices and bus volumes of the mixer.
///
/// Threads: every public call of the instance may come from any thread; all
/// state is behind one lock (`state`). A post queues its event's actions for
/// the posting thread (`postThread`), and every other call runs what is
/// queued first (ContentEngine+Events, "Queued posting"). Mixer calls are
/// made under the lock — they only queue commands and never call back — but
/// game callbacks never are: end-of-event callbacks are queued in the
/// state's outbox and delivered by the event thread. Delayed actions and gradual changes (RTPC interpolation,
/// state transitions, fades, ducking) run on `timers`, a private serial
/// queue: gradual changes on the monotonic clock, delayed actions when the
/// mixer clock reaches their frame (ContentEngine+DelayedActions). Nothing
/// here waits for the render thread.
final class ContentEngine: Sendable {
    let state = ControlLock(ContentState())
    /// Serialises bank loads and unloads, so decoding (slow, outside `state`)
    /// cannot interleave with another bank change.
    let bankChanges = ControlLock(())
    let timers = DispatchQueue(label: "SoundEngine-content")
    /// Delayed actions waiting for their frame of the mixer clock (relaxed:
    /// a count the idle check reads, no data published with it).
    let delayedActionsWaiting = Atomic<Int>(0)
    /// Runs the actions of posted events (`SoundEngine-pst`; ContentEngine+Events,
    /// "Queued posting"), so the game thread that posts does not.
    let postThread = WakeableThread(name: "SoundEngine-pst")
    /// What the content engine plays through (shared with the public API).
    let playback: Playback
    var mixer: Mixer { playback.mixer }
    let log: any SoundLogger

    /// How often gradual changes are re-sent to the mixer, and the ramp each
    /// send uses: about one game frame, so moves sound continuous.
    static let tick: Duration = .milliseconds(16)

    init(playback: Playback, log: any SoundLogger) {
        self.playback = playback
        self.log = log
        postThread.start { [weak self] in self?.runQueuedPosts() }
    }

    /// Terminate: ends the posting thread (what it has not run yet ends in ``finish()``).
    func stopThreads() { postThread.stop() }

    /// Runs `body` under the lock, refusing after terminate; then refreshes
    /// the mix (what `body` changed reaches the mixer) before unlocking —
    /// all of it, or with `.startedVoices` only what voices starting can
    /// change (``refresh(_:_:)``). Postings queued before this call run
    /// first, so calls take effect in the order they were made. Voices
    /// queued wake an idle-corked stream after the lock is released.
    func withState<T>(
        refreshing scope: RefreshScope = .all, _ body: (inout ContentState) throws(SoundEngineError) -> T
    ) throws(SoundEngineError) -> T {
        var queued = false
        defer { if queued { playback.voiceQueued() } }
        return try state.withLock { s throws(SoundEngineError) -> T in
            guard !s.closed else { throw .notInitialized }
            runQueuedPosts(&s)
            defer { queued = refresh(&s, scope) }
            return try body(&s)
        }
    }

    /// Runs `body` under the lock, refusing after terminate; for reads.
    /// Postings queued before this call run first (an event's setState or
    /// setSwitch action is seen by a read made after its post).
    func reading<T>(_ body: (ContentState) throws(SoundEngineError) -> T) throws(SoundEngineError) -> T {
        var queued = false
        defer { if queued { playback.voiceQueued() } }
        return try state.withLock { s throws(SoundEngineError) -> T in
            guard !s.closed else { throw .notInitialized }
            if !s.queuedPosts.isEmpty {
                runQueuedPosts(&s)
                queued = refresh(&s, .startedVoices)
            }
            return try body(s)
        }
    }

    // MARK: - Event thread

    /// Queues a callback for the event thread's next poll, behind those owed.
    func post(
        _ callback: @escaping @Sendable (SoundEngine.CallbackInfo) -> Void, _ message: SoundEngine.CallbackInfo
    ) {
        state.withLock { s in s.outbox.append((callback, message)) }
    }

    /// Event thread: delivers the end-of-event callbacks owed, outside the lock.
    func deliverCallbacks() {
        let owed = state.withLock { s in
            defer { s.outbox.removeAll(keepingCapacity: true) }
            return s.outbox
        }
        for item in owed { item.callback(item.message) }
    }

    /// Event thread, once, after terminate completed every voice: playing IDs
    /// still waiting on delayed actions end now, so each still gets its one
    /// end-of-event callback; then nothing is taken any more.
    func finish() {
        state.withLock { s in
            s.closed = true
            s.queuedPosts.removeAll()
            for id in s.playings.keys.sorted() {
                s.playings[id]?.voices = []
                cancelWaiting(id, &s)
                endIfDone(id, &s)
            }
        }
        deliverCallbacks()
    }

    // MARK: - Playing IDs

    /// Ends `id` if it has no voice, no delayed action and no queued
    /// actions left: its callback is owed (once: the entry is removed).
    func endIfDone(_ id: PlayingID, _ s: inout ContentState) {
        guard let p = s.playings[id], p.voices.isEmpty, p.timers.isEmpty, !p.queued else { return }
        s.playings[id] = nil
        if let callback = p.callback { s.outbox.append((callback, .endOfEvent(id))) }
    }

    /// A new playing ID: never 0, never one still in use.
    func newPlayingID(_ s: inout ContentState) -> PlayingID {
        while true {
            let raw = s.nextPlaying
            if raw == .max { s.playingIDsWrapped = true }
            s.nextPlaying = raw == .max ? 1 : raw + 1
            let id = PlayingID(posting: raw)
            if raw != 0, s.playings[id] == nil { return id }
        }
    }

    /// Cancels what of `id` has not run yet: its delayed actions, and its
    /// actions still queued (``runQueuedPosts(_:)`` skips them).
    func cancelWaiting(_ id: PlayingID, _ s: inout ContentState) {
        s.playings[id]?.timers = []
        s.playings[id]?.queued = false
    }

    func newToken(_ s: inout ContentState) -> UInt64 {
        defer { s.nextToken += 1 }
        return s.nextToken
    }

    /// Event thread (the mixer's marker event): tells the voice's posting
    /// which marker of its sound was crossed.
    func markerCrossed(_ voice: VoiceID, index: Int) {
        state.withLock { s in
            guard !s.closed, let token = s.tokensByVoice[voice], let v = s.voices[token],
                let callback = s.playings[v.playing]?.callback, let soundID = v.path.last,
                case .sound(let sound, _)? = s.objects[soundID]?.kind, index < sound.markers.count
            else { return }
            s.outbox.append((callback, .marker(v.playing, name: sound.markers[index].name, sound: sound.name)))
        }
        deliverCallbacks()
    }

    /// Event thread (a voice's completion): forgets the voice; its playing ID
    /// is told when its stream failed, and may end; ducking may release.
    func voiceEnded(_ token: UInt64, _ end: VoiceEnd) {
        state.withLock { s in
            guard let v = s.voices.removeValue(forKey: token) else { return }
            if case .failed(let error) = end, let callback = s.playings[v.playing]?.callback {
                s.outbox.append((callback, .voiceFailed(v.playing, error)))
            }
            s.tokensByVoice[v.voice] = nil
            s.playings[v.playing]?.voices.remove(token)
            endIfDone(v.playing, &s)
            if !s.closed { refresh(&s) }  // (ending voices starts none)
        }
        deliverCallbacks()
    }

    /// Stops voices (fading over `fade`, at least the mixer's de-click).
    /// They end through their completions.
    func stopVoices(_ tokens: some Sequence<UInt64>, fade: Duration, _ s: ContentState) {
        let frames = mixer.frames(fade)
        for token in tokens {
            guard let v = s.voices[token] else { continue }
            // idNotFound: it ended and its completion is on its way.
            try? mixer.stop(v.voice, fadeOutFrames: frames)
        }
    }

    /// Stops a playing ID: its delayed actions are cancelled, its voices fade
    /// out; it ends when they have.
    func stop(_ id: PlayingID, fade: Duration, _ s: inout ContentState) {
        guard let p = s.playings[id] else { return }
        cancelWaiting(id, &s)
        stopVoices(p.voices, fade: fade, s)
        endIfDone(id, &s)
    }

    // MARK: - Timers

    /// Runs `body` on the timer queue after `delay`, under the lock, unless
    /// the engine closed. Returns at once.
    func after(_ delay: Duration, _ body: @escaping @Sendable (inout ContentState) -> Void) {
        let nanos = Int(max(0, min(TimeArgument.seconds(delay), 1e7)) * 1e9)
        timers.asyncAfter(deadline: .now() + .nanoseconds(nanos)) { [weak self] in
            guard let self else { return }
            let queued = self.state.withLock { s in
                guard !s.closed else { return false }
                body(&s)
                return self.refresh(&s)
            }
            if queued { self.playback.voiceQueued() }
        }
    }

    /// Keeps refreshing the mix every ``tick`` while anything moves.
    func scheduleTickIfMoving(_ s: inout ContentState, now: ContinuousClock.Instant) {
        guard !s.tickScheduled, isMoving(s, now: now) else { return }
        s.tickScheduled = true
        after(Self.tick) { s in s.tickScheduled = false }
    }
}
