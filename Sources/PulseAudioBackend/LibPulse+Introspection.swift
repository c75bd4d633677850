// The introspection and subscription half of the door to libpulse: every
// pa_context_* query, subscription and control call ServerModel uses is made
// here. Same rules as LibPulse.swift: thin, non-owning wrappers; every call
// with the mainloop lock held (or on the mainloop thread).
//
// Replies arrive on the mainloop thread. Each request carries a small Swift
// object (a `PAListRequest` or `PASuccessRequest`) as unretained userdata;
// whoever issues the request must keep that object alive until its final
// callback ran or the operation was cancelled (`pa_operation_cancel` stops
// libpulse from ever calling it). ServerModel keeps them in a registry.
import CPulseAudio

/// `PA_INVALID_INDEX` (a C cast Swift imports badly).
let paInvalidIndex = UInt32.max

// MARK: - Values read from the server

/// `pa_port_available` of a port.
enum PAPortAvailability: Sendable, Hashable {
    case unknown, no, yes

    init(_ raw: Int32) {
        switch UInt32(bitPattern: raw) {
        case PA_PORT_AVAILABLE_NO.rawValue: self = .no
        case PA_PORT_AVAILABLE_YES.rawValue: self = .yes
        default: self = .unknown
        }
    }
}

/// A `pa_sink_port_info` or `pa_source_port_info`, copied.
struct PAPortInfo: Sendable, Hashable {
    var name: String
    var description: String
    var availability: PAPortAvailability
    /// `pa_device_port_type_t` (PulseAudio ≥ 14; 0 = unknown from older servers).
    var type: UInt32
}

/// A `pa_sink_info` or `pa_source_info`, copied: what the model needs of a device.
struct PADeviceInfo: Sendable, Hashable {
    var index: UInt32
    var name: String
    var description: String
    /// Card index, nil for devices without a card (null sinks, filters, tunnels).
    var card: UInt32?
    /// For sources: the sink this is the monitor of, nil for real sources.
    var monitorOfSink: UInt32?
    var ports: [PAPortInfo]
    var activePort: String?
    /// The device's mute switch (a microphone's mute key mutes its source).
    var muted: Bool
    /// Every string property of the device.
    var properties: [String: String]
    /// Channels of its sample spec (a 5.1 sink has 6).
    var channels: Int

    /// A device described in code (tests stand for the server with it).
    init(
        index: UInt32, name: String, description: String, card: UInt32? = nil, monitorOfSink: UInt32? = nil,
        ports: [PAPortInfo] = [], activePort: String? = nil, muted: Bool = false, properties: [String: String] = [:],
        channels: Int = 2
    ) {
        self.index = index
        self.name = name
        self.description = description
        self.card = card
        self.monitorOfSink = monitorOfSink
        self.ports = ports
        self.activePort = activePort
        self.muted = muted
        self.properties = properties
        self.channels = channels
    }

    init(sink info: UnsafePointer<pa_sink_info>) {
        let i = info.pointee
        index = i.index
        name = i.name.map { String(cString: $0) } ?? ""
        description = i.description.map { String(cString: $0) } ?? name
        card = i.card == paInvalidIndex ? nil : i.card
        monitorOfSink = nil
        var ports: [PAPortInfo] = []
        if let list = i.ports {
            for n in 0..<Int(i.n_ports) {
                guard let p = list[n]?.pointee else { continue }
                ports.append(PAPortInfo(
                    name: p.name.map { String(cString: $0) } ?? "", description: p.description.map { String(cString: $0) } ?? "",
                    availability: PAPortAvailability(p.available), type: p.type))
            }
        }
        self.ports = ports
        activePort = i.active_port?.pointee.name.map { String(cString: $0) }
        muted = i.mute != 0
        properties = PAProplist.dictionary(i.proplist)
        channels = Int(i.sample_spec.channels)
    }

    init(source info: UnsafePointer<pa_source_info>) {
        let i = info.pointee
        index = i.index
        name = i.name.map { String(cString: $0) } ?? ""
        description = i.description.map { String(cString: $0) } ?? name
        card = i.card == paInvalidIndex ? nil : i.card
        monitorOfSink = i.monitor_of_sink == paInvalidIndex ? nil : i.monitor_of_sink
        var ports: [PAPortInfo] = []
        if let list = i.ports {
            for n in 0..<Int(i.n_ports) {
                guard let p = list[n]?.pointee else { continue }
                ports.append(PAPortInfo(
                    name: p.name.map { String(cString: $0) } ?? "", description: p.description.map { String(cString: $0) } ?? "",
                    availability: PAPortAvailability(p.available), type: p.type))
            }
        }
        self.ports = ports
        activePort = i.active_port?.pointee.name.map { String(cString: $0) }
        muted = i.mute != 0
        properties = PAProplist.dictionary(i.proplist)
        channels = Int(i.sample_spec.channels)
    }
}

