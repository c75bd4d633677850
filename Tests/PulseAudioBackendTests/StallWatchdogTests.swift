import Foundation
import PulseAudioBackend
import SoundBackend
import SoundCore
import SoundServerSupport
import Testing

/// Issue 15, "never silent", on a real server: our playback stream stops
/// being asked for audio while the server and every other client go on (a
/// pipewire-pulse stream that stops asking, peer bugs 3 and 5), made with a
/// ``StallSwitch``. The watchdog reports it as a failed stream, not before
/// its timeout (half a second for our 21 ms buffer) and not long after;
/// re-creating the stream, as the engine does on that report, replaces the
/// stalled one and plays. The judgement itself: StallJudgeTests.
@Suite struct StallWatchdogTests {
    @Test func aStreamTheServerStopsAskingIsReportedStalledAndCanBeReplaced() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let log = EventLog()
        let tone = ToneGenerator(frequency: 440, amplitude: 0.1, format: BackendConfiguration(applicationName: "").format)
        let backend = PulseAudioBackend()
        let stall = StallSwitch()  // outlives the backend: libpulse holds its wrappers until the stream goes
        let settings = configuration(server)
        _ = try stall.installing { try backend.openStream(settings, render: tone.entry, events: log.handler) }
        defer { backend.close() }
        #expect(stall.wrapped == 1, "the backend's write callback was not made stallable")
        let failures = { log.all.compactMap { event -> String? in if case .streamFailed(let why) = event { why } else { nil } } }

        // Playing for longer than the timeout and the start-up allowance: no stall.
        try backend.setPaused(false)
        let playing = backend.statistics.framesRendered
        #expect(eventually { backend.statistics.framesRendered >= playing + 144_000 }, "the stream does not play")
        #expect(failures().isEmpty, "a stream that plays was reported: \(failures())")

        // Stalled while uncorked.
        let stalledAt = ContinuousClock.now
        stall.stalled.store(true, ordering: .releasing)
        #expect(eventually(within: 5) { !failures().isEmpty }, "no stall reported")
        let took = ContinuousClock.now - stalledAt
        print("StallWatchdog[\(server.kind.rawValue)]: reported \(took) after the stream stopped being asked")
        #expect(failures().count == 1 && failures().first?.contains("stalled") == true, "\(failures())")
        // The timeout counts from the last look that saw progress, which may come a few
        // milliseconds before the switch.
        #expect(took >= .milliseconds(450), "reported before the timeout: \(took)")
        #expect(took < .milliseconds(1500), "reported late: \(took)")
        #expect(stall.dropped.load(ordering: .relaxed) > 0, "no write request was dropped: nothing stalled")
        // Only our stream stalled: the server still has it, and answers.
        #expect(try server.sinkInputs().filter { $0.properties["application.name"] == "SoundEngine backend test" }.count == 1)

        // What the engine does on the report: create the stream again (from
        // outside the switch: the new one is not stallable).
        try backend.perform(.setStreamProperties(settings.streamProperties))
        try backend.setPaused(false)
        let replaced = backend.statistics.framesRendered
        #expect(eventually { backend.statistics.framesRendered >= replaced + 48_000 }, "the new stream does not play")
        #expect(
            eventually { (try? server.sinkInputs())?.filter { $0.properties["application.name"] == "SoundEngine backend test" }.count == 1 },
            "the stalled stream was not replaced: \(String(describing: try? server.sinkInputs().map(\.index)))")
        #expect(failures().count == 1, "\(failures())")
    }

    /// A device that asks late at the start is not a stall: PulseAudio 16's
    /// null sink with no reader asks 1.6–2 s after a stream's top-up (and a
    /// Bluetooth sink resuming takes about as long). Judged by the half
    /// second, every start on it was a stall, and the game a media-services
    /// reset (seen with the headless demo on such a sink).
    @Test func aDeviceSlowToAskAtTheStartIsNotAStall() throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        // A plain null sink, not one of the harness's clocked outputs.
        _ = try server.pactl("load-module", "module-null-sink", "sink_name=lazy", "rate=48000")
        #expect(try eventually {
            _ = try? server.pactl("set-default-sink", "lazy")
            return try server.defaultSink == "lazy"
        })
        let log = EventLog()
        let tone = ToneGenerator(frequency: 440, amplitude: 0.1, format: BackendConfiguration(applicationName: "").format)
        let backend = PulseAudioBackend()
        _ = try backend.openStream(configuration(server), render: tone.entry, events: log.handler)
        defer { backend.close() }
        try backend.setPaused(false)
        let start = backend.statistics.framesRendered
        #expect(eventually { backend.statistics.framesRendered >= start + 96_000 }, "the stream does not play")
        let failures = log.all.compactMap { event -> String? in if case .streamFailed(let why) = event { why } else { nil } }
        #expect(failures.isEmpty, "a slow first request was judged a stall: \(failures)")
    }
}
