import CPulseAudio
import SoundCore
import SoundSession

/// How a server offers its restore database through libpulse's stream-restore extension.
enum RestoreDatabaseAccess: Equatable {
    /// No stream-restore module: nothing is saved, nothing to repair.
    case none
    /// PulseAudio's module-stream-restore: entries can be read, written and watched.
    case readable
    /// pipewire-pulse: writes reach WirePlumber's state; reads show only what
    /// was written through the extension; no change events.
    case writeOnly
}

/// Muting and ducking other applications' streams, so that nothing is left
/// behind (docs/pulseaudio.md, "Nothing left behind"):
///
/// - every change is written to the journal (``HoldBook``) before it is made;
/// - the restore database is kept clean of our changes: PulseAudio's entry
///   is repaired right after each change and whenever a later change of the
///   held stream saves our values into it again (the extension tells us);
///   pipewire-pulse's is repaired when a held stream goes away (WirePlumber
///   saves a stream's state on every parameter change, so while a stream is
///   held its entry holds our change);
/// - a stream that arrives with the database's echo of our change (a new
///   music app started muted or ducked) is recorded as ours with the values
///   it would have had, so ducks never compound and a crash gives it back
///   too; our own new stream, which WirePlumber keys by role like the music
///   apps, is given its clean values at once;
/// - the user wins: a held stream they unmuted is no longer ours, and a
///   volume they moved stays. Only our own values are repaired in an entry
///   (a mute where we muted, the volume we ducked to); the one case this
///   gets wrong is the user muting another stream of the same role while we
///   hold one muted: the entry is unmuted (docs/pulseaudio.md).
///
/// Control thread with the control lock held (actions), or the control
/// loop thread (subscription callbacks, timers: nothing there waits).
extension ServerModel {
    // MARK: - Actions

    /// Mutes these other streams, recording each (with what it had) first.
    func mute(_ ids: [StreamID], deadline: ContinuousClock.Instant) throws(SoundEngineError) {
        try requireRunning()
        let live = try requests.sinkInputs(ids.map(\.rawValue), deadline: deadline)
        let targets = ids.map(\.rawValue).filter { live[$0] != nil }  // gone ones need nothing
        holds.record { journal in
            for index in targets {
                guard let info = live[index] else { continue }
                journal.hold(info) { $0.mutedByUs = true }
            }
        }
        let outcomes = targets.map { index in requests.submit { context.setSinkInputMute(index, true, $0) } }
        try requests.waitFor({ outcomes.allSatisfy(\.done) }, deadline: deadline, "mute streams \(targets)")
        try settle(targets, outcomes, "mute") { $0.mutedByUs = false }
        scheduleKeyRepair(for: targets)
    }

    /// Unmutes streams we muted; each is no longer held for its mute.
    func unmute(_ ids: [StreamID], deadline: ContinuousClock.Instant) throws(SoundEngineError) {
        try requireRunning()
        let targets = ids.map(\.rawValue)
        let outcomes = targets.map { index in requests.submit { context.setSinkInputMute(index, false, $0) } }
        try requests.waitFor({ outcomes.allSatisfy(\.done) }, deadline: deadline, "unmute streams \(targets)")
        // Given back (or gone): the mute is not ours to restore any more.
        holds.record { journal in
            for index in targets { journal.release(index) { $0.mutedByUs = false } }
        }
        try settle(targets, outcomes, "unmute") { _ in }
    }