/// A `pa_cvolume`: one `pa_volume_t` per channel.
struct PAVolume: Sendable, Hashable, Codable {
    var channels: [UInt32]

    init(channels: [UInt32]) { self.channels = channels }

    init(_ v: pa_cvolume) {
        var copy = v
        let count = min(Int(v.channels), Int(PA_CHANNELS_MAX))
        channels = withUnsafeBytes(of: &copy.values) { Array($0.bindMemory(to: pa_volume_t.self).prefix(count)) }
    }

    /// As a `pa_cvolume` for `pa_context_set_sink_input_volume`.
    var raw: pa_cvolume {
        var v = pa_cvolume()
        v.channels = UInt8(min(channels.count, Int(PA_CHANNELS_MAX)))
        withUnsafeMutableBytes(of: &v.values) { bytes in
            let slots = bytes.bindMemory(to: pa_volume_t.self)
            for (n, value) in channels.prefix(Int(PA_CHANNELS_MAX)).enumerated() { slots[n] = value }
        }
        return v
    }

    /// Every channel multiplied by a linear amplitude `factor`
    /// (`pa_sw_volume_multiply` with `pa_sw_volume_from_linear`).
    func scaled(byLinear factor: Double) -> PAVolume {
        let f = pa_sw_volume_from_linear(max(0, factor))
        return PAVolume(channels: channels.map { pa_sw_volume_multiply($0, f) })
    }
}

/// A `pa_channel_map`: one `pa_channel_position_t` per channel.
struct PAChannelMap: Sendable, Hashable, Codable {
    var positions: [Int32]

    init(positions: [Int32]) { self.positions = positions }

    init(_ map: pa_channel_map) {
        var copy = map
        let count = min(Int(map.channels), Int(PA_CHANNELS_MAX))
        positions = withUnsafeBytes(of: &copy.map) {
            Array($0.bindMemory(to: pa_channel_position_t.self).prefix(count).map { Int32($0.rawValue) })
        }
    }

    /// As a `pa_channel_map`.
    var raw: pa_channel_map {
        var m = pa_channel_map()
        m.channels = UInt8(min(positions.count, Int(PA_CHANNELS_MAX)))
        withUnsafeMutableBytes(of: &m.map) { bytes in
            let slots = bytes.bindMemory(to: pa_channel_position_t.self)
            for (n, value) in positions.prefix(Int(PA_CHANNELS_MAX)).enumerated() {
                slots[n] = pa_channel_position_t(rawValue: value)
            }
        }
        return m
    }
}

/// A `pa_sink_input_info`, copied.
struct PASinkInputInfo: Sendable, Hashable {
    var index: UInt32
    /// Owning client, nil for streams made by modules (loopback, …).
    var client: UInt32?
    var sink: UInt32
    var corked: Bool
    var muted: Bool
    var volume: PAVolume
    var channelMap: PAChannelMap
    /// `media.role`.
    var role: String?
    /// The restore database's key for the stream (`module-stream-restore.id`:
    /// PulseAudio's module-stream-restore writes it into the proplist,
    /// pipewire-pulse synthesizes it), `nil` when the server names none.
    var restoreKey: String?
    /// `application.name`, `application.process.id` and `media.name`: who
    /// the stream belongs to, to recognise it again by index after a crash
    /// (pipewire-pulse reuses indices).
    var applicationName: String?
    var processID: String?
    var mediaName: String?

    init(_ info: UnsafePointer<pa_sink_input_info>) {
        let i = info.pointee
        index = i.index
        client = i.client == paInvalidIndex ? nil : i.client
        sink = i.sink
        corked = i.corked != 0
        muted = i.mute != 0
        volume = PAVolume(i.volume)
        channelMap = PAChannelMap(i.channel_map)
        role = PAProplist.string(i.proplist, PAStreamProperty.mediaRole)
        restoreKey = PAProplist.string(i.proplist, PAStreamProperty.restoreID)
        applicationName = PAProplist.string(i.proplist, PAStreamProperty.applicationName)
        processID = PAProplist.string(i.proplist, PAStreamProperty.processID)
        mediaName = PAProplist.string(i.proplist, PAStreamProperty.mediaName)
    }
}

