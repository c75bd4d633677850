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

    @Test(arguments: [LatencyRequest.default, .low], [8_000, 22_050, 44_100, 48_000, 96_000, 192_000])
    func scalingKeepsTheDurationWithinOneFrame(request: LatencyRequest, rate: Int) {
        let scaled = request.scaled(toSampleRate: rate)
        let frame = milliseconds(1, at: rate)
        #expect(abs(milliseconds(scaled.targetFrames, at: rate) - milliseconds(request.targetFrames)) < frame)
        #expect(abs(milliseconds(scaled.requestFrames, at: rate) - milliseconds(request.requestFrames)) < frame)
    }

    @Test func scalingTo48kChangesNothingAndNeverReachesZero() {
        #expect(LatencyRequest.default.scaled(toSampleRate: 48_000) == .default)
        #expect(LatencyRequest.low.scaled(toSampleRate: 48_000) == .low)
        #expect(LatencyRequest.low.scaled(toSampleRate: 1) == LatencyRequest(targetFrames: 1, requestFrames: 1))
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
