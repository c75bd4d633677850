import Foundation
import SoundBackend
import SoundContent
import SoundCore
import SoundEffects
@testable import SoundEngine
import SoundMixer
import Testing

/// Bus effects from banks and from the game (issue 17, item 2): declared in
/// a bank with their parameters by name, keyed by another bus, driven by
/// RTPCs, set and moved at run time, and gone with their bank.
@Suite struct ContentEffectTests {
    static let player = GameObjectID(5)

    static let json = #"""
        {
          "buses": {
            "dialogue": {},
            "music": {"effects": [
              {"type": "parametricEQ", "band1Type": "highPass", "band1Frequency": 80, "outputGain": -1},
              {"type": "compressor", "threshold": -30, "ratio": 4, "attack": 0.001, "release": 0.05, "sidechain": "dialogue"}
            ]},
            "room": {"aux": true, "effects": [{"type": "reverb", "rt60": 1.2, "preDelay": 0.01, "wet": 0.5, "dry": 0}]}
          },
          "rtpcs": {
            "Wetness": {"min": 0, "max": 1, "default": 0.5,
              "bindings": [{"target": "effect", "bus": "room", "effect": 0, "parameter": "wet", "curve": [[0, 0], [1, 1]]}]}
          },
          "sounds": {
            "tune": {"file": "tone.wav", "loop": true, "bus": "music"},
            "line": {"file": "tone.wav", "loop": true, "bus": "dialogue"},
            "step": {"file": "tone.wav", "loop": true, "auxSends": [{"bus": "room", "volume": 0}]}
          },
          "events": {
            "Tune": {"actions": [{"type": "play", "sound": "tune"}]},
            "Line": {"actions": [{"type": "play", "sound": "line"}]},
            "Step": {"actions": [{"type": "play", "sound": "step"}]}
          }
        }
        """#

    static func start() throws -> (ContentRig, BankID) {
        let rig = try ContentRig()
        _ = rig.sineFile("tone", frequency: 440, amplitude: 0.5)
        let path = rig.folder + "/effects.json"
        _ = FileManager.default.createFile(atPath: path, contents: Data(json.utf8))
        let id = try rig.engine.loadBank(path: path)
        try rig.engine.registerGameObject(player, name: "player")
        return (rig, id)
    }

    static func parse(_ json: String) -> Result<Bank, BankIssues> {
        BankParser.parse(Array(json.utf8), name: "t", folder: "/tmp", options: BankLoadOptions(checkFilesExist: false))
    }

    @Test func aBankDeclaresEffectsByNameInItsUnits() throws {
        let bank = try Self.parse(Self.json).get()
        let music = try #require(bank.buses.first { $0.name == "music" })
        #expect(music.effects.map(\.kind) == [.parametricEQ, .compressor])
        let eq = music.effects[0].parameters, compressor = music.effects[1].parameters
        #expect(eq[EffectParameters.EQ.type(band: 0)] == Float(EQBandType.highPass.rawValue))
        #expect(eq[EffectParameters.EQ.outputGain] == -1)
        #expect(compressor[EffectParameters.Compressor.attack] == 1, "0.001 s in the bank is 1 ms in the engine")
        #expect(music.effects[1].sidechain == "dialogue")
        #expect(bank.rtpcs["Wetness"]?.bindings.first?.target == .effectParameter(bus: "room", effect: 0, parameter: "wet"))
    }

    @Test func badEffectsInABankAreReportedWithTheirPath() throws {
        let cases: [(String, String)] = [
            (#"{"type": "reverb", "rt6": 2}"#, "rt6"),
            (#"{"type": "reverb", "rt60": 50}"#, "rt60"),
            (#"{"type": "reverb", "sidechain": "x"}"#, "sidechain"),
            (#"{"type": "chorus"}"#, "chorus"),
            (#"{"type": "compressor", "attack": 600}"#, "attack"),
        ]
        for (effect, words) in cases {
            let json = #"{"buses": {"b": {"effects": [EFFECT]}}, "sounds": {}, "events": {}}"#.replacingOccurrences(of: "EFFECT", with: effect)
            guard case .failure(let issues) = Self.parse(json) else {
                Issue.record("accepted: \(effect)")
                continue
            }
            #expect("\(issues)".contains(words) && "\(issues)".contains("$.buses.b.effects[0]"), "\(issues)")
        }
        let five = #"{"buses": {"b": {"effects": [{"type": "delay"}, {"type": "delay"}, {"type": "delay"}, {"type": "delay"}, {"type": "delay"}]}}, "sounds": {}, "events": {}}"#
        #expect("\(Self.parse(five))".contains("at most 4"))
    }

    @Test func theRTPCMovesTheReverbsWetLevelAndTheSidechainDucksMusic() throws {
        let (rig, _) = try Self.start()
        let room = try #require(try rig.engine.bus(named: "room")), music = try #require(try rig.engine.bus(named: "music"))
        #expect(rig.engine.playback.mixer.busEffect(room, index: 0)?.kind == .reverb)
        #expect(rig.engine.playback.mixer.busEffect(music, index: 1)?.sidechain == (try rig.engine.bus(named: "dialogue")))
        try rig.engine.postEvent("Step", on: Self.player)
        func roomLevel() -> Float {
            rig.engine.content.runQueuedPosts()
            rig.render(24_000)
            return (try? rig.engine.meter(room).rms) ?? 0
        }
        let half = roomLevel()
        try rig.engine.setRTPCValue("Wetness", 1)
        let full = roomLevel()
        #expect(abs(dB(Double(full / half)) - 6.02) < 1, "wet 0.5 → 1: \(half) → \(full)")
        try rig.engine.setRTPCValue("Wetness", 0)
        #expect(roomLevel() < full / 100)

        try rig.engine.postEvent("Tune", on: Self.player)
        _ = roomLevel()
        let alone = try rig.engine.meter(music).rms
        try rig.engine.postEvent("Line", on: Self.player)
        _ = roomLevel()
        let ducked = try rig.engine.meter(music).rms
        #expect(dB(Double(ducked / alone)) < -6, "music under dialogue: \(alone) → \(ducked)")
    }

    @Test func unloadingTheBankTakesItsEffectsAway() throws {
        let (rig, id) = try Self.start()
        let room = try #require(try rig.engine.bus(named: "room"))
        try rig.engine.unloadBank(id)
        #expect(rig.engine.playback.mixer.busEffect(room, index: 0) == nil)
    }

    @Test func theGameSetsAndMovesEffectsAndIsToldWhatIsWrong() throws {
        let rig = try ContentRig()
        let bus = try rig.engine.createBus(name: "fx")
        try rig.engine.setBusEffect(bus, index: 2, .delay(time: .milliseconds(120), feedback: 0.5))
        #expect(rig.engine.playback.mixer.busEffect(bus, index: 2)?.kind == .delay)
        try rig.engine.setBusEffectParameter(bus, index: 2, "time", 0.3, ramp: .milliseconds(100))
        func refused(_ words: String, _ call: () throws -> Void) {
            #expect { try call() } throws: { error in "\(error)".contains(words) }
        }
        refused("time") { try rig.engine.setBusEffectParameter(bus, index: 2, "time", 5) }
        refused("it has time, feedback") { try rig.engine.setBusEffectParameter(bus, index: 2, "rt60", 1) }
        refused("slot 1") { try rig.engine.setBusEffectParameter(bus, index: 1, "time", 0.1) }
        refused("time") { try rig.engine.setBusEffectParameter(bus, index: 2, "time", .nan) }
        refused("ratio") { try rig.engine.setBusEffect(bus, index: 0, .compressor(ratio: .infinity)) }
        refused("compressor attack") { try rig.engine.setBusEffect(bus, index: 0, .compressor(attack: .seconds(-1))) }
        refused("at most 6") {
            try rig.engine.setBusEffect(bus, index: 0, .parametricEQ(bands: Array(repeating: .init(.peak, frequency: 100), count: 7)))
        }
        refused("band1Frequency") { try rig.engine.setBusEffect(bus, index: 0, .parametricEQ(bands: [.init(.peak, frequency: 5)])) }
        refused("index") { try rig.engine.setBusEffect(bus, index: 4, .limiter()) }
        refused("before itself") { try rig.engine.setBusEffect(bus, index: 0, .compressor(sidechain: bus)) }
        #expect(rig.engine.playback.mixer.busEffect(bus, index: 0) == nil, "nothing changed")
        try rig.engine.setBusEffect(bus, index: 2, nil)
        #expect(rig.engine.playback.mixer.busEffect(bus, index: 2) == nil)
    }
}
