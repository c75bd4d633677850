import Foundation
import SoundEngine

/// One line of the headless demo's output: a JSON object whose keys keep
/// their order ("t" and "event" first), so lines are easy to read and diff.
/// Every field is documented in docs/integration-demo.md.
struct JSONLine {
    private var fields: [(String, String)] = []

    init(t: Double, event: String) {
        add("t", number: (t * 1000).rounded() / 1000)
        add("event", string: event)
    }

    mutating func add(_ key: String, string: String) { fields.append((key, Self.quote(string))) }
    mutating func add(_ key: String, number: Double) { fields.append((key, String(format: "%.3f", number))) }
    mutating func add(_ key: String, int: Int) { fields.append((key, String(int))) }
    mutating func add(_ key: String, bool: Bool) { fields.append((key, bool ? "true" : "false")) }
    mutating func add(_ key: String, raw json: String) { fields.append((key, json)) }

    var text: String { "{" + fields.map { "\(Self.quote($0.0)):\($0.1)" }.joined(separator: ",") + "}" }

    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `{"portType":"Speaker","portName":"…","uid":"…"}`: one port, AVAudioSession's port-type string.
    static func port(_ p: AudioSession.PortDescription) -> String {
        "{\"portType\":\(quote(p.portType.rawValue)),\"portName\":\(quote(p.portName)),\"uid\":\(quote(p.uid))}"
    }

    /// `[port…]`.
    static func ports(_ list: [AudioSession.PortDescription]) -> String {
        "[" + list.map(port).joined(separator: ",") + "]"
    }

    /// `{"inputs":[…],"outputs":[…]}` with each port's type, name and uid.
    static func route(_ route: AudioSession.RouteDescription) -> String {
        "{\"inputs\":\(ports(route.inputs)),\"outputs\":\(ports(route.outputs))}"
    }

    /// The answer to one stdin command: `cmd` (null when the line had none),
    /// `id` (only when the line had one, as given), `ok`, and on failure
    /// `error` (in words) and `code` (a `SoundEngineError` case or `invalidCommand`).
    /// `extra` fields (e.g. postEvent's `playingID`) follow `ok` on success.
    static func result(
        cmd: String?, id: String?, failure: (error: String, code: String)?, extra: [(String, String)] = [], t: Double
    ) -> JSONLine {
        var line = JSONLine(t: t, event: "result")
        line.add("cmd", raw: cmd.map(quote) ?? "null")
        if let id { line.add("id", raw: id) }
        line.add("ok", bool: failure == nil)
        if failure == nil { line.fields += extra }
        if let failure {
            line.add("error", string: failure.error)
            line.add("code", string: failure.code)
        }
        return line
    }

    /// A `--post` event was posted: `name`, `playingID`, `gameObject`.
    static func posted(_ name: String, _ playing: SoundEngine.PlayingID, on object: SoundEngine.GameObjectID, t: Double) -> JSONLine {
        var line = JSONLine(t: t, event: "posted")
        line.add("name", string: name)
        line.add("playingID", int: Int(playing.rawValue))
        line.add("gameObject", raw: String(object.rawValue))
        return line
    }

    /// A voice of a posting crossed a bank marker (Wwise `AK_Marker`): the
    /// posting's `playingID`, the marker's `name` and its `sound`.
    static func marker(_ playing: SoundEngine.PlayingID, name: String, sound: String, t: Double) -> JSONLine {
        var line = JSONLine(t: t, event: "marker")
        line.add("playingID", int: Int(playing.rawValue))
        line.add("name", string: name)
        line.add("sound", string: sound)
        return line
    }

    /// A posting ended (Wwise `AK_EndOfEvent`): its `playingID` and the event's `name` as posted.
    static func endOfEvent(_ playing: SoundEngine.PlayingID, name: String, t: Double) -> JSONLine {
        var line = JSONLine(t: t, event: "endOfEvent")
        line.add("playingID", int: Int(playing.rawValue))
        line.add("name", string: name)
        return line
    }

    /// The `route` command's report: the session's routes and whether other audio plays.
    static func routeReport(_ session: AudioSession, t: Double) -> JSONLine {
        var line = JSONLine(t: t, event: "route")
        line.add("currentRoute", raw: route(session.currentRoute))
        line.add("availableOutputs", raw: ports(session.availableOutputs))
        line.add("availableInputs", raw: ports(session.availableInputs))
        line.add("otherAudioPlaying", bool: session.isOtherAudioPlaying)
        return line
    }

    /// The line for a session event.
    static func event(_ event: SessionEvent, t: Double) -> JSONLine {
        switch event {
        case .engineState(let status):
            var line = JSONLine(t: t, event: "engineState")
            line.add("state", string: status.name)
            if case .paused(let reason) = status { line.add("reason", string: reasonName(reason)) }
            return line
        case .interruption(let i):
            var line = JSONLine(t: t, event: "interruption")
            line.add("type", string: i.type == .began ? "began" : "ended")
            if i.type == .ended { line.add("shouldResume", bool: i.shouldResume) }
            if let reason = i.reason { line.add("reason", string: "\(reason)") }
            if let source = i.source { line.add("source", string: source.rawValue) }
            return line
        case .routeChange(let change):
            var line = JSONLine(t: t, event: "routeChange")
            line.add("reason", string: "\(change.reason)")
            line.add("previousRoute", raw: route(change.previousRoute))
            line.add("currentRoute", raw: route(change.currentRoute))
            return line
        case .otherAudioPlaying(let playing):
            var line = JSONLine(t: t, event: "otherAudioPlaying")
            line.add("playing", bool: playing)
            return line
        case .silenceSecondaryAudioHint(let type):
            var line = JSONLine(t: t, event: "silenceSecondaryAudioHint")
            line.add("type", string: type == .begin ? "begin" : "end")
            return line
        case .mediaServicesWereLost:
            return JSONLine(t: t, event: "mediaServicesWereLost")
        case .mediaServicesWereReset:
            return JSONLine(t: t, event: "mediaServicesWereReset")
        case .backgroundMusicMuted(let muted):
            var line = JSONLine(t: t, event: "backgroundMusicMuted")
            line.add("muted", bool: muted)
            return line
        }
    }

    static func reasonName(_ reason: SoundEngine.State.PauseReason) -> String {
        switch reason {
        case .notConnected: "notConnected"
        case .mediaServicesLost: "mediaServicesLost"
        case .sessionInactive: "sessionInactive"
        case .interrupted: "interrupted"
        case .appInBackground: "appInBackground"
        case .suspendedByGame(let renderAnyway): renderAnyway ? "suspendedRenderAnyway" : "suspended"
        }
    }
}
