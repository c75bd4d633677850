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
    /// them (same cookie); on another instance they are gone, and only the
    /// restore database, which outlives a restart, is repaired: every key we
    /// touched.
    static func repair(
        _ journal: HoldJournal, using runner: RequestRunner, on server: PAServerInfo, deadline: ContinuousClock.Instant
    ) throws(SoundEngineError) {
        let sameInstance = journal.server.map { $0.cookie == server.cookie } ?? false
        let live = sameInstance ? try runner.sinkInputs(journal.streams.map(\.index), deadline: deadline) : [:]
        var keys = journal.touchedKeys
        var outcomes: [RequestRunner.Outcome] = []
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
        try repairKeys(keys, using: runner, pipeWire: server.isPipeWire, deadline: deadline)
    }

    /// Repairs restore-database entries. PulseAudio: each entry is read and
    /// written back only with our fingerprints replaced (a volume the user
    /// set meanwhile stays); nothing to do without module-stream-restore.
    /// pipewire-pulse: its read does not show what WirePlumber saved, so the
    /// clean entry is written (WirePlumber copies mute, volumes and channels
    /// into its state for that key; it cannot delete). Loop lock held.
    static func repairKeys(
        _ repairs: [KeyRepair], using runner: RequestRunner, pipeWire: Bool, deadline: ContinuousClock.Instant
    ) throws(SoundEngineError) {
        // One repair per key: the last one written wins.
        var byKey: [String: KeyRepair] = [:]
        for repair in repairs { byKey[repair.key] = repair }
        guard !byKey.isEmpty else { return }
        let ctx = runner.context
        var current: [PARestoreEntry]?
        if !pipeWire {
            guard let versions = try runner.list("test for module-stream-restore", deadline: deadline, { ctx.testStreamRestore($0) }),
                !versions.isEmpty,
                let entries = try runner.list("read the restore database", deadline: deadline, { ctx.readStreamRestore($0) })
            else { return }  // no module-stream-restore: nothing was saved
            current = entries
        }
        let entries = Self.entries(for: Array(byKey.values), current: current)
        guard !entries.isEmpty else { return }
        try runner.run("repair restore entries \(entries.map(\.name))", deadline: deadline) {
            ctx.writeStreamRestore(entries, $0)
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
