// The one door to libpulse: every pa_* function SoundEngine uses is called in
// this file and nowhere else. The wrappers are thin, non-owning handle structs
// (no reference counting of their own), so the real-time write callback can use
// them without ARC traffic. Ownership rules are those of libpulse and are
// enforced by PulseAudioBackend, which creates and frees each handle once.
//
// Locking (libpulse's rule, not ours): every call on a context, stream or
// operation made from outside the mainloop thread must hold the mainloop lock;
// callbacks already run with it held. Never lock, wait or stop the mainloop from
// its own thread (libpulse asserts).
import CPulseAudio
import SoundBackend
import SoundCore

// MARK: - Threaded mainloop

/// `pa_threaded_mainloop`: one event-loop thread that runs every callback.
struct PAMainloop {
    let raw: OpaquePointer

    /// `pa_threaded_mainloop_new`; nil when libpulse cannot create it.
    static func make(name: String) -> PAMainloop? {
        guard let raw = pa_threaded_mainloop_new() else { return nil }
        pa_threaded_mainloop_set_name(raw, name)
        return PAMainloop(raw: raw)
    }

    /// `pa_threaded_mainloop_start`: spawns the loop thread.
    func start() -> Bool { pa_threaded_mainloop_start(raw) >= 0 }
    /// `pa_threaded_mainloop_stop`: joins the loop thread. Not from the loop thread, not locked.
    func stop() { pa_threaded_mainloop_stop(raw) }
    /// `pa_threaded_mainloop_free`: after `stop`.
    func free() { pa_threaded_mainloop_free(raw) }
    /// `pa_threaded_mainloop_lock`.
    func lock() { pa_threaded_mainloop_lock(raw) }
    /// `pa_threaded_mainloop_unlock`.
    func unlock() { pa_threaded_mainloop_unlock(raw) }
    /// `pa_threaded_mainloop_wait`: releases the lock until a `signal`. May wake spuriously.
    func wait() { pa_threaded_mainloop_wait(raw) }
    /// `pa_threaded_mainloop_signal` without waiting for an accept.
    func signal() { pa_threaded_mainloop_signal(raw, 0) }
    /// `pa_threaded_mainloop_in_thread`: whether the caller is the loop thread.
    var isLoopThread: Bool { pa_threaded_mainloop_in_thread(raw) != 0 }
    /// `pa_threaded_mainloop_get_api`.
    var api: UnsafeMutablePointer<pa_mainloop_api> { pa_threaded_mainloop_get_api(raw) }

    /// `pa_mainloop_api_once`: runs `callback` once on the loop thread.
    func once(_ callback: @convention(c) (UnsafeMutablePointer<pa_mainloop_api>?, UnsafeMutableRawPointer?) -> Void,
              _ userdata: UnsafeMutableRawPointer?) {
        pa_mainloop_api_once(api, callback, userdata)
    }

    typealias IOCallback = @convention(c) (
        UnsafeMutablePointer<pa_mainloop_api>?, OpaquePointer?, Int32, pa_io_event_flags_t, UnsafeMutableRawPointer?
    ) -> Void

    /// The loop API's `io_new(fd, PA_IO_EVENT_INPUT)`: calls `callback` on the
    /// loop thread whenever `fd` is readable. Lock held (or on the loop thread).
    func watchReadable(_ fd: Int32, _ callback: IOCallback, _ userdata: UnsafeMutableRawPointer?) -> OpaquePointer? {
        api.pointee.io_new(api, fd, PA_IO_EVENT_INPUT, callback, userdata)
    }

    /// The loop API's `io_free` for a watch made by `watchReadable`. Lock held.
    func freeWatch(_ event: OpaquePointer) { api.pointee.io_free(event) }

    /// Runs `body` with the loop lock held.
    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

// MARK: - Property lists

/// `pa_proplist`: owned by whoever created it; free after handing it to libpulse (which copies).
struct PAProplist {
    let raw: OpaquePointer

    /// `pa_proplist_new` filled with `properties`.
    static func make(_ properties: [String: String]) -> PAProplist {
        let raw = pa_proplist_new()!
        for (key, value) in properties.sorted(by: { $0.key < $1.key }) {
            pa_proplist_sets(raw, key, value)
        }
        return PAProplist(raw: raw)
    }

