/// What a stream had before the engine touched it, or what a restore-database
/// entry should hold without the engine's changes.
struct StreamLevels: Sendable, Hashable, Codable {
    var muted: Bool
    /// One `pa_volume_t` per channel.
    var volume: [UInt32]
}

/// Who a stream belongs to, to recognise it by its index again after a crash:
/// pipewire-pulse reuses indices, so an index alone may name another stream.
struct StreamIdentity: Sendable, Hashable, Codable {
    var applicationName: String?
    var processID: String?
    var mediaName: String?
    var role: String?

    init(_ info: PASinkInputInfo) {
        applicationName = info.applicationName
        processID = info.processID
        mediaName = info.mediaName
        role = info.role
    }

    init(applicationName: String?, processID: String?, mediaName: String?, role: String?) {
        self.applicationName = applicationName
        self.processID = processID
        self.mediaName = mediaName
        self.role = role
    }

    /// Whether `info` is the stream this identity was taken from.
    func matches(_ info: PASinkInputInfo) -> Bool { self == StreamIdentity(info) }
}

/// A restore-database entry the engine's changes may have written (its key
/// and what it should hold without them), for a stream that is gone or
/// cannot be given back.
struct KeyRepair: Sendable, Hashable, Codable {
    /// The entry's key, e.g. `sink-input-by-media-role:music`.
    var key: String
    var channelMap: PAChannelMap
    /// What the entry holds without our changes.
    var clean: StreamLevels
    /// Our fingerprints: we muted a stream of this key; the volume we ducked it to.
    var mutedByUs: Bool
    var duckedTo: [UInt32]?

    /// `entry` with our fingerprints replaced by the clean values, `nil` when
    /// it carries none (then it is the user's, or already clean). Field by
    /// field: a volume the user set meanwhile stays.
    func cleaned(_ entry: PARestoreEntry) -> PARestoreEntry? {
        var fixed = entry
        var changed = false
        if mutedByUs && entry.muted && !clean.muted {
            fixed.muted = false
            changed = true
        }
        if let duckedTo, let volume = entry.volume, sameVolume(volume.channels, duckedTo),
            !sameVolume(volume.channels, clean.volume)
        {
            fixed.volume = PAVolume(channels: clean.volume)
            fixed.channelMap = channelMap
            changed = true
        }
        return changed ? fixed : nil
    }

    /// Whether `levels` (a stream of this key) carry one of our changes:
    /// our mute where the clean state is unmuted, or our duck volume.
    func isCarried(by levels: StreamLevels) -> Bool {
        let restoration = restoration(of: levels)
        return restoration.muted != nil || restoration.volume != nil
    }

    /// What a stream of this key showing `levels` gets back: `muted` false
    /// where it carries our mute, `volume` the clean volume where it carries
    /// our duck (each `nil` where it carries nothing of ours).
    func restoration(of levels: StreamLevels) -> (muted: Bool?, volume: [UInt32]?) {
        let unmute = mutedByUs && levels.muted && !clean.muted
        let ducked = duckedTo.map { sameVolume(levels.volume, $0) } ?? false
        let volume = ducked && !sameVolume(levels.volume, clean.volume) && clean.volume.count == levels.volume.count
        return (unmute ? false : nil, volume ? clean.volume : nil)
    }

    /// The entry to write where the database cannot be read (pipewire-pulse:
    /// its read lists only what was written through the extension).
    var cleanEntry: PARestoreEntry {
        PARestoreEntry(
            name: key, volume: PAVolume(channels: clean.volume), channelMap: channelMap, device: nil,
            muted: clean.muted)
    }
}

/// Another application's stream the engine changed, with what it had before.
struct HeldStream: Sendable, Hashable, Codable {
    /// Its sink-input index on the server the journal names.
    var index: UInt32
    var identity: StreamIdentity
    /// Its restore-database key, `nil` when the server names none.
    var restoreKey: String?
    var channelMap: PAChannelMap
    /// What it had before the engine's first change (or, for a stream that
    /// arrived with the restore database's echo of our change, what it would
    /// have had without it).
    var original: StreamLevels
    /// We muted it (and own that mute).
    var mutedByUs: Bool
    /// The volume we set when ducking it, `nil` when not ducked.
    var duckedTo: [UInt32]?

    /// Whether we still change anything on it.
    var isHeld: Bool { mutedByUs || duckedTo != nil }

    /// What to set on the live stream to give it back, judged against what it
    /// has `now`: the user wins — a mute they lifted, or a volume they moved,
    /// is theirs and stays.
    func restoration(now: StreamLevels) -> (unmute: Bool, volume: [UInt32]?) {
        let unmute = mutedByUs && now.muted && !original.muted
        let volume = duckedTo.flatMap { sameVolume(now.volume, $0) ? original.volume : nil }
        return (unmute, volume)
    }

    /// Its key's repair: the entry should hold what the stream had before us.
    var keyRepair: KeyRepair? {
        restoreKey.map {
            KeyRepair(key: $0, channelMap: channelMap, clean: original, mutedByUs: mutedByUs, duckedTo: duckedTo)
        }
    }

    /// Whether `levels` carry one of our changes: our mute, or our duck volume.
    func isOurs(_ levels: StreamLevels) -> Bool {
        (mutedByUs && levels.muted) || (duckedTo.map { sameVolume(levels.volume, $0) } ?? false)
    }
}

/// Whether two volumes are the same channel by channel within rounding:
/// pipewire-pulse stores volumes as floats and hands back values a few steps
/// off; a user's change is far larger.
func sameVolume(_ a: [UInt32], _ b: [UInt32]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { max($0, $1) - min($0, $1) <= 64 }
}
