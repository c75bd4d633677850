import Foundation
import SoundServerSupport
import Testing

/// Issue 16, item 2, through the demo: hostile stdin commands are answered
/// with an error line naming the field, and the demo keeps playing
/// (docs/input-validation.md). Before the fix, the first command below
/// killed the process with an illegal instruction.
@Suite struct HostileCommandTests {
    @Test func hostileCommandsAreAnsweredWithErrorsAndTheDemoKeepsPlaying() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let demo = try DemoProcess(
            ["--headless", "--bank", demoBank, "--loop", "--play", steadyTone, "--category", "playback", "--idle-cork", "off"],
            server: server.address)
        _ = try demo.firstLine { $0["event"] as? String == "engineState" && $0["state"] as? String == "running" }
        let recorder = try server.record()
        defer { recorder.stop() }
        #expect(recorder.waitForLevel(windows: 2) { $0.allSatisfy { $0 > 0.1 } }.met, "the demo plays nothing")

        // (command, its code, a word the error must hold: the JSON field for
        // the demo's own checks, the engine's argument for the engine's)
        let hostile: [(String, String, String)] = [
            (#"{"cmd":"setRTPC","name":"RPM","value":1,"interpolation":-1e10,"id":1}"#, "invalidParameter", "setRTPCValue ramp"),
            (#"{"cmd":"setRTPC","name":"RPM","value":1,"interpolation":1e300,"id":2}"#, "invalidParameter", "setRTPCValue ramp"),
            (#"{"cmd":"setRTPC","name":"RPM","value":1e999,"id":3}"#, "invalidCommand", "value"),
            (#"{"cmd":"setRTPC","name":"RPM","value":1,"interpolation":-1e999,"id":4}"#, "invalidCommand", "interpolation"),
            (#"{"cmd":"stopAll","fadeOut":-5,"id":5}"#, "invalidParameter", "stopAll fade"),
            (#"{"cmd":"stopAll","fadeOut":9.3e18,"id":6}"#, "invalidParameter", "stopAll fade"),
            (#"{"cmd":"stopPlayingID","playingID":1,"fadeOut":-1e-9,"id":7}"#, "invalidParameter", "stop fade"),
            (#"{"cmd":"stopPlayingID","playingID":4294967295,"fadeOut":3600.000001,"id":8}"#, "invalidParameter", "stop fade"),
            (#"{"cmd":"setPosition","x":1e39,"y":0,"z":-1e39,"id":9}"#, "invalidParameter", "position"),
            (#"{"cmd":"setRTPC","name":"\u0000\uffff","value":-1e308,"id":10}"#, "idNotFound", "RTPC"),
            (#"{"cmd":"registerGameObject","gameObject":18446744073709551615,"id":11}"#, "invalidParameter", "game object"),
            (#"{"cmd":"postEvent","event":"","gameObject":0,"id":12}"#, "idNotFound", "event"),
            (#"{"cmd":"setSwitch","group":"Surface","value":"grass","gameObject":-1,"id":13}"#, "invalidCommand", "gameObject"),
        ]
        for (line, _, _) in hostile { try demo.send(line) }
        try demo.send(#"{"cmd":"setRTPC","name":"RPM","value":1,"interpolation":-1e10}"#)
        for (index, (line, code, word)) in hostile.enumerated() {
            let result = try demo.result(id: "\(index + 1)")
            #expect(result["ok"] as? Bool == false, "\(line) → \(result)")
            #expect(result["code"] as? String == code, "\(line) → \(result)")
            #expect((result["error"] as? String ?? "").contains(word), "\(line) → \(result)")
        }
        // The issue's own line, without an id, gets its result line too.
        let issueLine = try demo.firstLine {
            $0["event"] as? String == "result" && $0["cmd"] as? String == "setRTPC" && $0["id"] == nil
        }
        #expect(issueLine["code"] as? String == "invalidParameter", "\(issueLine)")

        // A value out of the RTPC's range is clamped, as in Wwise: done.
        try demo.send(#"{"cmd":"setRTPC","name":"RPM","value":-1e308,"interpolation":3600,"id":"clamped"}"#)
        #expect(try demo.result(id: "\"clamped\"")["ok"] as? Bool == true)

        // Still playing: the tone reaches the speaker after every refusal.
        try recorder.discardBacklog()
        #expect(recorder.waitForLevel(windows: 2) { $0.allSatisfy { $0 > 0.1 } }.met, "the demo went silent")
        try demo.send(#"{"cmd":"quit","id":"q"}"#)
        #expect(try demo.result(id: "\"q\"")["ok"] as? Bool == true)
        #expect(demo.waitForExit() == 0, "stderr: \(demo.readErrors())")
    }
}
