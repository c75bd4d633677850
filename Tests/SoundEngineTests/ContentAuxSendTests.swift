import Foundation
import SoundBackend
import SoundContent
import SoundCore
@testable import SoundEngine
import SoundMixer
import Testing

/// Reverb sends of a bank (issue 17, item 3): game-defined sends of a game
/// object, a sound's own sends, and their levels from the attenuation's
/// aux-send curve and from RTPCs, measured on the buses' meters.
@Suite struct ContentAuxSendTests {
    static let player = GameObjectID(3)

    static func start(_ change: (inout Bank) -> Void = { _ in }) throws -> ContentRig {
        let rig = try ContentRig()
        let tone = rig.sineFile("tone")
        var bank = Bank(
            name: "sends", folder: rig.folder,
            sounds: [
                "steps": BankSound(name: "steps", file: tone, loop: true, bus: "sfx"),
                "voice": BankSound(
                    name: "voice", file: tone, loop: true, bus: "sfx", auxSends: [BankAuxSend(bus: "reverb", volumeDB: -6)]),
                "far": BankSound(name: "far", file: tone, loop: true, bus: "sfx", attenuation: "room"),
            ],
            buses: [
                BankBus(name: "sfx"),
                BankBus(name: "reverb", aux: true),
                BankBus(name: "hall", aux: true),
            ],
            attenuations: [
                "room": BankAttenuation(
                    name: "room", volume: Curve(points: [(0, 0), (100, 0)]),
                    auxSend: Curve(points: [(0, -12), (100, 0)]))
            ],
            rtpcs: [
                "Wetness": BankRTPC(
                    name: "Wetness", range: 0...1, defaultValue: 1,
                    bindings: [RTPCBinding(target: .auxSendVolume(object: "steps"), curve: Curve(points: [(0, -20), (1, 0)]))])
            ],
            events: [
                "Steps": BankEvent(name: "Steps", actions: [BankAction(.play(object: "steps", fadeIn: .zero))]),
                "Voice": BankEvent(name: "Voice", actions: [BankAction(.play(object: "voice", fadeIn: .zero))]),
                "Far": BankEvent(name: "Far", actions: [BankAction(.play(object: "far", fadeIn: .zero))]),
            ])
        change(&bank)
        try rig.engine.loadBank(bank)
        try rig.engine.registerGameObject(player, name: "player")
        return rig
    }

    /// The aux bus's meter over the dry bus's, in dB, once the moves settled.
    static func sendLevel(_ rig: ContentRig, aux: String = "reverb") throws -> Double {
        rig.engine.content.runQueuedPosts()
        rig.render(9600)  // past the 16 ms ramps, then whole meter windows
        rig.render(9600)
        let sfx = try #require(try rig.engine.bus(named: "sfx")), wet = try #require(try rig.engine.bus(named: aux))
        let dry = try rig.engine.meter(sfx).rms, sent = try rig.engine.meter(wet).rms
        #expect(dry > 0.1, "the dry bus plays")
        return dB(Double(sent) / Double(dry))
    }

    @Test func aGameObjectSendingHalfPutsTheDrySignalAtMinus6IntoTheAuxBus() throws {
        let rig = try Self.start()
        try rig.engine.setGameObjectAuxSendValues(Self.player, [SoundEngine.AuxSend(bus: "reverb", level: 0.5)])
        try rig.engine.postEvent("Steps", on: Self.player)
        #expect(abs(try Self.sendLevel(rig) + 6.0206) < 0.05)
        // Changed while it plays: the voice follows; removed: the aux bus falls silent.
        try rig.engine.setGameObjectAuxSendValues(Self.player, [SoundEngine.AuxSend(bus: "reverb", level: 1)])
        #expect(abs(try Self.sendLevel(rig)) < 0.05)
        try rig.engine.setGameObjectAuxSendValues(Self.player, [SoundEngine.AuxSend(bus: "hall", level: 0.25)])
        #expect(abs(try Self.sendLevel(rig, aux: "hall") + 12.04) < 0.05)
        #expect(try Self.sendLevel(rig) < -90, "the old send ramped out")
    }

