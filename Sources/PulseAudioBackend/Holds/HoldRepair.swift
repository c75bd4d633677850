import CPulseAudio
import SoundCore

/// Gives back what a journal holds, on a connected server: the streams we
/// muted or ducked get their mute and volume back (unless the user changed
/// them since: then theirs stays), and restore-database entries our changes
/// wrote are repaired. The guardian, an engine's reconnect and the next
/// `initialize` all use it (docs/pulseaudio.md, "Nothing left behind").
enum HoldRepair {
    /// Repairs `journal` on the server `runner` talks to (its loop lock
    /// held). Streams are given back only on the very instance that holds
    /// them (same cookie). On another instance (the server restarted) they
    /// are gone, and the restore database, which outlives a restart, is
    /// repaired: every key we touched. The restarted server read a saved
    /// state that can be older than our last give-back (WirePlumber saves a
    /// second after the last change, PulseAudio ten), so a stream of a
    /// touched key that started before this repair may carry our change: it
    /// is given its clean values.
    static func repair(
        _ journal: HoldJournal, using runner: RequestRunner, on server: PAServerInfo, deadline: ContinuousClock.Instant
    ) throws(SoundEngineError) {
        let sameInstance = journal.server.map { $0.cookie == server.cookie } ?? false
        let database = try readDatabase(using: runner, pipeWire: server.isPipeWire, deadline: deadline)
        let live = sameInstance ? try runner.sinkInputs(journal.streams.map(\.index), deadline: deadline) : [:]
        var keys = journal.touchedKeys
        var outcomes: [RequestRunner.Outcome] = []
        if !sameInstance {
            let suspects = keys + journal.streams.compactMap(\.keyRepair)
            for (index, restoration) in try echoes(of: suspects, in: database, using: runner, deadline: deadline) {
                if restoration.muted == false {
                    outcomes.append(runner.submit { runner.context.setSinkInputMute(index, false, $0) })
                }
                if let volume = restoration.volume {
                    outcomes.append(runner.submit { runner.context.setSinkInputVolume(index, PAVolume(channels: volume), $0) })
                }
            }
        }
        for held in journal.streams {
            guard let now = live[held.index], held.identity.matches(now) else {
                // Gone (or another stream with its index): its key may hold our change.
                if let key = held.keyRepair { keys.append(key) }
                continue
            }
            let (unmute, volume) = held.restoration(now: StreamLevels(muted: now.muted, volume: now.volume.channels))
            if unmute { outcomes.append(runner.submit { runner.context.setSinkInputMute(held.index, false, $0) }) }
            if let volume {
                outcomes.append(runner.submit { runner.context.setSinkInputVolume(held.index, PAVolume(channels: volume), $0) })
            }
            // On PulseAudio the key is checked too (a later change of the
            // stream saved our values into it); giving the stream back saves
            // its own values there anyway.
            if !server.isPipeWire, let key = held.keyRepair { keys.append(key) }
        }
        try runner.waitFor({ outcomes.allSatisfy(\.done) }, deadline: deadline, "give back the streams we held")
        try repairKeys(keys, in: database, using: runner, deadline: deadline)
    }

    /// A server's restore database as the repair sees it.
    enum Database {
        /// No module-stream-restore (a minimal PulseAudio): nothing is saved.
        case absent
        /// pipewire-pulse: WirePlumber's state cannot be read back.
        case unreadable
        /// PulseAudio's module-stream-restore: its entries now.
        case entries([PARestoreEntry])
    }

    /// Reads the restore database (PulseAudio), or says it cannot be read
    /// (pipewire-pulse). Loop lock held.
    static func readDatabase(
        using runner: RequestRunner, pipeWire: Bool, deadline: ContinuousClock.Instant
    ) throws(SoundEngineError) -> Database {
        if pipeWire { return .unreadable }
        let ctx = runner.context
        guard let versions = try runner.list("test for module-stream-restore", deadline: deadline, { ctx.testStreamRestore($0) }),
            !versions.isEmpty,
            let entries = try runner.list("read the restore database", deadline: deadline, { ctx.readStreamRestore($0) })
        else { return .absent }
        return .entries(entries)
    }

