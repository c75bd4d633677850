import SoundBackend
import SoundCore
import SoundSession
import Testing

/// `OfflineBackend` against the `AudioBackend` contract, plus its manual clock.
@Suite struct OfflineBackendTests {
    /// Opens `backend` for `source` and resumes it.
    @discardableResult
    private func openRunning(
        _ backend: OfflineBackend, _ source: RampSource, _ configuration: BackendConfiguration = .test(),
        events: EventRecorder = EventRecorder()
    ) throws -> GrantedStream {
        let granted = try openStream(backend, source, configuration, events: events)
        try backend.setPaused(false)
        return granted
    }

    /// Opens `backend` and creates its stream, as the engine's first session action does.
    @discardableResult
    private func openStream(
        _ backend: some AudioBackend, _ source: RampSource, _ configuration: BackendConfiguration = .test(),
        events: EventRecorder = EventRecorder()
    ) throws -> GrantedStream {
        _ = try backend.open(configuration, render: source.entry, events: events.handler)
        try backend.perform(.setStreamProperties(configuration.streamProperties))
        return try #require(backend.grantedStream)
    }

    @Test(arguments: [
        StreamFormat.stereoFloat, StreamFormat(sampleRate: 44_100, channelCount: 1, sampleFormat: .int16),
        StreamFormat(sampleRate: 96_000, channelCount: 6, sampleFormat: .float32),
    ], [LatencyRequest.default, .low, LatencyRequest(targetFrames: 4096, requestFrames: 1024)])
    func openGrantsWhatWasAsked(format: StreamFormat, latency: LatencyRequest) throws {
        let backend = OfflineBackend()
        let granted = try openStream(backend, RampSource(format), .test(format, latency: latency))
        #expect(granted.format == format)
        #expect(granted.buffer.targetLength == latency.targetFrames)
        #expect(granted.buffer.minimumRequest == latency.requestFrames)
        #expect(granted.buffer.maxLength >= granted.buffer.targetLength)
        #expect((0...granted.buffer.targetLength).contains(granted.buffer.prebuffer))
        #expect(granted.realtimePriority == nil)
        #expect(!granted.isPipeWire)
    }

    @Test func aGrantedFormatOverrideIsWhatOpenReturnsAndRenderProduces() throws {
        let granted = StreamFormat(sampleRate: 48_000, channelCount: 2, sampleFormat: .int16)
        let backend = OfflineBackend(grantedFormat: granted)
        let source = RampSource(granted)
        #expect(try openRunning(backend, source, .test(.stereoFloat)).format == granted)
        #expect(backend.render(frames: 100) == source.expectedBytes(0..<200))
    }

    /// The contract: open connects without a stream; the first
    /// setStreamProperties creates it, paused.
    @Test func theFirstActionCreatesTheStreamPaused() throws {
        let backend = OfflineBackend()
        let source = RampSource(.stereoFloat)
        _ = try backend.open(.test(), render: source.entry, events: EventRecorder().handler)
        #expect(backend.grantedStream == nil)
        #expect(throws: SoundEngineError.self) { try backend.setPaused(false) }
        try backend.perform(.setStreamProperties(StreamProperties(mediaRole: .game, echoCancellation: false)))
        #expect(backend.grantedStream?.deviceName == "offline")
        #expect(backend.isPaused)
        #expect(backend.render(frames: 256) == nil)
        #expect(source.calls.isEmpty)
        #expect(backend.statistics == BackendStatistics())
        try backend.setPaused(false)
        #expect(!backend.isPaused)
        #expect(backend.render(frames: 256)?.count == 256 * StreamFormat.stereoFloat.bytesPerFrame)
        #expect(source.calls == [256])
    }

    @Test(arguments: [StreamFormat.stereoFloat, StreamFormat(sampleRate: 22_050, channelCount: 1, sampleFormat: .int16)])
    func eachRenderCallsTheEntryOnceAndReturnsWhatItWrote(format: StreamFormat) throws {
        let backend = OfflineBackend()
        let source = RampSource(format)
        try openRunning(backend, source, .test(format))
        let counts = [256, 1, 480, 1024, 7]
        var written = 0
        for frames in counts {
            let samples = frames * format.channelCount
            #expect(backend.render(frames: frames) == source.expectedBytes(written..<written + samples))
            written += samples
        }
        #expect(source.calls == counts)
        #expect(backend.statistics.renderCalls == UInt64(counts.count))
        #expect(backend.statistics.framesRendered == UInt64(counts.reduce(0, +)))
        #expect(backend.statistics.underflows == 0)
    }

    @Test func renderFloatReturnsTheSamples() throws {
        let backend = OfflineBackend()
        let source = RampSource(.stereoFloat)
        try openRunning(backend, source)
        #expect(backend.renderFloat(frames: 3) == [0, 1, 2, 3, 4, 5])
        #expect(backend.renderFloat(frames: 512) == (6..<1030).map(Float.init))
        #expect(source.calls == [3, 512])
    }

    /// An int16 stream's samples come back scaled to -1…1 (no trap: a game's
    /// test with `sampleFormat = .int16` may call it).
    @Test func renderFloatOfAnInt16StreamIsScaled() throws {
        let int16 = StreamFormat(sampleRate: 48_000, channelCount: 2, sampleFormat: .int16)
        let backend = OfflineBackend(grantedFormat: int16)
        let source = RampSource(int16)
        try openRunning(backend, source)
        #expect(backend.renderFloat(frames: 2) == [0, 1, 2, 3].map { Float($0) / 32768 })
    }

