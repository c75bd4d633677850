import Foundation
import SoundEngine
import TerminalUI

/// The full-screen demo's state and its answer to every key and timer tick:
/// pure (no terminal, no engine), so each page is a unit test. Keys become
/// ``DemoAction``s the driver performs; what the engine then reports comes
/// back as an ``EngineSnapshot`` for ``render(engine:width:height:glyphs:)``.
struct DemoScreenModel: Sendable {
    /// The session page's option keys, in the order the page lists them.
    static let optionKeys: [(key: Character, name: String)] = [
        ("x", "mixWithOthers"), ("d", "duckOthers"), ("i", "interruptSpokenAudioAndMixWithOthers"),
        ("b", "allowBluetooth"), ("p", "allowBluetoothA2DP"), ("r", "allowAirPlay"), ("s", "defaultToSpeaker"),
        ("u", "overrideMutedMicrophoneInterruption"),
    ]

    var page: DemoPage = .session
    /// Whether the demo bank is loaded (the content pages work).
    var hasContent: Bool
    var log = EventLog()
    /// The status line: what the last call did, or its error.
    var message = ""
    /// The file path being typed on the playback page; nil when no prompt is open.
    var prompt: String?
    /// Set by `q` or Ctrl-C: the driver leaves.
    private(set) var quitRequested = false

    var footsteps = FootstepsModel()
    var rpm = EngineModel()
    var emitter = EmitterModel()
    var musicPlaying = false
    var loopingMusic = false
    private var lastStep: Double?
    private var lastTick: Double?

    init(hasContent: Bool) { self.hasContent = hasContent }

    // MARK: Keys

    /// What `key` does on the current page given what the engine reports now.
    mutating func handle(_ key: Key, engine: EngineSnapshot, now: Double) -> [DemoAction] {
        if prompt != nil { return handlePrompt(key) }
        switch key {
        case .controlC, .character("q"): quitRequested = true; return []
        case .tab: page = page.moved(by: 1); return []
        case .backTab: page = page.moved(by: -1); return []
        case .character(let c) where c.isNumber:
            if let n = c.wholeNumberValue, let chosen = DemoPage(rawValue: n) { page = chosen }
            return []
        default: break
        }
        if page.needsBank && !hasContent { return [] }
        switch page {
        case .session, .route: return sessionKey(key, engine: engine)
        case .playback: return playbackKey(key, engine: engine)
        case .footsteps: return footstepsKey(key, now: now)
        case .rtpc: return rtpcKey(key)
        case .positioning: return positioningKey(key)
        case .music: return musicKey(key, engine: engine)
        case .log: return []
        }
    }

    private mutating func handlePrompt(_ key: Key) -> [DemoAction] {
        guard let text = prompt else { return [] }
        switch key {
        case .enter:
            prompt = nil
            let path = text.trimmingCharacters(in: .whitespaces)
            return path.isEmpty ? [] : [.playFile(path)]
        case .escape, .controlC: prompt = nil
        case .backspace: prompt = String(text.dropLast())
        case .character(let c): prompt = text + String(c)
        default: break
        }
        return []
    }

    /// Session keys (also on the route page: the override and activation change the route).
    private func sessionKey(_ key: Key, engine: EngineSnapshot) -> [DemoAction] {
        guard case .character(let c) = key else { return [] }
        var configuration = engine.configuration
        switch c {
        case "c", "C":
            configuration.category = Self.cycle(AudioSession.Category.names, from: configuration.category.description,
                                                by: c == "c" ? 1 : -1, AudioSession.Category.init(named:)) ?? configuration.category
            configuration.categoryOptions = []  // options do not carry over a category change (iOS)
        case "m", "M":
            configuration.mode = Self.cycle(AudioSession.Mode.names, from: configuration.mode.description,
                                            by: c == "m" ? 1 : -1, AudioSession.Mode.init(named:)) ?? configuration.mode
        case "a": return [.setActive(!engine.isActive)]
        case "o": return [.overrideOutput(engine.speakerOverride ? .none : .speaker)]
        default:
            guard page == .session, let entry = Self.optionKeys.first(where: { $0.key == c }),
                  let option = AudioSession.CategoryOptions(named: entry.name) else { return [] }
            if configuration.categoryOptions.isSuperset(of: option) {
                configuration.categoryOptions.subtract(option)
            } else {
                configuration.categoryOptions.formUnion(option)
            }
        }
        return page == .session ? [.setSession(configuration)] : []
    }

