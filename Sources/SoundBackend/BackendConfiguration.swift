package import SoundCore
package import SoundSession

/// What the engine asks of a backend when it opens the output.
package struct BackendConfiguration: Sendable, Hashable {
    /// Server to connect to. `nil` uses the environment (`PULSE_SERVER`) and
    /// then the per-user default.
    package var serverAddress: String?
    /// The client name the server and mixers show (`application.name`).
    package var applicationName: String
    /// Reverse-DNS application ID (`application.id`), optional.
    package var applicationID: String?
    /// Name of the playback stream (`media.name`).
    package var streamName: String
    /// The format requested; the server may grant another (see ``GrantedStream``).
    package var format: StreamFormat
    /// Whether the playback stream takes the channel count of the device it
    /// is created on (1…8; a device of more gets 8) instead of `format`'s,
    /// so the mix is in the device's layout (docs/mixer.md, "Surround").
    /// Decided at each creation (open, a session change, a reconnect); a
    /// stream moved to a device of another layout keeps its own, and the
    /// server converts.
    package var followDeviceChannels = false
    /// Requested buffering.
    package var latency: LatencyRequest
    /// What the policy chose for our streams (role, echo cancellation); the
    /// first ``ServerAction/setStreamProperties(_:)`` replaces it, and
    /// reconnects and recoveries re-create the streams with the latest.
    package var streamProperties: StreamProperties
    /// Where the engine records what it changes on other applications'
    /// streams before it changes them, so a crash can be repaired (docs/pulseaudio.md,
    /// "Nothing left behind"): `nil` for the default, `$XDG_RUNTIME_DIR/soundengine`.
    package var journalDirectory: String?
    /// Whether a guardian process is started (with the first change to
    /// another application's stream) that repairs them when the game dies.
    package var guardianProcess: Bool = true
    /// How long `open` waits for the server before failing with `deviceNotReady`.
    package var connectTimeout: Duration
    /// `SCHED_RR` priority for the backend's real-time thread, or `nil` to
    /// leave it at normal priority. Refusal (no privilege, no rtkit) is not an
    /// error: ``GrantedStream/realtimePriority`` says what was granted.
    package var realtimePriority: Int32?
    /// Channels of the capture stream (record and playAndRecord), 1…8.
    package var captureChannels: Int = 1
    /// How long a reconnect attempt after a lost server waits for an answer;
    /// attempts repeat with back-off (50 ms doubling to 250 ms) until
    /// `close`.
    package var reconnectTimeout: Duration = .seconds(1)

    /// Creates a configuration. Defaults: stereo float32 at 48 kHz, the
    /// default 20 ms latency, a 3 s connect timeout.
    package init(
        serverAddress: String? = nil,
        applicationName: String,
        applicationID: String? = nil,
        streamName: String = "SoundEngine",
        format: StreamFormat = StreamFormat(sampleRate: 48_000, channelCount: 2, sampleFormat: .float32),
        latency: LatencyRequest = .default,
        streamProperties: StreamProperties = StreamProperties(mediaRole: .game, echoCancellation: false),
        connectTimeout: Duration = .seconds(3),
        realtimePriority: Int32? = nil
    ) {
        self.serverAddress = serverAddress
        self.applicationName = applicationName
        self.applicationID = applicationID
        self.streamName = streamName
        self.format = format
        self.latency = latency
        self.streamProperties = streamProperties
        self.connectTimeout = connectTimeout
        self.realtimePriority = realtimePriority
    }
}