    /// `pa_proplist_gets`: the string value of `key`, if any.
    static func string(_ raw: OpaquePointer?, _ key: String) -> String? {
        guard let raw, let value = pa_proplist_gets(raw, key) else { return nil }
        return String(cString: value)
    }

    /// `pa_proplist_free`.
    func free() { pa_proplist_free(raw) }
}

// MARK: - Context

/// `pa_context`: the connection to the server.
struct PAContext {
    let raw: OpaquePointer

    /// `pa_context_new_with_proplist` on `mainloop`'s API.
    static func make(mainloop: PAMainloop, name: String, properties: PAProplist) -> PAContext? {
        guard let raw = pa_context_new_with_proplist(mainloop.api, name, properties.raw) else { return nil }
        return PAContext(raw: raw)
    }

    typealias NotifyCallback = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void

    /// `pa_context_set_state_callback`.
    func setStateCallback(_ callback: NotifyCallback?, _ userdata: UnsafeMutableRawPointer?) {
        pa_context_set_state_callback(raw, callback, userdata)
    }

    /// `pa_context_connect` with `PA_CONTEXT_NOAUTOSPAWN`: never starts a daemon of its own.
    /// Returns false when the connect could not even be attempted.
    func connect(server: String?) -> Bool {
        pa_context_connect(raw, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0
    }

    /// `pa_context_disconnect`.
    func disconnect() { pa_context_disconnect(raw) }
    /// `pa_context_unref`.
    func unref() { pa_context_unref(raw) }

    /// `pa_context_get_state`.
    var state: pa_context_state_t { pa_context_get_state(raw) }

    /// Whether the state is READY.
    var isReady: Bool { state == PA_CONTEXT_READY }

    /// `PA_CONTEXT_IS_GOOD(pa_context_get_state)`: connecting or ready.
    var isGood: Bool {
        let s = state
        return s == PA_CONTEXT_CONNECTING || s == PA_CONTEXT_AUTHORIZING || s == PA_CONTEXT_SETTING_NAME
            || s == PA_CONTEXT_READY || s == PA_CONTEXT_UNCONNECTED
    }

    /// `pa_strerror(pa_context_errno)`: the last error in words.
    var lastError: String { Self.describe(errorNumber) }

    /// `pa_context_errno`: the last error as libpulse's number (a plain read).
    var errorNumber: Int32 { pa_context_errno(raw) }

    /// Whether the last error is `PA_ERR_CONNECTIONREFUSED`: nobody listens
    /// at the address, or a busy server's accept backlog is full.
    var wasRefused: Bool { pa_context_errno(raw) == Int32(PA_ERR_CONNECTIONREFUSED.rawValue) }

    /// `pa_strerror`: a libpulse error number in words.
    static func describe(_ errorNumber: Int32) -> String { String(cString: pa_strerror(errorNumber)) }

    /// `pa_context_get_server`: the address actually connected to, once ready.
    var serverAddress: String? { pa_context_get_server(raw).map { String(cString: $0) } }

    /// `pa_context_get_index`: our client index on the server, once ready.
    var clientIndex: UInt32 { pa_context_get_index(raw) }

    /// `pa_context_get_server_protocol_version`.
    var serverProtocolVersion: UInt32 { pa_context_get_server_protocol_version(raw) }

    typealias TimeCallback = @convention(c) (
        UnsafeMutablePointer<pa_mainloop_api>?, OpaquePointer?, UnsafePointer<timeval>?, UnsafeMutableRawPointer?
    ) -> Void

    /// `pa_context_rttime_new(pa_rtclock_now() + microseconds)`: a one-shot timer on the loop.
    func timer(after microseconds: UInt64, _ callback: TimeCallback, _ userdata: UnsafeMutableRawPointer?) -> OpaquePointer? {
        pa_context_rttime_new(raw, pa_rtclock_now() + microseconds, callback, userdata)
    }

    /// The loop API's `time_free` for a timer made by `timer`.
    static func freeTimer(_ event: OpaquePointer, mainloop: PAMainloop) {
        mainloop.api.pointee.time_free(event)
    }

}


// MARK: - Operations

/// `pa_operation`: an asynchronous request in flight.
struct PAOperation {
    let raw: OpaquePointer

