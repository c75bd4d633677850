import SoundCore
import Foundation
@testable import SoundEngine
import SoundBackend
import SoundContent
import SoundMixer
import SoundSession
import SoundServerSupport
import Synchronization
import Testing

/// An engine on the offline backend for content tests: rendering is
/// manual, idle corking is off (a test may leave the engine silent for a
/// while), and sound files are written to a private temporary folder.
final class ContentRig {
    let backend: OfflineBackend
    let engine: SoundEngineInstance
    let folder: String
    static let rate = 48_000

    init(_ settings: InitSettings = InitSettings(), backend: OfflineBackend = OfflineBackend()) throws {
        self.backend = backend
        var platform = PlatformInitSettings()
        platform.idleCorkTimeout = nil
        engine = try SoundEngineInstance(settings, platform, backend: backend)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("content-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit {
        engine.terminate()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Writes a mono float32 WAV of a sine and returns its path.
    func sineFile(_ name: String, frequency: Double = 1000, amplitude: Float = 0.5, seconds: Double = 1) -> String {
        let frames = Int(seconds * Double(Self.rate))
        let samples = (0..<frames).map {
            amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / Double(Self.rate)))
        }
        let path = folder + "/" + name + ".wav"
        _ = FileManager.default.createFile(atPath: path, contents: WaveFile.monoFloat32(samples, rate: Self.rate))
        return path
    }

    /// Renders `frames` frames and returns interleaved stereo.
    @discardableResult
    func render(_ frames: Int = 1024) -> [Float] { backend.renderFloat(frames: frames) ?? [] }

    /// Renders in blocks until `condition` holds (10 s at most).
    func renderUntil(_ condition: () throws -> Bool) rethrows -> Bool {
        try eventually {
            render(1024)
            return try condition()
        }
    }

    /// Left and right RMS of `frames` frames rendered now.
    func levels(_ frames: Int = 4800) -> (left: Double, right: Double) {
        let out = render(frames)
        var l = 0.0, r = 0.0
        for i in 0..<(out.count / 2) {
            l += Double(out[2 * i] * out[2 * i])
            r += Double(out[2 * i + 1] * out[2 * i + 1])
        }
        let n = Double(max(1, out.count / 2))
        return ((l / n).squareRoot(), (r / n).squareRoot())
    }

    /// The content voices playing now, as the names on their paths (tests
    /// look inside the engine to see which child a container picked). Like
    /// a render, a look inside comes after what was posted before it has run.
    func playingPaths(_ playing: PlayingID) -> [[ContentID]] {
        engine.content.runQueuedPosts()
        return engine.content.state.withLock { s in s.voices.values.filter { $0.playing == playing }.map(\.path) }
    }

    var contentVoiceCount: Int {
        engine.content.runQueuedPosts()
        return engine.content.state.withLock { $0.voices.count }
    }
}

/// RMS of a full-scale-`amplitude` sine.
func sineRMS(_ amplitude: Double) -> Double { amplitude / 2.0.squareRoot() }

func dB(_ ratio: Double) -> Double { 20 * log10(ratio) }

/// Counts end-of-event callbacks per playing ID, from any thread.
final class EndCounter: Sendable {
    let ends = ControlLock<[PlayingID: Int]>([:])
    let threads = ControlLock<Set<String>>([])

    var callback: @Sendable (CallbackInfo) -> Void {
        { [self] event in
            guard case .endOfEvent(let id) = event else { return }
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            threads.withLock { _ = $0.insert(name) }
            ends.withLock { $0[id, default: 0] += 1 }
        }
    }

    func count(_ id: PlayingID) -> Int { ends.withLock { $0[id] ?? 0 } }
    var total: Int { ends.withLock { $0.values.reduce(0, +) } }
}

/// Whether `error` is `idNotFound` whose reason contains `text`.
func isIDNotFound(_ error: any Error, naming text: String) -> Bool {
    guard case .idNotFound(let why)? = error as? SoundEngineError else { return false }
    return why.contains(text)
}

/// Whether `error` is `invalidParameter` whose reason contains `text`.
func isInvalidParameter(_ error: any Error, naming text: String) -> Bool {
    guard case .invalidParameter(let why)? = error as? SoundEngineError else { return false }
    return why.contains(text)
}
