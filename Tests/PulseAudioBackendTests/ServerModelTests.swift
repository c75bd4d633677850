import Foundation
@testable import PulseAudioBackend
import SoundBackend
import SoundCore
import SoundServerSupport
import SoundSession
import Testing

/// System events a backend reported, with the time each arrived, and a way to
/// wait for one until a deadline (a condition variable, no polling sleeps).
final class TimedEvents: @unchecked Sendable {
    // @unchecked: `events` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var events: [(at: ContinuousClock.Instant, event: SystemEvent)] = []

    var handler: BackendEventHandler {
        { [self] event in
            guard case .system(let system) = event else { return }
            condition.lock()
            events.append((.now, system))
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Every event since `since`.
    func after(_ since: ContinuousClock.Instant) -> [(at: ContinuousClock.Instant, event: SystemEvent)] {
        condition.lock()
        defer { condition.unlock() }
        return events.filter { $0.at >= since }
    }

    /// The first event after `since` matching `match`, waiting up to `timeout`.
    func first(
        after since: ContinuousClock.Instant, within timeout: Duration = .seconds(3), _ match: (SystemEvent) -> Bool
    ) -> (at: ContinuousClock.Instant, event: SystemEvent)? {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let hit = events.first(where: { $0.at >= since && match($0.event) }) { return hit }
            if !condition.wait(until: deadline) { return events.first(where: { $0.at >= since && match($0.event) }) }
        }
    }

    /// Waits `duration` for more events (to check that no others came), then returns those after `since`.
    func settle(after since: ContinuousClock.Instant, for duration: Duration) -> [SystemEvent] {
        let until = ContinuousClock.now.advanced(by: duration)
        condition.lock()
        while ContinuousClock.now < until {
            _ = condition.wait(until: Date().addingTimeInterval(0.02))
        }
        condition.unlock()
        return after(since).map(\.event)
    }
}

private let usbHeadphones = EndpointID(.output, device: "usbhp")

/// Loads the "USB Headphones" null sink; returns the module index.
private func loadUSBHeadphones(_ server: PrivateSoundServer) throws -> String {
    try server.pactl(
        "load-module", "module-null-sink", "sink_name=usbhp",
        "sink_properties='device.description=\"USB Headphones\" device.bus=usb device.form_factor=headphone'"
    ).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Starts `pacat` as another client playing silence with `media.role=music`.
private func startMusicClient(_ server: PrivateSoundServer) throws -> Subprocess {
    try Subprocess(
        ["pacat", "--property=media.role=music", "--latency-msec=50", "/dev/zero"],
        extraEnvironment: ["PULSE_SERVER": server.address], captureStderr: false)
}

/// The server's sink inputs as `pactl --format=json` prints them.
private func sinkInputJSON(_ server: PrivateSoundServer) throws -> [[String: Any]] {
    let json = try server.pactl("--format=json", "list", "sink-inputs")
    return try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
}

/// The name of the sink our stream (sink input `index`) plays on.
/// Plugs the USB headphones, waits for the model to report them, unpauses
/// our stream and has the engine select them; returns our stream's index and
/// when the selection began.
private func playOnUSBHeadphones(
    _ server: PrivateSoundServer, _ events: TimedEvents, _ backend: PulseAudioBackend
) throws -> (index: UInt32, selected: ContinuousClock.Instant) {
    _ = try loadUSBHeadphones(server)
    let plugged = events.first(after: .now - .seconds(5)) {
        if case .endpointsChanged(let a, _) = $0 { return a.contains { $0.id == usbHeadphones } } else { return false }
    }
    #expect(plugged != nil)
    let index = try #require(backend.streamIndex)
    // Playing, as a game would be: pipewire-pulse reports a corked
    // stream's new sink only once it is linked again (~0.7 s later).
    try backend.setPaused(false)
    let selected = ContinuousClock.now
    try backend.perform(.selectOutput(usbHeadphones))
    #expect(try sinkName(ofSinkInput: index, server) == "usbhp")
    return (index, selected)
}

private func sinkName(ofSinkInput index: UInt32, _ server: PrivateSoundServer) throws -> String? {
    let sinks = try server.pactl("list", "short", "sinks").split(separator: "\n").map { $0.split(separator: "\t") }
    let inputs = try server.pactl("list", "short", "sink-inputs").split(separator: "\n").map { $0.split(separator: "\t") }
    guard let input = inputs.first(where: { $0.first.map(String.init) == String(index) }), input.count > 1,
        let sink = sinks.first(where: { $0.first == input[1] }), sink.count > 1
    else { return nil }
    return String(sink[1])
}

/// Channel volumes (`pa_volume_t`) of one sink input.
private func volumes(of index: UInt32, _ server: PrivateSoundServer) throws -> [Int] {
    guard let input = try sinkInputJSON(server).first(where: { ($0["index"] as? Int) == Int(index) }),
        let volume = input["volume"] as? [String: Any]
    else { return [] }
    return volume.keys.sorted().compactMap { (volume[$0] as? [String: Any])?["value"] as? Int }
}

private func muted(_ index: UInt32, _ server: PrivateSoundServer) throws -> Bool? {
    try sinkInputJSON(server).first(where: { ($0["index"] as? Int) == Int(index) })?["mute"] as? Bool
}

/// Opens a backend on `server`. The tone must outlive the backend (the
/// render thread reads it until `close`): keep it until after closing.
private func openBackend(_ server: PrivateSoundServer, _ events: TimedEvents) throws -> (PulseAudioBackend, GrantedStream, ToneGenerator) {
    let tone = ToneGenerator(frequency: 440, amplitude: 0.1, format: BackendConfiguration(applicationName: "").format)
    let backend = PulseAudioBackend()
    let granted = try backend.openStream(configuration(server), render: tone.entry, events: events.handler)
    return (backend, granted, tone)
}

/// Waits for another client's music stream to be reported running; returns its id.
private func runningMusic(_ events: TimedEvents, after since: ContinuousClock.Instant) -> StreamID? {
    let hit = events.first(after: since, within: .seconds(5)) {
        if case .otherStreamChanged(let s) = $0 { return s.role == .music && s.isRunning }
        return false
    }
    if case .otherStreamChanged(let s)? = hit?.event { return s.id }
    return nil
}

@Suite(.serialized) struct ServerModelTests {
    @Test func snapshotListsTheSpeakerAsTheDefaultBuiltInSpeaker() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let events = TimedEvents()
        let (backend, granted, tone) = try openBackend(server, events)
        defer { backend.close(); withExtendedLifetime(tone) {} }
        let snapshot = granted.snapshot
        let speaker = snapshot.endpoints.first { $0.id.device == "speaker" && $0.direction == .output }
        #expect(speaker?.portType == .builtInSpeaker, "endpoints: \(snapshot.endpoints)")
        #expect(speaker?.name == "Speaker")
        #expect(snapshot.defaultOutput == speaker?.id)
        #expect(snapshot.ownClient != nil)
        // Monitors are not endpoints; our own stream is not another client's.
        #expect(!snapshot.endpoints.contains { $0.id.device.hasSuffix(".monitor") })
        #expect(snapshot.streams.allSatisfy { $0.client != snapshot.ownClient })
    }

    @Test func pluggingAndUnpluggingADeviceIsOneCoalescedChangeEach() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let events = TimedEvents()
        let (backend, _, tone) = try openBackend(server, events)
        defer { backend.close(); withExtendedLifetime(tone) {} }

        let beforeLoad = ContinuousClock.now
        let module = try loadUSBHeadphones(server)
        let loaded = ContinuousClock.now
        let appeared = events.first(after: beforeLoad) {
            if case .endpointsChanged(let a, _) = $0 { return a.contains { $0.id == usbHeadphones } }
            return false
        }
        let delay = appeared.map { $0.at - loaded }
        print("ServerModelTests[\(server.kind)]: endpoint appeared \(delay.map { "\($0)" } ?? "never") after load-module returned (load took \(loaded - beforeLoad))")
        #expect(delay != nil && delay! < .milliseconds(150), "appeared after \(String(describing: delay))")
        let afterLoad = events.settle(after: beforeLoad, for: .milliseconds(400))
        let loadChanges = afterLoad.filter { if case .endpointsChanged = $0 { true } else { false } }
        #expect(loadChanges.count == 1, "\(afterLoad)")
        if case .endpointsChanged(let a, let d)? = loadChanges.first {
            #expect(a.map(\.id) == [usbHeadphones] && d.isEmpty)
            #expect(a.first?.portType == .usbAudio)
            #expect(a.first?.name == "USB Headphones")
        }
        #expect(!afterLoad.contains { if case .defaultOutputChanged = $0 { true } else { false } }, "\(afterLoad)")

        let beforeUnload = ContinuousClock.now
        try server.pactl("unload-module", module)
        let unloaded = ContinuousClock.now
        let gone = events.first(after: beforeUnload) {
            if case .endpointsChanged(_, let d) = $0 { return d.contains(usbHeadphones) }
            return false
        }
        print("ServerModelTests[\(server.kind)]: endpoint disappeared \(gone.map { "\($0.at - unloaded)" } ?? "never") after unload-module returned")
        #expect(gone != nil && gone!.at - unloaded < .milliseconds(150))
        let afterUnload = events.settle(after: beforeUnload, for: .milliseconds(400))
        let unloadChanges = afterUnload.filter { if case .endpointsChanged = $0 { true } else { false } }
        #expect(unloadChanges == [.endpointsChanged(appeared: [], disappeared: [usbHeadphones])], "\(afterUnload)")
    }

