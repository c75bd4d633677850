import Foundation
import SoundContent  // the bank model, to check banks before the engine starts (a QA tool's job, not a game's)
import SoundEngine

/// The banks the demo loads (`--bank`, or the demo bank), parsed before the
/// engine starts so that a bad bank or an unknown `--post` event is refused
/// without touching the sound server. Loading them into the engine is
/// ``load()``; the parsed models also tell the demo which events may loop.
struct DemoBanks {
    /// The parsed banks, in the order given.
    private(set) var banks: [(path: String, bank: Bank)] = []

    /// The game object `--post` and commands without `gameObject` use:
    /// registered at start, at the origin, where the (implicit) listener is.
    static let defaultGameObject = SoundEngine.GameObjectID(1)
    static let defaultGameObjectName = "Demo"

    /// A bank that could not be parsed: every issue, with its JSON path.
    struct Failure: Error {
        let message: String
    }

    /// Parses every bank in order; each may name the buses of those before it.
    init(paths: [String]) throws(Failure) {
        var buses: Set<String> = ["master"]
        for path in paths {
            switch BankParser.load(path: path, options: BankLoadOptions(existingBuses: buses)) {
            case .success(let bank):
                banks.append((path, bank))
                buses.formUnion(bank.buses.map(\.name))
            case .failure(let issues):
                throw Failure(message: "bank \(path) has \(issues.issues.count) error(s):\n" + issues.description)
            }
        }
    }

    var isEmpty: Bool { banks.isEmpty }

    /// Adds the model of a bank the engine has just loaded (stdin `loadBank`),
    /// for ``mayLoop(event:)``; a bank that does not parse here is left out.
    mutating func record(path: String) {
        let buses = Set(banks.flatMap { $0.bank.buses.map(\.name) }).union(["master"])
        if case .success(let bank) = BankParser.load(path: path, options: BankLoadOptions(existingBuses: buses)) {
            banks.append((path, bank))
        }
    }

    /// Loads every bank into the running engine from its file, as a game
    /// does, in order; on a failure,
    /// stops there and returns the bank's path and the engine's error.
    func load() -> (path: String, error: SoundEngineError)? {
        for (path, _) in banks {
            do {
                try SoundEngine.loadBank(path: path)
            } catch {
                return (path, error)
            }
        }
        return nil
    }

    /// The event as defined (IDs ignore case, as the engine's do).
    func event(named name: String) -> BankEvent? {
        let id = ContentID(name)
        for (_, bank) in banks {
            if let event = bank.events.values.first(where: { ContentID($0.name) == id }) { return event }
        }
        return nil
    }

    /// Every event name, sorted.
    var eventNames: [String] { banks.flatMap { $0.bank.events.keys }.sorted() }

    /// The `--post` events no bank defines, in the order given.
    func unknownEvents(in posts: [ScheduledPost]) -> [String] {
        posts.map(\.event).filter { event(named: $0) == nil }
    }

    /// Whether posting `name` may start a looping voice (a looping sound, or
    /// a container with one, or a posted event that may): such a posting may
    /// never end by itself.
    func mayLoop(event name: String) -> Bool {
        var seenEvents: Set<ContentID> = []
        var seenObjects: Set<ContentID> = []
        func objectLoops(_ object: String) -> Bool {
            guard seenObjects.insert(ContentID(object)).inserted else { return false }
            for (_, bank) in banks {
                if let sound = bank.sounds[object] { return sound.loop }
                if let container = bank.containers[object] {
                    return (container.children + Array(container.switchChildren.values)).contains(where: objectLoops)
                }
            }
            return false
        }
        func eventLoops(_ name: String) -> Bool {
            guard seenEvents.insert(ContentID(name)).inserted, let event = event(named: name) else { return false }
            return event.actions.contains { action in
                switch action.kind {
                case .play(let object, _): objectLoops(object)
                case .post(let other): eventLoops(other)
                default: false
                }
            }
        }
        return eventLoops(name)
    }

    /// The demo bank for the interactive pages when no `--bank` is given:
    /// `Banks/demo/demo.json` among the executable's resources if it was
    /// copied there, else `Examples/Banks/demo/demo.json` of the source tree
    /// the demo was built from; nil when neither exists.
    static var defaultBankPath: String? {
        var candidates: [String] = []
        if let resources = Bundle.module.resourceURL {
            candidates.append(resources.appendingPathComponent("Resources/Banks/demo/demo.json").path)
        }
        // #filePath is Examples/IntegrationDemo/DemoBanks.swift in the source tree.
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(examples.appendingPathComponent("Banks/demo/demo.json").path)
        return candidates.first { FileManager.default.isReadableFile(atPath: $0) }
    }
}