/// A `pa_source_output_info`, copied (the fields the model reads).
struct PASourceOutputInfo: Sendable, Hashable {
    var index: UInt32
    var client: UInt32?
    var source: UInt32

    init(_ info: UnsafePointer<pa_source_output_info>) {
        let i = info.pointee
        index = i.index
        client = i.client == paInvalidIndex ? nil : i.client
        source = i.source
    }
}

/// A `pa_card_info`, copied (index and name: the accessory of its devices).
struct PACardInfo: Sendable, Hashable {
    var index: UInt32
    var name: String

    init(_ info: UnsafePointer<pa_card_info>) {
        index = info.pointee.index
        name = info.pointee.name.map { String(cString: $0) } ?? ""
    }
}

/// A `pa_module_info`, copied (the name: which modules are loaded).
struct PAModuleInfo: Sendable, Hashable {
    var index: UInt32
    var name: String

    init(_ info: UnsafePointer<pa_module_info>) {
        index = info.pointee.index
        name = info.pointee.name.map { String(cString: $0) } ?? ""
    }
}

/// A `pa_server_info`, copied (the fields SoundEngine reads).
struct PAServerInfo: Sendable, Hashable {
    var serverName: String
    var serverVersion: String
    var defaultSink: String?
    var defaultSource: String?
    /// `pa_server_info.cookie`: a random number for this instance of the
    /// server (PulseAudio and pipewire-pulse both set one). A journal names
    /// the instance whose streams it changed: another instance has other streams.
    var cookie: UInt32

    init(_ info: UnsafePointer<pa_server_info>) {
        let i = info.pointee
        serverName = i.server_name.map { String(cString: $0) } ?? "unknown"
        serverVersion = i.server_version.map { String(cString: $0) } ?? "unknown"
        // NULL with no devices and on some pipewire-pulse versions (pitfall 8).
        defaultSink = i.default_sink_name.map { String(cString: $0) }
        defaultSource = i.default_source_name.map { String(cString: $0) }
        cookie = i.cookie
    }

    /// A description made up (tests).
    init(serverName: String, serverVersion: String = "", cookie: UInt32 = 0) {
        self.serverName = serverName
        self.serverVersion = serverVersion
        self.cookie = cookie
    }

    /// Whether the server is PipeWire's pipewire-pulse (`PulseAudio (on PipeWire …)`).
    var isPipeWire: Bool { serverName.contains("PipeWire") }
}

extension PAProplist {
    /// Every key of a `pa_proplist` with a string value (`pa_proplist_iterate`, `pa_proplist_gets`).
    static func dictionary(_ raw: OpaquePointer?) -> [String: String] {
        guard let raw else { return [:] }
        var result: [String: String] = [:]
        var state: UnsafeMutableRawPointer? = nil
        while let key = pa_proplist_iterate(raw, &state) {
            if let value = pa_proplist_gets(raw, key) { result[String(cString: key)] = String(cString: value) }
        }
        return result
    }
}

// MARK: - Requests

/// A request whose callbacks libpulse will call with this object as userdata.
class PARequest {
    /// The operation libpulse returned, unref'd by the final callback's owner.
    var operation: PAOperation?
    /// Set once the final callback ran.
    var isDone = false
    /// Called once after the final callback's handler (the owner's clean-up), then cleared.
    var onFinish: (() -> Void)?

    func finish() {
        let f = onFinish
        onFinish = nil
        f?()
    }

    var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

/// A list (or by-index) query: `onItem` per entry, then `onEnd` once
/// (true: the list is complete; false: the server answered with an error,
/// e.g. the object is gone).
final class PAListRequest<Info>: PARequest {
    let onItem: (Info) -> Void
    let onEnd: (Bool) -> Void

    init(onItem: @escaping (Info) -> Void, onEnd: @escaping (Bool) -> Void) {
        self.onItem = onItem
        self.onEnd = onEnd
    }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> PAListRequest<Info>? {
        userdata.map { Unmanaged<PAListRequest<Info>>.fromOpaque($0).takeUnretainedValue() }
    }

    func deliver(_ info: Info?, eol: Int32) {
        guard !isDone else { return }
        if eol != 0 {
            isDone = true
            onEnd(eol > 0)
            finish()
        } else if let info {
            onItem(info)
        }
    }
}

/// A control call answered with success or failure. `onDone(success, error)`
/// gets `pa_context_errno` in words when the server refused, and whether the
/// refusal was `PA_ERR_NOENTITY` (the object is gone).
final class PASuccessRequest: PARequest {
    let onDone: (_ success: Bool, _ error: String, _ noEntity: Bool) -> Void

