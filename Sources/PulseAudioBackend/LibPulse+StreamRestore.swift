// libpulse's stream-restore extension (`pulse/ext-stream-restore.h`): the
// restore database that module-stream-restore keeps on PulseAudio and that
// pipewire-pulse forwards to WirePlumber. What each server does with these
// calls: docs/pulseaudio.md, "Nothing left behind", and
// shared/reference/restore-databases.md.
import CPulseAudio
import Glibc

/// One `pa_ext_stream_restore_info`, copied: the state the server gives a
/// new stream whose key is `name`.
struct PARestoreEntry: Sendable, Hashable, Codable {
    /// The key, e.g. `sink-input-by-media-role:music`.
    var name: String
    /// The volume saved, `nil` when the entry has none (`volume.channels == 0`).
    var volume: PAVolume?
    /// The channel map of `volume`.
    var channelMap: PAChannelMap
    /// The device saved, `nil` for none.
    var device: String?
    var muted: Bool

    init(name: String, volume: PAVolume?, channelMap: PAChannelMap, device: String?, muted: Bool) {
        self.name = name
        self.volume = volume
        self.channelMap = channelMap
        self.device = device
        self.muted = muted
    }

    init(_ info: UnsafePointer<pa_ext_stream_restore_info>) {
        let i = info.pointee
        name = i.name.map { String(cString: $0) } ?? ""
        volume = i.volume.channels > 0 ? PAVolume(i.volume) : nil
        channelMap = PAChannelMap(i.channel_map)
        device = i.device.map { String(cString: $0) }
        muted = i.mute != 0
    }
}

extension PAContext {
    /// `pa_ext_stream_restore_test`: the extension's version, one item (none
    /// when the server has no stream-restore module), then the end.
    func testStreamRestore(_ request: PAListRequest<UInt32>) -> PAOperation? {
        pa_ext_stream_restore_test(raw, restoreTestCallback, request.userdata).map(PAOperation.init)
    }

    /// `pa_ext_stream_restore_read`: every entry, then the end. pipewire-pulse
    /// lists only entries written through this extension since WirePlumber
    /// started, not what WirePlumber saved from streams.
    func readStreamRestore(_ request: PAListRequest<PARestoreEntry>) -> PAOperation? {
        pa_ext_stream_restore_read(raw, restoreReadCallback, request.userdata).map(PAOperation.init)
    }

    /// `pa_ext_stream_restore_write(PA_UPDATE_REPLACE, entries, apply_immediately = 0)`:
    /// overwrites these entries, leaves every other one and every live stream
    /// alone. (`PA_UPDATE_MERGE` does not overwrite an existing key and
    /// `PA_UPDATE_SET` wipes the database first: never those.)
    func writeStreamRestore(_ entries: [PARestoreEntry], _ request: PASuccessRequest) -> PAOperation? {
        // The C strings and structs must live until the call returns (libpulse copies them).
        let names = entries.map { strdup($0.name) }
        let devices = entries.map { $0.device.map { strdup($0) } ?? nil }
        defer {
            for name in names { free(name) }
            for device in devices { free(device) }
        }
        var infos = entries.enumerated().map { n, entry in
            var info = pa_ext_stream_restore_info()
            info.name = UnsafePointer(names[n])
            info.channel_map = entry.channelMap.raw
            if let volume = entry.volume { info.volume = volume.raw }
            info.device = UnsafePointer(devices[n])
            info.mute = entry.muted ? 1 : 0
            return info
        }
        return pa_ext_stream_restore_write(
            raw, PA_UPDATE_REPLACE, &infos, UInt32(infos.count), 0, successCallback, request.userdata
        ).map(PAOperation.init)
    }

    /// `pa_ext_stream_restore_subscribe(1)` with `pa_ext_stream_restore_set_subscribe_cb`:
    /// `subscriber.fire` runs on the loop thread whenever the database
    /// changes (PulseAudio only; pipewire-pulse never sends these events).
    /// Pass nil to stop.
    func subscribeStreamRestore(_ subscriber: PATimerBox?, _ request: PASuccessRequest) -> PAOperation? {
        if let subscriber {
            pa_ext_stream_restore_set_subscribe_cb(raw, restoreChangedCallback, Unmanaged.passUnretained(subscriber).toOpaque())
        } else {
            pa_ext_stream_restore_set_subscribe_cb(raw, nil, nil)
        }
        return pa_ext_stream_restore_subscribe(raw, subscriber == nil ? 0 : 1, successCallback, request.userdata)
            .map(PAOperation.init)
    }
}

private func restoreTestCallback(_ context: OpaquePointer?, _ version: UInt32, _ userdata: UnsafeMutableRawPointer?) {
    guard let request = PAListRequest<UInt32>.from(userdata) else { return }
    // libpulse reports a failed test with version PA_INVALID_INDEX.
    if version != paInvalidIndex { request.deliver(version, eol: 0) }
    request.deliver(nil, eol: version == paInvalidIndex ? -1 : 1)
}

private func restoreReadCallback(
    _ context: OpaquePointer?, _ info: UnsafePointer<pa_ext_stream_restore_info>?, _ eol: Int32,
    _ userdata: UnsafeMutableRawPointer?
) {
    PAListRequest<PARestoreEntry>.from(userdata)?.deliver(info.map(PARestoreEntry.init), eol: eol)
}

private func restoreChangedCallback(_ context: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    Unmanaged<PATimerBox>.fromOpaque(userdata).takeUnretainedValue().fire()
}
