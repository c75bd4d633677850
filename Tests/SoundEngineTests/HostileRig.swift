import Foundation
import SoundCore
@testable import SoundEngine
import SoundBackend
import SoundContent
import SoundSession
@testable import SoundMixer
import SoundServerSupport
import Synchronization
import Testing

/// What the hostile-input tests drive: an engine (an offline one, or the
/// façade's on a real server), its content (a bank built in code and the
/// same as a file), the IDs calls have returned so far, and what went wrong,
/// gathered from every thread the test runs (Swift Testing's `#expect`
/// belongs to the test's own task).
final class HostileRig: Sendable {
    /// The engine, for what the test looks at inside it; `nil` before the
    /// façade's engine starts.
    let engine: SoundEngineInstance?
    /// Where the hostile calls go: the engine itself or the façade.
    let door: any EngineDoor
    /// The offline backend, when the engine renders only when told.
    let backend: OfflineBackend?
    let seed: UInt64
    /// A one-second looping tone and a short blip, in `folder`.
    let folder: String
    let tone: String
    let blip: String
    /// The bank built in code, and the path of a bank file.
    let bank: Bank
    let bankFile: String
    /// IDs returned by calls that succeeded (the last 64 of each kind).
    let known = ControlLock(Known())
    /// Every broken promise: a non-SoundEngineError, an `invalidParameter`
    /// that names no argument, a refused call that changed something, a
    /// sample or reading that is not finite.
    let failures = ControlLock<[String]>([])
    /// Set by a bus meter callback that saw a reading that is not finite.
    let badMeter = Atomic(false)

    struct Known {
        var sounds: [SoundID] = []
        var voices: [PlayingID] = []
        var buses: [BusID] = [.master]
        var objects: [GameObjectID] = []
        var playings: [PlayingID] = []
        var banks: [BankID] = []
    }

    static let events = ["Play", "Step", "Pick", "Stop", "Tense", "Nest", "Delayed", "Gravel"]
    static let rtpcs = ["RPM"]
    static let stateGroups = ["Mood"]
    static let states = ["calm", "tense"]
    static let switchGroups = ["Surface"]
    static let switches = ["grass", "gravel"]
    static let buses = ["music", "sfx", "master"]

