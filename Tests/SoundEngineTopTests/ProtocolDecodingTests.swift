import Foundation
import Testing

@testable import soundengine_top

/// Each message of docs/profiling.md decodes into what the pages show.
struct ProtocolDecodingTests {
    @Test func hello() throws {
        let line = #"{"type":"hello","t":0,"protocol":1,"pid":4242,"program":"mygame","engine":"1.2.0","sampleRate":48000,"channels":2,"samplesPerFrame":512,"rate":30,"edits":true,"future":"ignored"}"#
        let (time, message) = try ProfilerMessage.decode(line)
        #expect(time == 0)
        #expect(
            message
                == .hello(.init(protocolVersion: 1, pid: 4242, program: "mygame", engine: "1.2.0", sampleRate: 48000, channels: 2,
                    samplesPerFrame: 512, rate: 30, edits: true)))
    }

    @Test func sessionWithRoute() throws {
        let line = ProtocolLines.session(t: 3.25, category: "ambient", output: ProtocolLines.port("Headphones", "USB Headphones", "usbhp"))
        let (time, message) = try ProfilerMessage.decode(line)
        #expect(time == 3.25)
        guard case .session(let session) = message else { Issue.record("not a session: \(message)"); return }
        #expect(session.category == "ambient")
        #expect(session.options == ["mixWithOthers"])
        #expect(session.active && !session.interrupted && session.interruptionReason == nil)
        #expect(session.engineState == "running")
        #expect(session.outputs == [.init(type: "Headphones", name: "USB Headphones", uid: "usbhp")])
        #expect(session.inputs.isEmpty)
    }

    @Test func voicesWithNullsAndNumbersAsIDs() throws {
        let line = ProtocolLines.voices([
            ProtocolLines.voice(id: 7, event: "Play_Footstep"),
            #"{"playingID":8,"event":null,"gameObject":null,"sound":"music","bus":"music","position":null,"gain":1,"audibleDB":null,"virtual":true,"state":"paused"}"#,
        ])
        guard case .voices(let list) = try ProfilerMessage.decode(line).message else { Issue.record("not voices"); return }
        #expect(list.active == 2)
        #expect(list.voices.count == 2)
        #expect(list.voices[0].playingID == 7 && list.voices[0].event == "Play_Footstep" && list.voices[0].gameObject == "1")
        #expect(list.voices[0].position == [1, 0, 0] && list.voices[0].audibleDB == -12.5)
        #expect(list.voices[1].event == nil && list.voices[1].gameObject == nil && list.voices[1].position == nil)
        #expect(list.voices[1].isVirtual && list.voices[1].state == "paused" && list.voices[1].audibleDB == nil)
    }

    @Test func busesSyncsPerformance() throws {
        guard case .buses(let buses) = try ProfilerMessage.decode(ProtocolLines.buses).message else { Issue.record("not buses"); return }
        #expect(buses.map(\.name) == ["master", "sfx"])
        #expect(buses[1].parent == "1" && buses[1].muted && buses[1].volume == 0.5 && buses[1].peak == [0.1, 0.1])
        guard case .syncs(let syncs) = try ProfilerMessage.decode(ProtocolLines.syncs).message else { Issue.record("not syncs"); return }
        #expect(syncs.rtpcs == [.init(name: "Speed", gameObject: nil, value: 42.5)])
        #expect(syncs.states == [.init(group: "Weather", state: "Rain")])
        #expect(syncs.switches == [.init(group: "Surface", gameObject: "1", value: "gravel")])
        guard case .performance(let p) = try ProfilerMessage.decode(ProtocolLines.performance(cpu: 0.25)).message else {
            Issue.record("not performance")
            return
        }
        #expect(p.quanta == 1200 && p.cpuMax == 0.25 && p.latencyMs == 42 && p.underflows == 3)
    }

    @Test func notificationKeepsItsFields() throws {
        guard case .notification(let entry) = try ProfilerMessage.decode(ProtocolLines.notification).message else {
            Issue.record("not a notification")
            return
        }
        #expect(entry.time == 2.5 && entry.name == "routeChange")
        #expect(entry.details == ["reason=newDeviceAvailable", "currentRoute=[usbhp]"])  // why first
    }

    @Test func resultsUnknownTypesAndBadLines() throws {
        #expect(
            try ProfilerMessage.decode(#"{"type":"result","t":1,"id":3,"ok":false,"error":"edits are off","code":"notAllowed"}"#).message
                == .result(.init(id: "3", ok: false, error: "edits are off", code: "notAllowed")))
        #expect(try ProfilerMessage.decode(#"{"type":"fromTheFuture","t":1}"#).message == .unknown("fromTheFuture"))
        #expect(throws: ProfilerMessage.DecodingFailure.self) { try ProfilerMessage.decode("not json") }
        #expect(throws: ProfilerMessage.DecodingFailure.self) { try ProfilerMessage.decode(#"{"t":1}"#) }
        #expect(throws: ProfilerMessage.DecodingFailure.self) { try ProfilerMessage.decode("[1,2]") }
    }

    @Test func theModelKeepsHistoryAndCountsBadLines() {
        var model = ProfilerModel()
        for index in 0..<(ProfilerModel.historyLength + 10) {
            model.apply(line: ProtocolLines.performance(t: Double(index), cpu: Double(index) / 1000))
        }
        model.apply(line: "garbage")
        #expect(model.cpuHistory.count == ProfilerModel.historyLength)
        #expect(model.cpuHistory.last == Double(ProfilerModel.historyLength + 9) / 1000)
        #expect(model.time == Double(ProfilerModel.historyLength + 9))
        #expect(model.malformedLines == 1)
    }

    @Test func aSocketNameGivesItsPid() {
        #expect(GameDirectory.pid(ofSocketNamed: "1234.sock") == 1234)
        #expect(GameDirectory.pid(ofSocketNamed: "abc.sock") == nil)
        #expect(GameDirectory.pid(ofSocketNamed: "1234.json") == nil)
        #expect(GameDirectory(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]).folder == "/run/user/1000/soundengine")
        #expect(GameDirectory(environment: [:]).folder.hasPrefix("/tmp/soundengine-"))
    }

    @Test func theListSkipsStaleSocketsAndReadsHello() throws {
        let runtime = try ScratchFolder()
        let game = try FakeGame(runtimeDirectory: runtime.path, program: "listed", picture: ProtocolLines.picture)
        defer { game.stop() }
        // A crashed game's socket: a pid that does not exist, and a socket file nobody listens on.
        let stale = runtime.path + "/soundengine/2147483646.sock"
        #expect(FileManager.default.createFile(atPath: stale, contents: Data()))
        let games = GameDirectory(environment: ["XDG_RUNTIME_DIR": runtime.path]).games()
        #expect(games.map(\.hello.program) == ["listed"])
        #expect(games.first?.socketPath == game.socketPath)
    }
}