    /// Lowers each stream to `factor` (linear amplitude) of its volume. A
    /// stream ducked again, or one that arrived at the volume the database
    /// echoed from our duck, keeps the volume it had before us: ducks never
    /// compound.
    func duck(_ ids: [StreamID], factor: Double, deadline: ContinuousClock.Instant) throws(SoundEngineError) {
        try requireRunning()
        duckFactor = factor
        let live = try requests.sinkInputs(ids.map(\.rawValue), deadline: deadline)
        let held = holds.journal
        // Decided before the journal is locked to record it (volumeBeforeUs reads the journal).
        let plans = ids.compactMap { id -> (index: UInt32, info: PASinkInputInfo, before: [UInt32], volume: PAVolume)? in
            // Gone if the server no longer has it. Its volume is the
            // subscription's latest report: pipewire-pulse answers a query
            // about a stream that has just appeared with volume 0 for a
            // while after it reported the real one.
            guard let queried = live[id.rawValue] else { return nil }
            let info = otherInfos[id.rawValue] ?? queried
            if isUnsettled(info) {
                // pipewire-pulse reports a new stream at volume 0 until its
                // node is configured; a duck from 0 would stay 0. Ducked when
                // its volume arrives (otherStreamChanged).
                pendingDucks.insert(info.index)
                return nil
            }
            let before = volumeBeforeUs(info, held)
            return (id.rawValue, info, before, PAVolume(channels: before).scaled(byLinear: factor))
        }
        holds.record { journal in
            for plan in plans {
                journal.hold(plan.info) { stream in
                    stream.original.volume = plan.before
                    stream.duckedTo = plan.volume.channels
                }
            }
        }
        let outcomes = plans.map { plan in requests.submit { context.setSinkInputVolume(plan.index, plan.volume, $0) } }
        try requests.waitFor({ outcomes.allSatisfy(\.done) }, deadline: deadline, "duck streams \(ids)")
        try settle(plans.map(\.index), outcomes, "lower the volume of") { $0.duckedTo = nil }
        scheduleKeyRepair(for: plans.map(\.index))
    }

    /// What `info`'s volume was before our ducks: the original of our own
    /// earlier duck, or the clean volume of the restore entry whose echo of
    /// our duck it arrived with; else what it has now.
    private func volumeBeforeUs(_ info: PASinkInputInfo, _ held: HoldJournal) -> [UInt32] {
        let now = info.volume.channels
        if let earlier = held.streams.first(where: { $0.index == info.index }), let ducked = earlier.duckedTo,
            sameVolume(now, ducked)
        {
            return earlier.original.volume
        }
        if let echo = echoSource(of: info), let ducked = echo.duckedTo, sameVolume(now, ducked),
            echo.clean.volume.count == now.count
        {
            return echo.clean.volume
        }
        return now
    }

    /// Puts back the volume of each stream we ducked, unless the user changed
    /// it while ducked (then theirs stays); either way it is not held for its
    /// volume any more.
    func unduck(_ ids: [StreamID], deadline: ContinuousClock.Instant) throws(SoundEngineError) {
        try requireRunning()
        pendingDucks.subtract(ids.map(\.rawValue))
        let held = holds.journal.streams.filter { stream in stream.duckedTo != nil && ids.contains { $0.rawValue == stream.index } }
        guard !held.isEmpty else { return }
        let live = try requests.sinkInputs(held.map(\.index), deadline: deadline)
        let plans = held.compactMap { stream -> (index: UInt32, volume: PAVolume)? in
            guard let now = live[stream.index],
                let volume = stream.restoration(now: StreamLevels(muted: now.muted, volume: now.volume.channels)).volume
            else { return nil }
            return (stream.index, PAVolume(channels: volume))
        }
        let outcomes = plans.map { plan in requests.submit { context.setSinkInputVolume(plan.index, plan.volume, $0) } }
        try requests.waitFor({ outcomes.allSatisfy(\.done) }, deadline: deadline, "restore the volume of streams \(ids)")
        holds.record { journal in
            for stream in held { journal.release(stream.index) { $0.duckedTo = nil } }
        }
        try settle(plans.map(\.index), outcomes, "restore the volume of") { _ in }
    }

    /// Unmutes our own playback stream if it is muted: module-role-cork muted
    /// it with the cork request the session does not obey (seed 002, scenario 2).
    func reclaimOwnStream(deadline: ContinuousClock.Instant) throws(SoundEngineError) {
        try requireRunning()
        guard let index = ownPlaybackIndex, let own = try requests.sinkInputs([index], deadline: deadline)[index],
            own.muted
        else { return }
        try requests.run("unmute our own stream", deadline: deadline) { context.setSinkInputMute(index, false, $0) }
    }