    /// Whether the operation is still running (`PA_OPERATION_RUNNING`).
    var isRunning: Bool { pa_operation_get_state(raw) == PA_OPERATION_RUNNING }
    /// `pa_operation_cancel`.
    func cancel() { pa_operation_cancel(raw) }
    /// `pa_operation_unref`.
    func unref() { pa_operation_unref(raw) }
}

// MARK: - Stream

// PA_SAMPLE_FLOAT32NE / PA_SAMPLE_S16NE are endian-selecting macros Swift cannot import.
#if _endian(little)
let paFloat32NE = PA_SAMPLE_FLOAT32LE
let paS16NE = PA_SAMPLE_S16LE
#else
let paFloat32NE = PA_SAMPLE_FLOAT32BE
let paS16NE = PA_SAMPLE_S16BE
#endif

/// `pa_stream`: our playback stream.
struct PAStream {
    let raw: OpaquePointer

    /// Wraps a stream pointer libpulse handed us (no reference taken).
    @_noLocks @_noAllocation
    init(raw: OpaquePointer) { self.raw = raw }

    /// `pa_stream_new_with_proplist` with the standard speaker layout for
    /// the format's channel count (``pa_channel_map/standard(channels:)``).
    static func make(context: PAContext, name: String, format: StreamFormat, properties: PAProplist) -> PAStream? {
        var spec = pa_sample_spec(
            format: format.sampleFormat == .float32 ? paFloat32NE : paS16NE,
            rate: UInt32(format.sampleRate), channels: UInt8(format.channelCount))
        guard var map = pa_channel_map.standard(channels: format.channelCount),
            let raw = pa_stream_new_with_proplist(context.raw, name, &spec, &map, properties.raw)
        else { return nil }
        return PAStream(raw: raw)
    }

    typealias NotifyCallback = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void
    typealias RequestCallback = @convention(c) (OpaquePointer?, Int, UnsafeMutableRawPointer?) -> Void
    typealias EventCallback = @convention(c) (
        OpaquePointer?, UnsafePointer<CChar>?, OpaquePointer?, UnsafeMutableRawPointer?
    ) -> Void
    typealias SuccessCallback = @convention(c) (OpaquePointer?, Int32, UnsafeMutableRawPointer?) -> Void

    /// `pa_stream_set_state_callback`.
    func setStateCallback(_ cb: NotifyCallback?, _ userdata: UnsafeMutableRawPointer?) {
        pa_stream_set_state_callback(raw, cb, userdata)
    }
    /// `pa_stream_set_write_callback`.
    func setWriteCallback(_ cb: RequestCallback?, _ userdata: UnsafeMutableRawPointer?) {
        pa_stream_set_write_callback(raw, cb, userdata)
    }
    /// `pa_stream_set_underflow_callback`.
    func setUnderflowCallback(_ cb: NotifyCallback?, _ userdata: UnsafeMutableRawPointer?) {
        pa_stream_set_underflow_callback(raw, cb, userdata)
    }
    /// `pa_stream_set_moved_callback`.
    func setMovedCallback(_ cb: NotifyCallback?, _ userdata: UnsafeMutableRawPointer?) {
        pa_stream_set_moved_callback(raw, cb, userdata)
    }
    /// `pa_stream_set_suspended_callback`.
    func setSuspendedCallback(_ cb: NotifyCallback?, _ userdata: UnsafeMutableRawPointer?) {
        pa_stream_set_suspended_callback(raw, cb, userdata)
    }
    /// `pa_stream_set_event_callback` (request-cork, request-uncork, …).
    func setEventCallback(_ cb: EventCallback?, _ userdata: UnsafeMutableRawPointer?) {
        pa_stream_set_event_callback(raw, cb, userdata)
    }

    /// Removes every callback, before disconnecting (so none fires into freed state).
    func clearCallbacks() {
        setStateCallback(nil, nil)
        setWriteCallback(nil, nil)
        setUnderflowCallback(nil, nil)
        setMovedCallback(nil, nil)
        setSuspendedCallback(nil, nil)
        setEventCallback(nil, nil)
        setReadCallback(nil, nil)
    }

