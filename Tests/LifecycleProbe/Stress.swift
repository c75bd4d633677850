// `LifecycleProbe stress THREADS ITERATIONS`: THREADS threads call the
// process-wide engine's lifecycle and session entry points in a random order
// (initialize, terminate, suspend with and without renderAnyway, wakeup,
// session changes that re-create the stream or open the microphone, the app
// going to the background and back, playing a tone), ITERATIONS calls each.
// Then a final terminate, and one JSON line: calls made and refused by kind,
// and what is left: threads of ours (named SoundEngine-*) and whether the
// engine still says it is initialized. The test (SoundEngineTests) watches
// the server's view meanwhile and checks it is empty afterwards.
import Foundation
import SoundEngine
import SoundServerSupport
import Synchronization

/// Names of this process's threads (`/proc/self/task/*/comm`).
func threadNames() -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
        .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
}

func stress(threads: Int, iterations: Int) {
    let sessions = [
        AudioSession.Configuration(category: .playback),
        AudioSession.Configuration(category: .playback, mode: .moviePlayback),
        AudioSession.Configuration(category: .ambient),
        AudioSession.Configuration(category: .soloAmbient),
        AudioSession.Configuration(category: .playAndRecord, categoryOptions: [.defaultToSpeaker]),
    ]
    let tone = SoundEngine.DecodedAudio(
        sampleRate: 48_000, channelCount: 1,
        samples: (0..<2400).map { Float(sin(Double($0) * 2 * .pi * 440 / 48_000)) * 0.1 })
    let kinds = ["initialize", "terminate", "suspend", "wakeup", "session", "background", "foreground", "play"]
    let counts = Mutex([String: (made: Int, refused: Int)]())
    var workers: [Thread] = []
    let done = DispatchGroup()
    for index in 0..<threads {
        done.enter()
        let worker = Thread {
            var rng = SplitMix64(seed: UInt64(index) &* 7919 &+ 1)
            var local: [String: (made: Int, refused: Int)] = [:]
            for _ in 0..<iterations {
                // initialize and terminate less often than the rest, so engines live a while.
                let roll = Int.random(in: 0..<100, using: &rng)
                // Like a game: bring the engine back when it is down; now and
                // then terminate it, or initialize again (refused) while it runs.
                let kind: Int
                if roll < 2 {
                    kind = 1
                } else if !SoundEngine.isInitialized || roll < 6 {
                    kind = 0
                } else {
                    kind = Int.random(in: 2..<kinds.count, using: &rng)
                }
                var refused = false
                do {
                    switch kind {
                    case 0:
                        var platform = probePlatform()
                        platform.audioSession = sessions.randomElement(using: &rng)!
                        try SoundEngine.initialize(SoundEngine.defaultInitSettings(), platform)
                    case 1: SoundEngine.terminate()
                    case 2: try SoundEngine.suspend(renderAnyway: Bool.random(using: &rng))
                    case 3: try SoundEngine.wakeupFromSuspend()
                    case 4: try SoundEngine.changeAudioSessionProperties(sessions.randomElement(using: &rng)!)
                    case 5: try SoundEngine.setApplicationState(.background)
                    case 6: try SoundEngine.setApplicationState(.foreground)
                    default:
                        let sound = try SoundEngine.loadSound(tone, name: "tone")
                        _ = try SoundEngine.play(sound)
                        try SoundEngine.unloadSound(sound)
                    }
                } catch {
                    refused = true
                    // Down or coming up: give the thread that initializes a moment.
                    if let e = error as? SoundEngineError, e == .notInitialized || e == .alreadyInitialized { usleep(200) }
                }
                local[kinds[kind], default: (0, 0)].made += 1
                if refused { local[kinds[kind], default: (0, 0)].refused += 1 }
            }
            counts.withLock { all in
                for (kind, n) in local { all[kind, default: (0, 0)].made += n.made; all[kind, default: (0, 0)].refused += n.refused }
            }
            done.leave()
        }
        worker.name = "stress-\(index)"
        workers.append(worker)
    }
    workers.forEach { $0.start() }
    done.wait()
    SoundEngine.terminate()
    let ours = threadNames().filter { $0.hasPrefix("SoundEngine") }
    let summary = counts.withLock { all in
        all.keys.sorted().map { #""\#($0)":[\#(all[$0]!.made),\#(all[$0]!.refused)]"# }.joined(separator: ",")
    }
    let names = ours.map { #""\#($0)""# }.joined(separator: ",")
    // The server's view while this process still lives: no client of ours.
    let clients = (try? Subprocess.run(["pactl", "-f", "json", "list", "clients"])).flatMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [[String: Any]]
    }
    let ourClients = clients.map { list in
        list.filter { ($0["properties"] as? [String: Any])?["application.name"] as? String == "LifecycleProbe" }.count
    } ?? -1
    print(#"{"calls":{\#(summary)},"threadsOfOurs":[\#(names)],"clientsOfOurs":\#(ourClients),"initializedAfter":\#(SoundEngine.isInitialized)}"#)
}