    init(_ onDone: @escaping (_ success: Bool, _ error: String, _ noEntity: Bool) -> Void) {
        self.onDone = onDone
    }
}

/// The subscription's receiver: `handler(facility, kind, index)`.
final class PASubscriber {
    let handler: (PASubscriptionFacility, PASubscriptionKind, UInt32) -> Void
    init(_ handler: @escaping (PASubscriptionFacility, PASubscriptionKind, UInt32) -> Void) { self.handler = handler }
}

/// A one-shot timer's receiver; `event` is the libpulse time event while armed.
final class PATimerBox {
    let fire: () -> Void
    var event: OpaquePointer?
    init(_ fire: @escaping () -> Void) { self.fire = fire }
}

/// `PA_SUBSCRIPTION_EVENT_FACILITY_MASK` values.
enum PASubscriptionFacility: Sendable {
    case sink, source, sinkInput, sourceOutput, module, client, sampleCache, server, card, other
}

/// `PA_SUBSCRIPTION_EVENT_TYPE_MASK` values.
enum PASubscriptionKind: Sendable {
    case new, change, remove
}

// MARK: - Context calls

extension PAContext {
    /// `pa_context_set_subscribe_callback`; nil removes it. `subscriber` must outlive the subscription.
    func setSubscriber(_ subscriber: PASubscriber?) {
        if let subscriber {
            pa_context_set_subscribe_callback(raw, subscribeCallback, Unmanaged.passUnretained(subscriber).toOpaque())
        } else {
            pa_context_set_subscribe_callback(raw, nil, nil)
        }
    }

    /// `pa_context_subscribe` to sink, source, sink-input, source-output, card,
    /// server, client and module events.
    func subscribeAll(_ request: PASuccessRequest) -> PAOperation? {
        let mask = PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SOURCE.rawValue
            | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue | PA_SUBSCRIPTION_MASK_SOURCE_OUTPUT.rawValue
            | PA_SUBSCRIPTION_MASK_CARD.rawValue | PA_SUBSCRIPTION_MASK_SERVER.rawValue
            | PA_SUBSCRIPTION_MASK_CLIENT.rawValue | PA_SUBSCRIPTION_MASK_MODULE.rawValue
        return pa_context_subscribe(raw, pa_subscription_mask_t(rawValue: mask), successCallback, request.userdata)
            .map(PAOperation.init)
    }

    /// `pa_context_get_server_info`, delivered as one item (none on failure) then the end.
    func getServerInfo(_ request: PAListRequest<PAServerInfo>) -> PAOperation? {
        pa_context_get_server_info(raw, serverInfoCallback, request.userdata).map(PAOperation.init)
    }

    /// `pa_context_get_sink_info_list`, or `pa_context_get_sink_info_by_index` when `index` is given.
    func getSinks(_ index: UInt32? = nil, _ request: PAListRequest<PADeviceInfo>) -> PAOperation? {
        let op = if let index {
            pa_context_get_sink_info_by_index(raw, index, sinkInfoCallback, request.userdata)
        } else {
            pa_context_get_sink_info_list(raw, sinkInfoCallback, request.userdata)
        }
        return op.map(PAOperation.init)
    }

    /// `pa_context_get_source_info_list`, or `pa_context_get_source_info_by_index`.
    func getSources(_ index: UInt32? = nil, _ request: PAListRequest<PADeviceInfo>) -> PAOperation? {
        let op = if let index {
            pa_context_get_source_info_by_index(raw, index, sourceInfoCallback, request.userdata)
        } else {
            pa_context_get_source_info_list(raw, sourceInfoCallback, request.userdata)
        }
        return op.map(PAOperation.init)
    }

    /// `pa_context_get_sink_input_info_list`, or `pa_context_get_sink_input_info`.
    func getSinkInputs(_ index: UInt32? = nil, _ request: PAListRequest<PASinkInputInfo>) -> PAOperation? {
        let op = if let index {
            pa_context_get_sink_input_info(raw, index, sinkInputInfoCallback, request.userdata)
        } else {
            pa_context_get_sink_input_info_list(raw, sinkInputInfoCallback, request.userdata)
        }
        return op.map(PAOperation.init)
    }

