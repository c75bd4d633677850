import Foundation
import SoundEngine

// The content pages of the interactive demo, like Wwise's Integration Demo
// (footsteps, RTPC, 3D positioning, background music), on the demo bank
// (Examples/Banks/demo/demo.json). Each page's state is a small model
// struct, tested without a terminal; the page functions only read keys and
// call the engine.

/// The game objects of the interactive pages, registered at start. The
/// listener is the implicit one at the origin, facing +Z.
enum PageObject {
    /// The player: footsteps, music, dialogue (at the listener).
    static let player = DemoBanks.defaultGameObject
    /// The car of the RPM page (at the listener).
    static let car = SoundEngine.GameObjectID(2)
    /// The emitter circling the listener on the 3D page.
    static let emitter = SoundEngine.GameObjectID(3)
}

/// Footsteps page: the surface (a switch on the player) and walking.
struct FootstepsModel: Equatable {
    static let surfaces = ["grass", "gravel", "wood"]
    /// Time between steps while walking.
    static let stepInterval: Duration = .milliseconds(500)

    var surface = "grass"
    var walking = false

    /// `1`, `2`, `3` (or the name) choose a surface; nil for anything else.
    static func surface(forKey key: String) -> String? {
        if let n = Int(key), surfaces.indices.contains(n - 1) { return surfaces[n - 1] }
        return surfaces.first { $0 == key.lowercased() }
    }
}

/// RTPC page: the car engine's RPM (bank RTPC `RPM`, 0…8000).
struct EngineModel: Equatable {
    static let range = 0.0...8000.0
    static let step = 500.0
    /// How long the sound takes to follow a change (setRTPCValue's ramp).
    static let ramp: Duration = .milliseconds(300)

    var rpm = 800.0
    var running = false

    /// Raises (`+`) or lowers (`-`) the RPM by ``step``, within ``range``; returns the new value.
    mutating func change(by steps: Double) -> Double {
        rpm = min(Self.range.upperBound, max(Self.range.lowerBound, rpm + steps * Self.step))
        return rpm
    }

    /// `[#####-----]`: the RPM as a bar of `width` cells.
    func gauge(width: Int = 20) -> String {
        let filled = Int((rpm / Self.range.upperBound * Double(width)).rounded())
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }
}

/// 3D page: an emitter circling the listener (at the origin, facing +Z).
struct OrbitModel: Equatable {
    /// Updates per second of the emitter's position.
    static let rate = 60.0
    var radius = 8.0
    /// Radians per second; positive turns clockwise seen from above (front → right → back → left).
    var speed = 2 * Double.pi / 8

    /// The angle after `seconds`, in degrees 0..<360: 0 in front, 90 on the right.
    func degrees(after seconds: Double) -> Double {
        let d = (seconds * speed * 180 / .pi).truncatingRemainder(dividingBy: 360)
        return d < 0 ? d + 360 : d
    }

    /// Where the emitter is after `seconds` (Wwise axes: X right, Y up, Z forward).
    func position(after seconds: Double) -> SoundEngine.Vector3 {
        let a = degrees(after: seconds) * .pi / 180
        return SoundEngine.Vector3(x: Float(radius * sin(a)), y: 0, z: Float(radius * cos(a)))
    }

    /// Where it is heard from: front, right, behind, left (45° sectors).
    static func side(degrees: Double) -> String {
        ["front", "front-right", "right", "behind-right", "behind", "behind-left", "left", "front-left"][
            Int(((degrees + 22.5) / 45).rounded(.down)) % 8]
    }
}

/// The background-music page's view of the engine.
struct MusicModel: Equatable {
    var musicPlaying = false
    var otherAudioPlaying = false
    var backgroundMusicMuted = false

    var summary: String {
        "music \(musicPlaying ? "playing" : "stopped") on bus 'music' (mute for background music); "
            + "other audio \(otherAudioPlaying ? "playing" : "not playing"); "
            + "background music \(backgroundMusicMuted ? "muted" : "not muted")"
    }
}

extension InteractiveDemo {
    /// Loads the banks and registers the pages' game objects; says why when a page cannot work.
    func prepareContent() -> Bool {
        guard let problem = Self.loadContent(banks) else { return true }
        say("  " + problem)
        return false
    }

    /// Loads the banks and registers the pages' game objects (the line menu
    /// and the full-screen mode share it); nil when the content pages can
    /// work, else why not.
    static func loadContent(_ banks: DemoBanks) -> String? {
        if banks.isEmpty {
            return "(no bank: the content pages need --bank or Examples/Banks/demo/demo.json)"
        }
        if let failure = banks.load() {
            return "! bank \(failure.path): \(failure.error)"
        }
        do {
            try SoundEngine.registerGameObject(PageObject.player, name: "Player")
            try SoundEngine.registerGameObject(PageObject.car, name: "Car")
            try SoundEngine.registerGameObject(PageObject.emitter, name: "Emitter")
            for object in [PageObject.player, PageObject.car] { try SoundEngine.setPosition(object, .zero) }
            try SoundEngine.setPosition(PageObject.emitter, EmitterModel().position)
        } catch {
            return "! \(error)"
        }
        return nil
    }

