import SoundEngine

/// One command of the headless demo's stdin protocol (SPEC 6.1,
/// docs/integration-demo.md), checked: every field has its type and value.
/// The names are a contract, like the event names.
enum DemoCommand: Sendable {
    case setActive(Bool, AudioSession.SetActiveOptions)
    /// `nil` keeps the current value.
    case setSession(category: AudioSession.Category?, options: AudioSession.CategoryOptions?, mode: AudioSession.Mode?)
    case overrideOutputAudioPort(AudioSession.PortOverride)
    /// `nil` returns to the default input.
    case setPreferredInput(uid: String?)
    case appState(SoundEngine.ApplicationState)
    /// The contract's `fadeOut` flag is checked but changes nothing: the
    /// engine always fades over one quantum (decision 0013).
    case suspend(renderAnyway: Bool)
    case wakeup
    /// `file` `nil` plays the bundled chime.
    case play(file: String?, loop: Bool, bus: DemoBus)
    case stopAll(fade: Duration)
    case muteBackgroundMusic(Bool)
    case route
    /// `gameObject` nil: the default game object (``DemoBanks/defaultGameObject``).
    case postEvent(event: String, gameObject: SoundEngine.GameObjectID?)
    case stopPlayingID(SoundEngine.PlayingID, fade: Duration)
    case setRTPC(name: String, value: Double, gameObject: SoundEngine.GameObjectID?, ramp: Duration)
    case setState(group: String, state: String)
    case setSwitch(group: String, value: String, gameObject: SoundEngine.GameObjectID?)
    case setPosition(SoundEngine.GameObjectID?, SoundEngine.Vector3)
    case registerGameObject(SoundEngine.GameObjectID, name: String?)
    case loadBank(file: String)
    case quit

    /// Every command and the fields it takes besides `cmd` and `id`, in the documented order.
    static let fields: KeyValuePairs<String, [String]> = [
        "setActive": ["active", "notifyOthersOnDeactivation"],
        "setSession": ["category", "options", "mode"],
        "overrideOutputAudioPort": ["port"],
        "setPreferredInput": ["uid"],
        "appState": ["state"],
        "suspend": ["renderAnyway", "fadeOut"],
        "wakeup": [],
        "play": ["file", "loop", "bus"],
        "stopAll": ["fadeOut"],
        "muteBackgroundMusic": ["mute"],
        "route": [],
        "postEvent": ["event", "gameObject"],
        "stopPlayingID": ["playingID", "fadeOut"],
        "setRTPC": ["name", "value", "gameObject", "interpolation"],
        "setState": ["group", "state"],
        "setSwitch": ["group", "value", "gameObject"],
        "setPosition": ["gameObject", "x", "y", "z"],
        "registerGameObject": ["gameObject", "name"],
        "loadBank": ["file"],
        "quit": [],
    ]
}

/// The two buses the headless demo creates under master at start.
enum DemoBus: String, Sendable, CaseIterable {
    /// Sound effects.
    case sfx
    /// Music, flagged "mute for background music".
    case music
}