    /// The calls are over: unmutes our own playback stream if the server's
    /// cork muted it and nobody changed that mute since. module-role-cork
    /// would unmute it itself, but it forgets a stream that moves while
    /// muted (a headphone plug during the call), and a mute the user put on
    /// is theirs: neither is left to chance.
    func releaseCorkMute(deadline: ContinuousClock.Instant) throws(SoundEngineError) {
        try requireRunning()
        guard ownMutedByCork, let index = ownPlaybackIndex else { return }
        ownMutedByCork = false
        guard let own = try requests.sinkInputs([index], deadline: deadline)[index], own.muted else { return }
        try requests.run("unmute our own stream after the call", deadline: deadline) {
            context.setSinkInputMute(index, false, $0)
        }
    }

    /// The server asked our playback stream to cork (control thread, from
    /// the playback side's notices): a mute seen a moment before is the cork's.
    func corkRequestArrived() {
        let now = ContinuousClock.now
        lastCorkRequest = now
        if ownPlayback?.muted == true, let at = ownMutedAt, now - at < Self.corkMuteWindow { ownMutedByCork = true }
    }

    /// Our playback stream's mute as just reported: a mute that comes with a
    /// cork request (within ``corkMuteWindow``, either order: the request
    /// and the subscription arrive on different connections) is the cork's.
    private func noteOwnMute(_ muted: Bool, wasMuted: Bool) {
        guard muted else {
            ownMutedAt = nil
            ownMutedByCork = false
            return
        }
        guard !wasMuted else { return }
        let now = ContinuousClock.now
        ownMutedAt = now
        if let request = lastCorkRequest, now - request < Self.corkMuteWindow { ownMutedByCork = true }
    }

    /// How far apart a cork request and the mute it came with may be seen.
    static let corkMuteWindow = Duration.seconds(2)

    /// Whether module-role-cork is what muted `info`, our playback stream:
    /// it is loaded, and another client's call (its default trigger role,
    /// `phone`) plays unmuted on the same sink (it is not global by default).
    private func isMutedByACall(_ info: PASinkInputInfo) -> Bool {
        modules.values.contains("module-role-cork")
            && otherInfos.values.contains { $0.role == "phone" && !$0.corked && !$0.muted && $0.sink == info.sink }
    }

    /// Our new playback stream arrived muted by module-role-cork: a stream
    /// made while a call plays is muted and asked to cork as the server puts
    /// it in place, and that request is sent before libpulse knows the
    /// stream, so it is lost. The mute is the cork's (the call's end takes it
    /// back, ``releaseCorkMute(deadline:)``), and the policy hears the request
    /// it was meant to (in the foreground it then plays against it, seed 002).
    private func corkedAtBirth() {
        corkRequestArrived()
        ownMutedByCork = true
        if started { emit(.corkRequested) }
    }

    /// After a batch of control calls: a stream that went away meanwhile is
    /// not an error (its hold is dropped with `undo`); another refusal is
    /// thrown, and the refused streams' holds undone.
    private func settle(
        _ indices: [UInt32], _ outcomes: [RequestRunner.Outcome], _ verb: String, undo: (inout HeldStream) -> Void
    ) throws(SoundEngineError) {
        let failed = zip(indices, outcomes).filter { !$0.1.ok }
        guard !failed.isEmpty else { return }
        holds.record { journal in
            for (index, _) in failed { journal.release(index, undo) }
        }
        if let (index, outcome) = failed.first(where: { !$0.1.gone }) {
            throw .fail("PulseAudio refused to \(verb) stream \(index): \(outcome.error)")
        }
    }

    // MARK: - The subscription