    func post(_ event: String, on object: SoundEngine.GameObjectID) {
        report { try SoundEngine.postEvent(.init(event), on: object) }
    }

    /// Flips `flag` and posts `start` when it turns on, `stop` when it turns off.
    func toggle(_ flag: inout Bool, _ start: String, _ stop: String, on object: SoundEngine.GameObjectID) {
        flag.toggle()
        post(flag ? start : stop, on: object)
    }

    func footstepsPage() {
        var model = FootstepsModel()
        var walker: Task<Void, Never>?
        defer { walker?.cancel() }
        while true {
            say("""

                ── footsteps ── surface: \(model.surface) ── \(model.walking ? "walking" : "standing")
                  1 grass  2 gravel  3 wood   (setSwitch Surface on the player)
                  s  one step (Play_Footstep)   w  walk / stop walking   0  back
                """)
            guard let key = ask("footsteps> ") else { return }
            if let surface = FootstepsModel.surface(forKey: key) {
                model.surface = surface
                report { try SoundEngine.setSwitch("Surface", .init(surface), on: PageObject.player) }
            } else if key == "s" {
                post("Play_Footstep", on: PageObject.player)
            } else if key == "w" {
                model.walking.toggle()
                walker?.cancel()
                walker = model.walking ? Task {
                    while !Task.isCancelled {
                        _ = try? SoundEngine.postEvent("Play_Footstep", on: PageObject.player)
                        try? await Task.sleep(for: FootstepsModel.stepInterval)
                    }
                } : nil
            } else if key == "0" || key == "q" {
                return
            }
        }
    }

    func enginePage() {
        var model = EngineModel()
        defer { if model.running { post("Stop_Engine", on: PageObject.car) } }
        report { try SoundEngine.setRTPCValue("RPM", model.rpm, on: PageObject.car) }
        while true {
            let inForce = (try? SoundEngine.rtpcValue("RPM", on: PageObject.car)).map { String(Int($0)) } ?? "?"
            say("""

                ── RTPC: car engine ── \(model.running ? "running" : "off") ── RPM \(Int(model.rpm)) \(model.gauge()) (in force: \(inForce))
                  e  start / stop the engine (Play_Engine / Stop_Engine)
                  +  raise RPM   -  lower RPM   (setRTPCValue RPM, \(EngineModel.ramp) ramp)
                  Enter: refresh   0  back
                """)
            guard let key = ask("rpm> ") else { return }
            switch key {
            case "e": toggle(&model.running, "Play_Engine", "Stop_Engine", on: PageObject.car)
            case "+", "=", "-":
                let value = model.change(by: key == "-" ? -1 : 1)
                report {
                    try SoundEngine.setRTPCValue("RPM", value, on: PageObject.car, ramp: EngineModel.ramp)
                }
            case "0", "q": return
            default: continue
            }
        }
    }

    func positioningPage() {
        let model = OrbitModel()
        let start = ContinuousClock.now
        func elapsed() -> Double {
            let d = ContinuousClock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        post("Play_Emitter", on: PageObject.emitter)
        let mover = Task {
            while !Task.isCancelled {
                let d = ContinuousClock.now - start
                let t = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
                try? SoundEngine.setPosition(PageObject.emitter, model.position(after: t))
                try? await Task.sleep(for: .microseconds(Int64(1e6 / OrbitModel.rate)))
            }
        }
        defer {
            mover.cancel()
            post("Stop_Emitter", on: PageObject.emitter)
        }
        while true {
            let degrees = model.degrees(after: elapsed())
            let world = (try? SoundEngine.bus(named: "world")).flatMap { $0 }.flatMap { try? SoundEngine.meter($0) }
            let level = world.map { String(format: "peak %.3f, rms %.3f", $0.peak, $0.rms) } ?? "?"
            say("""

                ── 3D positioning ── emitter at \(Int(degrees))° (\(OrbitModel.side(degrees: degrees))), \
                \(model.radius) m from the listener
                  bus 'world' level: \(level)   (setPosition at \(Int(OrbitModel.rate)) Hz)
                  Enter: refresh   0  back
                """)
            guard let key = ask("3d> ") else { return }
            if key == "0" || key == "q" { return }
        }
    }

    func musicPage() {
        var model = MusicModel()
        defer { if model.musicPlaying { post("Stop_Music", on: PageObject.player) } }
        while true {
            model.otherAudioPlaying = (try? SoundEngine.audioSession.isOtherAudioPlaying) ?? false
            model.backgroundMusicMuted = (try? SoundEngine.isBackgroundMusicMuted) ?? false
            say("""

                ── background music ── \(model.summary)
                  m  start / stop the music (Play_Music / Stop_Music)
                  d  a line of dialogue (Play_Dialogue: the music ducks by 12 dB)
                  x  mute / unmute background music (MuteBackgroundMusic)
                  Enter: refresh   0  back
                """)
            guard let key = ask("music> ") else { return }
            switch key {
            case "m": toggle(&model.musicPlaying, "Play_Music", "Stop_Music", on: PageObject.player)
            case "d": post("Play_Dialogue", on: PageObject.player)
            case "x": report { try SoundEngine.muteBackgroundMusic(!SoundEngine.isBackgroundMusicMuted) }
            case "0", "q": return
            default: continue
            }
        }
    }
}
