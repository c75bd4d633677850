import Foundation
import SoundEngine
import SoundCore
import SoundSession
import SoundServerSupport
import Testing

/// The output device a settings menu pins (issue 17, item 5), on private
/// null sinks of the server under test: the pin holds through a default
/// change, falls back with a route change when the device goes, and returns
/// when it comes back.
@Suite(.serialized) struct OutputDeviceTests {
    static let deskProperties = ["device.description": "Desk Speakers", "device.bus": "usb"]
    static let tvProperties = ["device.description": "Living Room TV", "device.bus": "usb"]

    /// Whether `condition` holds at every look for `seconds` (a move that
    /// should not happen, had it happened, would show within tens of ms).
    func holds(for seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if !condition() { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

    @Test func aPinnedDeviceHoldsFallsBackAndIsReturnedTo() throws {
        let live = try LiveSession(SessionConfiguration(category: .playback))
        defer { live.stop() }
        try live.playTone()
        let session = live.engine.audioSession
        var desk = try live.server.addOutput(name: "desk", properties: Self.deskProperties)
        let tv = try live.server.addOutput(name: "tv", properties: Self.tvProperties)
        defer { try? tv.remove() }
        // Last in wins: the TV, plugged last; the player makes it the default too.
        #expect(eventually { (try? live.ourSink()) == "tv" })
        _ = try live.server.pactl("set-default-sink", "tv")
        // The menu lists both with stable identifiers and human names.
        #expect(eventually { Set(session.outputDevices.map(\.uid)).isSuperset(of: ["desk", "tv", "speaker"]) })
        #expect(session.outputDevices.first { $0.uid == "desk" }?.portName == "Desk Speakers")
        #expect(session.pinnedOutput == .systemDefault)

        var mark = live.log.all.count
        try session.pinOutput(.device(uid: "desk"))
        #expect(session.pinnedOutput == .device(uid: "desk"))
        #expect(eventually { (try? live.ourSink()) == "desk" }, "the pin did not move our stream")
        let pinned = live.log.wait(from: mark) { if case .routeChange = $0 { true } else { false } }
        if case .routeChange(let change)? = pinned {
            #expect(change.reason == .override && change.currentRoute.outputs.map(\.uid) == ["desk"])
        } else {
            Issue.record("no route change for the pin: \(live.log.all)")
        }

        // The player changes the desktop's default: the game stays where it was pinned.
        _ = try live.server.pactl("set-default-sink", "speaker")
        #expect(holds(for: 1) { (try? live.ourSink()) == "desk" }, "a default change took our stream off the pinned device")

        // Unplugged: back to the default the player chose (the speaker, not
        // the TV that came last), with a notification.
        mark = live.log.all.count
        try desk.remove()
        let gone = live.log.wait(from: mark) { if case .routeChange = $0 { true } else { false } }
        guard case .routeChange(let fallback)? = gone else {
            Issue.record("no route change when the pinned device went: \(live.log.all)")
            return
        }
        #expect(fallback.reason == .oldDeviceUnavailable)
        #expect(fallback.previousRoute.outputs.map(\.uid) == ["desk"])
        #expect(fallback.currentRoute.outputs.map(\.uid) == ["speaker"])
        #expect(eventually { (try? live.ourSink()) == "speaker" })
        #expect(session.pinnedOutput == .device(uid: "desk"), "the pin is kept while the device is away")

        // Plugged back: returned to, though the TV is also there and newer defaults exist.
        mark = live.log.all.count
        desk = try live.server.addOutput(name: "desk", properties: Self.deskProperties)
        defer { try? desk.remove() }
        let back = live.log.wait(from: mark) { if case .routeChange = $0 { true } else { false } }
        if case .routeChange(let change)? = back {
            #expect(change.reason == .newDeviceAvailable && change.currentRoute.outputs.map(\.uid) == ["desk"])
        } else {
            Issue.record("no route change when the pinned device came back: \(live.log.all)")
        }
        #expect(eventually { (try? live.ourSink()) == "desk" }, "not returned to the pinned device")
        let recorder = try live.server.record("desk.monitor")
        defer { recorder.stop() }
        #expect(recorder.waitForLevel { $0.allSatisfy { $0 > 0.1 } }.met, "the tone is not heard on the pinned device")

        // Unpinned: the rules choose again (the player's default).
        try session.pinOutput(.systemDefault)
        #expect(session.pinnedOutput == .systemDefault)
    }

    @Test func aPinOfWhatIsNotThereIsRefusedNamingItAndChangesNothing() throws {
        let live = try LiveSession(SessionConfiguration(category: .playback))
        defer { live.stop() }
        let session = live.engine.audioSession
        #expect { try session.pinOutput(.device(uid: "nope")) } throws: { error in
            guard case SoundEngineError.invalidParameter(let why) = error else { return false }
            return why.contains("'nope'") && why.contains("speaker")
        }
        #expect { try session.pinOutput(.device(uid: "mic")) } throws: { error in
            if case SoundEngineError.invalidParameter = error { true } else { false }
        }
        #expect(session.pinnedOutput == .systemDefault)
        live.engine.terminate()
        #expect { try session.pinOutput(.systemDefault) } throws: { error in
            if case SoundEngineError.notInitialized = error { true } else { false }
        }
    }
}
