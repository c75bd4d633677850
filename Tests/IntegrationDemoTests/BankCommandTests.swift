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

/// The demo bank of the source tree (Examples/Banks/demo/demo.json).
let demoBank = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Examples/Banks/demo/demo.json").path

/// The headless demo with banks: `--bank`, `--post`, and the content
/// commands on stdin (docs/integration-demo.md), against a real private server.
@Suite struct BankCommandTests {
    func isEvent(_ name: String) -> ([String: Any]) -> Bool { { $0["event"] as? String == name } }

    @Test func theDialogueLinesMarkersAreReportedInOrderBeforeItsEnd() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let demo = try DemoProcess(["--headless", "--bank", demoBank, "--post", "Play_Dialogue"], server: server.address)
        demo.closeInput()
        let posted = try demo.firstLine(where: isEvent("posted"))
        let playing = try #require(posted["playingID"] as? Int)
        _ = try demo.firstLine(where: isEvent("endOfEvent"))
        #expect(demo.waitForExit() == 0, "stderr: \(demo.readErrors())")
        let objects = try demo.lines.map(object)
        let markers = objects.filter { $0["event"] as? String == "marker" }
        #expect(markers.map { $0["name"] as? String } == ["word2", "word3"])
        #expect(markers.allSatisfy { $0["playingID"] as? Int == playing && $0["sound"] as? String == "dialogue_line" })
        // word2 is 0.5 s into the line, word3 1.0 s: about half a second apart, both before the end.
        let times = markers.compactMap { $0["t"] as? Double }
        let end = try #require(objects.first { $0["event"] as? String == "endOfEvent" }?["t"] as? Double)
        #expect(times.count == 2 && times[1] - times[0] > 0.4 && times[1] - times[0] < 0.6, "marker times \(times)")
        #expect(times.allSatisfy { $0 < end })
    }

    @Test func aPostedFootstepIsHeardAndItsEndIsReported() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let recorder = try server.record()
        defer { recorder.stop() }
        let demo = try DemoProcess(["--headless", "--bank", demoBank, "--post", "Play_Footstep"], server: server.address)
        demo.closeInput()  // the run ends when the footstep has

        let posted = try demo.firstLine(where: isEvent("posted"))
        #expect(posted["name"] as? String == "Play_Footstep")
        #expect(posted["gameObject"] as? Int == 1)
        let playing = try #require(posted["playingID"] as? Int)
        #expect(playing >= 1)
        // The step reaches the sink: the recording began before the demo started.
        let heard = recorder.waitForLevel { $0.contains { $0 > 0.003 } }
        #expect(heard.met, "nothing heard on the monitor; last window \(heard.rms)")

        let end = try demo.firstLine(where: isEvent("endOfEvent"))
        #expect(end["playingID"] as? Int == playing)
        #expect(end["name"] as? String == "Play_Footstep")
        #expect(demo.waitForExit() == 0, "stderr: \(demo.readErrors())")
        let objects = try demo.lines.map(object)
        let events = objects.compactMap { $0["event"] as? String }
        #expect(events.firstIndex(of: "posted")! < events.firstIndex(of: "endOfEvent")!)
        #expect(objects.last?["event"] as? String == "engineState" && objects.last?["state"] as? String == "stopped")
        // No chime with --bank: the only sound was the footstep (ends well before the 1.45 s chime would).
        let stopped = try #require(objects.last?["t"] as? Double)
        #expect(stopped < 1.2, "the run lasted \(stopped) s")
    }

    @Test func aLaterPostKeepsTheRunGoingUntilItEnds() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let demo = try DemoProcess(["--headless", "--bank", demoBank, "--post", "Play_UI_Click@0.4"], server: server.address)
        demo.closeInput()
        let posted = try demo.firstLine(where: isEvent("posted"))
        #expect((posted["t"] as? Double ?? 0) >= 0.4)
        _ = try demo.firstLine(where: isEvent("endOfEvent"))
        #expect(demo.waitForExit() == 0)
    }

    @Test func aBadBankIsRefusedWithEveryIssueAndStatusOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("demo-bank-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bank = folder.appendingPathComponent("broken.json").path
        try Data(#"{"sounds":{"a":{"file":"missing.wav","volum":-3}},"events":{}}"#.utf8).write(to: URL(fileURLWithPath: bank))

        let result = try runDemo(["--headless", "--bank", bank], server: "unix:/nonexistent/should-not-be-contacted")
        #expect(result.status == 1)
        #expect(result.lines.isEmpty, "stdout: \(result.lines)")
        #expect(result.stderr.contains(bank), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("$.sounds.a.file"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("$.sounds.a.volum"), "stderr: \(result.stderr)")
    }

    @Test func stdinPostEventAnswersWithThePlayingIDAndAnUnknownEventIsIDNotFound() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let demo = try DemoProcess(["--headless", "--bank", demoBank], server: server.address)
        try demo.send(
            #"{"cmd":"postEvent","event":"Play_Fotstep","id":1}"#,
            #"{"cmd":"postEvent","event":"Play_Footstep","gameObject":1,"id":2}"#,
            #"{"cmd":"postEvent","event":"Play_Footstep","gameObject":42,"id":3}"#,
            #"{"cmd":"postEvent","event":"Play_Footstep","gameObject":"player","id":4}"#)
        let unknown = try demo.result(id: "1")
        #expect(unknown["ok"] as? Bool == false)
        #expect(unknown["code"] as? String == "idNotFound")
        #expect((unknown["error"] as? String ?? "").contains("Play_Fotstep"), "\(unknown)")

        let posted = try demo.result(id: "2")
        #expect(posted["ok"] as? Bool == true, "\(posted)")
        let playing = try #require(posted["playingID"] as? Int)
        let end = try demo.firstLine { $0["event"] as? String == "endOfEvent" && $0["playingID"] as? Int == playing }
        #expect(end["name"] as? String == "Play_Footstep")

        let unregistered = try demo.result(id: "3")
        #expect(unregistered["code"] as? String == "idNotFound")
        #expect((unregistered["error"] as? String ?? "").contains("42"))
        #expect(try demo.result(id: "4")["code"] as? String == "invalidCommand")

        // Still running and answering after the refusals.
        try demo.send(#"{"cmd":"quit","id":5}"#)
        #expect(try demo.result(id: "5")["ok"] as? Bool == true)
        #expect(demo.waitForExit() == 0)
    }

    /// Each line with its id (`"id":1` is replaced by its index) and the code it must get (nil: ok).
    static let contentLines: [(String, String?)] = [
        (#"{"cmd":"setRTPC","name":"RPM","value":4000,"id":1}"#, nil),
        (#"{"cmd":"setRTPC","name":"RPM","value":2500,"gameObject":1,"interpolation":0.25,"id":1}"#, nil),
        (#"{"cmd":"setRTPC","name":"Speed","value":1,"id":1}"#, "idNotFound"),
        (#"{"cmd":"setRTPC","name":"RPM","value":1,"interpolation":-1,"id":1}"#, "invalidParameter"),
        (#"{"cmd":"setRTPC","name":"RPM","value":"fast","id":1}"#, "invalidCommand"),
        (#"{"cmd":"setRTPC","name":"RPM","id":1}"#, "invalidCommand"),
        (#"{"cmd":"setSwitch","group":"Surface","value":"gravel","id":1}"#, nil),
        (#"{"cmd":"setSwitch","group":"Surface","value":"wood","gameObject":1,"id":1}"#, nil),
        (#"{"cmd":"setSwitch","group":"Surface","value":"mud","id":1}"#, "idNotFound"),
        (#"{"cmd":"setSwitch","group":"Surface","value":"wood","gameObject":9,"id":1}"#, "idNotFound"),
        (#"{"cmd":"setState","group":"PlayerHealth","state":"low","id":1}"#, nil),
        (#"{"cmd":"setState","group":"PlayerHealth","state":"dead","id":1}"#, "idNotFound"),
        (#"{"cmd":"setState","group":"PlayerHealth","id":1}"#, "invalidCommand"),
        (#"{"cmd":"setPosition","x":1,"y":0,"z":-2.5,"id":1}"#, nil),
        (#"{"cmd":"setPosition","gameObject":5,"x":1,"y":0,"z":0,"id":1}"#, "idNotFound"),
        (#"{"cmd":"setPosition","x":1,"y":0,"z":1e999,"id":1}"#, "invalidCommand"),
        (#"{"cmd":"registerGameObject","gameObject":5,"name":"car","id":1}"#, nil),
        (#"{"cmd":"registerGameObject","gameObject":0,"id":1}"#, "invalidParameter"),
        (#"{"cmd":"registerGameObject","gameObject":-1,"id":1}"#, "invalidCommand"),
        (#"{"cmd":"stopPlayingID","playingID":77,"fadeOut":0.1,"id":1}"#, nil),
        (#"{"cmd":"loadBank","file":"/nonexistent/other.json","id":1}"#, "invalidFile"),
    ]

    @Test func contentCommandsAreDoneOrRefusedWithTheEnginesCode() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let demo = try DemoProcess(["--headless", "--bank", demoBank], server: server.address)
        let lines = Self.contentLines.enumerated().map { $1.0.replacingOccurrences(of: #""id":1}"#, with: "\"id\":\($0 + 1)}") }
        for line in lines { try demo.send(line) }
        try demo.send(#"{"cmd":"setState","group":"PlayerHealth","state":"normal","id":"after"}"#)
        for (index, (line, code)) in Self.contentLines.enumerated() {
            let result = try demo.result(id: "\(index + 1)")
            #expect(result["ok"] as? Bool == (code == nil), "\(line) → \(result)")
            #expect(result["code"] as? String == code, "\(line) → \(result)")
            if code != nil { #expect(!(result["error"] as? String ?? "").isEmpty, "\(line)") }
        }
        // Refusals stop nothing: the demo still answers.
        #expect(try demo.result(id: #""after""#)["ok"] as? Bool == true)
        demo.closeInput()
        #expect(demo.waitForExit() == 0, "stderr: \(demo.readErrors())")
    }

    @Test func loopDetectionFollowsContainersAndPostedEvents() throws {
        let banks = try DemoBanks(paths: [demoBank])
        #expect(banks.mayLoop(event: "Play_Engine"))
        #expect(banks.mayLoop(event: "play_music"))  // IDs ignore case
        #expect(!banks.mayLoop(event: "Play_Footstep"))
        #expect(!banks.mayLoop(event: "Play_Walk"))
        #expect(!banks.mayLoop(event: "Stop_Engine"))
        #expect(banks.event(named: "PLAY_FOOTSTEP")?.name == "Play_Footstep")
    }

    @Test func postTimesParse() throws {
        #expect(try ScheduledPost(parsing: "Play_Footstep") == ScheduledPost(event: "Play_Footstep", at: 0))
        #expect(try ScheduledPost(parsing: "Play_Walk@1.5") == ScheduledPost(event: "Play_Walk", at: 1.5))
        #expect(try ScheduledPost(parsing: "a@b@2") == ScheduledPost(event: "a@b", at: 2))
        #expect(throws: DemoOptions.Invalid.self) { try ScheduledPost(parsing: "Play_Walk@-1") }
    }
}
