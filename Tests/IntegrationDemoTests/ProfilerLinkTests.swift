import Foundation
import Glibc
import SoundServerSupport
import Synchronization
import Testing

/// The live profiler's link (docs/profiling.md) as a tool sees it, attached
/// to the headless demo (`SOUNDENGINE_PROFILER=1`: a game that was not
/// rebuilt for it) on a private server. Each test gives the demo its own
/// `XDG_RUNTIME_DIR`, so its socket is `<that>/soundengine/<pid>.sock`.
/// The stalled reader (the allocation counter, underflows) is in
/// SoundEngineTests' ProfilerLinkTestsInProcess: it needs the engine in this process.
@Suite struct ProfilerLinkTests {
    static let bank = PrivateSoundServer.repositoryRoot + "/Examples/Banks/demo/demo.json"

    /// A running demo with the link on (or off), and where its socket is.
    struct Game {
        let demo: DemoProcess
        let runtime: TemporaryFolder
        var socket: String { ProfilerClient.socketPath(runtimeDirectory: runtime.path, pid: demo.pid) }

        /// The demo with the link on (`profiler`), edits allowed (`edits`), in
        /// `runtime` (default: a new folder).
        init(
            _ server: PrivateSoundServer, profiler: Bool = true, edits: Bool = false, runtime: TemporaryFolder? = nil,
            arguments: [String] = ["--play", steadyTone, "--loop"]
        ) throws {
            self.runtime = try runtime ?? TemporaryFolder()
            var environment = ["XDG_RUNTIME_DIR": self.runtime.path]
            if profiler { environment["SOUNDENGINE_PROFILER"] = "1" }
            if edits { environment["SOUNDENGINE_PROFILER_EDITS"] = "1" }
            demo = try DemoProcess(["--headless"] + arguments, server: server.address, environment: environment)
            _ = try demo.firstLine { $0["event"] as? String == "engineState" && $0["state"] as? String == "running" }
        }

        func attach() throws -> ProfilerClient {
            #expect(eventually(within: 5) { FileManager.default.fileExists(atPath: socket) }, "no socket at \(socket)")
            return try ProfilerClient(path: socket)
        }

        func quit() {
            try? demo.send(#"{"cmd":"quit","id":"quit"}"#)
            _ = demo.waitForExit()
        }
    }

    /// The RMS of both channels together (what a bus meter measures).
    static func combined(_ rms: [Float]) -> Double {
        (rms.map { Double($0 * $0) }.reduce(0, +) / Double(max(1, rms.count))).squareRoot()
    }

    static func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }

    @Test func aToolReadsEveryMessageKindAndItsValuesAreTheEngines() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let recorder = try server.record()
        defer { recorder.stop() }
        let game = try Game(server, arguments: ["--play", steadyTone, "--loop", "--bank", Self.bank])
        defer { game.quit() }
        let client = try game.attach()

        // The full picture, in the documented order.
        let first = try (0..<6).map { _ in try client.next() }
        #expect(first.map { $0["type"] as? String ?? "?" } == ["hello", "session", "voices", "buses", "syncs", "performance"])
        let hello = first[0]
        #expect(hello["protocol"] as? Int == 1)
        #expect(hello["pid"] as? Int == Int(game.demo.pid))
        #expect(hello["edits"] as? Bool == false)
        #expect(hello["samplesPerFrame"] as? Int == 512)
        let session = first[1]
        #expect(session["engineState"] as? String == "running")
        #expect(session["active"] as? Bool == true)
        let outputs = ((session["route"] as? [String: Any])?["outputs"] as? [[String: Any]]) ?? []
        #expect(outputs.first?["uid"] as? String == "speaker", "\(session)")
        #expect(first[4]["rtpcs"] is [Any] && first[4]["states"] is [Any] && first[4]["switches"] is [Any])
        // The demo loads its bank after initialize: its state group comes in a later `syncs`.
        let syncs = try client.next { message in
            message["type"] as? String == "syncs"
                && ((message["states"] as? [[String: Any]]) ?? []).contains {
                    $0["group"] as? String == "PlayerHealth" && $0["state"] as? String == "normal"
                }
        }
        #expect(syncs["type"] as? String == "syncs")

