import SoundSession
import Foundation
import SoundBackend
import SoundCore
import Testing

@Suite struct BackendConfigurationTests {
    @Test func defaultsAreTheDocumentedOnes() {
        let configuration = BackendConfiguration(applicationName: "Game")
        #expect(configuration.applicationName == "Game")
        #expect(configuration.serverAddress == nil)
        #expect(configuration.applicationID == nil)
        #expect(configuration.streamName == "SoundEngine")
        #expect(configuration.format == StreamFormat(sampleRate: 48_000, channelCount: 2, sampleFormat: .float32))
        #expect(configuration.latency == .default)
        #expect(configuration.streamProperties == StreamProperties(mediaRole: .game, echoCancellation: false))
        #expect(configuration.connectTimeout == .seconds(3))
        #expect(configuration.realtimePriority == nil)
    }

    @Test func everyFieldTakesPartInEquality() {
        let base = BackendConfiguration(applicationName: "Game")
        var changed: [BackendConfiguration] = []
        func with(_ change: (inout BackendConfiguration) -> Void) {
            var copy = base
            change(&copy)
            changed.append(copy)
        }
        with { $0.serverAddress = "unix:/tmp/pulse" }
        with { $0.applicationName = "Other" }
        with { $0.applicationID = "org.example.game" }
        with { $0.streamName = "Music" }
        with { $0.format.sampleRate = 44_100 }
        with { $0.latency = .low }
        with { $0.streamProperties = StreamProperties(mediaRole: .music, echoCancellation: false) }
        with { $0.journalDirectory = "/tmp/journals" }
        with { $0.guardianProcess = false }
        with { $0.connectTimeout = .milliseconds(500) }
        with { $0.realtimePriority = 5 }
        #expect(Set(changed + [base]).count == changed.count + 1)
    }
}

@Suite struct LatencyRequestTests {
    /// Milliseconds `frames` last at `rate`.
    private func milliseconds(_ frames: Int, at rate: Int = 48_000) -> Double { Double(frames) * 1000 / Double(rate) }

    @Test func defaultIsAbout20Milliseconds() {
        #expect(LatencyRequest.default == LatencyRequest(targetFrames: 1024, requestFrames: 256))
        #expect((19...23).contains(milliseconds(LatencyRequest.default.targetFrames)))
        #expect((5...6).contains(milliseconds(LatencyRequest.default.requestFrames)))
    }

    @Test func lowIsAbout10Milliseconds() {
        #expect(LatencyRequest.low == LatencyRequest(targetFrames: 512, requestFrames: 128))
        #expect((9...11).contains(milliseconds(LatencyRequest.low.targetFrames)))
        #expect(LatencyRequest.low.targetFrames < LatencyRequest.default.targetFrames)
    }

    /// Scaled to any rate, a request keeps the rule's shape: the power of two
    /// nearest the exact request, and a target of whole requests, at least
    /// two, within half a request of the exact target (or two requests).
    @Test(arguments: [LatencyRequest.default, .low, LatencyRequest(targetFrames: 24_000, requestFrames: 8192)],
          [8_000, 11_025, 22_050, 44_100, 48_000, 88_200, 96_000, 192_000])
    func scalingKeepsPowersOfTwoAndWholeRequests(request: LatencyRequest, rate: Int) {
        let scaled = request.scaled(toSampleRate: rate)
        let exactRequest = Double(request.requestFrames) * Double(rate) / 48_000
        let exactTarget = Double(request.targetFrames) * Double(rate) / 48_000
        #expect(scaled.requestFrames > 0 && scaled.requestFrames & (scaled.requestFrames - 1) == 0, "\(scaled)")
        // The nearest power of two: neither neighbour is nearer.
        let r = Double(scaled.requestFrames)
        #expect(abs(r - exactRequest) <= abs(r * 2 - exactRequest), "\(scaled) for \(exactRequest)")
        #expect(abs(r - exactRequest) <= abs(r / 2 - exactRequest) || scaled.requestFrames == 1, "\(scaled) for \(exactRequest)")
        #expect(scaled.targetFrames % scaled.requestFrames == 0 && scaled.targetFrames >= 2 * scaled.requestFrames)
        #expect(abs(Double(scaled.targetFrames) - exactTarget) <= max(r / 2, 2 * r - exactTarget), "\(scaled)")
    }

    /// Issue 15: the default at 44.1 kHz was 940 / 235, which pipewire-pulse
    /// plays with a quantum that is not a power of two (it crackles).
    @Test func theDefaultAt44kHzIsStill1024Over256() {
        #expect(LatencyRequest.default.scaled(toSampleRate: 44_100) == .default)
        #expect(LatencyRequest.default.scaled(toSampleRate: 96_000) == LatencyRequest(targetFrames: 2048, requestFrames: 512))
        #expect(LatencyRequest.default.scaled(toSampleRate: 22_050) == LatencyRequest(targetFrames: 512, requestFrames: 128))
        #expect(LatencyRequest.low.scaled(toSampleRate: 44_100) == .low)
    }

