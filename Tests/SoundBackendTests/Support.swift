import SoundSession
import SoundBackend
import SoundCore
import Synchronization

/// A producer of audio for the backend: records the frame count of every call
/// and writes a ramp (sample n of the stream is n), so a test can tell which
/// call wrote which bytes and that nothing was skipped or repeated.
///
/// The entry's context is an unretained pointer: a test must keep the source
/// alive until its last render (using `calls` afterwards does).
final class RampSource {
    let sampleFormat: SampleFormat
    let channelCount: Int
    /// Frames asked for, one entry per call.
    private(set) var calls: [Int] = []
    /// The value the next sample gets.
    private(set) var nextSample = 0

    init(_ format: StreamFormat) {
        sampleFormat = format.sampleFormat
        channelCount = format.channelCount
    }

    var entry: RenderEntry {
        RenderEntry(
            function: { context, destination, frames in
                Unmanaged<RampSource>.fromOpaque(context!).takeUnretainedValue().fill(destination, frames: frames)
            },
            context: Unmanaged.passUnretained(self).toOpaque())
    }

    private func fill(_ destination: UnsafeMutableRawPointer, frames: Int) {
        calls.append(frames)
        for i in 0..<frames * channelCount {
            switch sampleFormat {
            case .float32: destination.storeBytes(of: Float(nextSample + i), toByteOffset: i * 4, as: Float.self)
            case .int16: destination.storeBytes(of: Int16(nextSample + i), toByteOffset: i * 2, as: Int16.self)
            }
        }
        nextSample += frames * channelCount
    }

    /// The bytes `fill` writes for `samples`, computed independently of it.
    func expectedBytes(_ samples: Range<Int>) -> [UInt8] {
        switch sampleFormat {
        case .float32: samples.map(Float.init).withUnsafeBytes { Array($0) }
        case .int16: samples.map { Int16($0) }.withUnsafeBytes { Array($0) }
        }
    }
}

/// Collects the events a backend delivers, in order, from whatever thread.
final class EventRecorder: Sendable {
    private let received = ControlLock<[BackendEvent]>([])

    var handler: BackendEventHandler { { event in self.received.withLock { $0.append(event) } } }
    var events: [BackendEvent] { received.withLock { $0 } }
}

extension BackendConfiguration {
    static func test(_ format: StreamFormat = .stereoFloat, latency: LatencyRequest = .default) -> Self {
        BackendConfiguration(applicationName: "SoundBackendTests", format: format, latency: latency)
    }
}

extension StreamFormat {
    static let stereoFloat = StreamFormat(sampleRate: 48_000, channelCount: 2, sampleFormat: .float32)
}

/// Every event kind, with distinct payloads.
let everyEvent: [BackendEvent] = [
    .underflow, .system(.corkRequested), .system(.uncorkRequested),
    .system(.streamMovedByUser(EndpointID(.output, device: "alsa_output.usb-headset"))),
    .deviceSuspended(true), .deviceSuspended(false), .system(.connectionLost),
    .streamFailed("Entity killed"),
]
