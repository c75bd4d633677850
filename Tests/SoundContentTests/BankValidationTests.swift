import SoundContent
import Testing

/// One test per class of mistake: the exact JSON path, and a reason that
/// names the culprit.
@Suite struct BankValidationTests {
    @Test func theBaseBankIsValid() {
        #expect(issues(bankJSON()) == [])
    }

    @Test func malformedJSONGivesLineAndColumn() {
        let json = "{\n  \"sounds\": {\n    \"step\": {\"file\": \"a.wav\",}\n  }\n}"
        expectIssue(json, at: "$.sounds.step", mentioning: ["line 3", "column 30", "expected a quoted key", "'}'"])
    }

    @Test func emptyAndTruncatedFilesAreMalformed() {
        expectIssue("", at: "$", mentioning: ["empty"])
        expectIssue(#"{"sounds": {"#, at: "$.sounds", mentioning: ["end of the file"])
        expectIssue(#"{"sounds": {}, "events": {}} x"#, at: "$", mentioning: ["'x'", "after the end"])
    }

    @Test func theTopLevelMustBeAnObjectWithSoundsAndEvents() {
        expectIssue("[1]", at: "$", mentioning: ["a bank", "a list"])
        expectIssue(#"{"sounds": {}}"#, at: "$.events", mentioning: ["events"])
    }

    @Test func wrongTypesNameTheExpectedAndFoundTypes() {
        let json = bankJSON(sounds: #"{"step": {"file": "a.wav", "loop": "yes"}}"#, events: "{}")
        expectIssue(json, at: "$.sounds.step.loop", mentioning: ["true or false", "a string"])
        let list = bankJSON(events: #"{"Play_Step": {"actions": {"type": "play"}}}"#)
        expectIssue(list, at: "$.events.Play_Step.actions", mentioning: ["a list", "an object"])
    }

    @Test func unknownKeysAreNamedWithASuggestion() {
        let json = bankJSON(sounds: #"{"step": {"file": "a.wav", "volum": -3}}"#, events: "{}")
        expectIssue(json, at: "$.sounds.step.volum", mentioning: ["'volum'", "did you mean 'volume'"])
        expectIssue(bankJSON(extra: ["bussses": "{}"]), at: "$.bussses", mentioning: ["'bussses'", "'buses'"])
    }

    @Test func keysOfAnotherContainerTypeAreUnknown() {
        let json = bankJSON(extra: [
            "containers": #"{"seq": {"type": "sequence", "children": ["step"], "avoidRepeat": 1}}"#
        ])
        expectIssue(json, at: "$.containers.seq.avoidRepeat", mentioning: ["'avoidRepeat'", "sequence container"])
    }

    @Test func missingRequiredKeysAreReportedWhereTheyBelong() {
        let json = bankJSON(sounds: #"{"step_grass": {"loop": true}}"#, events: "{}")
        expectIssue(json, at: "$.sounds.step_grass.file", mentioning: ["'file'", "step_grass"])
        let action = bankJSON(events: #"{"E": {"actions": [{"type": "setBusVolume", "bus": "master"}]}}"#)
        expectIssue(action, at: "$.events.E.actions[0].volume", mentioning: ["'volume'"])
        let target = bankJSON(events: #"{"E": {"actions": [{"type": "play"}]}}"#)
        expectIssue(target, at: "$.events.E.actions[0].sound", mentioning: ["'sound'", "'container'"])
    }

    @Test func duplicateKeysAreErrors() {
        let json = "{\"sounds\": {\"step\": {\"file\": \"a.wav\"},\n \"step\": {\"file\": \"b.wav\"}}, \"events\": {}}"
        expectIssue(json, at: "$.sounds.step", mentioning: ["duplicate key 'step'", "line 1, column 13"])
    }

    @Test("Numbers outside their ranges name the value and the range", arguments: [
        (#""volume": 30"#, "$.sounds.step.volume", ["30", "dB", "-96…24"]),
        (#""volume": -97"#, "$.sounds.step.volume", ["-97", "dB"]),
        (#""pitch": 2401"#, "$.sounds.step.pitch", ["2401", "cents"]),
        (#""priority": 101"#, "$.sounds.step.priority", ["101", "0…100"]),
        (#""priority": 1.5"#, "$.sounds.step.priority", ["whole number", "1.5"]),
        (#""volume": 1e999"#, "$.sounds.step.volume", ["finite"]),
    ])
    func outOfRangeNumbers(field: String, path: String, mentions: [String]) {
        let json = bankJSON(sounds: #"{"step": {"file": "a.wav", \#(field)}}"#, events: "{}")
        expectIssue(json, at: path, mentioning: mentions)
    }

    @Test func negativeTimesAreRefused() {
        let json = bankJSON(events: #"{"E": {"actions": [{"type": "play", "sound": "step", "delay": -1}]}}"#)
        expectIssue(json, at: "$.events.E.actions[0].delay", mentioning: ["-1", "seconds"])
    }

    @Test("Unknown names of every kind are reported where they are used", arguments: [
        (["buses": #"{"sfx": {"parent": "mastr"}}"#], "$.buses.sfx.parent", ["unknown bus 'mastr'", "'master'"]),
        (["containers": #"{"r": {"type": "random", "children": ["stepp"]}}"#], "$.containers.r.children[0]",
         ["unknown sound or container 'stepp'", "did you mean 'step'"]),
        (["rtpcs": #"{"RPM": {"min": 0, "max": 1, "bindings": [{"target": "pitch", "sound": "engine", "curve": [[0, 0]]}]}}"#],
         "$.rtpcs.RPM.bindings[0].sound", ["unknown sound 'engine'"]),
    ])
    func unknownNames(extra: [String: String], path: String, mentions: [String]) {
        expectIssue(bankJSON(extra: extra), at: path, mentioning: mentions)
    }

    @Test("Unknown names in actions", arguments: [
        (#"{"type": "play", "sound": "stp"}"#, "$.events.E.actions[0].sound", ["unknown sound 'stp'"]),
        (#"{"type": "play", "container": "step"}"#, "$.events.E.actions[0].container", ["'step' is a sound"]),
        (#"{"type": "setBusVolume", "bus": "music", "volume": -6}"#, "$.events.E.actions[0].bus", ["unknown bus 'music'"]),
        (#"{"type": "setState", "group": "Health", "state": "low"}"#, "$.events.E.actions[0].group",
         ["unknown state group 'Health'"]),
        (#"{"type": "setSwitch", "group": "surface", "value": "mud"}"#, "$.events.E.actions[0].value",
         ["'mud'", "switch group 'surface'", "grass"]),
        (#"{"type": "post", "event": "Nope"}"#, "$.events.E.actions[0].event", ["unknown event 'Nope'"]),
    ])
    func unknownNamesInActions(action: String, path: String, mentions: [String]) {
        let json = bankJSON(events: #"{"E": {"actions": [\#(action)]}}"#,
                            extra: ["switches": #"{"surface": {"values": ["grass", "wood"]}}"#])
        expectIssue(json, at: path, mentioning: mentions)
    }

    @Test func unknownAttenuationOnASound() {
        let json = bankJSON(sounds: #"{"step": {"file": "a.wav", "attenuation": "far"}}"#, events: "{}")
        expectIssue(json, at: "$.sounds.step.attenuation", mentioning: ["unknown attenuation 'far'"])
    }

    @Test func aNameCannotBeBothASoundAndAContainer() {
        let json = bankJSON(extra: ["containers": #"{"step": {"type": "blend", "children": ["theme"]}}"#])
        expectIssue(json, at: "$.containers.step", mentioning: ["'step'", "both a sound and a container"])
    }

    @Test("Bad curves", arguments: [
        ("[]", "$.attenuations.near.volume", ["at least one point"]),
        ("[[0, 0], [10, -10], [5, -20]]", "$.attenuations.near.volume[2]", ["x 5", "sorted"]),
        ("[[0, 0], [10, -10], [10, -20]]", "$.attenuations.near.volume[2]", ["x 10", "twice"]),
        ("[[0, 0], [1e999, -10]]", "$.attenuations.near.volume[1][0]", ["finite"]),
        ("[[0, 0, 1]]", "$.attenuations.near.volume[0]", ["[x, y]", "3"]),
        (#"{"points": [[0, 0]], "shape": "curvy"}"#, "$.attenuations.near.volume.shape", ["'curvy'", "sCurve"]),
    ])
    func badCurves(curve: String, path: String, mentions: [String]) {
        let json = bankJSON(extra: ["attenuations": #"{"near": {"volume": \#(curve)}}"#])
        expectIssue(json, at: path, mentioning: mentions)
    }

    @Test func busCyclesAreFound() {
        let json = bankJSON(extra: ["buses": #"{"a": {"parent": "b"}, "b": {"parent": "a"}}"#])
        expectIssue(json, at: "$.buses.b.parent", mentioning: ["cycle", "a → b → a"])
        let own = bankJSON(extra: ["buses": #"{"a": {"parent": "a"}}"#])
        expectIssue(own, at: "$.buses.a.parent", mentioning: ["a → a"])
    }

    @Test func containersContainingThemselvesAreFound() {
        let json = bankJSON(extra: ["containers": """
            {"outer": {"type": "sequence", "children": ["step", "inner"]},
             "inner": {"type": "random", "children": ["theme", "outer"]}}
            """])
        expectIssue(json, at: "$.containers.inner.children[1]", mentioning: ["contains itself", "outer → inner → outer"])
    }

    @Test func eventsPostingEachOtherWithoutDelayAreFound() {
        let loop = bankJSON(events: """
            {"A": {"actions": [{"type": "post", "event": "B"}]},
             "B": {"actions": [{"type": "play", "sound": "step"}, {"type": "post", "event": "A"}]}}
            """)
        expectIssue(loop, at: "$.events.B.actions[1].event", mentioning: ["no delay", "A → B → A"])
        // With a delay it is a repeating event, which is allowed.
        let delayed = bankJSON(events: #"{"A": {"actions": [{"type": "post", "event": "A", "delay": 1}]}}"#)
        #expect(issues(delayed) == [])
    }

    @Test func switchCasesMustNameValuesOfTheGroup() {
        let json = bankJSON(extra: [
            "switches": #"{"surface": {"values": ["grass", "wood"]}}"#,
            "containers": #"{"steps": {"type": "switch", "group": "surface", "cases": {"grass": "step", "mud": "theme"}}}"#,
        ])
        expectIssue(json, at: "$.containers.steps.cases.mud", mentioning: ["'mud'", "surface", "grass, wood"])
    }

    @Test func avoidRepeatMustLeaveAChildToPick() {
        let json = bankJSON(extra: [
            "containers": #"{"r": {"type": "random", "children": ["step", "theme"], "avoidRepeat": 2}}"#
        ])
        expectIssue(json, at: "$.containers.r.avoidRepeat", mentioning: ["avoidRepeat 2", "number of children (2)"])
    }

    @Test func weightsNeedOnePerChild() {
        let json = bankJSON(extra: [
            "containers": #"{"r": {"type": "random", "children": ["step", "theme"], "weights": [1]}}"#
        ])
        expectIssue(json, at: "$.containers.r.weights", mentioning: ["1 weight", "2 child"])
    }

    @Test func theDefaultStateMustBeAState() {
        let json = bankJSON(extra: ["states": #"{"Health": {"states": ["normal", "low"], "default": "dead"}}"#])
        expectIssue(json, at: "$.states.Health.default", mentioning: ["'dead'", "normal, low"])
    }

    @Test func stateBusVolumesNameStatesAndBuses() {
        let json = bankJSON(extra: [
            "states": #"{"Health": {"states": ["normal", "low"], "busVolumes": {"low": {"musik": -6}}}}"#
        ])
        expectIssue(json, at: "$.states.Health.busVolumes.low.musik", mentioning: ["unknown bus 'musik'"])
    }

    @Test func namesDifferingOnlyInCaseCollide() {
        let json = bankJSON(events: """
            {"Play_Step": {"actions": []}, "play_step": {"actions": []}}
            """)
        expectIssue(json, at: "$.events.play_step", mentioning: ["'play_step'", "'Play_Step'", "case"])
    }

    @Test func hashCollisionsBetweenDifferentNamesAreFound() {
        // FNV-1 32-bit of "s77998" and "s390206" are both 3670091928.
        #expect(ContentID("s77998") == ContentID("s390206"))
        let json = bankJSON(sounds: #"{"s77998": {"file": "a.wav"}, "s390206": {"file": "b.wav"}}"#, events: "{}")
        expectIssue(json, at: "$.sounds.s390206", mentioning: ["'s390206'", "'s77998'", "collision"])
    }

    @Test func aBankCannotRedefineAnExistingBus() {
        let options = BankLoadOptions(existingBuses: ["master", "music"], checkFilesExist: false)
        let json = bankJSON(extra: ["buses": #"{"music": {}}"#])
        expectIssue(json, at: "$.buses.music", mentioning: ["'music'", "exists already"], options: options)
        // …but may use it.
        let use = bankJSON(sounds: #"{"theme": {"file": "t.wav", "bus": "music"}}"#, events: "{}")
        #expect(issues(use, options: options) == [])
    }

    @Test func nestingIsCappedInsteadOfOverflowingTheStack() {
        let deep = String(repeating: "[", count: 100_000)
        expectIssue(#"{"sounds": \#(deep)"#, at: "$.sounds" + (0..<63).map { _ in "[0]" }.joined(),
                    mentioning: ["nested deeper than 64"])
    }

    @Test func everyErrorIsReportedInDocumentOrder() {
        let json = """
            {
              "sounds": {
                "step": {"file": "/etc/passwd", "volum": 3},
                "engine": {"file": "e.wav", "pitch": 9999, "bus": "sfxx"}
              },
              "containers": {"r": {"type": "random", "children": ["step"], "avoidRepeat": 1}},
              "buses": {"sfx": {"parent": "sfx"}},
              "events": {
                "Play": {"actions": [{"type": "play", "sound": "step"}, {"type": "plya", "sound": "step"}]},
                "Stop": {"actions": [{"type": "stop", "sound": "engin", "scope": "everything"}]}
              }
            }
            """
        let found = issues(json)
        #expect(found.map(\.path) == [
            "$.sounds.step.file", "$.sounds.step.volum", "$.sounds.engine.pitch", "$.sounds.engine.bus",
            "$.containers.r.avoidRepeat", "$.buses.sfx.parent", "$.events.Play.actions[1].type",
            "$.events.Stop.actions[0].sound", "$.events.Stop.actions[0].scope",
        ], "\(found)")
        #expect(found.allSatisfy { !$0.reason.isEmpty })
    }

    @Test func bankIssuesBecomeAnInvalidFileErrorListingThemAll() {
        guard case .failure(let failure) = parse(bankJSON(sounds: #"{"a": {}, "b": {}}"#, events: "{}")) else {
            Issue.record("expected a failure")
            return
        }
        guard case .invalidFile(let message) = failure.engineError else {
            Issue.record("expected invalidFile, got \(failure.engineError)")
            return
        }
        #expect(message.contains("2 error(s)"))
        #expect(message.contains("$.sounds.a.file") && message.contains("$.sounds.b.file"))
    }
}
