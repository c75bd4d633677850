import Foundation
import Glibc
import SoundServerSupport
import Testing

/// A folder of the test's own (mode 0700), removed with its contents when
/// released: the `XDG_RUNTIME_DIR` a demo keeps its journal in, so each
/// test sees only its own journals.
final class TemporaryFolder {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/soundengine-test.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw DemoProcessError("mkdtemp failed: \(errno)") }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The journals of what engines hold (`soundengine/engine-*.json`) in this runtime folder.
    var journals: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path + "/soundengine")) ?? [])
            .filter { $0.hasPrefix("engine-") && $0.hasSuffix(".json") }
    }
}

/// A steady 440 Hz sine at amplitude 0.5 (0.25 s, which loops seamlessly):
/// what the demo plays when a test listens for it on the monitor.
let steadyTone = PrivateSoundServer.repositoryRoot + "/Tests/SoundDecodingTests/Fixtures/sine440-mono.wav"

/// The guardian process an engine in process `game` started (its executable
/// run again as `soundengine-guardian`), if one runs.
func guardian(of game: pid_t) -> pid_t? {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    for entry in entries {
        guard let pid = pid_t(entry),
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")"),
            let parent = stat[stat.index(after: close)...].split(separator: " ").dropFirst().first.flatMap({ pid_t($0) }),
            parent == game,
            let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
            String(decoding: cmdline.prefix { $0 != 0 }, as: UTF8.self) == "soundengine-guardian"
        else { continue }
        return pid
    }
    return nil
}

/// Whether process `pid` has ended (and is not a zombie of ours).
func hasEnded(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return true }
    return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
}

extension PrivateSoundServer {
    /// The demo's playback streams as the server lists them.
    func demoStreams() throws -> [SinkInput] {
        try sinkInputs().filter { $0.properties["application.name"] == "SoundEngine IntegrationDemo" }
    }
}

extension PlaybackClient {
    /// Whether the stream is unmuted at full volume now.
    var isAsItWas: Bool { isUnmuted(at: 1) }

    /// Whether the stream is unmuted with every channel at `volume` now.
    func isUnmuted(at volume: Double) -> Bool {
        guard let stream = try? sinkInput() else { return false }
        return !stream.muted && stream.volume.allSatisfy { abs($0 - volume) < 0.01 }
    }

    /// Whether it stays unmuted at `volume` (full by default) for `seconds`,
    /// looked at every 10 ms: a restore database applies its state a moment
    /// after a stream appears (WirePlumber), so one look right after the
    /// start proves nothing.
    func staysAsItWas(volume: Double = 1, for seconds: Double = 0.5) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            guard isUnmuted(at: volume) else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return isUnmuted(at: volume)
    }
}