    @Test func anotherClientsMusicIsReportedRunningAndRemoved() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let events = TimedEvents()
        let (backend, granted, tone) = try openBackend(server, events)
        defer { backend.close(); withExtendedLifetime(tone) {} }
        let start = ContinuousClock.now
        let pacat = try startMusicClient(server)
        let id = runningMusic(events, after: start)
        #expect(id != nil, "\(events.after(start).map(\.event))")
        if case .otherStreamChanged(let s)? = events.first(after: start, { if case .otherStreamChanged = $0 { true } else { false } })?.event {
            #expect(s.client != granted.snapshot.ownClient)
        }
        let killed = ContinuousClock.now
        pacat.kill()
        let removed = events.first(after: killed) { $0 == .otherStreamRemoved(id ?? StreamID(rawValue: .max)) }
        #expect(removed != nil, "\(events.after(killed).map(\.event))")
        // Our own stream never shows up as another client's.
        #expect(!events.after(start).contains {
            if case .otherStreamChanged(let s) = $0.event { return s.id.rawValue == backend.streamIndex } else { return false }
        })
    }

    @Test func selectingAnOutputMovesOurStreamSilentlyAndAUserMoveIsReported() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let events = TimedEvents()
        let (backend, _, tone) = try openBackend(server, events)
        defer { backend.close(); withExtendedLifetime(tone) {} }
        let (index, selected) = try playOnUSBHeadphones(server, events, backend)
        let afterSelect = events.settle(after: selected, for: .milliseconds(300))
        #expect(!afterSelect.contains { if case .streamMovedByUser = $0 { true } else { false } }, "\(afterSelect)")

        // A person moves a stream once it has settled in (until then a move
        // is the session manager's, and the engine corrects it).
        #expect(eventually(within: 10) { backend.ownPlaybackHasSettled })
        let moved = ContinuousClock.now
        // As a user sees it: the move has happened once pactl shows it. On
        // pipewire-pulse a move right after the engine's own can be undone by
        // WirePlumber still applying the engine's target, so repeat it until
        // the server shows it (seen in about 1 run in 6).
        #expect(eventually(within: 5) {
            _ = try? server.pactl("move-sink-input", String(index), "speaker")
            return (try? sinkName(ofSinkInput: index, server)) == "speaker"
        }, "the server never moved the stream")
        let report = events.first(after: moved) { if case .streamMovedByUser = $0 { true } else { false } }
        #expect(report?.event == .streamMovedByUser(EndpointID(.output, device: "speaker")), "\(events.after(moved).map(\.event))")
        print("ServerModelTests[\(server.kind)]: user move reported \(report.map { "\($0.at - moved)" } ?? "never") after pactl started")
    }

    /// A session manager moves a stream while it is new (WirePlumber links
    /// it, restores its role's remembered target, re-links it after a
    /// restart): such a move is put right, never taken for the user's, which
    /// would pin our stream to another device for good.
    @Test func aMoveWhileOurStreamIsNewIsPutBackNotTakenForTheUsers() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let events = TimedEvents()
        let (backend, _, tone) = try openBackend(server, events)
        defer { backend.close(); withExtendedLifetime(tone) {} }
        let (index, _) = try playOnUSBHeadphones(server, events, backend)
        #expect(!backend.ownPlaybackHasSettled, "the test is too slow: the stream settled before the move")

        let moved = ContinuousClock.now
        _ = try server.pactl("move-sink-input", String(index), "speaker")
        // Put back where the engine chose, and it stays there.
        #expect(eventually(within: 3) { (try? sinkName(ofSinkInput: index, server)) == "usbhp" }, "not put back")
        #expect(!eventually(within: 1) { (try? sinkName(ofSinkInput: index, server)) != "usbhp" })
        let after = events.after(moved).map(\.event)
        #expect(!after.contains { if case .streamMovedByUser = $0 { true } else { false } }, "\(after)")
    }

    @Test func aUserDefaultChangeIsReportedButAFallbackAfterRemovalIsNot() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let events = TimedEvents()
        let (backend, _, tone) = try openBackend(server, events)
        defer { backend.close(); withExtendedLifetime(tone) {} }
        let module = try loadUSBHeadphones(server)
        let plugged = events.first(after: .now - .seconds(5)) {
            if case .endpointsChanged(let a, _) = $0 { return a.contains { $0.id == usbHeadphones } } else { return false }
        }
        #expect(plugged != nil)
        // A person chooses once the device has settled, not milliseconds
        // after it appeared: until then a switch of the default to it is the
        // server's (WirePlumber makes it a few ms after the sink appears).
        #expect(eventually(within: 5) { backend.serverModelHasSettled }, "the model never settled after the plug")
        // WirePlumber may make usbhp the default by itself, and under load
        // it has done so after the model settled (a CI run): the user's
        // choice below was then no change at all. So the user first makes
        // the speaker the default, explicitly; WirePlumber keeps a
        // configured default, and the choice of usbhp is a real change.
        let pinned = ContinuousClock.now
        #expect(eventually(within: 5) {
            _ = try? server.pactl("set-default-sink", "speaker")
            return (try? server.defaultSink) == "speaker"
        }, "the server never made the speaker the default")
        #expect(eventually(within: 5) { backend.serverModelHasSettled })
        _ = events.settle(after: pinned, for: .milliseconds(300))

        // The user picks the new device as default: reported; our stream,
        // which follows the default, moving with it is not a user move.
        let chosen = ContinuousClock.now
        // As a user sees it: chosen once the server shows it. pipewire-pulse
        // under load can drop a choice WirePlumber makes before it has set up
        // the new node (seen once in a parallel CI run), so repeat it until
        // the server shows it, as the user-move test does.
        #expect(eventually(within: 5) {
            _ = try? server.pactl("set-default-sink", "usbhp")
            return (try? server.defaultSink) == "usbhp"
        }, "the server never made usbhp the default")
        let report = events.first(after: chosen) { if case .defaultOutputChanged = $0 { true } else { false } }
        #expect(report?.event == .defaultOutputChanged(usbHeadphones), "\(events.after(chosen).map(\.event))")
        let afterChoice = events.settle(after: chosen, for: .milliseconds(300))
        #expect(!afterChoice.contains { if case .streamMovedByUser = $0 { true } else { false } }, "\(afterChoice)")

        // The default device goes away: the server falls back to the speaker.
        // That is the disappearance, not a user choice, and our stream's
        // rescue move is not a user move either.
        let unplugged = ContinuousClock.now
        try server.pactl("unload-module", module)
        let gone = events.first(after: unplugged) {
            if case .endpointsChanged(_, let d) = $0 { return d.contains(usbHeadphones) } else { return false }
        }
        #expect(gone != nil)
        let afterRemoval = events.settle(after: unplugged, for: .milliseconds(300))
        #expect(!afterRemoval.contains {
            switch $0 {
            case .defaultOutputChanged, .streamMovedByUser: true
            default: false
            }
        }, "\(afterRemoval)")
    }

    /// The server's own burst for a plug can end before everything the plug
    /// causes is done: pipewire-pulse reports a replugged sink at once and
    /// WirePlumber makes it the default again a few ms later (the user chose
    /// it before it went). That late default change must be the plug's, as
    /// it is on PulseAudio 16, where the sink and the default change come in
    /// one burst: one `endpointsChanged`, no user choice, no user move.
    @Test func aReplugOfTheChosenDefaultIsOneChangeAndNotTheUsersChoice() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let events = TimedEvents()
        let (backend, _, tone) = try openBackend(server, events)
        defer { backend.close(); withExtendedLifetime(tone) {} }
        try backend.setPaused(false)
        func changes(after since: ContinuousClock.Instant) -> [SystemEvent] {
            events.settle(after: since, for: .milliseconds(600)).filter {
                switch $0 {
                case .endpointsChanged, .defaultOutputChanged, .defaultInputChanged, .streamMovedByUser: true
                default: false
                }
            }
        }
        let plugged = ContinuousClock.now
        var module = try loadUSBHeadphones(server)
        #expect(events.first(after: plugged) {
            if case .endpointsChanged(let a, _) = $0 { a.contains { $0.id == usbHeadphones } } else { false }
        } != nil)
        #expect(eventually(within: 5) { backend.serverModelHasSettled })
        #expect(eventually(within: 5) {
            _ = try? server.pactl("set-default-sink", "usbhp")
            return (try? server.defaultSink) == "usbhp"
        }, "the server never made usbhp the default")
        #expect(events.first(after: .now - .seconds(5)) { $0 == .defaultOutputChanged(usbHeadphones) } != nil)
        #expect(eventually(within: 5) { backend.serverModelHasSettled })

        let unplugged = ContinuousClock.now
        try server.pactl("unload-module", module)
        #expect(eventually(within: 5) { (try? server.defaultSink) == "speaker" })
        #expect(changes(after: unplugged) == [.endpointsChanged(appeared: [], disappeared: [usbHeadphones])])

        let replugged = ContinuousClock.now
        module = try loadUSBHeadphones(server)
        #expect(eventually(within: 5) { (try? server.defaultSink) == "usbhp" }, "the server did not restore its default")
        let afterReplug = changes(after: replugged)
        #expect(afterReplug.count == 1, "\(afterReplug)")
        if case .endpointsChanged(let appeared, let gone)? = afterReplug.first {
            #expect(appeared.map(\.id) == [usbHeadphones] && gone.isEmpty, "\(afterReplug)")
        } else {
            Issue.record("no endpointsChanged for the replug: \(afterReplug)")
        }
        try server.pactl("unload-module", module)
    }

    /// The judging of late pieces, without a server: what a flush reported
    /// explains a default change in a later burst for ``ServerModel/settleGrace``
    /// (a premature flush must not turn the rest of the plug into a second
    /// change or the user's choice), and once that has passed the same
    /// change is the user's.
    @Test func lateServerPiecesOfAPlugAreJudgedAsThePlugs() throws {
        let (model, loop, context, emitted) = try offlineModel()
        defer { loop.withLock { model.stop() }; context.unref(); loop.free() }
        let speaker = PADeviceInfo(index: 0, name: "speaker", description: "Speaker", properties: ["device.form_factor": "speaker"])
        let headphones = PADeviceInfo(
            index: 1, name: "usbhp", description: "USB Headphones", properties: ["device.bus": "usb", "device.form_factor": "headphone"])
        let usb = EndpointID(.output, device: "usbhp")
        let speakerID = EndpointID(.output, device: "speaker")
        loop.withLock {
            model.sinks = [0: speaker]
            model.defaultSinkName = "speaker"
            model.reportedEndpoints = Dictionary(model.currentEndpoints().map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            model.reportedDefaultOutput = model.defaultEndpoint(.output)
            model.started = true
        }
        func flush(_ change: (ServerModel) -> Void) -> [SystemEvent] {
            let before = emitted.count
            loop.withLock {
                change(model)
                model.flush()
            }
            return Array(emitted.all.dropFirst(before))
        }

        // The plug's first piece: the sink.
        let first = flush { $0.sinks[1] = headphones }
        #expect(first.count == 1 && first.first.map { if case .endpointsChanged(let a, []) = $0 { a.map(\.id) == [usb] } else { false } } == true,
                "\(first)")
        // A second event of the same plug (the sink reported again, unchanged): nothing.
        #expect(flush { $0.sinks[1] = headphones }.isEmpty)
        // The session manager makes it the default a few ms later: the plug's, not the user's.
        #expect(flush { $0.defaultSinkName = "usbhp" }.isEmpty)

        // Unplugged with the default on it: the server has no default at
        // first (pipewire-pulse names the gone sink), then picks the speaker.
        let unplug = flush {
            $0.sinks[1] = nil
            $0.defaultSinkName = "usbhp"
        }
        #expect(unplug == [.endpointsChanged(appeared: [], disappeared: [usb])])
        #expect(flush { $0.defaultSinkName = "speaker" }.isEmpty, "the late fallback was taken for the user's choice")

        // Once settled, the same changes are the user's.
        #expect(flush { $0.sinks[1] = headphones }.count == 1)
        loop.withLock { model.aftermath = BurstAftermath() }
        #expect(flush { $0.defaultSinkName = "usbhp" } == [.defaultOutputChanged(usb)])
        loop.withLock { model.aftermath = BurstAftermath() }
        #expect(flush { $0.defaultSinkName = "speaker" } == [.defaultOutputChanged(speakerID)])
    }

    @Test func muteAndDuckOtherStreamsAndRestoreExactly() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let events = TimedEvents()
        let (backend, _, tone) = try openBackend(server, events)
        defer { backend.close(); withExtendedLifetime(tone) {} }
        let start = ContinuousClock.now
        let pacat = try startMusicClient(server)
        defer { pacat.kill() }
        let id = try #require(runningMusic(events, after: start))

        try backend.perform(.muteOtherStreams([id]))
        #expect(try muted(id.rawValue, server) == true)
        let client = clientOf(id, events)
        let mutedReport = OtherStream(id: id, client: client, role: .music, isRunning: true, isMuted: true)
        #expect(events.first(after: start) { $0 == .otherStreamChanged(mutedReport) } != nil)
        try backend.perform(.unmuteOtherStreams([id]))
        #expect(try muted(id.rawValue, server) == false)

        try server.pactl("set-sink-input-volume", String(id.rawValue), "70%")
        #expect(eventually(within: 2) { (try? volumes(of: id.rawValue, server))?.first.map { abs($0 - 45_875) < 700 } ?? false })
        let original = try volumes(of: id.rawValue, server)
        try backend.perform(.duckOtherStreams([id], factor: 0.2))
        let ducked = try volumes(of: id.rawValue, server)
        // factor is linear amplitude; pa_volume_t is a cubic scale: 0.2 ≙ ∛0.2 ≈ 58.5 % of the value.
        let expected = original.map { Int((Double($0) * cbrt(0.2)).rounded()) }
        #expect(ducked.count == original.count && zip(ducked, expected).allSatisfy { abs($0 - $1) <= 2 }, "\(original) → \(ducked)")
        try backend.perform(.unduckOtherStreams([id]))
        #expect(try volumes(of: id.rawValue, server) == original)
        print("ServerModelTests[\(server.kind)]: volume \(original) ducked to \(ducked), restored \(try volumes(of: id.rawValue, server))")

        // The user changes the volume while ducked: theirs stays.
        try backend.perform(.duckOtherStreams([id], factor: 0.2))
        try server.pactl("set-sink-input-volume", String(id.rawValue), "50%")
        #expect(eventually(within: 2) { (try? volumes(of: id.rawValue, server))?.first.map { abs($0 - 32_768) < 700 } ?? false })
        let users = try volumes(of: id.rawValue, server)
        try backend.perform(.unduckOtherStreams([id]))
        #expect(try volumes(of: id.rawValue, server) == users)

        // Streams that went away are not an error.
        pacat.kill()
        _ = events.first(after: start) { $0 == .otherStreamRemoved(id) }
        try backend.perform(.muteOtherStreams([id]))
        try backend.perform(.duckOtherStreams([id], factor: 0.5))
        try backend.perform(.unduckOtherStreams([id]))
    }

    @Test func portClassificationFollowsTheTable() {
        #expect(classifyPort(PortFacts(direction: .output, properties: ["device.form_factor": "speaker"])) == .builtInSpeaker)
        #expect(classifyPort(PortFacts(direction: .output, properties: ["device.form_factor": "handset"])) == .builtInReceiver)
        #expect(classifyPort(PortFacts(direction: .output, properties: ["device.form_factor": "headset"])) == .headphones)
        #expect(classifyPort(PortFacts(direction: .input, properties: ["device.form_factor": "headset"])) == .headsetMic)
        #expect(classifyPort(PortFacts(direction: .input, properties: ["device.form_factor": "microphone"])) == .builtInMic)
        #expect(classifyPort(PortFacts(direction: .output, properties: ["device.bus": "usb", "device.form_factor": "headphone"])) == .usbAudio)
        #expect(classifyPort(PortFacts(direction: .output, properties: ["device.bus": "bluetooth", "bluetooth.protocol": "a2dp_sink"])) == .bluetoothA2DP)
        #expect(classifyPort(PortFacts(direction: .output, properties: ["device.bus": "bluetooth", "api.bluez5.profile": "headset-head-unit"])) == .bluetoothHFP)
        #expect(classifyPort(PortFacts(direction: .input, properties: ["device.bus": "bluetooth", "device.form_factor": "hands-free"])) == .bluetoothHFP)
        #expect(classifyPort(PortFacts(direction: .output, properties: ["device.form_factor": "tv"])) == .hdmi)
        #expect(classifyPort(PortFacts(direction: .output, properties: ["device.api": "raop"])) == .airPlay)
        #expect(classifyPort(PortFacts(direction: .output, properties: ["device.description": "Null Output"])) == .virtual)
        #expect(classifyPort(PortFacts(direction: .output, portType: PADevicePortType.headphones.rawValue,
                                       portName: "analog-output-headphones", properties: ["device.api": "alsa"], hasCard: true)) == .headphones)
        #expect(classifyPort(PortFacts(direction: .output, portType: PADevicePortType.speaker.rawValue,
                                       portName: "analog-output-speaker", properties: ["device.api": "alsa"], hasCard: true)) == .builtInSpeaker)
        #expect(classifyPort(PortFacts(direction: .input, portType: PADevicePortType.mic.rawValue,
                                       portName: "analog-input-internal-mic", hasCard: true)) == .builtInMic)
        #expect(classifyPort(PortFacts(direction: .input, portType: PADevicePortType.mic.rawValue,
                                       portName: "analog-input-headset-mic", hasCard: true)) == .headsetMic)
        #expect(classifyPort(PortFacts(direction: .output, portType: 0, portName: "hdmi-output-0", hasCard: true)) == .hdmi)
        #expect(classifyPort(PortFacts(direction: .output, portType: PADevicePortType.earpiece.rawValue, portName: "earpiece", hasCard: true)) == .builtInReceiver)
        #expect(classifyPort(PortFacts(direction: .output, portType: PADevicePortType.car.rawValue, portName: "car", hasCard: true)) == .carAudio)
    }

    /// Issue 15: a server (default device) change whose query libpulse
    /// refused stayed counted as in flight, so every later flush waited the
    /// whole coalescing limit. A context that is not connected refuses every
    /// query (`PA_ERR_BADSTATE`), as a dying one does: each kind of device
    /// event must leave nothing counted.
    @Test func refusedDeviceQueriesAreNotLeftInFlight() throws {
        let (model, loop, context, _) = try offlineModel()
        defer { context.unref(); loop.free() }
        for (facility, kind): (PASubscriptionFacility, PASubscriptionKind) in [
            (.server, .change), (.sink, .new), (.source, .change), (.card, .change),
        ] {
            loop.withLock { model.handle(facility, kind, 1) }
            #expect(model.deviceQueriesInFlight == 0, "after a refused query for a \(facility) \(kind)")
        }
        let refused = loop.withLock {
            model.issueDeviceQuery(onItem: { (_: PADeviceInfo) in }) { context.getSinks(nil, $0) }
        }
        #expect(!refused)
        #expect(model.deviceQueriesInFlight == 0)
        loop.withLock { model.stop() }
    }
}

