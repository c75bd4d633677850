public import SoundCore
package import SoundSession

/// What the server is, as the backend found it when it connected.
package struct ServerDescription: Sendable, Hashable {
    /// Server product string, e.g. "pulseaudio" or "PulseAudio (on PipeWire 0.3.65)".
    package var serverName: String
    /// Server version string.
    package var serverVersion: String
    /// What the server has: devices, defaults, other clients' streams, our client index.
    package var snapshot: SystemSnapshot
    /// Whether `filter.want=echo-cancel` is honoured (see ``GrantedStream/echoCancellationAvailable``).
    package var echoCancellationAvailable: Bool

    /// Describes a server.
    package init(serverName: String, serverVersion: String, snapshot: SystemSnapshot, echoCancellationAvailable: Bool = false) {
        self.serverName = serverName
        self.serverVersion = serverVersion
        self.snapshot = snapshot
        self.echoCancellationAvailable = echoCancellationAvailable
    }
}

/// What the server actually granted when the stream was created.
public struct GrantedStream: Sendable, Hashable, Codable {
    /// The format the render entry must produce.
    public var format: StreamFormat
    /// Buffer sizes in frames, as the server set them (`pa_stream_get_buffer_attr`).
    public var buffer: BufferAttributes
    /// Server product string, e.g. "pulseaudio" or "PulseAudio (on PipeWire 0.3.65)".
    public var serverName: String
    /// Server version string.
    public var serverVersion: String
    /// Name of the device (sink) the stream plays to.
    public var deviceName: String
    /// The `SCHED_RR` priority the real-time thread runs at, or `nil` when it
    /// runs at normal priority (none asked, or the system refused).
    public var realtimePriority: Int32?
    /// What the server had when the stream was created: devices, defaults,
    /// other clients' streams, our client index.
    package var snapshot: SystemSnapshot
    /// Whether the server can put echo cancellation on our streams when
    /// `filter.want=echo-cancel` asks for it (PulseAudio with
    /// module-filter-heuristics and module-filter-apply loaded). pipewire-pulse
    /// ignores the property: `false` there.
    public var echoCancellationAvailable: Bool

    /// Describes a granted stream.
    package init(
        format: StreamFormat, buffer: BufferAttributes, serverName: String, serverVersion: String, deviceName: String,
        realtimePriority: Int32? = nil, snapshot: SystemSnapshot = SystemSnapshot(),
        echoCancellationAvailable: Bool = false
    ) {
        self.snapshot = snapshot
        self.echoCancellationAvailable = echoCancellationAvailable
        self.format = format
        self.buffer = buffer
        self.serverName = serverName
        self.serverVersion = serverVersion
        self.deviceName = deviceName
        self.realtimePriority = realtimePriority
    }

    /// Describes the stream the server granted on `server`.
    package init(
        server: ServerDescription, format: StreamFormat, buffer: BufferAttributes, deviceName: String,
        realtimePriority: Int32? = nil
    ) {
        self.init(
            format: format, buffer: buffer, serverName: server.serverName, serverVersion: server.serverVersion,
            deviceName: deviceName, realtimePriority: realtimePriority, snapshot: server.snapshot,
            echoCancellationAvailable: server.echoCancellationAvailable)
    }

    /// Whether the server is PipeWire's PulseAudio implementation (no cork requests, no filter modules).
    public var isPipeWire: Bool { serverName.contains("PipeWire") }
}

/// Playback buffer attributes in frames (PulseAudio's `pa_buffer_attr`).
public struct BufferAttributes: Sendable, Hashable, Codable {
    /// Largest the buffer may grow (`maxlength`).
    public var maxLength: Int
    /// Target fill level (`tlength`).
    public var targetLength: Int
    /// Fill level before playback starts (`prebuf`).
    public var prebuffer: Int
    /// Smallest request the server makes (`minreq`).
    public var minimumRequest: Int

    /// Creates attributes.
    package init(maxLength: Int, targetLength: Int, prebuffer: Int, minimumRequest: Int) {
        self.maxLength = maxLength
        self.targetLength = targetLength
        self.prebuffer = prebuffer
        self.minimumRequest = minimumRequest
    }
}
