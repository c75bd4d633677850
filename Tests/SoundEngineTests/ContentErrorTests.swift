import Foundation
@testable import SoundEngine
import SoundBackend
import SoundContent
import SoundCore
import SoundMixer
import SoundSession
import SoundServerSupport
import Testing

/// Every refused call names what was wrong and changes nothing; bank loads
/// are all or nothing.
@Suite struct ContentErrorTests {
    static let hero = GameObjectID(1)

    static func bank(_ rig: ContentRig, name: String = "base", event: String = "Play", bus: String = "music") -> Bank {
        Bank(
            name: name, folder: rig.folder,
            sounds: ["\(name)-tone": BankSound(name: "\(name)-tone", file: rig.sineFile("tone"), loop: true, bus: bus)],
            buses: [BankBus(name: bus)],
            rtpcs: ["Speed\(name)": BankRTPC(name: "Speed\(name)", range: 0...1, defaultValue: 0.5, bindings: [])],
            stateGroups: ["TimeOfDay\(name)": BankStateGroup(name: "TimeOfDay\(name)", states: ["day", "night"], defaultState: "day")],
            switchGroups: ["Surface\(name)": BankSwitchGroup(name: "Surface\(name)", values: ["grass", "mud"], defaultValue: "grass")],
            events: [event: BankEvent(name: event, actions: [BankAction(.play(object: "\(name)-tone", fadeIn: .zero))])])
    }