    /// Another client's stream as the server now describes it (before the
    /// policy's view is updated).
    func otherStreamChanged(_ info: PASinkInputInfo) {
        let previous = otherInfos[info.index]
        otherInfos[info.index] = info
        guard let previous else {
            fresh.insert(info.index)
            adoptEcho(info)  // PulseAudio restores before the first report
            return
        }
        if pendingDucks.contains(info.index), !isUnsettled(info) {
            pendingDucks.remove(info.index)
            duckSettled(info)
        }
        let changed = previous.muted != info.muted || !sameVolume(previous.volume.channels, info.volume.channels)
        guard changed else { return }
        if fresh.remove(info.index) != nil {
            // WirePlumber restores a moment after the stream appears: before
            // our duck (the echo of an entry we changed) or after it (over it).
            if let held = holds.journal.streams.first(where: { $0.index == info.index }) {
                reassertDuck(held, info, previous: previous)
                return
            }
            adoptEcho(info)
        }
        // The user unmuted a stream we muted: the mute is theirs now.
        if previous.muted && !info.muted {
            holds.record { $0.release(info.index) { $0.mutedByUs = false } }
        }
        if !sameVolume(previous.volume.channels, info.volume.channels) { volumeChanged(info) }
        followClean(info)
    }

    /// A held stream's volume changed to one that is neither ours (the duck
    /// volume) nor the one it had before us (our give-back, or a late report
    /// from before the duck): the user moved it, and the volume is theirs
    /// now. A duck of ours is over (nothing will put a volume back later);
    /// a mute of ours still holds it, with the user's volume as what it has
    /// without us.
    private func volumeChanged(_ info: PASinkInputInfo) {
        let now = info.volume.channels
        guard let held = holds.journal.streams.first(where: { $0.index == info.index }),
            !(held.duckedTo.map { sameVolume(now, $0) } ?? false), !sameVolume(now, held.original.volume)
        else { return }
        holds.record { journal in
            journal.release(info.index) { stream in
                stream.duckedTo = nil
                stream.original.volume = now
            }
        }
    }

    /// A stream we ducked as soon as it appeared changed its volume for the
    /// first time: the server had not settled it yet when we ducked it
    /// (pipewire-pulse reports a new stream at volume 0 until its node is
    /// configured; WirePlumber restores the saved volume a moment after the
    /// first report). What it has now is what it would have had without us —
    /// or, if it is the echo of our duck, the entry's clean volume — and our
    /// duck is made again from that. (A mute is never put on a new stream: a
    /// music app that starts later wins.)
    private func reassertDuck(_ held: HeldStream, _ info: PASinkInputInfo, previous: PASinkInputInfo) {
        guard let ducked = held.duckedTo else { return }
        var settled = info
        if sameVolume(info.volume.channels, ducked) {
            // Our duck landed. It was made from a volume the server had not
            // settled (all 0) although the stream had been reported with a
            // real one: made again from that.
            let unsettled = held.original.volume.allSatisfy { $0 == 0 }
            guard unsettled, !previous.volume.channels.allSatisfy({ $0 == 0 }) else { return }
            settled = previous
        }
        let before = volumeBeforeUs(settled, holds.journal)
        let target = PAVolume(channels: before).scaled(byLinear: duckFactor)
        holds.record { journal in
            journal.release(held.index) { stream in
                stream.original.volume = before
                stream.duckedTo = target.channels
            }
        }
        issue(PASuccessRequest { _, _, _ in }) { context.setSinkInputVolume(info.index, target, $0) }
    }

    /// Whether `info` is a stream pipewire-pulse has not configured yet: new,
    /// and at volume 0.
    private func isUnsettled(_ info: PASinkInputInfo) -> Bool {
        fresh.contains(info.index) && info.volume.channels.allSatisfy { $0 == 0 }
    }

    /// Ducks a stream whose duck waited for its volume (``isUnsettled(_:)``),
    /// without waiting for the answer (loop thread).
    private func duckSettled(_ info: PASinkInputInfo) {
        let before = volumeBeforeUs(info, holds.journal)
        let target = PAVolume(channels: before).scaled(byLinear: duckFactor)
        holds.record { journal in
            journal.hold(info) { stream in
                stream.original.volume = before
                stream.duckedTo = target.channels
            }
        }
        issue(PASuccessRequest { _, _, _ in }) { context.setSinkInputVolume(info.index, target, $0) }
    }