    /// `pa_stream_connect_playback` to the default device (NULL, so the server
    /// moves us when the default changes), started corked, with
    /// ADJUST_LATENCY | AUTO_TIMING_UPDATE | INTERPOLATE_TIMING.
    func connectPlayback(latency: LatencyRequest, format: StreamFormat) -> Bool {
        var attr = pa_buffer_attr(latency: latency, format: format)
        let flags = pa_stream_flags_t(
            rawValue: PA_STREAM_START_CORKED.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue
                | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue)
        return pa_stream_connect_playback(raw, nil, &attr, flags, nil, nil) >= 0
    }

    /// `pa_stream_connect_playback` to `device` (a sink name; `nil` for the
    /// server's choice), otherwise as ``connectPlayback(latency:format:)``.
    /// An explicit device keeps module-stream-restore from putting a
    /// re-created stream back where an old one was moved.
    func connectPlayback(latency: LatencyRequest, format: StreamFormat, device: String?) -> Bool {
        var attr = pa_buffer_attr(latency: latency, format: format)
        let flags = pa_stream_flags_t(
            rawValue: PA_STREAM_START_CORKED.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue
                | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue)
        return pa_stream_connect_playback(raw, device, &attr, flags, nil, nil) >= 0
    }

    /// `pa_stream_connect_record` from `device` (a source name; `nil` for the
    /// server's default), delivering about `fragmentFrames` at a time.
    func connectRecord(device: String?, fragmentFrames: Int, format: StreamFormat) -> Bool {
        var attr = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
            fragsize: UInt32(fragmentFrames * format.bytesPerFrame))
        return pa_stream_connect_record(raw, device, &attr, PA_STREAM_ADJUST_LATENCY) >= 0
    }

    /// `pa_stream_set_read_callback`.
    func setReadCallback(_ cb: RequestCallback?, _ userdata: UnsafeMutableRawPointer?) {
        pa_stream_set_read_callback(raw, cb, userdata)
    }

    /// `pa_stream_peek`: the next captured fragment (nil data with a size is a
    /// hole to drop). Real-time safe: no allocation.
    @_noLocks @_noAllocation
    func peek(_ data: inout UnsafeRawPointer?, _ bytes: inout Int) -> Bool {
        _unsafePerformance { pa_stream_peek(raw, &data, &bytes) >= 0 }
    }

    /// `pa_stream_drop`: releases the fragment `peek` returned.
    @_noLocks @_noAllocation
    func drop() { _unsafePerformance { _ = pa_stream_drop(raw) } }

    /// `pa_stream_disconnect`.
    func disconnect() { pa_stream_disconnect(raw) }
    /// `pa_stream_unref`.
    func unref() { pa_stream_unref(raw) }

    /// `pa_stream_get_state`.
    var state: pa_stream_state_t { pa_stream_get_state(raw) }
    /// State is `PA_STREAM_CREATING`.
    var isCreating: Bool { state == PA_STREAM_CREATING }
    /// State is `PA_STREAM_READY`.
    var isReady: Bool { state == PA_STREAM_READY }
    /// State is `PA_STREAM_FAILED` or `PA_STREAM_TERMINATED`.
    var isDead: Bool { state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED }

    /// `pa_stream_begin_write`: a server-owned buffer of up to `bytes`.
    /// Real-time safe in practice (libpulse hands out pool memory).
    @_noLocks @_noAllocation
    func beginWrite(_ data: inout UnsafeMutableRawPointer?, _ bytes: inout Int) -> Bool {
        // libpulse is C, which the checker cannot see into. begin_write hands out
        // memory from the stream's preallocated pool and takes no lock of ours;
        // the render-path allocation test watches it.
        _unsafePerformance { pa_stream_begin_write(raw, &data, &bytes) >= 0 }
    }

    /// `pa_stream_write` of a buffer from `beginWrite` (zero copy, relative seek).
    @_noLocks @_noAllocation
    func write(_ data: UnsafeMutableRawPointer, _ bytes: Int) -> Bool {
        // See beginWrite: C, pool memory, watched by the allocation test.
        _unsafePerformance { pa_stream_write(raw, data, bytes, nil, 0, PA_SEEK_RELATIVE) >= 0 }
    }