    /// `pa_context_get_source_output_info`.
    func getSourceOutput(_ index: UInt32, _ request: PAListRequest<PASourceOutputInfo>) -> PAOperation? {
        pa_context_get_source_output_info(raw, index, sourceOutputInfoCallback, request.userdata).map(PAOperation.init)
    }

    /// `pa_context_get_card_info_list`, or `pa_context_get_card_info_by_index`.
    func getCards(_ index: UInt32? = nil, _ request: PAListRequest<PACardInfo>) -> PAOperation? {
        let op = if let index {
            pa_context_get_card_info_by_index(raw, index, cardInfoCallback, request.userdata)
        } else {
            pa_context_get_card_info_list(raw, cardInfoCallback, request.userdata)
        }
        return op.map(PAOperation.init)
    }

    /// `pa_context_get_module_info_list`.
    func getModules(_ request: PAListRequest<PAModuleInfo>) -> PAOperation? {
        pa_context_get_module_info_list(raw, moduleInfoCallback, request.userdata).map(PAOperation.init)
    }

    /// `pa_context_move_sink_input_by_name`.
    func moveSinkInput(_ index: UInt32, toSink sink: String, _ request: PASuccessRequest) -> PAOperation? {
        pa_context_move_sink_input_by_name(raw, index, sink, successCallback, request.userdata).map(PAOperation.init)
    }

    /// `pa_context_set_sink_port_by_name`.
    func setSinkPort(_ sink: String, port: String, _ request: PASuccessRequest) -> PAOperation? {
        pa_context_set_sink_port_by_name(raw, sink, port, successCallback, request.userdata).map(PAOperation.init)
    }

    /// `pa_context_move_source_output_by_name`.
    func moveSourceOutput(_ index: UInt32, toSource source: String, _ request: PASuccessRequest) -> PAOperation? {
        pa_context_move_source_output_by_name(raw, index, source, successCallback, request.userdata).map(PAOperation.init)
    }

    /// `pa_context_set_source_port_by_name`.
    func setSourcePort(_ source: String, port: String, _ request: PASuccessRequest) -> PAOperation? {
        pa_context_set_source_port_by_name(raw, source, port, successCallback, request.userdata).map(PAOperation.init)
    }

    /// `pa_context_set_sink_input_mute`.
    func setSinkInputMute(_ index: UInt32, _ muted: Bool, _ request: PASuccessRequest) -> PAOperation? {
        pa_context_set_sink_input_mute(raw, index, muted ? 1 : 0, successCallback, request.userdata).map(PAOperation.init)
    }

    /// `pa_context_set_sink_input_volume`.
    func setSinkInputVolume(_ index: UInt32, _ volume: PAVolume, _ request: PASuccessRequest) -> PAOperation? {
        var v = volume.raw
        return pa_context_set_sink_input_volume(raw, index, &v, successCallback, request.userdata).map(PAOperation.init)
    }

    /// Arms a one-shot timer (`pa_context_rttime_new`) `microseconds` from now
    /// that calls `box.fire` once; `box.event` is set while it is armed. The
    /// box must stay alive until it fired or ``cancelTimer(_:mainloop:)`` ran.
    func arm(_ box: PATimerBox, after microseconds: UInt64) {
        box.event = timer(after: microseconds, timerBoxCallback, Unmanaged.passUnretained(box).toOpaque())
    }

