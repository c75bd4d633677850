import Foundation
import SoundCore
import SoundMixer

/// One line a tool sent, answered: parsed, checked, and (for an edit, when
/// edits are on) carried out through the engine's own API on the link's
/// thread. Each line gets exactly one ``Answer``.
enum ProfilerCommand {
    /// The `result` message for one line.
    struct Answer {
        var cmd: String?
        /// The command's `id`, as JSON text.
        var id: String?
        /// `nil` on success; else the words and the code.
        var failure: (error: String, code: String)?

        func line(t: Double) -> String {
            var m = ProfilerMessage("result", t: t)
            m.add("cmd", json: cmd.map(ProfilerMessage.string) ?? "null")
            if let id { m.add("id", json: id) }
            m.add("ok", json: ProfilerMessage.bool(failure == nil))
            if let failure {
                m.add("error", json: ProfilerMessage.string(failure.error))
                m.add("code", json: ProfilerMessage.string(failure.code))
            }
            return m.line
        }
    }

    /// The edits, refused with `notAllowed` unless edits are on.
    static let edits: Set<String> = ["setRTPC", "setState", "setBusVolume", "muteBus", "soloBus"]

    static func answer(
        _ line: [UInt8], link: ProfilerLink, connection: ProfilerConnection, engine: SoundEngineInstance?
    ) -> Answer {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
            return Answer(failure: ("the line is not a JSON object", "invalidCommand"))
        }
        var answer = Answer(cmd: object["cmd"] as? String, id: object["id"].flatMap(json))
        guard let cmd = answer.cmd else {
            answer.failure = ("the object has no \"cmd\" string", "invalidCommand")
            return answer
        }
        if edits.contains(cmd) && !link.edits {
            answer.failure = ("\(cmd) is a live edit, and edits are off (ProfilerSettings.allowsEdits, SOUNDENGINE_PROFILER_EDITS=1)", "notAllowed")
            return answer
        }
        do throws(SoundEngineError) {
            let fields = Fields(object: object, cmd: cmd)
            switch cmd {
            case "rate":
                let hz = try fields.number("hz")
                guard (1...30).contains(hz), hz == hz.rounded() else { throw .invalidParameter("rate hz = \(hz): must be a whole number 1…30") }
                connection.rate = Int(hz)
                connection.nextSample = .now
            case "setRTPC":
                let engine = try alive(engine)
                let object = try fields.optionalNumber("gameObject").map { value throws(SoundEngineError) in
                    guard value >= 0, value == value.rounded(), value < 0x1p64 else {
                        throw .invalidParameter("setRTPC gameObject = \(value): must be a game object's number")
                    }
                    return SoundEngine.GameObjectID(UInt64(value))
                }
                try engine.setRTPCValue(.init(try fields.string("name")), try fields.number("value"), on: object)
            case "setState":
                let engine = try alive(engine)
                try engine.setState(.init(try fields.string("group")), .init(try fields.string("state")))
            case "setBusVolume":
                let engine = try alive(engine)
                let volume = try fields.number("volume")
                guard (0...4).contains(volume) else { throw .invalidParameter("setBusVolume volume = \(volume): must be 0…4") }
                try engine.setBusVolume(try bus(fields, engine), Float(volume))
            case "muteBus":
                let engine = try alive(engine)
                try engine.setBus(try bus(fields, engine), muted: try fields.bool("mute"))
            case "soloBus":
                let engine = try alive(engine)
                try engine.mixer.setBusSoloed(try bus(fields, engine), try fields.bool("solo"))
            default:
                answer.failure = ("unknown command \"\(cmd)\"", "invalidCommand")
            }
        } catch {
            answer.failure = (error.reason, error.caseName)
        }
        return answer
    }

    private static func alive(_ engine: SoundEngineInstance?) throws(SoundEngineError) -> SoundEngineInstance {
        guard let engine, !engine.isTerminated else { throw .notInitialized }
        return engine
    }

    private static func bus(_ fields: Fields, _ engine: SoundEngineInstance) throws(SoundEngineError) -> BusID {
        let name = try fields.string("bus")
        guard let bus = try engine.bus(named: name) else { throw .idNotFound("no bus is named \"\(name)\"") }
        return bus
    }

    /// A value as JSON text (for echoing `id`).
    private static func json(_ value: Any) -> String? {
        if let s = value as? String { return ProfilerMessage.string(s) }
        guard JSONSerialization.isValidJSONObject([value]),
            let data = try? JSONSerialization.data(withJSONObject: [value], options: [.fragmentsAllowed])
        else { return nil }
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    /// A command's fields, each checked for its type.
    private struct Fields {
        var object: [String: Any]
        var cmd: String

        func string(_ key: String) throws(SoundEngineError) -> String {
            guard let value = object[key] as? String else { throw missing(key, "a string") }
            return value
        }

        func number(_ key: String) throws(SoundEngineError) -> Double {
            guard let value = optionalNumberValue(key) else { throw missing(key, "a number") }
            return value
        }

        func optionalNumber(_ key: String) throws(SoundEngineError) -> Double? {
            guard let raw = object[key], !(raw is NSNull) else { return nil }
            guard let value = optionalNumberValue(key) else { throw missing(key, "a number") }
            return value
        }

        func bool(_ key: String) throws(SoundEngineError) -> Bool {
            guard let number = object[key] as? NSNumber, Self.isBool(number) else { throw missing(key, "true or false") }
            return number.boolValue
        }

        private func optionalNumberValue(_ key: String) -> Double? {
            guard let number = object[key] as? NSNumber, !Self.isBool(number), number.doubleValue.isFinite else {
                return nil
            }
            return number.doubleValue
        }

        /// JSON's `true`/`false` (Foundation hands them over as NSNumbers too).
        private static func isBool(_ number: NSNumber) -> Bool {
            String(cString: number.objCType) == "c" || type(of: number) == type(of: NSNumber(value: true))
        }

        private func missing(_ key: String, _ kind: String) -> SoundEngineError {
            .invalidParameter("\(cmd) needs \"\(key)\", \(kind)")
        }
    }
}
