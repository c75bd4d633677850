import CPulseAudio
import Foundation
import SoundBackend
import SoundSession

/// Every PulseAudio property key SoundEngine reads or writes, spelled once
/// (`PA_PROP_*` of `pulse/proplist.h`, and module-stream-restore's own key).
enum PAStreamProperty {
    /// `PA_PROP_MEDIA_ROLE`: what kind of audio (music, game, phone, …).
    static let mediaRole = PA_PROP_MEDIA_ROLE
    /// `PA_PROP_MEDIA_NAME`: the stream's name in mixers.
    static let mediaName = PA_PROP_MEDIA_NAME
    /// `PA_PROP_MEDIA_SOFTWARE`.
    static let mediaSoftware = PA_PROP_MEDIA_SOFTWARE
    /// `PA_PROP_FILTER_WANT`: a filter module-filter-heuristics should apply.
    static let filterWant = PA_PROP_FILTER_WANT
    /// `PA_PROP_APPLICATION_NAME`.
    static let applicationName = PA_PROP_APPLICATION_NAME
    /// `PA_PROP_APPLICATION_ID`.
    static let applicationID = PA_PROP_APPLICATION_ID
    /// `PA_PROP_APPLICATION_PROCESS_ID`.
    static let processID = PA_PROP_APPLICATION_PROCESS_ID
    /// `PA_PROP_APPLICATION_PROCESS_BINARY`.
    static let processBinary = PA_PROP_APPLICATION_PROCESS_BINARY
    /// `PA_PROP_CONTEXT_FORCE_DISABLE_SHM`: no shared memory (docs/pulseaudio.md).
    static let forceDisableSHM = PA_PROP_CONTEXT_FORCE_DISABLE_SHM
    /// module-stream-restore's key for a stream's entry (not a `PA_PROP_*`):
    /// a stream that names its own is saved and restored under it instead of
    /// under its role (pulsecore/proplist-util.c, `pa_proplist_get_stream_group`).
    static let restoreID = "module-stream-restore.id"
    /// pipewire-pulse's floor under a playback stream's `minreq`, read from
    /// the client's own properties when it creates a stream (pipewire 0.3.65
    /// module-protocol-pulse/stream.c:87); PulseAudio ignores it.
    static let pipeWireMinimumRequest = "pulse.min.req"
    /// pipewire-pulse's floor under a stream's `node.latency`, which sets the
    /// graph's quantum (stream.c:89, pulse-server.c:450 `clamp_latency`).
    static let pipeWireMinimumQuantum = "pulse.min.quantum"
    /// WirePlumber's per-stream switch of its stream-target memory (0.5:
    /// `src/scripts/node/state-stream.lua`, the save hook returns early when
    /// it is the string "false", and the restore skips the stream). Set to
    /// "false" on our streams: the engine routes them itself, and WirePlumber
    /// keys a stream's remembered target by `media.role` first, so each move
    /// the engine makes would otherwise be remembered for every music app
    /// (`Output/Audio:media.role:Music`) and handed back to our next stream.
    /// WirePlumber 0.4 reads only its own rules' boolean and ignores it;
    /// PulseAudio ignores it (module-stream-restore keys us by
    /// `restoreID`).
    static let wirePlumberRestoreTarget = "state.restore-target"
}

extension BackendConfiguration {
    /// Our streams' restore-database key: the game's own, not its role's.
    /// module-stream-restore would otherwise key our playback stream by
    /// `media.role`, the role of the music apps a non-mixable session mutes,
    /// and start our next stream with their mute (issue 15, failure 3).
    /// (pipewire-pulse's restore, WirePlumber, ignores the property and keys
    /// by role; the server model repairs that echo, docs/pulseaudio.md.)
    var ownRestoreKey: String {
        if let id = applicationID, !id.isEmpty { return "sink-input-by-application-id:\(id)" }
        return "sink-input-by-application-name:\(applicationName)"
    }

    /// The property list of our playback stream.
    var playbackProplist: [String: String] {
        var list = proplist(for: streamProperties)
        list[PAStreamProperty.mediaName] = streamName
        list[PAStreamProperty.restoreID] = ownRestoreKey
        list[PAStreamProperty.wirePlumberRestoreTarget] = "false"
        return list
    }

    /// The property list of our capture stream (the same role and filter
    /// wish: echo cancellation groups the two by role).
    var captureProplist: [String: String] {
        var list = proplist(for: streamProperties)
        list[PAStreamProperty.mediaName] = "\(applicationName) input"
        list[PAStreamProperty.wirePlumberRestoreTarget] = "false"
        return list
    }

    /// The client properties of both contexts.
    var contextProplist: [String: String] {
        var list = [
            PAStreamProperty.applicationName: applicationName,
            PAStreamProperty.processBinary: ProcessInfo.processInfo.processName,
        ]
        if let id = applicationID { list[PAStreamProperty.applicationID] = id }
        // Our audio reaches the server through the socket, not shared memory.
        // PulseAudio 16 aborts (memblock.c, memblock_replace_import) when the
        // main thread frees a disconnecting client's imported blocks while its
        // I/O thread drops the last of them: a game that terminates or swaps
        // its stream often would take every application's sound down with
        // the server. Copying 384 kB/s through the socket costs nothing a
        // game notices. docs/pulseaudio.md, "No shared memory".
        list[PAStreamProperty.forceDisableSHM] = "yes"
        list.merge(pipeWireLatencyFloors) { _, floor in floor }
        return list
    }

    /// pipewire-pulse's latency floors for our client, lowered to our request
    /// when it asks for less than pipewire-pulse's built-in 256/48000
    /// (`DEFAULT_MIN_REQ`, `DEFAULT_MIN_QUANTUM`, pulse-server.c:79, :84):
    /// without them `LatencyRequest.low` (512 / 128) was granted 768 / 256 and
    /// a 256-frame quantum. Requests at or above that floor send nothing, so
    /// the server's own configuration (a raised `pulse.min.req` in
    /// `pulse.properties`) still applies to them; a `pulse.rules` entry that
    /// matches us overrides these (applied after the client's properties,
    /// pulse-server.c:1058). docs/pulseaudio.md, "Latency on pipewire-pulse".
    var pipeWireLatencyFloors: [String: String] {
        let request = latency.requestFrames, rate = format.sampleRate
        guard request > 0, rate > 0, request * 48_000 < 256 * rate else { return [:] }
        let floor = "\(request)/\(rate)"
        return [PAStreamProperty.pipeWireMinimumRequest: floor, PAStreamProperty.pipeWireMinimumQuantum: floor]
    }

    private func proplist(for properties: StreamProperties) -> [String: String] {
        var list = [
            PAStreamProperty.mediaRole: properties.mediaRole.rawValue,
            PAStreamProperty.applicationName: applicationName,
            PAStreamProperty.mediaSoftware: "SoundEngine",
        ]
        if properties.echoCancellation { list[PAStreamProperty.filterWant] = "echo-cancel" }
        return list
    }
}