/// What a model emitted (from its loop's thread or a test's).
private final class Emitted: @unchecked Sendable {
    // @unchecked: `events` is only touched with `lock` held.
    private let lock = NSLock()
    private var events: [SystemEvent] = []
    func append(_ event: SystemEvent) { lock.withLock { events.append(event) } }
    var all: [SystemEvent] { lock.withLock { events } }
    var count: Int { all.count }
}

/// A server model on a context that never connects (every query is refused,
/// as on a dying connection), its loop not running: the test drives it.
private func offlineModel() throws -> (ServerModel, PAMainloop, PAContext, Emitted) {
    let loop = try #require(PAMainloop.make(name: "SoundEngine-test"))
    let proplist = PAProplist.make(["application.name": "SoundEngine model test"])
    defer { proplist.free() }
    guard let context = PAContext.make(mainloop: loop, name: "SoundEngine model test", properties: proplist) else {
        loop.free()
        throw ServerError("no context")
    }
    let emitted = Emitted()
    let model = ServerModel(
        requests: RequestRunner(context: context, mainloop: loop, wait: { _, _ in false }),
        server: PAServerInfo(serverName: "pulseaudio"),
        holds: HoldBook(BackendConfiguration(applicationName: "SoundEngine model test"), warn: { _ in }),
        ownRestoreKey: "", emit: { emitted.append($0) })
    return (model, loop, context, emitted)
}

/// The client of a stream as first reported.
private func clientOf(_ id: StreamID, _ events: TimedEvents) -> ClientID {
    for (_, event) in events.after(.now - .seconds(3600)) {
        if case .otherStreamChanged(let s) = event, s.id == id { return s.client }
    }
    return ClientID(rawValue: .max)
}
