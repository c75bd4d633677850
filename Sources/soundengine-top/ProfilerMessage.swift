/// One message from the engine's profiling link (docs/profiling.md, "From
/// the engine"), decoded into what the tool shows. Fields the tool does not
/// know are ignored; missing ones take neutral values, so a newer or older
/// engine still shows what it can.
enum ProfilerMessage: Equatable, Sendable {
    case hello(Hello)
    case session(SessionInfo)
    case voices(VoiceList)
    case buses([BusInfo])
    case syncs(Syncs)
    case performance(Performance)
    case notification(NotificationEntry)
    case result(CommandResult)
    /// A type this tool does not know (a newer engine's).
    case unknown(String)

    struct Hello: Equatable, Sendable {
        var protocolVersion: Int
        var pid: Int
        var program: String
        var engine: String
        var sampleRate: Int
        var channels: Int
        var samplesPerFrame: Int
        var rate: Int
        var edits: Bool
    }

    struct Port: Equatable, Sendable {
        var type: String
        var name: String
        var uid: String
    }

    struct SessionInfo: Equatable, Sendable {
        var category = ""
        var options: [String] = []
        var mode = ""
        var active = false
        var interrupted = false
        var interruptionReason: String?
        var otherAudioPlaying = false
        var secondaryAudioShouldBeSilenced = false
        var engineState = ""
        var outputs: [Port] = []
        var inputs: [Port] = []
    }

    struct Voice: Equatable, Sendable {
        var playingID: Int
        var event: String?
        var gameObject: String?
        var sound: String
        var bus: String
        var position: [Double]?
        var gain: Double
        var audibleDB: Double?
        var isVirtual: Bool
        var state: String
        /// What the game's content asked for (volume, attenuation, ducking), linear;
        /// `gain` is what the mixer applied in the last quantum.
        var volume: Double? = nil
    }

    struct VoiceList: Equatable, Sendable {
        var voices: [Voice]
        var active: Int
        var virtual: Int
    }

    struct BusInfo: Equatable, Sendable {
        var id: String
        var name: String
        var parent: String?
        var volume: Double
        var muted: Bool
        var solo: Bool
        var peak: [Double]
        var rms: [Double]
    }

    struct Syncs: Equatable, Sendable {
        struct RTPC: Equatable, Sendable {
            var name: String
            var gameObject: String?
            var value: Double
        }
        struct State: Equatable, Sendable {
            var group: String
            var state: String
        }
        struct Switch: Equatable, Sendable {
            var group: String
            var gameObject: String?
            var value: String
        }
        var rtpcs: [RTPC] = []
        var states: [State] = []
        var switches: [Switch] = []
    }

    struct Performance: Equatable, Sendable {
        var quanta = 0
        var cpuLast = 0.0
        var cpuMean = 0.0
        var cpuMax = 0.0
        var latencyMs = 0.0
        var underflows = 0
        var starvations = 0
        var voicesActive = 0
        var voicesVirtual = 0
        var commandsRejected = 0
        var dropped = 0
    }

    struct NotificationEntry: Equatable, Sendable {
        var time: Double
        var name: String
        /// The other fields, `key=value`, keys sorted.
        var details: [String]
    }

    struct CommandResult: Equatable, Sendable {
        var id: String?
        var ok: Bool
        var error: String?
        var code: String?
    }
}