    /// Another client's stream went away. If we held it, its restore entry
    /// may keep our change (the last change of the stream saved it): repaired now.
    func otherStreamRemoved(_ index: UInt32) {
        let lastSeen = otherInfos.removeValue(forKey: index)
        fresh.remove(index)
        pendingDucks.remove(index)
        guard let held = holds.journal.streams.first(where: { $0.index == index }) else { return }
        holds.record { $0.streams.removeAll { $0.index == index } }
        // Its last change saved our values into its key's entry: repaired at
        // once, not after the usual 20 ms — the next app of this role may be
        // starting right now (a player's next track, a restart).
        let carried = lastSeen.map { held.isOurs(StreamLevels(muted: $0.muted, volume: $0.volume.channels)) } ?? true
        if carried, let key = held.restoreKey { scheduleKeyRepair(keys: [key], after: 0, force: true) }
    }

    /// Our playback stream as the server now describes it. WirePlumber keys
    /// it by role like the music apps we mute, so a new stream of ours can
    /// arrive with our own change on it: it gets the values it would have
    /// had. (On PulseAudio our stream has a key of its own.)
    func ownPlaybackChanged(_ info: PASinkInputInfo) {
        let previous = ownPlayback
        ownPlayback = info
        noteOwnMute(info.muted, wasMuted: previous?.muted ?? false)
        if previous == nil && info.muted && isMutedByACall(info) { corkedAtBirth() }
        // New for its first two seconds: pipewire-pulse reports it at volume
        // 0, then at its node's volume, and WirePlumber's restore may come
        // after both.
        if previous == nil { ownPlaybackSince = .now }
        guard ContinuousClock.now - ownPlaybackSince < .seconds(2) else { return }
        guard let key = info.restoreKey, key != ownRestoreKey, let source = echoSource(of: info) else { return }
        let levels = StreamLevels(muted: info.muted, volume: info.volume.channels)
        if source.mutedByUs && levels.muted {
            issue(PASuccessRequest { _, _, _ in }) { context.setSinkInputMute(info.index, false, $0) }
        }
        if let ducked = source.duckedTo, sameVolume(levels.volume, ducked) {
            let clean = source.clean.volume.count == levels.volume.count
                ? source.clean.volume : Array(repeating: 0x10000 /* PA_VOLUME_NORM */, count: levels.volume.count)
            issue(PASuccessRequest { _, _, _ in }) { context.setSinkInputVolume(info.index, PAVolume(channels: clean), $0) }
        }
    }

    /// A new stream carrying a restore entry's echo of our change: held as
    /// ours with the values it would have had. The echo of a stream we no
    /// longer hold (its entry was left dirty) is given back at once: the
    /// session muted nothing of that key now.
    private func adoptEcho(_ info: PASinkInputInfo) {
        guard !holds.journal.streams.contains(where: { $0.index == info.index }), let source = echoSource(of: info) else {
            return
        }
        let levels = StreamLevels(muted: info.muted, volume: info.volume.channels)
        let muted = source.mutedByUs && levels.muted
        let ducked = source.duckedTo.map { sameVolume(levels.volume, $0) } ?? false
        let clean = StreamLevels(
            muted: muted ? source.clean.muted : levels.muted,
            volume: ducked && source.clean.volume.count == levels.volume.count ? source.clean.volume : levels.volume)
        let live = holds.journal.streams.contains { $0.restoreKey == source.key && $0.isHeld }
        guard live else {
            if muted { issue(PASuccessRequest { _, _, _ in }) { context.setSinkInputMute(info.index, false, $0) } }
            if ducked {
                issue(PASuccessRequest { _, _, _ in }) {
                    context.setSinkInputVolume(info.index, PAVolume(channels: clean.volume), $0)
                }
            }
            return
        }
        holds.record { journal in
            journal.hold(info) { stream in
                stream.original = clean
                stream.mutedByUs = muted
                stream.duckedTo = ducked ? levels.volume : nil
            }
        }
    }