    /// The name after (or before) `current` in `names`, wrapping, as a value.
    static func cycle<T>(_ names: [String], from current: String, by offset: Int, _ make: (String) -> T?) -> T? {
        guard !names.isEmpty else { return nil }
        let index = names.firstIndex(of: current) ?? 0
        return make(names[(index + offset % names.count + names.count) % names.count])
    }

    private mutating func playbackKey(_ key: Key, engine: EngineSnapshot) -> [DemoAction] {
        guard case .character(let c) = key else { return [] }
        switch c {
        case "c": return [.playFile(HeadlessDemo.chimePath)]
        case "f": prompt = ""
        case "l":
            loopingMusic.toggle()
            return [.loopMusic(loopingMusic)]
        case "s":
            loopingMusic = false
            musicPlaying = false
            footsteps.walking = false
            rpm.running = false
            emitter.playing = false
            return [.stopAll]
        case "z": return [.suspend(engine.isRunning)]
        case "x": return [.muteBackgroundMusic(!engine.backgroundMusicMuted)]
        default: break
        }
        return []
    }

    private mutating func footstepsKey(_ key: Key, now: Double) -> [DemoAction] {
        let surfaces = FootstepsModel.surfaces
        switch key {
        case .left, .right:
            let index = surfaces.firstIndex(of: footsteps.surface) ?? 0
            footsteps.surface = surfaces[(index + (key == .right ? 1 : surfaces.count - 1)) % surfaces.count]
            return [.setSwitch(group: "Surface", value: footsteps.surface, object: PageObject.player)]
        case .character(" "), .enter: return [.post("Play_Footstep", object: PageObject.player)]
        case .character("w"):
            footsteps.walking.toggle()
            lastStep = nil
            return footsteps.walking ? tick(now: now) : []
        default: return []
        }
    }

    private mutating func rtpcKey(_ key: Key) -> [DemoAction] {
        switch key {
        case .character("e"):
            rpm.running.toggle()
            return [.post(rpm.running ? "Play_Engine" : "Stop_Engine", object: PageObject.car)]
        case .character("+"), .character("="), .up, .right: return [.setRPM(rpm.change(by: 1))]
        case .character("-"), .character("_"), .down, .left: return [.setRPM(rpm.change(by: -1))]
        default: return []
        }
    }

    private mutating func positioningKey(_ key: Key) -> [DemoAction] {
        switch key {
        case .character("p"):
            emitter.playing.toggle()
            return [.post(emitter.playing ? "Play_Emitter" : "Stop_Emitter", object: PageObject.emitter)]
        case .character("o"):
            emitter.orbiting.toggle()
            return []
        case .character("h"):
            emitter.x = 0
            emitter.z = 8
        case .up: emitter.move(.forward)
        case .down: emitter.move(.back)
        case .left: emitter.move(.left)
        case .right: emitter.move(.right)
        default: return []
        }
        return [.setPosition(PageObject.emitter, emitter.position)]
    }

    private mutating func musicKey(_ key: Key, engine: EngineSnapshot) -> [DemoAction] {
        switch key {
        case .character("m"):
            musicPlaying.toggle()
            return [.post(musicPlaying ? "Play_Music" : "Stop_Music", object: PageObject.player)]
        case .character("d"): return [.post("Play_Dialogue", object: PageObject.player)]
        case .character("x"): return [.muteBackgroundMusic(!engine.backgroundMusicMuted)]
        default: return []
        }
    }

    // MARK: Time

    /// What is due at `now` (seconds since the start): a footstep every
    /// ``FootstepsModel/stepInterval`` while walking, the orbiting emitter's new position.
    mutating func tick(now: Double) -> [DemoAction] {
        var actions: [DemoAction] = []
        let elapsed = lastTick.map { max(0, now - $0) } ?? 0
        lastTick = now
        let interval = Double(FootstepsModel.stepInterval.components.seconds)
            + Double(FootstepsModel.stepInterval.components.attoseconds) / 1e18
        if footsteps.walking, lastStep.map({ now - $0 >= interval }) ?? true {
            lastStep = now
            actions.append(.post("Play_Footstep", object: PageObject.player))
        }
        if emitter.orbiting, elapsed > 0 {
            emitter.orbit(for: elapsed)
            actions.append(.setPosition(PageObject.emitter, emitter.position))
        }
        return actions
    }
}