    /// `pa_stream_cancel_write`.
    @_noLocks @_noAllocation
    func cancelWrite() { _unsafePerformance { _ = pa_stream_cancel_write(raw) } }

    /// `pa_stream_writable_size`: bytes the server would take now.
    var writableSize: Int {
        let n = pa_stream_writable_size(raw)
        return n == Int.max ? 0 : n  // (size_t)-1 on error
    }

    /// `pa_stream_cork`.
    func cork(_ paused: Bool, _ cb: SuccessCallback?, _ userdata: UnsafeMutableRawPointer?) -> PAOperation? {
        pa_stream_cork(raw, paused ? 1 : 0, cb, userdata).map(PAOperation.init)
    }

    /// `pa_stream_get_latency`: how long until a sample written now is heard
    /// (our buffer plus the device's), or nil before timing info arrived.
    var latencyMicroseconds: UInt64? {
        let usec = renderLatencyMicroseconds()  // LibPulse+Timing.swift
        return usec == .max ? nil : usec
    }

    /// `pa_stream_is_corked`.
    var isCorked: Bool { pa_stream_is_corked(raw) == 1 }
    /// `pa_stream_is_suspended`.
    var isSuspended: Bool { pa_stream_is_suspended(raw) == 1 }
    /// `pa_stream_get_index`: our sink-input index on the server.
    var index: UInt32 { pa_stream_get_index(raw) }
    /// `pa_stream_get_device_name`.
    var deviceName: String { pa_stream_get_device_name(raw).map { String(cString: $0) } ?? "" }

    /// `pa_stream_get_sample_spec` as a ``StreamFormat``.
    var format: StreamFormat? {
        guard let spec = pa_stream_get_sample_spec(raw)?.pointee else { return nil }
        let sample: SampleFormat
        switch spec.format {
        case paFloat32NE: sample = .float32
        case paS16NE: sample = .int16
        default: return nil
        }
        return StreamFormat(sampleRate: Int(spec.rate), channelCount: Int(spec.channels), sampleFormat: sample)
    }

    /// `pa_stream_get_buffer_attr`, converted to frames of the stream's format.
    var bufferAttributes: BufferAttributes? {
        guard let attr = pa_stream_get_buffer_attr(raw)?.pointee, let bpf = format.map({ UInt32($0.bytesPerFrame) })
        else { return nil }
        return BufferAttributes(
            maxLength: Int(attr.maxlength / bpf), targetLength: Int(attr.tlength / bpf),
            prebuffer: Int(attr.prebuf / bpf), minimumRequest: Int(attr.minreq / bpf))
    }
}

// MARK: - Channel maps

extension pa_channel_map {
    /// The speaker positions of a stream of `channels` channels, 1…8, in
    /// WAVEFORMATEXTENSIBLE order (the `dwChannelMask` bit order Windows,
    /// FFmpeg, SDL and Wwise use for their standard layouts):
    ///
    /// | channels | layout | positions |
    /// |---|---|---|
    /// | 1 | mono | mono (the server plays it on both front speakers) |
    /// | 2 | stereo | FL FR |
    /// | 3 | 3.0 | FL FR FC |
    /// | 4 | quad | FL FR RL RR |
    /// | 5 | 5.0 | FL FR FC RL RR |
    /// | 6 | 5.1 | FL FR FC LFE RL RR |
    /// | 7 | 6.1 | FL FR FC LFE RC SL SR |
    /// | 8 | 7.1 | FL FR FC LFE RL RR SL SR |
    ///
    /// Explicit, because neither of libpulse's own defaults fits: its
    /// `PA_CHANNEL_MAP_DEFAULT` is the AIFF map (4 channels: FL FC FR RC, so
    /// the mix's right channel played from the centre; 6 and 8: FL FLC …, so
    /// from front-left-of-centre), and its `PA_CHANNEL_MAP_WAVEEX` takes the
    /// first *n* mask bits (4: FL FR FC LFE; 8: … FLC FRC; 5 and 7 end in
    /// aux0). Only 1, 2, 3 and 6 agree with the table. Channel 0 is always
    /// front-left and 1 front-right, where the mixer puts its stereo mix.
    /// More than 8 channels: WAVEEX, filled up with aux positions.
    static func standard(channels: Int) -> pa_channel_map? {
        guard channels >= 1, channels <= Int(PA_CHANNELS_MAX) else { return nil }
        var map = pa_channel_map()
        guard let positions = standardPositions(channels) else {
            return pa_channel_map_init_extend(&map, UInt32(channels), PA_CHANNEL_MAP_WAVEEX) != nil ? map : nil
        }
        map.channels = UInt8(channels)
        withUnsafeMutableBytes(of: &map.map) { raw in
            let slots = raw.bindMemory(to: pa_channel_position_t.self)
            for (i, position) in positions.enumerated() { slots[i] = position }
        }
        return pa_channel_map_valid(&map) != 0 ? map : nil
    }

