import SoundContent
import SoundCore
import SoundMixer

/// Posting events and running their actions.
extension ContentEngine {
    /// A chain of `post` actions deeper than this is cut (an event that posts
    /// itself would otherwise never end).
    static let maxPostDepth = 16

    // MARK: - Queued posting

    /// Posts an event the Wwise way: what can be refused is checked now (the
    /// event, the game object) and the playing ID is recorded, so the post
    /// throws as before and `isPlaying` is true at once; its actions are
    /// queued and run on the posting thread (``runQueuedPosts()``), or first
    /// thing in the next content call, whichever comes first. The calling
    /// thread pays a lock, three table look-ups and, for the first post of a
    /// burst, a futex wake — not the container choices, mix computations and
    /// mixer commands of the event, which cost it tens of microseconds cold
    /// (docs/performance.md, "Call time on an idle-corked engine"). Delays
    /// count from the mixer clock at the post.
    func postEvent(
        _ event: ContentRef, on object: GameObjectID, callback: (@Sendable (SoundEngine.CallbackInfo) -> Void)?,
        durations: Bool = false
    ) throws(SoundEngineError) -> PlayingID {
        let id = try state.withLock { s throws(SoundEngineError) -> PlayingID in
            guard !s.closed else { throw .notInitialized }
            let definition = try event.resolve(s.events, "event") { $0.name }
            try requireRegistered(object, s)
            let id = newPlayingID(&s)
            var playing = Playing(
                event: definition.value.name, bank: definition.bank, gameObject: object, callback: callback)
            playing.queued = true
            playing.durations = durations && callback != nil
            s.playings[id] = playing
            s.queuedPosts.append(
                QueuedPost(id: id, event: definition.value, gameObject: object, frame: mixer.renderedFrames))
            return id
        }
        postThread.wake()  // one futex wake per burst of posts
        return id
    }

    /// Posting thread (or a backend that renders on its caller's thread,
    /// before each render): runs the queued postings, sends their voices to
    /// the mixer and wakes an idle-corked stream for them. End-of-event
    /// callbacks owed go out with the event thread's next poll.
    func runQueuedPosts() {
        let queued = state.withLock { s in
            guard !s.closed, !s.queuedPosts.isEmpty else { return false }
            runQueuedPosts(&s)
            return refresh(&s, .startedVoices)
        }
        if queued { playback.voiceQueued() }
    }

    /// Runs the queued postings' actions, in the order they were posted,
    /// skipping those stopped (or whose bank was unloaded) since. Lock held.
    func runQueuedPosts(_ s: inout ContentState) {
        guard !s.queuedPosts.isEmpty else { return }
        var i = 0
        while i < s.queuedPosts.count {
            let post = s.queuedPosts[i]
            i += 1
            guard s.playings[post.id]?.queued == true else { continue }
            s.playings[post.id]?.queued = false
            run(post.event, post.id, on: post.gameObject, from: post.frame, depth: 0, &s)
            endIfDone(post.id, &s)  // an event that started nothing ends now
        }
        s.queuedPosts.removeAll(keepingCapacity: true)
    }

    /// Stops one posting; one that has ended already is ignored (it may
    /// have ended while the call was on its way).
    func stop(_ id: PlayingID, fade: Duration) throws(SoundEngineError) {
        try TimeArgument.check(fade, "stop fade")
        try withState { s throws(SoundEngineError) in stop(id, fade: fade, &s) }
    }

    /// Pauses (or resumes) every voice of a posting where it is, as Wwise's
    /// `ExecuteActionOnPlayingID` does; its delayed actions keep their time.
    /// One that has ended already is ignored.
    func pause(_ id: PlayingID, fade: Duration) throws(SoundEngineError) {
        try setPaused(id, true, fade: fade, "pause fade")
    }

    func resume(_ id: PlayingID, fade: Duration) throws(SoundEngineError) {
        try setPaused(id, false, fade: fade, "resume fade")
    }

    private func setPaused(_ id: PlayingID, _ paused: Bool, fade: Duration, _ what: String) throws(SoundEngineError) {
        let frames = try mixer.frames(fade, checking: what)
        try withState { s throws(SoundEngineError) in
            for token in s.playings[id]?.voices ?? [] {
                guard let voice = s.voices[token]?.voice else { continue }
                // idNotFound: it ended and its completion is on its way.
                if paused { try? mixer.pause(voice, fadeFrames: frames) } else { try? mixer.resume(voice, fadeFrames: frames) }
            }
        }
    }

    func stopAll(on gameObject: GameObjectID, fade: Duration) throws(SoundEngineError) {
        try TimeArgument.check(fade, "stopAll fade")
        try withState { s throws(SoundEngineError) in
            try requireRegistered(gameObject, s)
            for (id, p) in s.playings where p.gameObject == gameObject { stop(id, fade: fade, &s) }
        }
    }

