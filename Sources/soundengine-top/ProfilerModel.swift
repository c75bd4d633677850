/// What the tool knows about the attached game: the latest of each picture
/// the link sends, the recent history of the performance figures (for the
/// sparklines) and the notifications so far (the event log).
///
/// A value: `apply` is the only way in, so a recording replayed through it
/// shows exactly what the live session showed.
struct ProfilerModel: Sendable {
    typealias Message = ProfilerMessage

    /// How many performance samples the sparklines keep.
    static let historyLength = 240
    /// How many notifications the event log keeps (the oldest go first).
    static let logLength = 1000

    var hello: Message.Hello?
    var session: Message.SessionInfo?
    var voices = Message.VoiceList(voices: [], active: 0, virtual: 0)
    var buses: [Message.BusInfo] = []
    var syncs = Message.Syncs()
    var performance = Message.Performance()
    /// Render CPU (`renderCPU.max`, a fraction) per sample, oldest first.
    var cpuHistory: [Double] = []
    /// Latency in ms per sample, oldest first.
    var latencyHistory: [Double] = []
    /// Active voices per sample, oldest first.
    var voiceHistory: [Double] = []
    var log: [Message.NotificationEntry] = []
    /// The newest `t` the link sent.
    var time = 0.0
    /// The last command result (shown in the status line).
    var lastResult: Message.CommandResult?
    /// Lines that did not decode, counted.
    var malformedLines = 0

    /// Decodes `line` and applies it; a line that does not decode is counted.
    mutating func apply(line: String) {
        guard let (time, message) = try? Message.decode(line) else {
            malformedLines += 1
            return
        }
        apply(message, time: time)
    }

    mutating func apply(_ message: Message, time: Double?) {
        if let time { self.time = max(self.time, time) }
        switch message {
        case .hello(let hello): self.hello = hello
        case .session(let session): self.session = session
        case .voices(let voices): self.voices = voices
        case .buses(let buses): self.buses = buses
        case .syncs(let syncs): self.syncs = syncs
        case .performance(let performance):
            self.performance = performance
            Self.append(performance.cpuMax, to: &cpuHistory)
            Self.append(performance.latencyMs, to: &latencyHistory)
            Self.append(Double(performance.voicesActive), to: &voiceHistory)
        case .notification(let entry):
            log.append(entry)
            if log.count > Self.logLength { log.removeFirst(log.count - Self.logLength) }
        case .result(let result): lastResult = result
        case .unknown: break
        }
    }

    private static func append(_ value: Double, to history: inout [Double]) {
        history.append(value)
        if history.count > historyLength { history.removeFirst(history.count - historyLength) }
    }
}