        // The master bus follows the tone: within 1 dB of what the sink's monitor hears.
        let heard = recorder.waitForLevel(windows: 10) { Self.combined($0) > 0.1 }
        #expect(heard.met, "the tone was not heard: \(heard.rms)")
        var levels: [Double] = []
        while levels.count < 10 {
            let buses = try client.next("buses")
            let master = (buses["buses"] as? [[String: Any]])?.first { $0["name"] as? String == "master" }
            if let rms = (master?["rms"] as? [Double])?.first { levels.append(rms) }
        }
        let monitor = Self.combined(recorder.read(seconds: 0.5))
        let link = levels.sorted()[levels.count / 2]
        #expect(abs(Self.decibels(link / monitor)) < 1, "link master RMS \(link), monitor \(monitor)")
        // Both against the fixture: a 0.5 sine.
        print("ProfilerLink: master RMS on the link \(link), on the monitor \(monitor)")

        // A posted event appears in `voices` with its playing ID, event, sound and bus.
        try game.demo.send(#"{"cmd":"postEvent","event":"Play_Engine","id":"post"}"#)
        let posted = try game.demo.result(id: #""post""#)
        let playingID = try #require(posted["playingID"] as? Int)
        let voices = try client.next(within: .seconds(3)) { message in
            message["type"] as? String == "voices"
                && ((message["voices"] as? [[String: Any]]) ?? []).contains {
                    $0["playingID"] as? Int == playingID && $0["state"] as? String == "playing"
                }
        }
        let voice = try #require((voices["voices"] as? [[String: Any]])?.first { $0["playingID"] as? Int == playingID })
        // What the render thread did with it: heard, at a gain it reports.
        #expect(voice["virtual"] as? Bool == false)
        #expect(voice["audibleDB"] as? Double != nil)
        // The tone the demo plays straight (--play, no event) is listed too,
        // with no playing ID, event or game object.
        let direct = (voices["voices"] as? [[String: Any]] ?? []).filter { $0["playingID"] is NSNull }
        #expect(direct.count == 1, "\(voices)")
        #expect(direct.first?["sound"] as? String == steadyTone, "the sound's name: loadSound(path:) names it by its path")
        #expect(direct.first?["event"] is NSNull && direct.first?["bus"] as? String == "master")
        #expect((direct.first?["gain"] as? Double ?? 0) > 0 && direct.first?["state"] as? String == "playing")
        #expect(voice["event"] as? String == "Play_Engine")
        #expect(voice["gameObject"] as? Int == 1)
        #expect(voice["sound"] as? String == "engine_loop")
        #expect(voice["bus"] as? String == "vehicles")
        #expect((voice["gain"] as? Double ?? 0) > 0)
        #expect((voices["active"] as? Int ?? 0) >= 1)

        // Performance: quanta move on, render CPU is a fraction, no underflow.
        let performance = try client.next("performance")
        let cpu = try #require(performance["renderCPU"] as? [String: Any])
        for key in ["last", "mean", "max"] {
            let value = cpu[key] as? Double ?? -1
            #expect(value > 0 && value < 1, "renderCPU.\(key) = \(value)")
        }
        #expect((performance["quanta"] as? Int ?? 0) > 0)
        #expect(performance["dropped"] as? Int == 0)
        #expect(performance["latencyMs"] as? Double != nil)

        // Commands: rate is taken, an edit is refused (edits are off), a notification comes as it happens.
        client.send(#"{"cmd":"rate","hz":10,"id":1}"# + "\n")
        let rate = try client.next { $0["type"] as? String == "result" && $0["id"] as? Int == 1 }
        #expect(rate["ok"] as? Bool == true)
        client.send(#"{"cmd":"setRTPC","name":"RPM","value":3000,"id":2}"# + "\n")
        let refused = try client.next { $0["type"] as? String == "result" && $0["id"] as? Int == 2 }
        #expect(refused["ok"] as? Bool == false)
        #expect(refused["code"] as? String == "notAllowed")
        try game.demo.send(#"{"cmd":"setSession","category":"ambient","id":"amb"}"#)
        #expect(try game.demo.result(id: #""amb""#)["ok"] as? Bool == true)
        let changed = try client.next { $0["type"] as? String == "session" && $0["category"] as? String == "ambient" }
        #expect(changed["engineState"] as? String == "running")
        // A call interrupts: the notification keeps `type` for what the
        // message is, and says began in `interruptionType`.
        let call = try server.startClient(role: "phone")
        defer { try? call.stop() }
        let interruption = try client.next(within: .seconds(10)) {
            $0["type"] as? String == "notification" && $0["name"] as? String == "interruption"
        }
        #expect(interruption["interruptionType"] as? String == "began")
        #expect(try client.next { $0["type"] as? String == "session" && $0["interrupted"] as? Bool == true }["engineState"] as? String == "paused")
    }

    @Test func liveEditsWorkWhenAllowedAndAnswerErrors() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let game = try Game(server, edits: true, arguments: ["--loop", "--bank", Self.bank])
        defer { game.quit() }
        let client = try game.attach()
        #expect(try client.next("hello")["edits"] as? Bool == true)
        // The demo loads its bank after initialize: wait for its state group.
        _ = try client.next { message in
            ((message["states"] as? [[String: Any]]) ?? []).contains { $0["group"] as? String == "PlayerHealth" }
        }

        func command(_ line: String, id: Int) throws -> [String: Any] {
            client.send(line + "\n")
            return try client.next { $0["type"] as? String == "result" && $0["id"] as? Int == id }
        }
        #expect(try command(#"{"cmd":"setBusVolume","bus":"music","volume":0.5,"id":1}"#, id: 1)["ok"] as? Bool == true)
        let buses = try client.next { message in
            ((message["buses"] as? [[String: Any]]) ?? []).contains { $0["name"] as? String == "music" && $0["volume"] as? Double == 0.5 }
        }
        #expect(buses["type"] as? String == "buses")
        #expect(try command(#"{"cmd":"muteBus","bus":"music","mute":true,"id":2}"#, id: 2)["ok"] as? Bool == true)
        _ = try client.next { message in
            ((message["buses"] as? [[String: Any]]) ?? []).contains { $0["name"] as? String == "music" && $0["muted"] as? Bool == true }
        }
        #expect(try command(#"{"cmd":"soloBus","bus":"music","solo":true,"id":7}"#, id: 7)["ok"] as? Bool == true)
        _ = try client.next { message in
            ((message["buses"] as? [[String: Any]]) ?? []).contains { $0["name"] as? String == "music" && $0["solo"] as? Bool == true }
        }
        #expect(try command(#"{"cmd":"soloBus","bus":"music","solo":false,"id":8}"#, id: 8)["ok"] as? Bool == true)
        let state = try command(#"{"cmd":"setState","group":"PlayerHealth","state":"low","id":3}"#, id: 3)
        #expect(state["ok"] as? Bool == true, "\(state)")
        _ = try client.next { message in
            message["type"] as? String == "syncs"
                && ((message["states"] as? [[String: Any]]) ?? []).contains { $0["state"] as? String == "low" }
        }
        let unknown = try command(#"{"cmd":"muteBus","bus":"nosuchbus","mute":true,"id":4}"#, id: 4)
        #expect(unknown["ok"] as? Bool == false)
        #expect(unknown["code"] as? String == "idNotFound")
        let badVolume = try command(#"{"cmd":"setBusVolume","bus":"music","volume":9,"id":5}"#, id: 5)
        #expect(badVolume["code"] as? String == "invalidParameter")
        let badType = try command(#"{"cmd":"muteBus","bus":"music","mute":1,"id":6}"#, id: 6)
        #expect(badType["code"] as? String == "invalidParameter", "\(badType)")
    }

    @Test func aRouteChangeReachesTheLinkWithin100msOfTheGame() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let game = try Game(server)
        defer { game.quit() }
        let client = try game.attach()
        _ = try client.next("performance")  // the full picture is in

        // The link is read on a thread of its own, so each message's arrival
        // is taken when it comes, while this thread waits for the demo's line.
        let arrival = Mutex<ContinuousClock.Instant?>(nil)
        let reader = JoinableThread { [client] in
            let notification = try? client.next(within: .seconds(10)) {
                $0["type"] as? String == "notification" && $0["name"] as? String == "routeChange"
            }
            if notification != nil {
                let at = client.messages.last { $0.object["name"] as? String == "routeChange" }?.at
                arrival.withLock { $0 = at }
            }
        }
        reader.start()
        let mark = game.demo.mark
        let headphones = try server.addOutput(name: "usbhp", properties: DemoSessionScenarioTests.usbHeadphones)
        defer { try? headphones.remove() }
        let line = try game.demo.firstLine(from: mark) { $0["event"] as? String == "routeChange" }
        let printed = ContinuousClock.now
        reader.join()
        let notified = try #require(arrival.withLock { $0 }, "no routeChange notification on the link")
        let gap = notified > printed ? notified - printed : printed - notified
        print("ProfilerLink: routeChange on the link \(notified < printed ? "before" : "after") the demo's line by \(gap)")
        #expect(gap < .milliseconds(100))
        let change = try #require(client.messages.last { $0.object["name"] as? String == "routeChange" }?.object)
        let current = (change["currentRoute"] as? [String: Any])?["outputs"] as? [[String: Any]]
        #expect(current?.first?["uid"] as? String == "usbhp", "\(change)")
        #expect(change["reason"] as? String == line["reason"] as? String)
        // And the session picture follows.
        _ = try client.next { message in
            message["type"] as? String == "session"
                && (((message["route"] as? [String: Any])?["outputs"] as? [[String: Any]])?.first?["uid"] as? String) == "usbhp"
        }
    }

    @Test func malformedAndOversizedInputIsRefusedAndTheGamePlaysOn() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let recorder = try server.record()
        defer { recorder.stop() }
        let game = try Game(server)
        defer { game.quit() }
        let client = try game.attach()
        _ = try client.next("hello")

        for (i, line) in [
            "this is not json", "[1,2,3]", #"{"id":1}"#, #"{"cmd":"explode","id":2}"#, #"{"cmd":"rate","hz":99}"#,
            #"{"cmd":"rate"}"#, "{\"cmd\":\"rate\",\"hz\":\u{0}}",
        ].enumerated() {
            client.send(line + "\n")
            let result = try client.next("result")
            #expect(result["ok"] as? Bool == false, "line \(i): \(result)")
            #expect((result["error"] as? String)?.isEmpty == false)
        }
        _ = try client.next("performance")  // still open, still sampling

        // A line past 4096 bytes closes that connection; others are not touched.
        let bystander = try game.attach()
        _ = try bystander.next("hello")
        client.send(String(repeating: "x", count: 10_000))
        #expect(client.waitForClose(within: .seconds(5)), "an oversized line did not close the connection")
        _ = try bystander.next("performance")
        try recorder.discardBacklog()
        let playing = recorder.levelHolds(windows: 10) { Self.combined($0) > 0.2 }
        #expect(playing.met, "the tone stopped: \(playing.rms)")
        let again = try ProfilerClient(path: game.socket)
        #expect(try again.next("hello")["pid"] as? Int == Int(game.demo.pid))
    }

    @Test func theSocketIsTheUsersOnlyAndAnotherUidIsRefused() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let game = try Game(server)
        defer { game.quit() }
        let same = try game.attach()
        _ = try same.next("hello")

        var folder = stat()
        var socket = stat()
        #expect(lstat(game.runtime.path + "/soundengine", &folder) == 0 && lstat(game.socket, &socket) == 0)
        #expect(folder.st_mode & S_IFMT == S_IFDIR && folder.st_mode & 0o777 == 0o700, "folder mode \(String(folder.st_mode, radix: 8))")
        #expect(socket.st_mode & S_IFMT == S_IFSOCK && socket.st_mode & 0o777 == 0o600, "socket mode \(String(socket.st_mode, radix: 8))")
        #expect(folder.st_uid == geteuid() && socket.st_uid == geteuid())

        // Another uid: the file mode stops it; with CAP_DAC_OVERRIDE (which
        // root's processes have) it connects, and the engine's peer-credential
        // check closes the connection without a word.
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            print("ProfilerLink: not root or no setpriv: the other-uid client was not tried")
            return
        }
        let client = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            try:
                s.connect(sys.argv[1])
            except OSError as e:
                print("refused", e.errno); sys.exit(0)
            s.settimeout(5); data = b""
            try:
                while True:
                    chunk = s.recv(4096)
                    if not chunk: break
                    data += chunk
            except socket.timeout:
                print("open"); sys.exit(0)
            print("closed", len(data))
            """
        func otherUser(_ capabilities: [String]) throws -> String {
            try PrivateSoundServer.run(
                "/usr/bin/setpriv",
                ["--reuid=65534", "--regid=65534", "--clear-groups"] + capabilities + ["/usr/bin/python3", "-c", client, game.socket]
            ).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let plain = try otherUser([])
        #expect(plain.hasPrefix("refused"), "\(plain)")
        let privileged = try otherUser(["--inh-caps=+dac_override", "--ambient-caps=+dac_override"])
        #expect(privileged == "closed 0", "the engine let uid 65534 in: \(privileged)")
        // The same user is still served.
        _ = try same.next("performance")
    }

    @Test func offByDefaultAndACrashedGamesSocketIsCleanedUp() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let quiet = try Game(server, profiler: false)
        try quiet.demo.send(#"{"cmd":"route","id":"r"}"#)
        _ = try quiet.demo.result(id: #""r""#)
        #expect(!FileManager.default.fileExists(atPath: quiet.socket))
        let sockets = (try? FileManager.default.contentsOfDirectory(atPath: quiet.runtime.path + "/soundengine")) ?? []
        #expect(!sockets.contains { $0.hasSuffix(".sock") }, "\(sockets)")
        #expect(!threadNames(of: quiet.demo.pid).contains("SoundEngine-prf"))
        quiet.quit()

        // A crash leaves its socket; the next game in that folder removes it.
        let crashed = try Game(server)
        let stale = crashed.socket
        #expect(eventually(within: 5) { FileManager.default.fileExists(atPath: stale) })
        // The socket is bound before the link's thread starts and names
        // itself, so the name can come a moment after the socket.
        #expect(eventually(within: 5) { threadNames(of: crashed.demo.pid).contains("SoundEngine-prf") })
        crashed.demo.crash()
        #expect(crashed.demo.waitForExit() != nil)
        #expect(FileManager.default.fileExists(atPath: stale))
        let next = try Game(server, runtime: crashed.runtime)
        let fresh = next.socket
        #expect(eventually(within: 5) { FileManager.default.fileExists(atPath: fresh) })
        #expect(!FileManager.default.fileExists(atPath: stale), "the crashed game's socket is still there")
        // A clean quit removes the socket.
        try next.demo.send(#"{"cmd":"quit","id":"q"}"#)
        #expect(next.demo.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    /// The names of a process's threads.
    func threadNames(of pid: pid_t) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap {
            (try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
