import Foundation
import PulseAudioBackend
import SoundBackend
import SoundServerSupport
import Testing

/// Each latency profile is granted what it asks for, on every server kind,
/// checked against the server's own view (issue 18, item 2;
/// docs/pulseaudio.md, "Latency on pipewire-pulse").
@Suite struct LatencyGrantTests {
    /// With `ADJUST_LATENCY` both servers give the device (PipeWire: the
    /// graph's quantum) `(target − 2·request) / 2` and our buffer the rest:
    /// 768 / 256 for the default profile, 384 / 128 for the low one. Before
    /// the pipewire-pulse floors were sent, pipewire-pulse granted the low
    /// profile 768 / 256 and ran its graph at 256 frames.
    @Test(arguments: [LatencyRequest.default, .low])
    func grantedBufferAndQuantumAreWhatTheProfileAsked(_ latency: LatencyRequest) throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        var config = configuration(server)
        config.latency = latency
        let tone = ToneGenerator(frequency: 440, amplitude: 0.1, format: config.format)
        let backend = PulseAudioBackend()
        let granted = try backend.openStream(config, render: tone.entry, events: { _ in })
        defer { backend.close() }
        let request = latency.requestFrames
        #expect(granted.buffer.minimumRequest == request, "\(granted.buffer)")
        #expect(granted.buffer.targetLength == latency.targetFrames - (latency.targetFrames - 2 * request) / 2,
                "\(granted.buffer)")

        // The floors go to the server as client properties only for a request
        // below pipewire-pulse's own 256/48000 (PulseAudio ignores them).
        let floor = latency.requestFrames < 256 ? "\(request)/48000" : nil
        let clients = try server.clients().filter { $0.properties["application.name"] == config.applicationName }
        #expect(!clients.isEmpty && clients.allSatisfy {
            $0.properties["pulse.min.req"] == floor && $0.properties["pulse.min.quantum"] == floor
        }, "\(clients.map(\.properties))")

        guard server.kind == .pipewire else { return }
        // pipewire-pulse's view of the stream: the buffer it keeps for us
        // (bytes: 8 a frame) and the node latency it asked the graph for.
        let ours = try #require(try server.sinkInputs().first { $0.index == backend.streamIndex.map(Int.init) })
        #expect(ours.properties["pulse.attr.tlength"] == String(granted.buffer.targetLength * 8), "\(ours.properties)")
        #expect(ours.properties["pulse.attr.minreq"] == String(request * 8), "\(ours.properties)")
        #expect(ours.properties["node.latency"] == "\(request)/48000", "\(ours.properties)")
        // And the graph runs at that quantum once the stream plays (a larger
        // one would also make pipewire-pulse raise tlength to quantum + 2·minreq).
        try backend.setPaused(false)
        #expect(eventually { backend.statistics.framesRendered >= UInt64(4 * latency.targetFrames) })
        let quanta = try server.graphQuanta()
        #expect(quanta.allSatisfy { $0 == request }, "graph quanta \(quanta), asked for \(request)")
    }
}