    func isPlaying(_ id: PlayingID) -> Bool { state.withLock { $0.playings[id] != nil } }

    /// Whether this engine has handed out `id` to a posting (it may have
    /// ended since); `nil` when it has not, with the last ID it has handed
    /// out (0: none yet). After the counter wraps, every ID may have been.
    func unissued(_ id: PlayingID) -> UInt32? {
        state.withLock { s in
            guard let raw = id.posting, raw != 0 else { return s.nextPlaying &- 1 }
            return s.playingIDsWrapped || raw < s.nextPlaying ? nil : s.nextPlaying &- 1
        }
    }

    /// Moves every voice of a posting that has started to `target` in its
    /// own source (Wwise `SeekOnEvent` with the playing ID); voices its
    /// delayed actions start later begin at their start. An ended posting is
    /// ignored. When a voice cannot move (a stream ring or the command queue
    /// is short, a fraction of a stream of unknown length) the others still
    /// do, and the first such error is thrown.
    func seek(_ id: PlayingID, to target: Mixer.SeekTarget) throws(SoundEngineError) {
        try Mixer.check(target)
        try withState { s throws(SoundEngineError) in
            var failure: SoundEngineError?
            for token in (s.playings[id]?.voices ?? []).sorted() {
                guard let voice = s.voices[token]?.voice else { continue }
                do throws(SoundEngineError) { try mixer.seek(voice, to: target) } catch .idNotFound {
                    // It ended and its completion is on its way.
                } catch {
                    if failure == nil { failure = error }
                }
            }
            if let failure { throw failure }
        }
    }

    /// Where a posting's first voice still playing is in its source; `nil`
    /// when the posting has ended or has no voice (yet).
    func playPosition(_ id: PlayingID) -> Duration? {
        state.withLock { s -> Duration? in
            for token in (s.playings[id]?.voices ?? []).sorted() {
                if let voice = s.voices[token]?.voice, let position = playback.playPosition(voice) { return position }
            }
            return nil
        }
    }

    // MARK: - Actions

    /// Runs an event's actions in order: those without delay now; delayed
    /// ones at their frame of the mixer clock, counted from `now`: plays
    /// start now, at that frame (sample accurate); other actions run on the
    /// timer queue once the mixer has rendered up to it
    /// (``schedule(_:_:on:atFrame:depth:_:)``).
    func run(
        _ event: BankEvent, _ id: PlayingID, on object: GameObjectID, from now: Int64, depth: Int,
        _ s: inout ContentState
    ) {
        for action in event.actions {
            if action.delay <= .zero {
                perform(action, id, on: object, start: .immediately, from: now, depth: depth, &s)
            } else if case .play = action.kind {
                let start = VoiceStart.atFrame(now + Int64(mixer.frames(action.delay)))
                perform(action, id, on: object, start: start, from: now, depth: depth, &s)
            } else {
                schedule(action, id, on: object, atFrame: now + Int64(mixer.frames(action.delay)), depth: depth, &s)
            }
        }
    }

    /// One action, due at `frame` of the mixer clock (the delays of the
    /// event a `post` action posts count from there). What it names may have gone with an
    /// unloaded bank since the event was loaded: then it is skipped (and
    /// logged), never a crash.
    func perform(
        _ action: BankAction, _ id: PlayingID, on object: GameObjectID, start: VoiceStart, from frame: Int64,
        depth: Int, _ s: inout ContentState
    ) {
        let now = ContinuousClock.now
        switch action.kind {
        case .play(let name, let fadeIn):
            play(ContentID(name), id, on: object, fadeIn: fadeIn, start: start, &s)
        case .stop(let name, let fade, let scope):
            stopVoices(voices(of: ContentID(name), scope, object, s), fade: fade, s)
        case .stopAll(let fade, let scope):
            stopVoices(s.voices.filter { scope == .global || $0.value.gameObject == object }.keys, fade: fade, s)
        case .pause(let name, let fade, let scope):
            for token in voices(of: ContentID(name), scope, object, s) {
                try? mixer.pause(s.voices[token]!.voice, fadeFrames: mixer.frames(fade))
            }
        case .resume(let name, let fade, let scope):
            for token in voices(of: ContentID(name), scope, object, s) {
                try? mixer.resume(s.voices[token]!.voice, fadeFrames: mixer.frames(fade))
            }
        case .setVolume(let name, let db, let fade, let scope):
            s.levelsChanged = true
            let key = OffsetKey(object: ContentID(name), gameObject: scope == .gameObject ? object : nil)
            s.volumeOffsets[key, default: Ramp(0)].move(to: db, over: fade, now: now)
        case .setBusVolume(let bus, let db, let fade):
            s.levelsChanged = true
            s.busOffsets[ContentID(bus), default: Ramp(0)].move(to: db, over: fade, now: now)
        case .setState(let group, let value):
            s.levelsChanged = true
            do { try setState(.name(group), .name(value), &s) } catch { log.log(.warning, "event action: \(error)") }
        case .setSwitch(let group, let value):
            do { try setSwitch(.name(group), .name(value), on: object, &s) } catch { log.log(.warning, "event action: \(error)") }
        case .post(let name):
            guard depth < Self.maxPostDepth, let event = s.events[ContentID(name)] else {
                log.log(.warning, "event '\(name)' not posted: \(depth < Self.maxPostDepth ? "not loaded" : "posts nest too deep")")
                return
            }
            run(event.value, id, on: object, from: frame, depth: depth + 1, &s)
        }
    }