    /// The change of ours whose echo `info` carries: a held stream or a
    /// dirty entry of its key whose mute or duck volume it shows, or a key
    /// we touched whose duck volume it shows exactly. The last is ours
    /// whenever it appears: a restore database can hand it out long after
    /// our repair (a restarted server reads a saved state older than our
    /// give-back; WirePlumber ignores a repair written before it is ready),
    /// and a volume that is exactly our duck of the user's is nobody's
    /// choice. (A mute is not so plain — the user mutes music, role-cork
    /// mutes it during calls — so a touched key's mute counts only while it
    /// is held or just repaired.)
    func echoSource(of info: PASinkInputInfo) -> KeyRepair? {
        guard let key = info.restoreKey else { return nil }
        let journal = holds.journal
        let levels = StreamLevels(muted: info.muted, volume: info.volume.channels)
        let now = ContinuousClock.now
        recentlyRepaired = recentlyRepaired.filter { $0.value.until > now }
        let recent = recentlyRepaired.values.map(\.repair)
        let carried = (recent + journal.streams.compactMap(\.keyRepair)).last { repair in
            repair.key == key
                && ((repair.mutedByUs && levels.muted) || (repair.duckedTo.map { sameVolume(levels.volume, $0) } ?? false))
        }
        return carried ?? journal.touchedKeys.last { repair in
            repair.key == key && repair.duckedTo.map { sameVolume(levels.volume, $0) } == true
        }
    }

    // MARK: - The restore database

    /// At start: what this server's restore database offers; on PulseAudio,
    /// its change events are watched so a held stream's later save is
    /// repaired. Lock held, on a control thread.
    func watchRestoreDatabase(deadline: ContinuousClock.Instant) {
        if server.isPipeWire {
            restoreDatabase = .writeOnly
            return
        }
        let versions = (try? requests.list("test for module-stream-restore", deadline: deadline) { context.testStreamRestore($0) }) ?? nil
        guard let versions, !versions.isEmpty else { return }
        restoreDatabase = .readable
        let watch = PATimerBox { [unowned self] in
            scheduleKeyRepair(keys: holds.journal.streams.compactMap(\.restoreKey))
        }
        restoreWatch = watch
        issue(PASuccessRequest { _, _, _ in }) { context.subscribeStreamRestore(watch, $0) }
    }

    /// Stops the database's change events. Lock held.
    func stopWatchingRestoreDatabase() {
        guard restoreWatch != nil else { return }
        _ = context.subscribeStreamRestore(nil, PASuccessRequest { _, _, _ in }).map { $0.unref() }
        restoreWatch = nil
    }

    /// Repairs the entries of these streams' keys soon (PulseAudio: right
    /// after our change, which the server saved).
    private func scheduleKeyRepair(for indices: [UInt32]) {
        guard restoreDatabase == .readable else { return }
        let journal = holds.journal
        scheduleKeyRepair(keys: indices.compactMap { index in journal.streams.first { $0.index == index }?.restoreKey })
    }

    /// Repairs these keys' entries `after` µs from now (20 ms: one pass for a
    /// burst). `force`: write the clean entry even where the database cannot
    /// be read (pipewire-pulse) — a held stream went away carrying our change.
    func scheduleKeyRepair(keys: [String], after delay: UInt64 = 20_000, force: Bool = false) {
        guard !stopped, restoreDatabase != .none, !keys.isEmpty else { return }
        guard restoreDatabase == .readable || force else { return }
        keysToRepair.formUnion(keys)
        guard delay > 0 else { return repairScheduledKeys() }
        let timer = repairTimer ?? PATimerBox { [unowned self] in repairScheduledKeys() }
        repairTimer = timer
        if timer.event == nil { context.arm(timer, after: delay) }
    }

    /// The repair itself, without waiting (it runs on the loop thread): on
    /// PulseAudio, read the entries and write back the ones carrying our
    /// values; on pipewire-pulse, write the clean entries. A repaired key is
    /// still taken for the source of an echo for ``echoGrace``.
    private func repairScheduledKeys() {
        let keys = keysToRepair
        keysToRepair = []
        let journal = holds.journal
        let repairs = (journal.touchedKeys + journal.streams.compactMap(\.keyRepair)).filter { keys.contains($0.key) }
        guard !repairs.isEmpty else { return }
        let until = ContinuousClock.now + Self.echoGrace
        for repair in repairs { recentlyRepaired[repair.key] = (repair, until) }
        let write: ([PARestoreEntry]) -> Void = { [unowned self] entries in
            guard !entries.isEmpty else { return }
            issue(PASuccessRequest { _, _, _ in }) { context.writeStreamRestore(entries, $0) }
        }
        switch restoreDatabase {
        case .none:
            return
        case .writeOnly:
            write(HoldRepair.entries(for: repairs, current: nil))
        case .readable:
            var current: [PARestoreEntry] = []
            issue(PAListRequest<PARestoreEntry>(
                onItem: { current.append($0) },
                onEnd: { ok in if ok { write(HoldRepair.entries(for: repairs, current: current)) } })
            ) { context.readStreamRestore($0) }
        }
    }