    /// A frame count out of range renders what it can instead of trapping:
    /// a negative one nothing, a huge one the most one call renders.
    @Test func frameCountsOutOfRangeAreClamped() throws {
        let backend = OfflineBackend()
        let source = RampSource(.stereoFloat)
        try openRunning(backend, source)
        #expect(backend.render(frames: -1) == [])
        #expect(backend.renderFloat(frames: .min) == [])
        #expect(backend.render(frames: .max)?.count == (1 << 20) * 8)
        #expect(source.calls == [0, 0, 1 << 20])
    }

    @Test func pausingStopsRenderingAndResumingContinues() throws {
        let backend = OfflineBackend()
        let source = RampSource(.stereoFloat)
        try openRunning(backend, source)
        _ = backend.render(frames: 10)
        try backend.setPaused(true)
        #expect(backend.isPaused)
        #expect(backend.render(frames: 10) == nil)
        #expect(backend.renderFloat(frames: 10) == nil)
        #expect(source.calls == [10])
        #expect(backend.statistics == BackendStatistics(renderCalls: 1, framesRendered: 10))
        try backend.setPaused(false)
        #expect(backend.renderFloat(frames: 1) == [20, 21])
        #expect(backend.statistics == BackendStatistics(renderCalls: 2, framesRendered: 11))
        #expect(source.calls == [10, 1])
    }

    @Test func secondOpenIsAlreadyInitializedAndChangesNothing() throws {
        let backend = OfflineBackend()
        let first = RampSource(.stereoFloat)
        let firstEvents = EventRecorder()
        try openRunning(backend, first, events: firstEvents)
        let second = RampSource(.stereoFloat)
        let secondEvents = EventRecorder()
        #expect(throws: SoundEngineError.alreadyInitialized) {
            try backend.open(.test(), render: second.entry, events: secondEvents.handler)
        }
        #expect(!backend.isPaused)
        #expect(backend.renderFloat(frames: 1) == [0, 1])
        backend.inject(.system(.corkRequested))
        #expect(first.calls == [1])
        #expect(second.calls.isEmpty)
        #expect(firstEvents.events == [.system(.corkRequested)])
        #expect(secondEvents.events.isEmpty)
    }

    @Test func beforeOpenNothingRuns() {
        let backend = OfflineBackend()
        #expect(backend.isPaused)
        #expect(backend.render(frames: 64) == nil)
        #expect(backend.renderFloat(frames: 64) == nil)
        #expect(backend.statistics == BackendStatistics())
        #expect(backend.outputLatency == nil)
        #expect {
            try backend.setPaused(false)
        } throws: { error in
            guard case .deviceNotReady(let reason) = error as? SoundEngineError else { return false }
            return !reason.isEmpty
        }
        backend.close()  // safe when never opened
    }

    @Test func closeStopsEverythingAndIsSafeTwice() throws {
        let backend = OfflineBackend()
        let source = RampSource(.stereoFloat)
        let events = EventRecorder()
        try openRunning(backend, source, events: events)
        _ = backend.render(frames: 32)
        backend.close()
        backend.close()
        #expect(backend.isPaused)
        #expect(backend.render(frames: 32) == nil)
        #expect(throws: SoundEngineError.self) { try backend.setPaused(false) }
        backend.inject(.system(.corkRequested))
        backend.inject(.underflow)
        #expect(events.events.isEmpty)
        #expect(backend.statistics.underflows == 0, "an event injected while closed counted")
        #expect(source.calls == [32])
    }

    @Test func reopeningAfterCloseStartsAFreshPausedStream() throws {
        let backend = OfflineBackend()
        let first = RampSource(.stereoFloat)
        try openRunning(backend, first)
        _ = backend.render(frames: 100)
        backend.close()
        let mono = StreamFormat(sampleRate: 48_000, channelCount: 1, sampleFormat: .float32)
        let source = RampSource(mono)
        #expect(try openStream(backend, source, .test(mono)).format == mono)
        #expect(backend.isPaused)
        #expect(backend.statistics == BackendStatistics())
        try backend.setPaused(false)
        #expect(backend.renderFloat(frames: 4) == [0, 1, 2, 3])
        #expect(backend.statistics == BackendStatistics(renderCalls: 1, framesRendered: 4))
        #expect(first.calls == [100])
    }

    @Test func injectedEventsReachTheHandlerInOrder() throws {
        let backend = OfflineBackend()
        let events = EventRecorder()
        try openRunning(backend, RampSource(.stereoFloat), events: events)
        for event in everyEvent { backend.inject(event) }
        #expect(events.events == everyEvent)
    }

    @Test(arguments: everyEvent)
    func onlyUnderflowsAreCounted(event: BackendEvent) throws {
        let backend = OfflineBackend()
        _ = try backend.open(.test(), render: RampSource(.stereoFloat).entry, events: EventRecorder().handler)
        backend.inject(event)
        backend.inject(event)
        #expect(backend.statistics.underflows == (event == .underflow ? 2 : 0))
        #expect(backend.statistics.renderCalls == 0)
    }

    @Test func outputLatencyIsUnknownWhileOpen() throws {
        let backend = OfflineBackend()
        try openRunning(backend, RampSource(.stereoFloat))
        #expect(backend.outputLatency == nil)
    }

    /// The engine holds its backend as `any AudioBackend`; the contract must hold through it.
    @Test func worksThroughTheProtocol() throws {
        let offline = OfflineBackend()
        let backend: any AudioBackend = offline
        let source = RampSource(.stereoFloat)
        try openStream(backend, source)
        try backend.setPaused(false)
        _ = offline.render(frames: 5)
        #expect(backend.statistics.framesRendered == 5)
        backend.close()
        #expect(offline.render(frames: 5) == nil)
        #expect(source.calls == [5])
    }
}