    init(engine: SoundEngineInstance?, door: any EngineDoor, backend: OfflineBackend?, seed: UInt64, folder: String) throws {
        self.engine = engine
        self.door = door
        self.backend = backend
        self.seed = seed
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        tone = folder + "/tone.wav"
        blip = folder + "/blip.wav"
        let rate = 48_000
        let sine = { (frames: Int, amplitude: Float) in
            (0..<frames).map { amplitude * Float(sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
        }
        _ = FileManager.default.createFile(atPath: tone, contents: WaveFile.monoFloat32(sine(rate, 0.5), rate: rate))
        _ = FileManager.default.createFile(atPath: blip, contents: WaveFile.monoFloat32(sine(rate / 5, 0.5), rate: rate))
        bank = Self.bank(folder: folder, tone: tone, blip: blip)
        bankFile = folder + "/filebank.json"
        let json = #"{"buses":{"file_bus":{}},"sounds":{"file_tone":{"file":"tone.wav","bus":"file_bus"}},"#
            + #""events":{"File_Play":{"actions":[{"type":"play","sound":"file_tone"}]}}}"#
        _ = FileManager.default.createFile(atPath: bankFile, contents: Data(json.utf8))
    }

    /// Buses, a random and a switch container, 3D attenuation, an RTPC on a
    /// pitch and a bus, a state group on a bus, ducking, markers, delayed
    /// actions and an event that posts itself.
    static func bank(folder: String, tone: String, blip: String) -> Bank {
        let play = { (object: String) in BankAction(.play(object: object, fadeIn: .zero)) }
        return Bank(
            name: "hostile", folder: folder,
            sounds: [
                "tone": BankSound(name: "tone", file: tone, loop: true, bus: "music", attenuation: "near"),
                "blip": BankSound(name: "blip", file: blip, bus: "sfx", markers: [BankMarker(name: "m", time: 0.1)]),
            ],
            containers: [
                "pick": BankContainer(name: "pick", kind: .random(weights: [1, 3], avoidRepeatCount: 1), children: ["tone", "blip"]),
                "surface": BankContainer(
                    name: "surface", kind: .switchGroup(group: "Surface", defaultChild: "blip"), children: ["tone", "blip"],
                    switchChildren: ["grass": "blip", "gravel": "tone"]),
            ],
            buses: [
                BankBus(name: "music", volumeDB: -3, muteForBackgroundMusic: true),
                BankBus(name: "sfx", ducking: [
                    BankDucking(bus: "music", volumeDB: -12, attack: .milliseconds(50), release: .milliseconds(200)),
                ]),
            ],
            attenuations: [
                "near": BankAttenuation(
                    name: "near", volume: Curve(points: [(0, 0), (100, -96)]), lowPass: Curve(points: [(0, 24_000), (100, 500)])),
            ],
            rtpcs: [
                "RPM": BankRTPC(name: "RPM", range: 0...8000, defaultValue: 1000, bindings: [
                    RTPCBinding(target: .pitch(object: "tone"), curve: Curve(points: [(0, -1200), (8000, 1200)])),
                    RTPCBinding(target: .busVolume(bus: "music"), curve: Curve(points: [(0, -6), (8000, 0)])),
                ]),
            ],
            stateGroups: [
                "Mood": BankStateGroup(
                    name: "Mood", states: ["calm", "tense"], defaultState: "calm", busVolumes: ["tense": ["music": -6]],
                    transition: .milliseconds(100)),
            ],
            switchGroups: ["Surface": BankSwitchGroup(name: "Surface", values: ["grass", "gravel"], defaultValue: "grass")],
            events: [
                "Play": BankEvent(name: "Play", actions: [play("tone")]),
                "Step": BankEvent(name: "Step", actions: [play("surface")]),
                "Pick": BankEvent(name: "Pick", actions: [play("pick"), BankAction(.play(object: "blip", fadeIn: .milliseconds(20)), delay: .milliseconds(30))]),
                "Stop": BankEvent(name: "Stop", actions: [BankAction(.stop(object: "tone", fadeOut: .milliseconds(100), scope: .global))]),
                "Tense": BankEvent(name: "Tense", actions: [BankAction(.setState(group: "Mood", state: "tense"))]),
                "Nest": BankEvent(name: "Nest", actions: [BankAction(.post(event: "Step")), BankAction(.post(event: "Nest"))]),
                "Delayed": BankEvent(name: "Delayed", actions: [
                    BankAction(.play(object: "blip", fadeIn: .zero), delay: .milliseconds(50)),
                    BankAction(.setVolume(object: "tone", volumeDB: -6, fade: .milliseconds(100), scope: .global), delay: .milliseconds(20)),
                ]),
                "Gravel": BankEvent(name: "Gravel", actions: [BankAction(.setSwitch(group: "Surface", value: "gravel"))]),
            ])
    }

    // MARK: Known IDs

    func remember<T>(_ list: WritableKeyPath<Known, [T]>, _ value: T) {
        known.withLock { k in
            k[keyPath: list].append(value)
            if k[keyPath: list].count > 64 { k[keyPath: list].removeFirst() }
        }
    }

    func all<T>(_ list: KeyPath<Known, [T]>) -> [T] { known.withLock { $0[keyPath: list] } }

    /// A known ID 75 % of the time (when there is one), else `hostile`.
    func pick<T>(_ list: KeyPath<Known, [T]>, _ h: inout HostileValues, else hostile: (inout HostileValues) -> T) -> T {
        let ids = all(list)
        return !ids.isEmpty && h.chance(0.75) ? h.pick(ids) : hostile(&h)
    }

    /// A play's ID, or a hostile one: a voice that never was, or any number.
    func voice(_ h: inout HostileValues) -> PlayingID {
        pick(\.voices, &h) {
            $0.chance(0.5) ? PlayingID(voice: VoiceID(slot: $0.uint32(), generation: $0.uint32())) : PlayingID(rawValue: $0.uint64())
        }
    }
    func sound(_ h: inout HostileValues) -> SoundID { pick(\.sounds, &h) { SoundID(slot: $0.uint32(), generation: $0.uint32()) } }
    func bus(_ h: inout HostileValues) -> BusID { pick(\.buses, &h) { BusID(index: $0.uint32()) } }
    func object(_ h: inout HostileValues) -> GameObjectID { pick(\.objects, &h) { GameObjectID($0.uint64()) } }
    func optionalObject(_ h: inout HostileValues) -> GameObjectID? { h.chance(0.3) ? nil : object(&h) }
    func playing(_ h: inout HostileValues) -> PlayingID { pick(\.playings, &h) { PlayingID(posting: $0.uint32()) } }
    func bankID(_ h: inout HostileValues) -> BankID { pick(\.banks, &h) { BankID(name: $0.name(["hostile"])) } }

    func content(_ h: inout HostileValues) -> ContentID {
        h.chance(0.5) ? ContentID(h.name(Self.events + Self.rtpcs + Self.stateGroups + Self.states + Self.switchGroups + Self.switches))
            : ContentID(rawValue: h.uint32())
    }

    // MARK: Failures

    func fail(_ what: String) { failures.withLock { $0.append("seed \(seed): \(what.prefix(4000))") } }

    /// Renders a block (offline) and checks every sample and the master
    /// meter are finite.
    func renderAndCheck(_ frames: Int = 512) {
        if let out = backend?.renderFloat(frames: frames), let bad = out.firstIndex(where: { !$0.isFinite }) {
            fail("rendered sample \(bad) is \(out[bad])")
        }
        guard let meter = try? engine?.meter(.master) else { return }
        if !meter.peak.isFinite || !meter.rms.isFinite { fail("master meter \(meter) is not finite") }
    }

    // MARK: "Changes nothing"

    /// What a refused call must leave as it was: the game-visible state that
    /// only calls change (content the game set, the sounds, the buses and
    /// voices it made, the session). Gradual changes (ramps, fades) and
    /// voices ending move on their own, so values are compared as set, not
    /// as they are at this instant.
    func fingerprint() -> String {
        guard let engine else { return "" }
        engine.content.runQueuedPosts()  // a refused call runs queued posts first: run them before
        let content = engine.content.state.withLock { s -> String in
            let objects = s.gameObjects.sorted { $0.key < $1.key }.map { id, o in
                "\(id.rawValue):\(o.name?.hashValue ?? 0):\(o.position):\(o.orientation):"
                    + "\(o.switches.sorted { $0.key < $1.key }):\(o.rtpc.sorted { $0.key < $1.key }.map { ($0.key, $0.value.to) })"
            }
            let global = s.globalRTPC.sorted { $0.key < $1.key }.map { ($0.key, $0.value.to) }
            let states = s.states.sorted { $0.key < $1.key }.map { ($0.key, $0.value.current) }
            return "\(objects) \(global) \(states) \(s.defaultListeners) \(s.banks.keys.sorted { $0.id < $1.id })"
        }
        let directVoices = Set(all(\.voices).compactMap(\.voice)), directBuses = Set(all(\.buses))
        let mixer = engine.mixer.control.withLock { c -> String in
            let buses = c.graph.buses.enumerated().map { i, b in
                "\(b.name.hashValue):\(b.parent):\(directBuses.contains(BusID(index: UInt32(i))) ? "\(b.volume)" : "-"):"
                    + "\(b.muted):\(b.mutedForBackgroundMusic):\(b.meterEvents)"
            }
            let voices = directVoices.sorted { ($0.slot, $0.generation) < ($1.slot, $1.generation) }.compactMap { v -> String? in
                guard Int(v.slot) < c.voices.count, c.voices[Int(v.slot)].generation == v.generation else { return nil }
                return "\(v):\(c.voices[Int(v.slot)].volume):\(c.voices[Int(v.slot)].pan)"
            }
            return "\(buses) \(voices) \(c.graph.backgroundMusicMuted)"
        }
        let session = engine.audioSession
        return "\(content) | \(mixer) sounds \(engine.mixer.loadedSoundCount) | \(engine.audioSessionConfiguration) "
            + "\(session.isActive) \((try? engine.applicationState).map { "\($0)" } ?? "-") \(session.outputPortOverride) \(String(describing: session.preferredInput))"
    }

    // MARK: Afterwards

    /// Undoes what the hostile calls may legitimately have left: a
    /// suspended engine, an inactive session or the app in the background,
    /// silenced buses, every voice and sound slot in use.
    func recover() throws {
        guard let engine else { return }
        try engine.setApplicationState(.foreground)
        try engine.changeAudioSessionProperties(SessionConfiguration())
        try engine.audioSession.setActive(true)
        try engine.wakeupFromSuspend()
        try engine.muteBackgroundMusic(false)
        try engine.stopAll()
        for bank in engine.content.state.withLock({ Array($0.banks.keys) }) { try engine.unloadBank(bank) }
        let sounds = engine.mixer.control.withLock { c in
            c.sounds.enumerated().compactMap { i, s in s.map { SoundID(slot: UInt32(i), generation: $0.generation) } }
        }
        for sound in sounds { try? engine.unloadSound(sound) }  // those being unloaded already are idNotFound
        let buses = engine.mixer.control.withLock { $0.graph.buses.count }
        for index in 0..<buses {
            let bus = BusID(index: UInt32(index))
            try engine.setBusVolume(bus, 1, ramp: .zero)
            try engine.setBus(bus, muted: false, ramp: .zero)
            try engine.setBus(bus, mutedForBackgroundMusic: false)
            // An effect a hostile call left on a bus (a limiter with a low
            // ceiling, a compressor) would make the tone quieter.
            for slot in 0..<4 { try engine.setBusEffect(bus, index: slot, nil) }
        }
    }

    /// Loads and plays a looping 440 Hz tone (amplitude 0.5) on the master bus.
    func playTone() throws -> PlayingID {
        let engine = try #require(engine)
        let audio = DecodedAudio(
            sampleRate: 48_000, channelCount: 1,
            samples: (0..<48_000).map { 0.5 * Float(sin(2 * Double.pi * 440 * Double($0) / 48_000)) })
        let sound = try engine.loadSound(audio, name: "after the storm")
        return try engine.play(sound, PlayParameters(loop: true))
    }
}