/// Requested buffering of the playback stream, in frames at the stream rate.
///
/// Maps to PulseAudio's `pa_buffer_attr`: `targetFrames` is `tlength`,
/// `requestFrames` is `minreq`. A request shorter than pipewire-pulse's own
/// floor (256 frames at 48 kHz) also lowers that floor for our client
/// (`pulse.min.req`, `pulse.min.quantum`), so pipewire-pulse grants it and
/// runs its graph at that quantum. See docs/pulseaudio.md for why the
/// defaults are what they are and for the floors a user's server keeps.
///
/// The rule (`PlatformInitSettings.validate()` refuses anything else with
/// `invalidParameter`), for the 48 kHz values a game gives:
/// - `requestFrames` is a power of two in ``requestFramesRange`` (64…8192,
///   1.3…171 ms): pipewire-pulse crackles with quanta that are not powers
///   of two;
/// - `targetFrames` is a whole number of requests, at least two, and at
///   most ``maximumTargetFrames`` (24000, 500 ms).
///
/// At another rate ``scaled(toSampleRate:)`` keeps both properties.
public struct LatencyRequest: Sendable, Hashable, Codable {
    /// Total audio buffered between us and the speaker (`tlength`).
    public var targetFrames: Int
    /// How much the server asks for at a time (`minreq`).
    public var requestFrames: Int

    /// Creates a request.
    public init(targetFrames: Int, requestFrames: Int) {
        self.targetFrames = targetFrames
        self.requestFrames = requestFrames
    }

    /// About 20 ms at 48 kHz: 1024-frame target, 256-frame requests.
    public static let `default` = LatencyRequest(targetFrames: 1024, requestFrames: 256)
    /// About 10 ms at 48 kHz: opt-in; costs server CPU (on pipewire-pulse a
    /// 128-frame graph quantum for every stream on the device).
    public static let low = LatencyRequest(targetFrames: 512, requestFrames: 128)

    /// The `requestFrames` allowed (at 48 kHz), each also a power of two.
    public static let requestFramesRange = 64...8192
    /// The largest `targetFrames` allowed (at 48 kHz): 500 ms.
    public static let maximumTargetFrames = 24_000

    /// Why this (48 kHz) request breaks the rule above, naming the field and
    /// its value; `nil` when it keeps it. `PlatformInitSettings.validate()` uses it.
    package var problem: String? {
        let range = Self.requestFramesRange
        guard range.contains(requestFrames), requestFrames & (requestFrames - 1) == 0 else {
            return "requestFrames = \(requestFrames): must be a power of two between \(range.lowerBound) and "
                + "\(range.upperBound) (frames at 48 kHz)"
        }
        guard targetFrames >= 2 * requestFrames, targetFrames % requestFrames == 0 else {
            return "targetFrames = \(targetFrames): must be a whole number of requests (requestFrames = "
                + "\(requestFrames)), at least two"
        }
        guard targetFrames <= Self.maximumTargetFrames else {
            return "targetFrames = \(targetFrames): must be at most \(Self.maximumTargetFrames) (500 ms at 48 kHz)"
        }
        return nil
    }

    /// Scales a 48 kHz request to another rate, keeping about the same
    /// duration and the rule's shape: the request becomes the power of two
    /// nearest to `requestFrames × rate / 48000` (a tie goes up), the target
    /// the whole number of those requests nearest to its own duration, at
    /// least two. At 44.1 kHz the default stays 1024 / 256 (23 ms / 5.8 ms);
    /// at 96 kHz it is 2048 / 512.
    package func scaled(toSampleRate rate: Int) -> LatencyRequest {
        // Clamped so that nothing overflows (validated requests are far inside).
        let bound = 1...(1 << 24)
        let rate = rate.clamped(to: bound), target = targetFrames.clamped(to: bound)
        // Exact: the request is `exact / 48000` frames; compared in integers.
        let exact = requestFrames.clamped(to: bound) * rate
        var lower = 1
        while lower * 2 * 48_000 <= exact { lower *= 2 }
        let nearerUpper = exact >= lower * 48_000 && exact - lower * 48_000 >= lower * 2 * 48_000 - exact
        let request = nearerUpper ? lower * 2 : lower
        let perRequest = 48_000 * request
        let requests = (target * rate + perRequest / 2) / perRequest
        return LatencyRequest(targetFrames: max(2, requests) * request, requestFrames: request)
    }
}

extension Int {
    fileprivate func clamped(to range: ClosedRange<Int>) -> Int { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
