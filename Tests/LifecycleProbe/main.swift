// Initializes and terminates the process-wide engine N times against the
// server in PULSE_SERVER and prints, as one JSON object, the open file
// descriptors and threads of this process before and after. Run by
// SoundEngineTests in its own process, so no other test's threads or
// descriptors blur the count.
import Foundation
import SoundEngine

func count(_ directory: String) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: directory).count) ?? -1
}

let cycles = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 50 : 50
func cycle() throws {
    var platform = SoundEngine.defaultPlatformInitSettings()
    platform.applicationName = "LifecycleProbe"
    try SoundEngine.initialize(SoundEngine.defaultInitSettings(), platform)
    let tone = DecodedAudio(
        sampleRate: 48_000, channelCount: 1,
        samples: (0..<4800).map { Float(sin(Double($0) * 2 * .pi * 440 / 48_000)) * 0.1 })
    let sound = try SoundEngine.current.loadSound(tone, name: "tone")
    try SoundEngine.play(sound)
    SoundEngine.terminate()
}

do {
    try cycle()  // warm-up: one-time library set-up (Foundation, libpulse shm) is not a leak
    let fdsBefore = count("/proc/self/fd"), threadsBefore = count("/proc/self/task")
    for _ in 0..<cycles { try cycle() }
    let fdsAfter = count("/proc/self/fd"), threadsAfter = count("/proc/self/task")
    print(#"{"cycles":\#(cycles),"fdsBefore":\#(fdsBefore),"fdsAfter":\#(fdsAfter),"threadsBefore":\#(threadsBefore),"threadsAfter":\#(threadsAfter),"initializedAfter":\#(SoundEngine.isInitialized)}"#)
} catch {
    FileHandle.standardError.write(Data("LifecycleProbe: \(error)\n".utf8))
    exit(1)
}
