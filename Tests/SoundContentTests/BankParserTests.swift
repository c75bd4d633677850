import Foundation
import SoundContent
import SoundEffects
import Testing

/// The committed demo bank (Examples/Banks/demo/demo.json).
let demoBankPath: String = {
    let here = URL(fileURLWithPath: #filePath)  // Tests/SoundContentTests/BankParserTests.swift
    return here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/Banks/demo/demo.json").path
}()

@Suite struct BankParserTests {
    @Test func theDemoBankLoadsWithTheValuesItWrites() throws {
        let bank = try BankParser.load(path: demoBankPath).get()
        let folder = URL(fileURLWithPath: demoBankPath).deletingLastPathComponent().path
        #expect(bank.name == "demo")
        #expect(bank.folder == folder)

        let engine = try #require(bank.sounds["engine_loop"])
        #expect(engine == BankSound(name: "engine_loop", file: folder + "/sounds/engine_loop.wav", loop: true,
                                    volumeDB: -2, bus: "vehicles", priority: 80, virtualBehavior: .continue))
        #expect(bank.sounds["music_loop"]?.stream == true)
        #expect(bank.sounds["ui_click"]?.pitchCents == 200)
        #expect(bank.sounds["emitter_hum"]?.attenuation == "emitter_3d")

        let footsteps = try #require(bank.containers["footsteps"])
        #expect(footsteps.kind == .switchGroup(group: "Surface", defaultChild: "footsteps_grass"))
        #expect(footsteps.switchChildren == ["grass": "footsteps_grass", "gravel": "footsteps_gravel",
                                             "wood": "footsteps_wood"])
        #expect(footsteps.children == ["footsteps_grass", "footsteps_gravel", "footsteps_wood"])
        #expect(bank.containers["footsteps_wood"] == BankContainer(
            name: "footsteps_wood", kind: .random(weights: [2, 1, 1], avoidRepeatCount: 1),
            children: ["step_wood_1", "step_wood_2", "step_wood_3"], pitchCents: -100))
        #expect(bank.containers["footsteps_gravel"]?.kind == .random(weights: [1, 1, 1], avoidRepeatCount: 2))

        let rpm = try #require(bank.rtpcs["RPM"])
        #expect(rpm.range == 0...8000 && rpm.defaultValue == 800)
        #expect(rpm.bindings.first == RTPCBinding(target: .pitch(object: "engine_loop"),
                                                  curve: Curve(points: [(0, -1200), (8000, 1200)])))
        #expect(rpm.bindings.last?.curve.shape == .sCurve)
        #expect(rpm.bindings.first?.curve.value(at: 4000) == 0)

        let dialogue = try #require(bank.buses.first { $0.name == "dialogue" })
        #expect(dialogue.ducking == [BankDucking(bus: "music", volumeDB: -12, attack: .milliseconds(100),
                                                 release: .milliseconds(500))])
        #expect(bank.buses.first { $0.name == "music" }?.muteForBackgroundMusic == true)
        #expect(bank.buses.map(\.name) == ["sfx", "footsteps", "vehicles", "world", "music", "dialogue", "ui", "reverb"])
        #expect(bank.buses.first { $0.name == "reverb" }?.aux == true)
        #expect(bank.buses.first { $0.name == "reverb" }?.effects.map(\.kind) == [.reverb])
        #expect(bank.sounds["emitter_hum"]?.auxSends == [BankAuxSend(bus: "reverb", volumeDB: -10)])

        let emitter = try #require(bank.attenuations["emitter_3d"])
        #expect(emitter.volume.value(at: 50) == -63)
        #expect(emitter.lowPass?.points.count == 2 && emitter.spatialize)

        #expect(bank.stateGroups["PlayerHealth"] == BankStateGroup(
            name: "PlayerHealth", states: ["normal", "low"], defaultState: "normal",
            busVolumes: ["low": ["music": -6]], transition: .seconds(1)))
        #expect(bank.switchGroups["Surface"] == BankSwitchGroup(name: "Surface", values: ["grass", "gravel", "wood"],
                                                                defaultValue: "grass"))
        #expect(bank.events["Play_Walk"]?.actions.map(\.delay) == [.zero, .milliseconds(500), .seconds(1)])
        #expect(bank.events["Stop_All"]?.actions == [BankAction(.stopAll(fadeOut: .milliseconds(500), scope: .global))])
    }

    @Test func everyActionTypeMapsOntoItsModelCase() throws {
        let json = bankJSON(events: """
            {"E": {"actions": [
              {"type": "play", "sound": "step", "fade": 0.25, "delay": 2},
              {"type": "stop", "sound": "step", "fade": 1},
              {"type": "stopAll", "scope": "global"},
              {"type": "pause", "sound": "theme", "scope": "global"},
              {"type": "resume", "sound": "theme", "fade": 0.5},
              {"type": "setVolume", "sound": "theme", "volume": -6},
              {"type": "setBusVolume", "bus": "master", "volume": -3, "fade": 1},
              {"type": "setState", "group": "Health", "state": "low"},
              {"type": "setSwitch", "group": "Surface", "value": "wood"},
              {"type": "post", "event": "F"}
            ]}, "F": {"actions": []}}
            """, extra: [
                "states": #"{"Health": {"states": ["normal", "low"]}}"#,
                "switches": #"{"Surface": {"values": ["grass", "wood"]}}"#,
            ])
        let bank = try #require(parsed(json))
        #expect(bank.events["E"]?.actions == [
            BankAction(.play(object: "step", fadeIn: .milliseconds(250)), delay: .seconds(2)),
            BankAction(.stop(object: "step", fadeOut: .seconds(1), scope: .gameObject)),
            BankAction(.stopAll(fadeOut: .zero, scope: .global)),
            BankAction(.pause(object: "theme", fade: .zero, scope: .global)),
            BankAction(.resume(object: "theme", fade: .milliseconds(500), scope: .gameObject)),
            BankAction(.setVolume(object: "theme", volumeDB: -6, fade: .zero, scope: .gameObject)),
            BankAction(.setBusVolume(bus: "master", volumeDB: -3, fade: .seconds(1))),
            BankAction(.setState(group: "Health", state: "low")),
            BankAction(.setSwitch(group: "Surface", value: "wood")),
            BankAction(.post(event: "F")),
        ])
        #expect(bank.stateGroups["Health"]?.defaultState == "normal")
        #expect(bank.switchGroups["Surface"]?.defaultValue == "grass")
    }

    @Test func defaultsAreThoseTheModelDocuments() throws {
        let bank = try #require(parsed(bankJSON()))
        #expect(bank.sounds["step"] == BankSound(name: "step", file: "/banks/test/step.wav"))
        #expect(bank.buses.isEmpty && bank.containers.isEmpty)
    }

    /// The three virtual behaviours, and "resume", the old name of "continue".
    @Test func virtualBehaviorsParseWithTheOldNameOfContinue() throws {
        let sounds = #"""
            {"a": {"file": "a.wav", "virtualBehavior": "kill"}, "b": {"file": "b.wav", "virtualBehavior": "continue"},
             "c": {"file": "c.wav", "virtualBehavior": "restart"}, "d": {"file": "d.wav", "virtualBehavior": "resume"},
             "step": {"file": "step.wav"}}
            """#
        let bank = try #require(parsed(bankJSON(sounds: sounds)))
        #expect(bank.sounds["a"]?.virtualBehavior == .kill)
        #expect(bank.sounds["b"]?.virtualBehavior == .continue)
        #expect(bank.sounds["c"]?.virtualBehavior == .restart)
        #expect(bank.sounds["d"]?.virtualBehavior == .continue)
        #expect(bank.sounds["step"]?.virtualBehavior == .kill)
    }

    @Test func busesComeParentsFirstWhateverTheDocumentOrder() throws {
        let json = bankJSON(extra: ["buses": """
            {"leaf": {"parent": "mid"}, "other": {}, "mid": {"parent": "top"}, "top": {"parent": "earlier"},
             "side": {"parent": "top"}}
            """])
        let options = BankLoadOptions(existingBuses: ["master", "earlier"], checkFilesExist: false)
        let bank = try #require(parsed(json, options: options))
        #expect(bank.buses.map(\.name) == ["top", "mid", "leaf", "other", "side"])
        for (index, bus) in bank.buses.enumerated() {
            let parentIndex = bank.buses.firstIndex { $0.name == bus.parent }
            #expect(parentIndex.map { $0 < index } ?? true, "\(bus.name) before its parent")
        }
    }

    @Test func aMissingBankFileIsOneIssueAtTheRoot() {
        guard case .failure(let failure) = BankParser.load(path: "/nonexistent/bank.json") else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.issues.map(\.path) == ["$"])
        #expect(failure.issues.first?.reason.contains("/nonexistent/bank.json") == true)
    }

    @Test func aCommentKeyIsAllowedAnywhere() {
        let json = bankJSON(sounds: #"{"step": {"comment": "soft", "file": "a.wav"}}"#, events: "{}")
        #expect(issues(json) == [])
    }
}

@Suite struct BankDocumentationTests {
    /// The example at the end of docs/banks.md parses, so the doc cannot
    /// show a bank the parser refuses.
    @Test func theDocumentedExampleIsAValidBank() throws {
        let docs = URL(fileURLWithPath: demoBankPath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/banks.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let example = try #require(text.components(separatedBy: "## A complete example").last)
        let json = try #require(example.components(separatedBy: "```json\n").dropFirst().first?
            .components(separatedBy: "\n```").first)
        let bank = try #require(parsed(json))
        #expect(bank.events.count == 11 && bank.buses.first?.name == "sfx")
    }
}