    @Test func badCallsNameWhatWasWrongAndChangeNothing() throws {
        let rig = try ContentRig()
        let e = rig.engine
        try e.loadBank(Self.bank(rig))
        try e.registerGameObject(Self.hero)
        try e.setPosition(Self.hero, Vector3(x: 1, y: 2, z: 3))
        try e.setDefaultListeners([Self.hero])

        #expect { try e.postEvent("Nope", on: Self.hero) } throws: { isIDNotFound($0, naming: "event 'Nope'") }
        #expect { try e.postEvent(.id(ContentID("Nope")), on: Self.hero) } throws: { isIDNotFound($0, naming: "event ID") }
        #expect { try e.postEvent("Play", on: GameObjectID(77)) } throws: { isIDNotFound($0, naming: "game object 77") }
        #expect { try e.postEvent("Play", on: GameObjectID(0)) } throws: { isInvalidParameter($0, naming: "game object 0") }
        #expect { try e.registerGameObject(GameObjectID(.max)) } throws: { isInvalidParameter($0, naming: "invalid") }
        #expect { try e.unregisterGameObject(GameObjectID(5)) } throws: { isIDNotFound($0, naming: "game object 5") }
        #expect { try e.setRTPCValue("Sped", 1) } throws: { isIDNotFound($0, naming: "RTPC 'Sped'") }
        #expect { try e.setRTPCValue("Speedbase", .nan) } throws: { isInvalidParameter($0, naming: "value") }
        #expect { try e.setRTPCValue("Speedbase", 1, on: GameObjectID(9)) } throws: {
            isIDNotFound($0, naming: "game object 9")
        }
        #expect { try e.setRTPCValue("Speedbase", 1, ramp: .seconds(-1)) } throws: {
            isInvalidParameter($0, naming: "ramp")
        }
        #expect { try e.setState("TimeOfDaybase", "Nite") } throws: {
            isIDNotFound($0, naming: "state 'Nite' in group 'TimeOfDaybase'")
        }
        #expect { try e.setState("Weather", "day") } throws: { isIDNotFound($0, naming: "state group 'Weather'") }
        #expect { try e.setState(.id(ContentID("TimeOfDaybase")), .id(ContentID(rawValue: 42))) } throws: {
            isIDNotFound($0, naming: "state ID 42")
        }
        #expect { try e.setSwitch("Surfacebase", "lava", on: Self.hero) } throws: {
            isIDNotFound($0, naming: "switch 'lava' in group 'Surfacebase'")
        }
        #expect { try e.setSwitch("Surfacebase", "mud", on: GameObjectID(8)) } throws: {
            isIDNotFound($0, naming: "game object 8")
        }
        #expect { try e.setPosition(Self.hero, Vector3(x: .nan, y: 0, z: 0)) } throws: {
            isInvalidParameter($0, naming: "position")
        }
        let zero = Orientation(front: .zero, top: Vector3(x: 0, y: 1, z: 0))
        #expect { try e.setPosition(Self.hero, .zero, orientation: zero) } throws: {
            isInvalidParameter($0, naming: "front")
        }
        let parallel = Orientation(front: Vector3(x: 0, y: 1, z: 0), top: Vector3(x: 0, y: 2, z: 0))
        #expect { try e.setPosition(Self.hero, .zero, orientation: parallel) } throws: {
            isInvalidParameter($0, naming: "parallel")
        }
        #expect { try e.setPosition(GameObjectID(6), .zero) } throws: { isIDNotFound($0, naming: "game object 6") }
        #expect { try e.setDefaultListeners([GameObjectID(6)]) } throws: { isIDNotFound($0, naming: "game object 6") }
        #expect { try e.stop(PlayingID(rawValue: 1), fade: .seconds(-1)) } throws: {
            isInvalidParameter($0, naming: "fade")
        }
        #expect { try e.unloadBank(BankID(name: "nope")) } throws: { isIDNotFound($0, naming: "not loaded") }
        #expect { try e.loadBank(path: rig.folder + "/missing.json") } throws: { error in
            if case .invalidFile? = error as? SoundEngineError { return true }
            return false
        }

        // Nothing changed.
        #expect(try e.rtpcValue("Speedbase") == 0.5)
        #expect(try e.currentState("TimeOfDaybase") == "day")
        #expect(try e.switchValue("Surfacebase", on: Self.hero) == "grass")
        let kept = e.content.state.withLock { s in (s.gameObjects[Self.hero]?.position, s.defaultListeners, s.playings.count) }
        #expect(kept.0 == Vector3(x: 1, y: 2, z: 3) && kept.1 == [Self.hero] && kept.2 == 0)
        #expect(rig.contentVoiceCount == 0)
        // And it still plays.
        try e.postEvent("Play", on: Self.hero)
        #expect(rig.levels().left > 0.1)
    }

    @Test func aCollidingBankChangesNothingAndNamesBothBanks() throws {
        let rig = try ContentRig()
        try rig.engine.loadBank(Self.bank(rig, name: "a"))
        let sounds = rig.engine.mixer.loadedSoundCount
        // "b" brings its own bus and sound, but its event collides with a's.
        #expect { try rig.engine.loadBank(Self.bank(rig, name: "b", event: "Play", bus: "sfx")) } throws: {
            isInvalidParameter($0, naming: "event 'Play' of bank 'b' collides with event 'Play' of bank 'a'")
        }
        #expect(rig.engine.mixer.loadedSoundCount == sounds)
        #expect(try rig.engine.bus(named: "sfx") == nil)
        #expect { try rig.engine.loadBank(Self.bank(rig, name: "a", event: "Other", bus: "sfx")) } throws: {
            isInvalidParameter($0, naming: "bank 'a' is already loaded")
        }
        #expect { try rig.engine.loadBank(Self.bank(rig, name: "c", event: "Other", bus: "music")) } throws: {
            isInvalidParameter($0, naming: "bus 'music' of bank 'c' collides with bus 'music' of bank 'a'")
        }
        // A bank that names a bus nobody defines.
        var lost = Self.bank(rig, name: "d", event: "D", bus: "d-bus")
        lost.sounds["d-tone"]?.bus = "nowhere"
        #expect { try rig.engine.loadBank(lost) } throws: { isIDNotFound($0, naming: "bus 'nowhere' (of sound 'd-tone')") }
        // Without the collision it loads, and posts.
        try rig.engine.loadBank(Self.bank(rig, name: "b", event: "PlayB", bus: "sfx"))
        try rig.engine.registerGameObject(Self.hero)
        try rig.engine.postEvent("PlayB", on: Self.hero)
    }

    @Test func aFailedDecodeOrBusUndoesEverythingItMade() throws {
        var settings = InitSettings()
        settings.maxBuses = 4  // master + 3
        let rig = try ContentRig(settings)
        var broken = Self.bank(rig, name: "a")
        broken.sounds["z-missing"] = BankSound(name: "z-missing", file: rig.folder + "/missing.wav")
        #expect { try rig.engine.loadBank(broken) } throws: { error in
            guard case .fileNotFound(let why)? = error as? SoundEngineError else { return false }
            return why.contains("sound 'z-missing' of bank 'a'")
        }
        #expect(rig.engine.mixer.loadedSoundCount == 0)
        #expect(try rig.engine.bus(named: "music") == nil)

        // Four buses do not fit: the ones made are retired, the sounds unloaded.
        var big = Self.bank(rig, name: "big")
        big.buses = ["music", "b2", "b3", "b4"].map { BankBus(name: $0) }
        #expect(throws: SoundEngineError.self) { try rig.engine.loadBank(big) }
        #expect(rig.engine.mixer.loadedSoundCount == 0)
        #expect(rig.engine.content.state.withLock { $0.banks.isEmpty && $0.buses.count == 1 })
        // Three do, reusing the retired buses: nothing leaked.
        big.buses.removeLast()
        try rig.engine.loadBank(big)
        try rig.engine.registerGameObject(Self.hero)
        try rig.engine.postEvent("Play", on: Self.hero)
        rig.render(4800)
        #expect(rig.levels().left > 0.1)
    }

    @Test func aBankOthersBuildOnCannotBeUnloadedFirst() throws {
        let rig = try ContentRig()
        let base = try rig.engine.loadBank(Self.bank(rig, name: "a"))
        var child = Self.bank(rig, name: "child", event: "Child", bus: "voices")
        child.buses = [BankBus(name: "voices", parent: "music")]
        let childID = try rig.engine.loadBank(child)
        #expect { try rig.engine.unloadBank(base) } throws: {
            isInvalidParameter($0, naming: "bus 'music' is the parent of bus 'voices' of bank 'child'")
        }
        try rig.engine.unloadBank(childID)
        try rig.engine.unloadBank(base)
        #expect(rig.engine.mixer.loadedSoundCount == 0)
    }
}
