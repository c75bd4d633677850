import Foundation
import SoundServerSupport
import Testing

/// Issue 7's "done when": the demo, driven only through its arguments, stdin
/// commands and real second clients, shows the SPEC section 4 rows on the
/// server under test (PulseAudio 16, a desktop-configured PulseAudio, or
/// pipewire-pulse): a call interrupts and ends with shouldResume; headphones
/// take the route and leaving gives oldDeviceUnavailable; ambient reports
/// other audio playing; soloAmbient silences that music app, is interrupted by
/// music started later, and quitting gives the music back.
@Suite struct DemoSessionScenarioTests {
    static let usbHeadphones = ["device.description": "USB Headphones", "device.bus": "usb", "device.form_factor": "headphone"]

    func event(_ demo: DemoProcess, after start: Int, _ name: String, _ match: ([String: Any]) -> Bool = { _ in true })
        throws -> [String: Any]
    {
        try demo.firstLine(from: start) { $0["event"] as? String == name && match($0) }
    }

    func outputUID(_ route: Any?) -> String? {
        ((route as? [String: Any])?["outputs"] as? [[String: Any]])?.first?["uid"] as? String
    }

    @Test func theDemoShowsCallsRoutesAndOtherAppsOnARealServer() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let callSink = try server.addOutput(name: "callsink")  // virtual: the call's own sound stays off our monitor
        defer { try? callSink.remove() }
        let demo = try DemoProcess(["--headless", "--loop", "--category", "playback"], server: server.address)
        defer { try? demo.send(#"{"cmd":"quit","id":"end"}"#) }
        _ = try event(demo, after: 0, "engineState") { $0["state"] as? String == "running" }

        // A phone call interrupts; its end resumes.
        var mark = demo.lines.count
        let call = try server.startClient(role: "phone", sink: "callsink")
        let began = try event(demo, after: mark, "interruption") { $0["type"] as? String == "began" }
        #expect(["serverCorkRequest", "phoneCall"].contains(began["source"] as? String ?? ""), "\(began)")
        mark = demo.lines.count
        try call.stop()
        let ended = try event(demo, after: mark, "interruption") { $0["type"] as? String == "ended" }
        #expect(ended["shouldResume"] as? Bool == true)

        // USB headphones take the route; unplugged, the speaker is back.
        mark = demo.lines.count
        let headphones = try server.addOutput(name: "usbhp", properties: Self.usbHeadphones)
        let plugged = try event(demo, after: mark, "routeChange") { $0["reason"] as? String == "newDeviceAvailable" }
        #expect(outputUID(plugged["currentRoute"]) == "usbhp")
        #expect(outputUID(plugged["previousRoute"]) == "speaker")
        mark = demo.lines.count
        try headphones.remove()
        let unplugged = try event(demo, after: mark, "routeChange") { $0["reason"] as? String == "oldDeviceUnavailable" }
        #expect(outputUID(unplugged["currentRoute"]) == "speaker")

        // ambient (mixable): another app's music is other audio playing, and nobody is muted.
        try demo.send(#"{"cmd":"setSession","category":"ambient","id":"amb"}"#)
        #expect(try demo.result(id: #""amb""#)["ok"] as? Bool == true)
        mark = demo.lines.count
        let early = try server.startClient(role: "music")
        defer { try? early.stop() }
        let playing = try event(demo, after: mark, "otherAudioPlaying") { $0["playing"] as? Bool == true }
        #expect(playing["playing"] as? Bool == true)
        #expect(try early.sinkInput()?.muted == false)

        // soloAmbient: the music app already playing is silenced; music started later interrupts.
        try demo.send(#"{"cmd":"setSession","category":"soloAmbient","id":"solo"}"#)
        #expect(try demo.result(id: #""solo""#)["ok"] as? Bool == true)
        #expect(eventually { (try? early.sinkInput())??.muted == true }, "soloAmbient did not silence the music app")
        mark = demo.lines.count
        let late = try server.startClient(role: "music")
        let byMusic = try event(demo, after: mark, "interruption") { $0["type"] as? String == "began" }
        #expect(byMusic["source"] as? String == "otherMedia")
        try late.stop()
        _ = try event(demo, after: mark, "interruption") { $0["type"] as? String == "ended" }

        // Quitting gives the silenced app its sound back.
        try demo.send(#"{"cmd":"quit","id":"q"}"#)
        #expect(demo.waitForExit() == 0, "stderr: \(demo.readErrors())")
        #expect(eventually { (try? early.sinkInput())??.muted == false }, "quitting did not give the music back")
    }
}
