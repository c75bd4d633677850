import Dispatch
import Foundation
import SoundEngine

/// `--headless`: initialize, play, print one JSON object per line for every
/// session notification and engine state change, terminate. The lines are a
/// contract for QA scripts (docs/integration-demo.md).
struct HeadlessDemo {
    let options: DemoOptions
    let started = ContinuousClock.now

    var elapsed: Double {
        let d = ContinuousClock.now - started
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    func emit(_ line: JSONLine) {
        FileHandle.standardOutput.write(Data((line.text + "\n").utf8))
    }

    /// Runs the demo; returns the exit status (0 ok, 1 the engine or a sound failed).
    func run() async -> Int32 {
        let platform = options.platformSettings
        do {
            try SoundEngine.initialize(SoundEngine.defaultInitSettings(), platform)
        } catch {
            FileHandle.standardError.write(Data("IntegrationDemo: cannot start the sound engine: \(error)\n".utf8))
            return 1
        }
        let engine: SoundEngineInstance
        do { engine = try SoundEngine.current } catch { return 1 }

        // The stream starts with the engine's current state; the output line
        // follows it, so the first line is always engineState.
        let events = engine.events()
        let granted = engine.grantedStream
        let printer = Task { [self] in
            var first = true
            for await event in events {
                emit(JSONLine.event(event, t: elapsed))
                if first { emit(outputLine(granted)) }
                first = false
            }
        }

        let stop = DispatchSemaphore(value: 0)
        let signals = [SIGINT, SIGTERM].map { sig -> any DispatchSourceSignal in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig)
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }

        var status: Int32 = 0
        var voices: [VoiceID] = []
        for path in options.files.isEmpty ? [Self.chimePath] : options.files {
            do {
                let sound = try engine.loadSound(path: path, streaming: false)
                voices.append(try engine.play(sound, VoiceParameters(loop: options.loop)))
            } catch {
                FileHandle.standardError.write(Data("IntegrationDemo: \(path): \(error)\n".utf8))
                status = 1
            }
        }

        // Run for --seconds, or until every voice has ended (looping voices: 10 s).
        let limit = options.seconds ?? (options.loop ? 10 : 3600)
        let deadline = ContinuousClock.now + .milliseconds(Int(limit * 1000))
        while ContinuousClock.now < deadline {
            if stop.wait(timeout: .now() + .milliseconds(20)) == .success { break }
            if options.seconds == nil && !voices.contains(where: engine.isPlaying) { break }
        }
        SoundEngine.terminate()
        await printer.value
        return status
    }

    func outputLine(_ granted: GrantedStream) -> JSONLine {
        var line = JSONLine(t: elapsed, event: "output")
        line.add("server", string: "\(granted.serverName) \(granted.serverVersion)")
        line.add("device", string: granted.deviceName)
        line.add("sampleFormat", string: granted.format.sampleFormat.rawValue)
        line.add("channels", int: granted.format.channelCount)
        line.add("sampleRate", int: granted.format.sampleRate)
        line.add("bufferFrames", int: granted.buffer.targetLength)
        line.add("requestFrames", int: granted.buffer.minimumRequest)
        return line
    }

    static var chimePath: String {
        Bundle.module.url(forResource: "Resources/chime", withExtension: "ogg")!.path
    }
}