    /// The streams on a restarted server that carry one of our changes to
    /// these keys: the server restored them from an entry that still held
    /// it. On PulseAudio only streams of a key whose entry carries our
    /// change now (a stream muted by module-role-cork is left alone); on
    /// pipewire-pulse, whose entries cannot be read, every stream of a
    /// touched key showing our mute or exactly our duck volume. Each with
    /// what it gets back (``KeyRepair/restoration(of:)``). Loop lock held.
    static func echoes(
        of repairs: [KeyRepair], in database: Database, using runner: RequestRunner, deadline: ContinuousClock.Instant
    ) throws(SoundEngineError) -> [(index: UInt32, restoration: (muted: Bool?, volume: [UInt32]?))] {
        var suspects = repairs
        switch database {
        case .absent: return []
        case .unreadable: break
        case .entries(let entries):
            let dirty = Set(
                entries.filter { entry in repairs.contains { $0.key == entry.name && $0.cleaned(entry) != nil } }.map(\.name))
            suspects = repairs.filter { dirty.contains($0.key) }
        }
        guard !suspects.isEmpty,
            let streams = try runner.list("list the streams", deadline: deadline, { runner.context.getSinkInputs(nil, $0) })
        else { return [] }
        return streams.compactMap { info in
            let levels = StreamLevels(muted: info.muted, volume: info.volume.channels)
            guard let key = info.restoreKey,
                let source = suspects.last(where: { $0.key == key && $0.isCarried(by: levels) })
            else { return nil }
            return (info.index, source.restoration(of: levels))
        }
    }

    /// Repairs restore-database entries. PulseAudio: each entry as read is
    /// written back only with our fingerprints replaced (a volume the user
    /// set meanwhile stays); nothing to do without module-stream-restore.
    /// pipewire-pulse: its read does not show what WirePlumber saved, so the
    /// clean entry is written (WirePlumber copies mute, volumes and channels
    /// into its state for that key; it cannot delete). Loop lock held.
    static func repairKeys(
        _ repairs: [KeyRepair], in database: Database, using runner: RequestRunner, deadline: ContinuousClock.Instant
    ) throws(SoundEngineError) {
        let current: [PARestoreEntry]?
        switch database {
        case .absent: return
        case .unreadable: current = nil
        case .entries(let entries): current = entries
        }
        let entries = Self.entries(for: repairs, current: current)
        guard !entries.isEmpty else { return }
        try runner.run("repair restore entries \(entries.map(\.name))", deadline: deadline) {
            runner.context.writeStreamRestore(entries, $0)
        }
    }

    /// The entries to write for `repairs`: with `current` (a readable
    /// database), each current entry cleaned of our fingerprints, none for a
    /// clean one; without it (pipewire-pulse), each key's clean entry. Pure.
    static func entries(for repairs: [KeyRepair], current: [PARestoreEntry]?) -> [PARestoreEntry] {
        var byKey: [String: KeyRepair] = [:]
        for repair in repairs { byKey[repair.key] = repair }
        guard let current else {
            // pipewire-pulse stores each entry as a JSON value in PipeWire's
            // route-settings metadata, and WirePlumber copies it into its
            // state only when that value changes: writing the clean entry a
            // second time (after an earlier repair, or a stream that saved
            // over it since) would change nothing. So each key is written
            // twice, first a step off in volume, then clean.
            return byKey.keys.sorted().compactMap { byKey[$0] }.flatMap { repair in
                var nudged = repair.cleanEntry
                nudged.volume = nudged.volume.map { PAVolume(channels: $0.channels.map { $0 > 0 ? $0 - 1 : 1 }) }
                return [nudged, repair.cleanEntry]
            }
        }
        return current.compactMap { entry in byKey[entry.name].flatMap { $0.cleaned(entry) } }
    }
}