extension ProfilerMessage {
    /// A line the link sent that is not a protocol message.
    struct DecodingFailure: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// Decodes one line; returns its time `t` (nil when absent) and the message.
    static func decode(_ line: String) throws -> (time: Double?, message: ProfilerMessage) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            throw DecodingFailure(description: "not JSON: \(line.prefix(80))")
        }
        guard let type = value["type"]?.string else { throw DecodingFailure(description: "no \"type\": \(line.prefix(80))") }
        return (value["t"]?.double, decode(type: type, value))
    }

    private static func decode(type: String, _ v: JSONValue) -> ProfilerMessage {
        switch type {
        case "hello":
            return .hello(
                Hello(
                    protocolVersion: v["protocol"]?.int ?? 0, pid: v["pid"]?.int ?? 0, program: v["program"]?.string ?? "?",
                    engine: v["engine"]?.string ?? "?", sampleRate: v["sampleRate"]?.int ?? 0, channels: v["channels"]?.int ?? 0,
                    samplesPerFrame: v["samplesPerFrame"]?.int ?? 0, rate: v["rate"]?.int ?? 0, edits: v["edits"]?.bool ?? false))
        case "session":
            let route = v["route"]
            return .session(
                SessionInfo(
                    category: v["category"]?.string ?? "", options: (v["options"]?.array ?? []).compactMap(\.label),
                    mode: v["mode"]?.string ?? "", active: v["active"]?.bool ?? false, interrupted: v["interrupted"]?.bool ?? false,
                    interruptionReason: v["interruptionReason"]?.string, otherAudioPlaying: v["otherAudioPlaying"]?.bool ?? false,
                    secondaryAudioShouldBeSilenced: v["secondaryAudioShouldBeSilenced"]?.bool ?? false,
                    engineState: v["engineState"]?.string ?? "", outputs: ports(route?["outputs"]), inputs: ports(route?["inputs"])))
        case "voices":
            let voices = (v["voices"]?.array ?? []).map(voice)
            return .voices(
                VoiceList(
                    voices: voices, active: v["active"]?.int ?? voices.filter { !$0.isVirtual }.count,
                    virtual: v["virtual"]?.int ?? voices.filter(\.isVirtual).count))
        case "buses":
            return .buses((v["buses"]?.array ?? []).map(bus))
        case "syncs":
            return .syncs(
                Syncs(
                    rtpcs: (v["rtpcs"]?.array ?? []).map {
                        .init(name: $0["name"]?.label ?? "?", gameObject: $0["gameObject"]?.label, value: $0["value"]?.double ?? .nan)
                    },
                    states: (v["states"]?.array ?? []).map { .init(group: $0["group"]?.label ?? "?", state: $0["state"]?.label ?? "?") },
                    switches: (v["switches"]?.array ?? []).map {
                        .init(group: $0["group"]?.label ?? "?", gameObject: $0["gameObject"]?.label, value: $0["switch"]?.label ?? "?")
                    }))
        case "performance":
            let cpu = v["renderCPU"]
            return .performance(
                Performance(
                    quanta: v["quanta"]?.int ?? 0, cpuLast: cpu?["last"]?.double ?? 0, cpuMean: cpu?["mean"]?.double ?? 0,
                    cpuMax: cpu?["max"]?.double ?? 0, latencyMs: v["latencyMs"]?.double ?? 0, underflows: v["underflows"]?.int ?? 0,
                    starvations: v["starvations"]?.int ?? 0, voicesActive: v["voicesActive"]?.int ?? 0,
                    voicesVirtual: v["voicesVirtual"]?.int ?? 0, commandsRejected: v["commandsRejected"]?.int ?? 0,
                    dropped: v["dropped"]?.int ?? 0))
        case "notification":
            var details: [String] = []
            if case .object(let object) = v {
                // What says why first (a route change's reason, an interruption's type), so a cut line keeps it.
                let keys = ["interruptionType", "hintType", "reason", "source", "state", "playing"].filter { object[$0] != nil }
                let rest = object.keys.sorted().filter { !["type", "t", "name"].contains($0) && !keys.contains($0) }
                for key in keys + rest { details.append("\(key)=\(object[key].map(detailText) ?? "")") }
            }
            return .notification(NotificationEntry(time: v["t"]?.double ?? 0, name: v["name"]?.string ?? "?", details: details))
        case "result":
            return .result(
                CommandResult(id: v["id"]?.label, ok: v["ok"]?.bool ?? false, error: v["error"]?.string, code: v["code"]?.string))
        default:
            return .unknown(type)
        }
    }

    /// A notification field as a person reads it: a route as its output ports' uids.
    private static func detailText(_ value: JSONValue) -> String {
        if let outputs = value["outputs"]?.array {
            return "[" + outputs.compactMap { $0["uid"]?.label ?? $0["portName"]?.label }.joined(separator: ",") + "]"
        }
        return value.label ?? "null"
    }

    private static func ports(_ value: JSONValue?) -> [Port] {
        (value?.array ?? []).map {
            Port(type: $0["portType"]?.label ?? "?", name: $0["portName"]?.label ?? "?", uid: $0["uid"]?.label ?? "?")
        }
    }

    private static func voice(_ v: JSONValue) -> Voice {
        Voice(
            playingID: v["playingID"]?.int ?? 0, event: v["event"]?.label, gameObject: v["gameObject"]?.label,
            sound: v["sound"]?.label ?? "?", bus: v["bus"]?.label ?? "?", position: v["position"]?.array?.compactMap(\.double),
            gain: v["gain"]?.double ?? 0, audibleDB: v["audibleDB"]?.double, isVirtual: v["virtual"]?.bool ?? false,
            state: v["state"]?.string ?? "?", volume: v["volume"]?.double)
    }

    private static func bus(_ v: JSONValue) -> BusInfo {
        BusInfo(
            id: v["id"]?.label ?? "?", name: v["name"]?.label ?? "?", parent: v["parent"]?.label, volume: v["volume"]?.double ?? 1,
            muted: v["muted"]?.bool ?? false, solo: v["solo"]?.bool ?? false, peak: (v["peak"]?.array ?? []).compactMap(\.double),
            rms: (v["rms"]?.array ?? []).compactMap(\.double))
    }
}