/// A line the demo cannot act on: not JSON, no `cmd`, an unknown command or a
/// bad field. Its code in the result line is `invalidCommand`.
struct InvalidCommand: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A stdin line as far as it could be read: the command name and `id` (for
/// the result line, even when the rest is wrong) and the command or why not.
struct ReceivedCommand {
    /// `cmd` when the line had it as a string (even an unknown one).
    var cmd: String?
    /// The `id` as JSON text, when the line had a scalar `id`.
    var id: String?
    var command: Result<DemoCommand, InvalidCommand>

    init(parsing line: String) {
        cmd = nil
        id = nil
        command = .failure(InvalidCommand("unparsed"))
        do throws(InvalidCommand) {
            command = .success(try parse(line))
        } catch {
            command = .failure(error)
        }
    }

    private mutating func parse(_ line: String) throws(InvalidCommand) -> DemoCommand {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            throw InvalidCommand("not JSON: \(error)")
        }
        guard case .object(let pairs) = value else {
            throw InvalidCommand("a command is a JSON object like {\"cmd\":\"route\"}, not \(value.typeName)")
        }
        var seen: Set<String> = []
        for (key, _) in pairs where !seen.insert(key).inserted {
            throw InvalidCommand("field '\(key)' appears more than once")
        }
        let object = Dictionary(pairs.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        if let rawID = object["id"] {
            guard rawID.isScalar else {
                throw InvalidCommand("'id' must be a string, number, boolean or null, not \(rawID.typeName)")
            }
            id = rawID.json
        }
        guard let rawCmd = object["cmd"] else {
            throw InvalidCommand("missing field 'cmd' (the command name)")
        }
        guard case .string(let name) = rawCmd else {
            throw InvalidCommand("'cmd' must be a string, not \(rawCmd.typeName)")
        }
        cmd = name
        guard let allowed = DemoCommand.fields.first(where: { $0.key == name })?.value else {
            throw InvalidCommand(
                "unknown command '\(name)'; expected one of \(DemoCommand.fields.map(\.key).joined(separator: ", "))")
        }
        for key in object.keys.sorted() where key != "cmd" && key != "id" && !allowed.contains(key) {
            let expected = allowed.isEmpty ? "\(name) takes no fields" : "\(name) takes \(allowed.joined(separator: ", "))"
            throw InvalidCommand("unknown field '\(key)': \(expected)")
        }
        return try Fields(cmd: name, object: object).command()
    }
}

/// The fields of one command object, read with their types checked.
private struct Fields {
    let cmd: String
    let object: [String: JSONValue]

    func bad(_ key: String, _ expected: String, got value: JSONValue) -> InvalidCommand {
        InvalidCommand("\(cmd): '\(key)' must be \(expected), not \(value.typeName) \(value.json)")
    }

    func missing(_ key: String, _ expected: String) -> InvalidCommand {
        InvalidCommand("\(cmd): missing field '\(key)' (\(expected))")
    }

    func bool(_ key: String) throws(InvalidCommand) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let b) = value else { throw bad(key, "true or false", got: value) }
        return b
    }

    func requiredBool(_ key: String) throws(InvalidCommand) -> Bool {
        guard let b = try bool(key) else { throw missing(key, "true or false") }
        return b
    }

    func string(_ key: String, _ expected: String = "a string") throws(InvalidCommand) -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let s) = value else { throw bad(key, expected, got: value) }
        return s
    }

    /// A string that must be one of `choices`.
    func choice(_ key: String, _ choices: [String]) throws(InvalidCommand) -> String? {
        let expected = choices.map { "\"\($0)\"" }.joined(separator: " or ")
        guard let s = try string(key, expected) else { return nil }
        guard choices.contains(s) else { throw bad(key, expected, got: .string(s)) }
        return s
    }

    func requiredChoice(_ key: String, _ choices: [String]) throws(InvalidCommand) -> String {
        guard let s = try choice(key, choices) else {
            throw missing(key, choices.map { "\"\($0)\"" }.joined(separator: " or "))
        }
        return s
    }

    func command() throws(InvalidCommand) -> DemoCommand {
        switch cmd {
        case "setActive":
            let active = try requiredBool("active")
            let notify = try bool("notifyOthersOnDeactivation") ?? false
            return .setActive(active, notify ? .notifyOthersOnDeactivation : [])
        case "setSession":
            return .setSession(category: try category(), options: try options(), mode: try mode())
        case "overrideOutputAudioPort":
            return .overrideOutputAudioPort(try requiredChoice("port", ["speaker", "none"]) == "speaker" ? .speaker : .none)
        case "setPreferredInput":
            guard let value = object["uid"] else { throw missing("uid", "a port uid, or null for the default input") }
            switch value {
            case .null: return .setPreferredInput(uid: nil)
            case .string(let uid): return .setPreferredInput(uid: uid)
            default: throw bad("uid", "a port uid string or null", got: value)
            }
        case "appState":
            let state = try requiredChoice("state", ["background", "foreground"])
            return .appState(state == "background" ? .background : .foreground)
        case "suspend":
            _ = try bool("fadeOut")
            return .suspend(renderAnyway: try bool("renderAnyway") ?? false)
        case "wakeup":
            return .wakeup
        case "play":
            let bus = try choice("bus", DemoBus.allCases.map(\.rawValue)).flatMap(DemoBus.init(rawValue:)) ?? .sfx
            let file = try string("file", "a file path")
            if file?.isEmpty == true { throw InvalidCommand("play: 'file' is empty; omit it to play the chime") }
            return .play(file: file, loop: try bool("loop") ?? false, bus: bus)
        case "stopAll":
            return .stopAll(fade: try seconds("fadeOut") ?? .zero)
        case "muteBackgroundMusic":
            return .muteBackgroundMusic(try requiredBool("mute"))
        case "route":
            return .route
        case "postEvent":
            return .postEvent(event: try requiredString("event", "an event name"), gameObject: try gameObject())
        case "stopPlayingID":
            guard let value = object["playingID"] else { throw missing("playingID", "a playing ID from postEvent's result") }
            guard case .number(let text) = value, let id = UInt32(text) else {
                throw bad("playingID", "a playing ID (a whole number from 1 to 4294967295)", got: value)
            }
            return .stopPlayingID(SoundEngine.PlayingID(rawValue: UInt64(id)), fade: try seconds("fadeOut") ?? .zero)
        case "setRTPC":
            let name = try requiredString("name", "an RTPC name")
            guard let value = try number("value") else { throw missing("value", "a number") }
            return .setRTPC(name: name, value: value, gameObject: try gameObject(),
                            ramp: try seconds("interpolation") ?? .zero)
        case "setState":
            return .setState(group: try requiredString("group", "a state group name"),
                             state: try requiredString("state", "a state name"))
        case "setSwitch":
            return .setSwitch(group: try requiredString("group", "a switch group name"),
                              value: try requiredString("value", "a switch value name"), gameObject: try gameObject())
        case "setPosition":
            var xyz: [Float] = []
            for key in ["x", "y", "z"] {
                guard let v = try number(key) else { throw missing(key, "a number") }
                xyz.append(Float(v))
            }
            return .setPosition(try gameObject(), SoundEngine.Vector3(x: xyz[0], y: xyz[1], z: xyz[2]))
        case "registerGameObject":
            guard let id = try gameObject() else { throw missing("gameObject", "a game object ID") }
            return .registerGameObject(id, name: try string("name", "a name"))
        case "loadBank":
            let file = try requiredString("file", "a bank file path")
            if file.isEmpty { throw InvalidCommand("loadBank: 'file' is empty") }
            return .loadBank(file: file)
        case "quit":
            return .quit
        default:
            // DemoCommand.fields lists exactly the commands above.
            preconditionFailure("command '\(cmd)' is in DemoCommand.fields but not parsed")
        }
    }

    func requiredString(_ key: String, _ expected: String) throws(InvalidCommand) -> String {
        guard let s = try string(key, expected) else { throw missing(key, expected) }
        return s
    }

    /// A JSON number as a Double (finite: JSON has no NaN or infinity, but
    /// `1e999` would overflow).
    func number(_ key: String) throws(InvalidCommand) -> Double? {
        guard let value = object[key] else { return nil }
        guard case .number(let text) = value, let d = Double(text), d.isFinite else {
            throw bad(key, "a number", got: value)
        }
        return d
    }

    /// `gameObject`: a whole number 0…2^64-1 (0 and 2^64-1 reach the engine,
    /// which refuses them as invalid IDs); nil when absent.
    func gameObject() throws(InvalidCommand) -> SoundEngine.GameObjectID? {
        guard let value = object["gameObject"] else { return nil }
        guard case .number(let text) = value, let id = UInt64(text) else {
            throw bad("gameObject", "a game object ID (a whole number from 1 to 18446744073709551614)", got: value)
        }
        return SoundEngine.GameObjectID(id)
    }

    func category() throws(InvalidCommand) -> AudioSession.Category? {
        let expected = "a category: \(AudioSession.Category.names.joined(separator: ", "))"
        guard let name = try string("category", expected) else { return nil }
        guard let category = AudioSession.Category(named: name) else { throw bad("category", expected, got: .string(name)) }
        return category
    }

    func mode() throws(InvalidCommand) -> AudioSession.Mode? {
        let expected = "a mode: \(AudioSession.Mode.names.joined(separator: ", "))"
        guard let name = try string("mode", expected) else { return nil }
        guard let mode = AudioSession.Mode(named: name) else { throw bad("mode", expected, got: .string(name)) }
        return mode
    }

    func options() throws(InvalidCommand) -> AudioSession.CategoryOptions? {
        let expected = "a list of option names from \(AudioSession.CategoryOptions.names.joined(separator: ", "))"
        guard let value = object["options"] else { return nil }
        guard case .array(let items) = value else { throw bad("options", expected, got: value) }
        var options: AudioSession.CategoryOptions = []
        for item in items {
            guard case .string(let name) = item, let option = AudioSession.CategoryOptions(named: name) else {
                throw InvalidCommand("setSession: 'options' has \(item.typeName) \(item.json); expected \(expected)")
            }
            options.insert(option)
        }
        return options
    }

    /// A time field (`fadeOut`, `interpolation`): a JSON number of seconds,
    /// as the `Duration` the engine takes; nil when absent. Its range is the
    /// engine's one rule for times (0…3600 s, docs/input-validation.md): a
    /// negative or too long time reaches the engine, which refuses it with
    /// `invalidParameter` naming the argument. Every finite number converts
    /// without trapping: beyond ±10^15 s (far outside any range) it saturates.
    func seconds(_ key: String) throws(InvalidCommand) -> Duration? {
        guard let seconds = try number(key) else { return nil }
        return .seconds(min(max(seconds, -1e15), 1e15))
    }
}