    /// Tokens of the voices an action with `scope` reaches: those played
    /// through `object` (a sound or a container on their path).
    private func voices(of object: ContentID, _ scope: BankAction.Scope, _ gameObject: GameObjectID, _ s: ContentState)
        -> [UInt64]
    {
        s.voices.filter { $0.value.path.contains(object) && (scope == .global || $0.value.gameObject == gameObject) }
            .map(\.key)
    }

    /// Plays a sound or container: every sound it resolves to starts a voice
    /// of playing ID `id`. A voice the mixer refuses (every slot holds a
    /// voice of at least its priority, the queue full) is dropped, logged and
    /// told to the posting's callback (`voiceFailed`) — the post still
    /// succeeds, as a Wwise voice over the limit does not fail PostEvent.
    private func play(
        _ object: ContentID, _ id: PlayingID, on gameObject: GameObjectID, fadeIn: Duration, start: VoiceStart,
        _ s: inout ContentState
    ) {
        var picks: [Pick] = []
        resolve(object, on: gameObject, Pick.root, depth: 0, into: &picks, &s)
        let now = ContinuousClock.now
        for pick in picks {
            guard let bus = s.buses[ContentID(pick.sound.bus)] else {
                log.log(.warning, "sound '\(pick.sound.name)' not played: bus '\(pick.sound.bus)' is not loaded")
                continue
            }
            let token = newToken(&s)
            var v = ContentVoice(
                voice: VoiceID(slot: .max, generation: 0), playing: id, gameObject: gameObject, bank: pick.bank,
                path: pick.path, baseVolumeDB: pick.volumeDB, basePitchCents: pick.pitchCents,
                bus: ContentID(pick.sound.bus),
                attenuation: pick.sound.attenuation.flatMap { s.banks[pick.bank]?.bank.attenuations[$0] },
                lfeDB: pick.sound.lfeDB, ownSends: pick.sound.auxSends,
                sent: VoiceMix(volume: 1, pan: 0, pitch: 1, lowPassHz: nil))
            let target = mix(v, s, now: now)
            let parameters = ContentVoices.parameters(
                target, sound: pick.sound, fadeIn: fadeIn, start: start)
            do {
                v.voice = try playback.play(pick.mixerSound, on: bus.bus, parameters, wake: false) { [weak self] _, end in
                    self?.voiceEnded(token, end)
                }
            } catch {
                log.log(.warning, "sound '\(pick.sound.name)' not played: \(error)")
                if let callback = s.playings[id]?.callback {
                    let reason: SoundEngineError =
                        if case .maxReached(let why) = error { .maxReached("sound '\(pick.sound.name)' not played: \(why)") }
                        else { error }
                    s.outbox.append((callback, .voiceFailed(id, reason)))
                }
                continue
            }
            v.sent = target
            for (k, send) in target.orderedSends.enumerated() { v.sendSlots[k] = send.id }
            s.voices[token] = v
            s.tokensByVoice[v.voice] = token
            s.playings[id]?.voices.insert(token)
            s.started.append(token)
            if s.playings[id]?.durations == true, let callback = s.playings[id]?.callback,
                let info = playback.soundInfo(pick.mixerSound)
            {
                // Under the lock, so before its markers and its posting's end.
                s.outbox.append((callback, .duration(id, sound: pick.sound.name, length: info.length, streaming: info.streaming)))
            }
        }
    }
}

/// A sound a play action resolved to, with what the containers on the way added.
struct Pick {
    var sound: BankSound
    var mixerSound: SoundID
    var bank: BankID
    var path: [ContentID]
    var volumeDB: Double
    var pitchCents: Double

    /// Where resolution starts: nothing added yet.
    static let root = (path: [ContentID](), volumeDB: 0.0, pitchCents: 0.0)
}