    /// Frees an armed timer (the loop API's `time_free`) so it never fires.
    static func cancelTimer(_ box: PATimerBox, mainloop: PAMainloop) {
        if let event = box.event { freeTimer(event, mainloop: mainloop) }
        box.event = nil
    }
}

// MARK: - C callbacks (mainloop thread)

private func subscribeCallback(
    _ context: OpaquePointer?, _ type: pa_subscription_event_type_t, _ index: UInt32, _ userdata: UnsafeMutableRawPointer?
) {
    guard let userdata else { return }
    let subscriber = Unmanaged<PASubscriber>.fromOpaque(userdata).takeUnretainedValue()
    let facility: PASubscriptionFacility
    switch type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue {
    case PA_SUBSCRIPTION_EVENT_SINK.rawValue: facility = .sink
    case PA_SUBSCRIPTION_EVENT_SOURCE.rawValue: facility = .source
    case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue: facility = .sinkInput
    case PA_SUBSCRIPTION_EVENT_SOURCE_OUTPUT.rawValue: facility = .sourceOutput
    case PA_SUBSCRIPTION_EVENT_MODULE.rawValue: facility = .module
    case PA_SUBSCRIPTION_EVENT_CLIENT.rawValue: facility = .client
    case PA_SUBSCRIPTION_EVENT_SAMPLE_CACHE.rawValue: facility = .sampleCache
    case PA_SUBSCRIPTION_EVENT_SERVER.rawValue: facility = .server
    case PA_SUBSCRIPTION_EVENT_CARD.rawValue: facility = .card
    default: facility = .other
    }
    let kind: PASubscriptionKind
    switch type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue {
    case PA_SUBSCRIPTION_EVENT_NEW.rawValue: kind = .new
    case PA_SUBSCRIPTION_EVENT_REMOVE.rawValue: kind = .remove
    default: kind = .change
    }
    subscriber.handler(facility, kind, index)
}

func successCallback(_ context: OpaquePointer?, _ success: Int32, _ userdata: UnsafeMutableRawPointer?) {
    guard let userdata else { return }
    let request = Unmanaged<PASuccessRequest>.fromOpaque(userdata).takeUnretainedValue()
    guard !request.isDone else { return }
    request.isDone = true
    if success != 0 {
        request.onDone(true, "", false)
    } else {
        let code = context.map { pa_context_errno($0) } ?? 0
        let words = String(cString: pa_strerror(code))
        request.onDone(false, words, code == Int32(PA_ERR_NOENTITY.rawValue))
    }
    request.finish()
}

private func serverInfoCallback(
    _ context: OpaquePointer?, _ info: UnsafePointer<pa_server_info>?, _ userdata: UnsafeMutableRawPointer?
) {
    guard let request = PAListRequest<PAServerInfo>.from(userdata) else { return }
    if let info { request.deliver(PAServerInfo(info), eol: 0) }
    request.deliver(nil, eol: info == nil ? -1 : 1)
}

private func sinkInfoCallback(
    _ context: OpaquePointer?, _ info: UnsafePointer<pa_sink_info>?, _ eol: Int32, _ userdata: UnsafeMutableRawPointer?
) {
    PAListRequest<PADeviceInfo>.from(userdata)?.deliver(info.map(PADeviceInfo.init(sink:)), eol: eol)
}

private func sourceInfoCallback(
    _ context: OpaquePointer?, _ info: UnsafePointer<pa_source_info>?, _ eol: Int32, _ userdata: UnsafeMutableRawPointer?
) {
    PAListRequest<PADeviceInfo>.from(userdata)?.deliver(info.map(PADeviceInfo.init(source:)), eol: eol)
}

private func sinkInputInfoCallback(
    _ context: OpaquePointer?, _ info: UnsafePointer<pa_sink_input_info>?, _ eol: Int32, _ userdata: UnsafeMutableRawPointer?
) {
    PAListRequest<PASinkInputInfo>.from(userdata)?.deliver(info.map(PASinkInputInfo.init), eol: eol)
}

private func sourceOutputInfoCallback(
    _ context: OpaquePointer?, _ info: UnsafePointer<pa_source_output_info>?, _ eol: Int32, _ userdata: UnsafeMutableRawPointer?
) {
    PAListRequest<PASourceOutputInfo>.from(userdata)?.deliver(info.map(PASourceOutputInfo.init), eol: eol)
}

private func cardInfoCallback(
    _ context: OpaquePointer?, _ info: UnsafePointer<pa_card_info>?, _ eol: Int32, _ userdata: UnsafeMutableRawPointer?
) {
    PAListRequest<PACardInfo>.from(userdata)?.deliver(info.map(PACardInfo.init), eol: eol)
}

private func moduleInfoCallback(
    _ context: OpaquePointer?, _ info: UnsafePointer<pa_module_info>?, _ eol: Int32, _ userdata: UnsafeMutableRawPointer?
) {
    PAListRequest<PAModuleInfo>.from(userdata)?.deliver(info.map(PAModuleInfo.init), eol: eol)
}

private func timerBoxCallback(
    _ api: UnsafeMutablePointer<pa_mainloop_api>?, _ event: OpaquePointer?, _ tv: UnsafePointer<timeval>?,
    _ userdata: UnsafeMutableRawPointer?
) {
    guard let userdata else { return }
    let box = Unmanaged<PATimerBox>.fromOpaque(userdata).takeUnretainedValue()
    // One-shot: free the event here (allowed from its own callback), then fire.
    if let event, let api { api.pointee.time_free(event) }
    box.event = nil
    box.fire()
}
