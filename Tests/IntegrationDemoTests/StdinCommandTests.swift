import Foundation
@testable import IntegrationDemo
import SoundEngine
import SoundBackend
import SoundContent
import SoundCore
import SoundMixer
import SoundSession
import SoundServerSupport
import Testing

/// The headless demo's stdin protocol (SPEC 6.1, docs/integration-demo.md),
/// against a real private server.
@Suite struct StdinCommandTests {
    @Test("Every bad line gets ok:false with a reason and a code; the demo keeps going", arguments: [
        // (line, id as JSON text or nil, code, words the reason must contain)
        ("this is not json", nil, "invalidCommand", "not JSON"),
        (#"["cmd","route"]"#, nil, "invalidCommand", "JSON object"),
        (#"{"id":"no-cmd"}"#, #""no-cmd""#, "invalidCommand", "missing field 'cmd'"),
        (#"{"cmd":7,"id":1}"#, "1", "invalidCommand", "'cmd' must be a string"),
        (#"{"cmd":"fly","id":2}"#, "2", "invalidCommand", "unknown command 'fly'"),
        (#"{"cmd":"route","verbose":true,"id":3}"#, "3", "invalidCommand", "unknown field 'verbose'"),
        (#"{"cmd":"setActive","active":1,"id":4}"#, "4", "invalidCommand", "'active' must be true or false"),
        (#"{"cmd":"muteBackgroundMusic","id":5}"#, "5", "invalidCommand", "missing field 'mute'"),
        (#"{"cmd":"stopAll","fadeOut":"slow","id":6}"#, "6", "invalidCommand", "'fadeOut' must be a number"),
        (#"{"cmd":"play","bus":"voice","id":7}"#, "7", "invalidCommand", #"'bus' must be "sfx" or "music""#),
        (#"{"cmd":"appState","state":"asleep","id":8}"#, "8", "invalidCommand", "'state' must be"),
        (#"{"cmd":"setSession","category":"jazz","id":9}"#, "9", "invalidCommand", "'category' must be a category"),
        (#"{"cmd":"setSession","options":["loud"],"id":10}"#, "10", "invalidCommand", "\"loud\""),
        (#"{"cmd":"route","id":11,"id":12}"#, nil, "invalidCommand", "more than once"),
        // Well-formed, refused by the engine: its error case is the code.
        (#"{"cmd":"setSession","category":"ambient","mode":"voiceChat","id":20}"#, "20", "invalidParameter", "voiceChat"),
        (#"{"cmd":"setSession","category":"playback","options":["defaultToSpeaker"],"id":21}"#, "21", "invalidParameter",
         "defaultToSpeaker"),
        (#"{"cmd":"play","file":"/nonexistent/boom.wav","id":22}"#, "22", "fileNotFound", "/nonexistent/boom.wav"),
        (#"{"cmd":"postEvent","event":"Play_Footstep","gameObject":3,"id":23}"#, "23", "idNotFound", "event 'Play_Footstep'"),
    ] as [(String, String?, String, String)])
    func aBadLineIsRefusedAndChangesNothing(line: String, id: String?, code: String, reason: String) throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let demo = try DemoProcess(["--headless", "--loop"], server: server.address)
        _ = try demo.firstLine { $0["event"] as? String == "output" }
        let sent = demo.mark
        try demo.send(line, #"{"cmd":"route","id":"after"}"#)

        let refused = try demo.firstLine(from: sent) { $0["event"] as? String == "result" }
        #expect(refused["ok"] as? Bool == false)
        #expect(refused["code"] as? String == code)
        let error = refused["error"] as? String ?? ""
        #expect(error.contains(reason), "error: \(error)")
        #expect(DemoProcess.idText(refused) == id)
        // The demo is still there and still answering: the next command works.
        _ = try demo.firstLine(from: sent) { $0["event"] as? String == "route" }
        let route = try demo.result(id: #""after""#)
        #expect(route["ok"] as? Bool == true)
        #expect(route["cmd"] as? String == "route")

        try demo.send(#"{"cmd":"quit"}"#)
        #expect(demo.waitForExit() == 0)
        let states = demo.lines.compactMap { try? object($0) }.filter { $0["event"] as? String == "engineState" }
        // Nothing was undone or stopped along the way: running until quit.
        #expect(states.map { $0["state"] as? String } == ["running", "stopped"], "\(demo.lines)")
    }

    @Test func aScriptIsAnsweredInOrderAndQuitEndsCleanly() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let demo = try DemoProcess(["--headless"], server: server.address)
        try demo.send(
            #"{"cmd":"setSession","category":"playback","options":[],"mode":"default","id":"s1"}"#,
            #"{"cmd":"route","id":2.50}"#,
            #"{"cmd":"muteBackgroundMusic","mute":true,"id":3}"#,
            #"{"cmd":"play","bus":"music","loop":true,"id":null}"#,
            #"{"id":true,"cmd":"play"}"#,
            #"{"cmd":"stopAll","fadeOut":0.05,"id":-6}"#,
            #"{"cmd":"quit","id":"bye"}"#)
        let status = demo.waitForExit()
        #expect(status == 0, "stderr: \(demo.readErrors())")

        let objects = try demo.lines.map(object)
        #expect(objects.first?["event"] as? String == "engineState" && objects.first?["state"] as? String == "running")
        #expect(objects.dropFirst().first?["event"] as? String == "output")
        #expect(objects.last?["event"] as? String == "engineState" && objects.last?["state"] as? String == "stopped")
        let times = objects.compactMap { $0["t"] as? Double }
        #expect(times.count == objects.count && times == times.sorted())

        let results = objects.filter { $0["event"] as? String == "result" }
        #expect(results.map { $0["cmd"] as? String } == ["setSession", "route", "muteBackgroundMusic", "play", "play",
                                                          "stopAll", "quit"])
        #expect(results.allSatisfy { $0["ok"] as? Bool == true }, "\(demo.lines)")
        // Ids come back exactly as written, whatever scalar they are.
        let resultLines = demo.lines.filter { $0.contains(#""event":"result""#) }
        for (line, id) in zip(resultLines, [#""s1""#, "2.50", "3", "null", "true", "-6", #""bye""#]) {
            #expect(line.contains(#","id":\#(id),"ok":true"#), "\(line)")
        }
        // quit is answered before the engine stops ("stopped" is the last line,
        // checked above). Events the earlier commands caused may still come
        // between the two: events and results are not ordered with each other.
        let quit = try #require(objects.firstIndex { $0["cmd"] as? String == "quit" })
        #expect(!objects[(quit + 1)...].contains { $0["event"] as? String == "result" })

        // route: its report comes right before its result.
        let routeResult = try #require(objects.firstIndex { $0["cmd"] as? String == "route" })
        let report = objects[routeResult - 1]
        #expect(report["event"] as? String == "route")
        let current = try #require(report["currentRoute"] as? [String: Any])
        #expect(current["inputs"] is [Any] && current["outputs"] is [Any])
        #expect(report["availableOutputs"] is [Any])
        #expect(report["availableInputs"] is [Any])
        #expect(report["otherAudioPlaying"] as? Bool == false)
        // The private server's "speaker" null sink is the route.
        let outputs = current["outputs"] as? [[String: Any]] ?? []
        #expect(outputs.first?["portType"] as? String == PortType.builtInSpeaker.rawValue)
        #expect(outputs.first?["uid"] as? String == "speaker")

        let muted = objects.first { $0["event"] as? String == "backgroundMusicMuted" }
        #expect(muted?["muted"] as? Bool == true, "\(demo.lines)")
    }

    @Test func ambientPausesInTheBackgroundAndResumesInTheForeground() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let demo = try DemoProcess(["--headless", "--category", "ambient", "--loop"], server: server.address)
        _ = try demo.firstLine { $0["event"] as? String == "output" }

        let background = demo.mark
        try demo.send(#"{"cmd":"appState","state":"background","id":"bg"}"#)
        #expect(try demo.result(id: #""bg""#)["ok"] as? Bool == true)
        let paused = try demo.firstLine(from: background) {
            $0["event"] as? String == "engineState" && $0["state"] as? String != "running"
        }
        #expect(paused["state"] as? String == "paused")
        #expect(paused["reason"] as? String == "appInBackground")

        let foreground = demo.mark
        try demo.send(#"{"cmd":"appState","state":"foreground","id":"fg"}"#)
        #expect(try demo.result(id: #""fg""#)["ok"] as? Bool == true)
        let resumed = try demo.firstLine(from: foreground) { $0["event"] as? String == "engineState" }
        #expect(resumed["state"] as? String == "running")

        try demo.send(#"{"cmd":"quit"}"#)
        #expect(demo.waitForExit() == 0)
        #expect(try object(try #require(demo.lines.last))["state"] as? String == "stopped")
    }

    @Test func anOpenStdinKeepsTheDemoRunningAfterTheSoundsEnd() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let demo = try DemoProcess(["--headless"], server: server.address)  // the 1.45 s chime
        // Ask for the route until an answer comes after the chime has ended.
        var n = 0
        var t = 0.0
        while t < 2 {
            n += 1
            try demo.send(#"{"cmd":"route","id":\#(n)}"#)
            let answer = try demo.result(id: "\(n)")
            #expect(answer["ok"] as? Bool == true)
            t = answer["t"] as? Double ?? 0
            if t < 2 { _ = try? demo.firstLine(from: demo.mark, within: .milliseconds(100)) { _ in false } }  // pace the questions
        }
        #expect(!demo.lines.contains { $0.contains(#""state":"stopped""#) })
        // End of input and no voice left: the run ends by itself.
        demo.closeInput()
        #expect(demo.waitForExit() == 0)
        #expect(try object(try #require(demo.lines.last))["state"] as? String == "stopped")
    }

    @Test func blankLinesAreIgnoredAndEndOfInputAfterASoundWaitsForIt() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let demo = try DemoProcess(["--headless"], server: server.address)
        try demo.send("", "   ", #"{"cmd":"stopAll","id":1}"#, #"{"cmd":"play","id":2}"#)
        demo.closeInput()
        #expect(demo.waitForExit() == 0)
        let objects = try demo.lines.map(object)
        #expect(objects.filter { $0["event"] as? String == "result" }.compactMap { $0["id"] as? Int } == [1, 2])
        // The chime played by "play" (1.45 s) ends after stdin did; the run waited for it.
        let stopped = try #require(objects.last)
        let played = try #require(objects.first { $0["id"] as? Int == 2 })
        let playedAt = played["t"] as? Double ?? 99
        #expect(stopped["state"] as? String == "stopped")
        #expect((stopped["t"] as? Double ?? 0) > playedAt + 1.4, "\(demo.lines)")
    }
}

/// The command reader alone: no server, no process.
@Suite struct CommandParsingTests {
    @Test func idsKeepTheirJSONText() {
        for id in ["1", "2.50", "-0.1e3", #""x""#, "true", "null", #""é\n""#] {
            #expect(ReceivedCommand(parsing: #"{"cmd":"route","id":\#(id)}"#).id == JSONValue.reparsed(id))
        }
        #expect(ReceivedCommand(parsing: #"{"cmd":"route","id":[1]}"#).id == nil)
        #expect(ReceivedCommand(parsing: #"{"cmd":"route"}"#).id == nil)
    }

    @Test func unicodeEscapesAndSurrogatesDecode() throws {
        guard case .string(let s) = try JSONValue.parse(#""a\u00e9\ud83c\udfb5\"""#) else {
            Issue.record("not a string")
            return
        }
        #expect(s == "aé🎵\"")
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#""\ud83c""#) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse("01") }
        #expect(throws: JSONParseError.self) { try JSONValue.parse("{\"a\":1,}") }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(String(repeating: "[", count: 100)) }
    }

    @Test func setSessionKeepsWhatItDoesNotName() throws {
        guard case .success(.setSession(let category, let options, let mode)) =
            ReceivedCommand(parsing: #"{"cmd":"setSession","options":["mixWithOthers","duckOthers"]}"#).command
        else {
            Issue.record("not a setSession")
            return
        }
        #expect(category == nil && mode == nil)
        #expect(options == [.mixWithOthers, .duckOthers])
    }

    @Test func everyDocumentedCommandIsKnown() {
        #expect(DemoCommand.fields.map(\.key) == [
            "setActive", "setSession", "overrideOutputAudioPort", "setPreferredInput", "appState", "suspend", "wakeup",
            "play", "stopAll", "muteBackgroundMusic", "route", "postEvent", "stopPlayingID", "setRTPC", "setState",
            "setSwitch", "setPosition", "registerGameObject", "loadBank", "quit",
        ])
    }
}

extension JSONValue {
    /// `text` parsed and written back: the form ids are echoed in.
    static func reparsed(_ text: String) -> String? { try? parse(text).json }
}