    /// A settled stream of a key we touched whose volume is not ours (we do
    /// not duck it, and it shows no duck volume of ours) shows the volume
    /// the user gives that key now: the key's clean volume follows it. (Its
    /// mute does not: module-role-cork mutes music during calls, and that
    /// is nobody's choice to keep.)
    private func followClean(_ info: PASinkInputInfo) {
        let journal = holds.journal
        let levels = StreamLevels(muted: info.muted, volume: info.volume.channels)
        let ours = journal.touchedKeys + journal.streams.compactMap(\.keyRepair) + recentlyRepaired.values.map(\.repair)
        guard let key = info.restoreKey, journal.touchedKeys.contains(where: { $0.key == key }),
            journal.streams.first(where: { $0.index == info.index })?.duckedTo == nil,
            !ours.contains(where: { $0.key == key && $0.duckedTo.map { sameVolume(levels.volume, $0) } == true })
        else { return }
        var previous: [UInt32]?
        holds.record { journal in
            guard let n = journal.touchedKeys.firstIndex(where: { $0.key == key }),
                journal.touchedKeys[n].clean.volume.count == levels.volume.count
            else { return }
            previous = journal.touchedKeys[n].clean.volume
            journal.touchedKeys[n].clean.volume = levels.volume
        }
        if let previous, !sameVolume(previous, levels.volume) { followCleanInDatabase(key, from: previous, to: levels.volume) }
    }

    /// The user moved a stream of a key we repair: module-stream-restore
    /// saved their volume into the key's entry, unless a repair of ours was
    /// on its way (read before the user's change, written after it: the
    /// entry then holds the old clean volume, and the next music app would
    /// start there, not at the user's volume). An entry still showing the
    /// old clean volume gets the user's; any other value is left alone.
    private func followCleanInDatabase(_ key: String, from previous: [UInt32], to volume: [UInt32]) {
        guard restoreDatabase == .readable else { return }
        var current: [PARestoreEntry] = []
        issue(PAListRequest<PARestoreEntry>(
            onItem: { current.append($0) },
            onEnd: { [unowned self] ok in
                guard ok, var entry = current.first(where: { $0.name == key }), let saved = entry.volume,
                    sameVolume(saved.channels, previous), saved.channels.count == volume.count
                else { return }
                entry.volume = PAVolume(channels: volume)
                issue(PASuccessRequest { _, _, _ in }) { context.writeStreamRestore([entry], $0) }
            })
        ) { context.readStreamRestore($0) }
    }
}

extension HoldJournal {
    /// Holds the stream `info` describes: a new record with what it has now,
    /// or the existing one; then `change` says what we change on it.
    mutating func hold(_ info: PASinkInputInfo, _ change: (inout HeldStream) -> Void) {
        if let n = streams.firstIndex(where: { $0.index == info.index }) {
            change(&streams[n])
            if let repair = streams[n].keyRepair { touch(repair) }
            return
        }
        var stream = HeldStream(
            index: info.index, identity: StreamIdentity(info), restoreKey: info.restoreKey, channelMap: info.channelMap,
            original: StreamLevels(muted: info.muted, volume: info.volume.channels), mutedByUs: false, duckedTo: nil)
        change(&stream)
        streams.append(stream)
        if let repair = stream.keyRepair { touch(repair) }
    }

    /// Applies `change` to a held stream and forgets it once we hold nothing on it.
    mutating func release(_ index: UInt32, _ change: (inout HeldStream) -> Void) {
        guard let n = streams.firstIndex(where: { $0.index == index }) else { return }
        change(&streams[n])
        if !streams[n].isHeld { streams.remove(at: n) }
    }
}