    /// The table above, or nil beyond 8 channels.
    private static func standardPositions(_ channels: Int) -> [pa_channel_position_t]? {
        let (fl, fr, fc, lfe) = (
            PA_CHANNEL_POSITION_FRONT_LEFT, PA_CHANNEL_POSITION_FRONT_RIGHT, PA_CHANNEL_POSITION_FRONT_CENTER,
            PA_CHANNEL_POSITION_LFE
        )
        let (rl, rr, rc) = (PA_CHANNEL_POSITION_REAR_LEFT, PA_CHANNEL_POSITION_REAR_RIGHT, PA_CHANNEL_POSITION_REAR_CENTER)
        let (sl, sr) = (PA_CHANNEL_POSITION_SIDE_LEFT, PA_CHANNEL_POSITION_SIDE_RIGHT)
        switch channels {
        case 1: return [PA_CHANNEL_POSITION_MONO]
        case 2: return [fl, fr]
        case 3: return [fl, fr, fc]
        case 4: return [fl, fr, rl, rr]
        case 5: return [fl, fr, fc, rl, rr]
        case 6: return [fl, fr, fc, lfe, rl, rr]
        case 7: return [fl, fr, fc, lfe, rc, sl, sr]
        case 8: return [fl, fr, fc, lfe, rl, rr, sl, sr]
        default: return nil
        }
    }
}

extension pa_buffer_attr {
    /// Requests `latency` for `format` (bytes), with prebuf and fragsize left to the server.
    init(latency: LatencyRequest, format: StreamFormat) {
        let bpf = UInt32(format.bytesPerFrame)
        self.init(
            maxlength: UInt32(latency.targetFrames * 4) * bpf,
            tlength: UInt32(latency.targetFrames) * bpf,
            prebuf: UInt32.max,
            minreq: UInt32(latency.requestFrames) * bpf,
            fragsize: UInt32.max)
    }
}

/// Event names of `pa_stream_event_cb_t`.
enum PAStreamEvent {
    /// `PA_STREAM_EVENT_REQUEST_CORK` ("request-cork").
    static let requestCork: StaticString = "request-cork"
    /// `PA_STREAM_EVENT_REQUEST_UNCORK` ("request-uncork").
    static let requestUncork: StaticString = "request-uncork"

    /// Whether `name` is `PA_STREAM_EVENT_REQUEST_CORK`, compared in place
    /// (the event callback runs on the render thread: no String is built).
    static func isRequestCork(_ name: UnsafePointer<CChar>) -> Bool { matches(name, requestCork) }
    /// Whether `name` is `PA_STREAM_EVENT_REQUEST_UNCORK`.
    static func isRequestUncork(_ name: UnsafePointer<CChar>) -> Bool { matches(name, requestUncork) }

    private static func matches(_ name: UnsafePointer<CChar>, _ constant: StaticString) -> Bool {
        let bytes = constant.utf8Start
        for i in 0..<constant.utf8CodeUnitCount where UInt8(bitPattern: name[i]) != bytes[i] { return false }
        return name[constant.utf8CodeUnitCount] == 0
    }
}

/// `pa_get_library_version`.
var libpulseVersion: String { String(cString: pa_get_library_version()) }