    @Test func scalingTo48kChangesNothingAndNeverReachesZero() {
        #expect(LatencyRequest.default.scaled(toSampleRate: 48_000) == .default)
        #expect(LatencyRequest.low.scaled(toSampleRate: 48_000) == .low)
        #expect(LatencyRequest.low.scaled(toSampleRate: 1) == LatencyRequest(targetFrames: 2, requestFrames: 1))
        // Nonsense never traps.
        #expect(LatencyRequest(targetFrames: .max, requestFrames: .min).scaled(toSampleRate: .max).requestFrames > 0)
    }

    /// The rule: a power-of-two request of 64…8192 frames; a target of two
    /// or more whole requests, at most 500 ms. Each break names the field and the value.
    @Test(arguments: [
        (LatencyRequest(targetFrames: 1024, requestFrames: 300), "requestFrames = 300"),
        (LatencyRequest(targetFrames: 1024, requestFrames: 32), "requestFrames = 32"),
        (LatencyRequest(targetFrames: 32_768, requestFrames: 16_384), "requestFrames = 16384"),
        (LatencyRequest(targetFrames: 1024, requestFrames: 0), "requestFrames = 0"),
        (LatencyRequest(targetFrames: 1000, requestFrames: 256), "targetFrames = 1000"),
        (LatencyRequest(targetFrames: 256, requestFrames: 256), "targetFrames = 256"),
        (LatencyRequest(targetFrames: -512, requestFrames: 256), "targetFrames = -512"),
        (LatencyRequest(targetFrames: 24_064, requestFrames: 256), "targetFrames = 24064"),
        (LatencyRequest(targetFrames: 48_000, requestFrames: 64), "targetFrames = 48000"),
    ])
    func requestsBreakingTheRuleAreNamed(request: LatencyRequest, named: String) {
        #expect(request.problem?.contains(named) == true, "\(String(describing: request.problem))")
    }

    @Test(arguments: [LatencyRequest.default, .low, LatencyRequest(targetFrames: 128, requestFrames: 64),
                      LatencyRequest(targetFrames: 24_000, requestFrames: 64),
                      LatencyRequest(targetFrames: 16_384, requestFrames: 8192), LatencyRequest(targetFrames: 768, requestFrames: 256)])
    func requestsKeepingTheRulePass(request: LatencyRequest) {
        #expect(request.problem == nil, "\(String(describing: request.problem))")
    }

    @Test func codableRoundTrip() throws {
        let request = LatencyRequest(targetFrames: 2048, requestFrames: 300)
        #expect(try JSONDecoder().decode(LatencyRequest.self, from: JSONEncoder().encode(request)) == request)
    }
}

@Suite struct BackendEventTests {
    @Test func eachEventEqualsOnlyItself() {
        for (i, a) in everyEvent.enumerated() {
            for (j, b) in everyEvent.enumerated() {
                #expect((a == b) == (i == j), "\(a) vs \(b)")
            }
        }
        #expect(Set(everyEvent + everyEvent).count == everyEvent.count)
    }

    @Test func payloadsTakePartInEquality() {
        let a = EndpointID(.output, device: "a"), b = EndpointID(.output, device: "b")
        #expect(BackendEvent.system(.streamMovedByUser(a)) == .system(.streamMovedByUser(a)))
        #expect(BackendEvent.system(.streamMovedByUser(a)) != .system(.streamMovedByUser(b)))
        #expect(BackendEvent.system(.connectionLost) != .streamFailed("x"))
    }

    /// The engine logs events with string interpolation; the log must show the payload.
    @Test func descriptionShowsTheCaseAndPayload() {
        #expect("\(BackendEvent.underflow)" == "underflow")
        #expect("\(BackendEvent.system(.streamMovedByUser(EndpointID(.output, device: "sink-2"))))".contains("sink-2"))
        #expect("\(BackendEvent.deviceSuspended(true))".contains("deviceSuspended"))
        #expect("\(BackendEvent.streamFailed("Connection refused"))".contains("Connection refused"))
        #expect("\(BackendEvent.streamFailed("Entity killed"))".contains("streamFailed"))
    }
}

@Suite struct GrantedStreamTests {
    private func stream(server: String) -> GrantedStream {
        GrantedStream(
            format: .stereoFloat,
            buffer: BufferAttributes(maxLength: 4096, targetLength: 1024, prebuffer: 768, minimumRequest: 256),
            serverName: server, serverVersion: "16.1", deviceName: "auto_null")
    }

    @Test func pipeWireIsRecognisedByItsServerName() {
        #expect(stream(server: "PulseAudio (on PipeWire 0.3.65)").isPipeWire)
        #expect(!stream(server: "pulseaudio").isPipeWire)
    }

    @Test func codableRoundTrip() throws {
        var granted = stream(server: "pulseaudio")
        granted.realtimePriority = 5
        #expect(try JSONDecoder().decode(GrantedStream.self, from: JSONEncoder().encode(granted)) == granted)
    }

    @Test func statisticsStartAtZero() {
        #expect(BackendStatistics() == BackendStatistics(renderCalls: 0, framesRendered: 0, underflows: 0))
    }
}