    @Test func aSoundsOwnSendAddsToTheGameObjects() throws {
        let rig = try Self.start()
        try rig.engine.postEvent("Voice", on: Self.player)
        #expect(abs(try Self.sendLevel(rig) + 6.0206) < 0.05, "the bank's −6 dB send")
        try rig.engine.setGameObjectAuxSendValues(Self.player, [SoundEngine.AuxSend(bus: "reverb", level: 0.5)])
        #expect(abs(try Self.sendLevel(rig)) < 0.05, "0.5 + 0.5: the dry level")
    }

    @Test func theDistanceCurveAndRTPCsSetTheSendLevel() throws {
        let rig = try Self.start()
        try rig.engine.setGameObjectAuxSendValues(Self.player, [SoundEngine.AuxSend(bus: "reverb", level: 1)])
        try rig.engine.setPosition(Self.player, SoundEngine.Vector3(x: 0, y: 0, z: 50))
        try rig.engine.postEvent("Far", on: Self.player)
        #expect(abs(try Self.sendLevel(rig) + 6) < 0.05, "the curve at 50: −6 dB")
        let rig2 = try Self.start()
        try rig2.engine.setGameObjectAuxSendValues(Self.player, [SoundEngine.AuxSend(bus: "reverb", level: 1)])
        try rig2.engine.postEvent("Steps", on: Self.player)
        try rig2.engine.setRTPCValue("Wetness", 0.5, on: Self.player)
        #expect(abs(try Self.sendLevel(rig2) + 10) < 0.05, "the RTPC at 0.5: −10 dB")
    }

    @Test func badSendsAreRefusedNamingWhatIsWrongAndChangeNothing() throws {
        let rig = try Self.start()
        try rig.engine.setGameObjectAuxSendValues(Self.player, [SoundEngine.AuxSend(bus: "reverb", level: 0.5)])
        let refusals: [([SoundEngine.AuxSend], String)] = [
            ([.init(bus: "sfx", level: 1)], "not an aux bus"),
            ([.init(bus: "nowhere", level: 1)], "'nowhere'"),
            ([.init(bus: "reverb", level: .nan)], "level"),
            ([.init(bus: "reverb", level: 17)], "level"),
            ([.init(bus: "reverb", level: 1), .init(bus: "REVERB", level: 1)], "twice"),
            (Array(repeating: .init(bus: "reverb", level: 1), count: 5), "at most 4"),
        ]
        for (sends, words) in refusals {
            #expect {
                try rig.engine.setGameObjectAuxSendValues(Self.player, sends)
            } throws: { error in
                "\(error)".contains(words)
            }
        }
        #expect(throws: SoundEngineError.self) {
            try rig.engine.setGameObjectAuxSendValues(GameObjectID(99), [.init(bus: "reverb", level: 1)])
        }
        try rig.engine.postEvent("Steps", on: Self.player)
        #expect(abs(try Self.sendLevel(rig) + 6.0206) < 0.05, "the sends set before the refusals hold")
    }

    @Test func aBankSendToABusThatIsNotAuxIsRefused() throws {
        #expect {
            _ = try Self.start { $0.sounds["voice"]?.auxSends = [BankAuxSend(bus: "sfx")] }
        } throws: { error in
            "\(error)".contains("not an aux bus")
        }
        let parsed = BankParser.parse(Array(#"""
            {"sounds": {"s": {"file": "x.wav", "auxSends": [{"bus": "r", "volume": -3}, {"bus": "r"}]}},
             "buses": {"r": {"aux": true}}, "events": {}}
            """#.utf8), name: "b", folder: "/tmp", options: BankLoadOptions(allowFilesOutsideBankFolder: true))
        guard case .failure(let issues) = parsed else {
            Issue.record("a sound sending to one bus twice was accepted")
            return
        }
        #expect("\(issues)".contains("twice"), "\(issues)")
    }
}
