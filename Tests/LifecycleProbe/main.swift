// Initializes and terminates the process-wide engine N times against the
// server in PULSE_SERVER, then fails to initialize it M times in each way it
// can fail (no server at the address, a server that accepts and never
// answers, a refused setting), and prints, as one JSON object, the open file
// descriptors and threads of this process before and after each phase. Run by
// SoundEngineTests in its own process, so no other test's threads or
// descriptors blur the count.
import Foundation
import SoundEngine
import SoundServerSupport

func count(_ directory: String) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: directory).count) ?? -1
}

if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "stress" {
    let threads = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 8 : 8
    let iterations = CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 500 : 500
    stress(threads: threads, iterations: iterations)
    exit(0)
}

let cycles = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 50 : 50
let failingCycles = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 5 : 5

/// The default platform settings, named after the probe.
func probePlatform() -> PlatformInitSettings {
    var platform = SoundEngine.defaultPlatformInitSettings()
    platform.applicationName = "LifecycleProbe"
    return platform
}

func cycle() throws {
    try SoundEngine.initialize(SoundEngine.defaultInitSettings(), probePlatform())
    let tone = SoundEngine.DecodedAudio(
        sampleRate: 48_000, channelCount: 1,
        samples: (0..<4800).map { Float(sin(Double($0) * 2 * .pi * 440 / 48_000)) * 0.1 })
    let sound = try SoundEngine.loadSound(tone, name: "tone")
    try SoundEngine.play(sound)
    SoundEngine.terminate()
}

/// The ways initialize can fail after it has started doing things.
enum Failure: CaseIterable {
    case noServer, silentServer, refusedSetting
}

/// One initialize that must fail; returns whether it did, and left the engine uninitialized.
func failingCycle(_ failure: Failure, silent: SilentListener) -> Bool {
    var settings = SoundEngine.defaultInitSettings()
    var platform = probePlatform()
    switch failure {
    case .noServer: platform.serverAddress = "unix:/nonexistent/lifecycle-probe/native"
    case .silentServer:
        platform.serverAddress = silent.address
        platform.connectTimeout = .milliseconds(200)
    case .refusedSetting: settings.samplesPerFrame = 1000
    }
    do {
        try SoundEngine.initialize(settings, platform)
        SoundEngine.terminate()
        return false
    } catch {
        return !SoundEngine.isInitialized
    }
}

do {
    let silent = try SilentListener()
    defer { silent.close() }
    // Warm-up: one-time library set-up (Foundation, libpulse shm) is not a leak.
    try cycle()
    for failure in Failure.allCases { _ = failingCycle(failure, silent: silent) }
    let fdsBefore = count("/proc/self/fd"), threadsBefore = count("/proc/self/task")
    for _ in 0..<cycles { try cycle() }
    let fdsAfter = count("/proc/self/fd"), threadsAfter = count("/proc/self/task")
    var failedAsExpected = 0
    for _ in 0..<failingCycles {
        for failure in Failure.allCases where failingCycle(failure, silent: silent) { failedAsExpected += 1 }
    }
    let fdsAfterFailures = count("/proc/self/fd"), threadsAfterFailures = count("/proc/self/task")
    print(
        #"{"cycles":\#(cycles),"fdsBefore":\#(fdsBefore),"fdsAfter":\#(fdsAfter),"threadsBefore":\#(threadsBefore),"threadsAfter":\#(threadsAfter),"#
            + #""failingCycles":\#(failingCycles * Failure.allCases.count),"failedAsExpected":\#(failedAsExpected),"#
            + #""fdsAfterFailures":\#(fdsAfterFailures),"threadsAfterFailures":\#(threadsAfterFailures),"#
            + #""initializedAfter":\#(SoundEngine.isInitialized)}"#)
} catch {
    FileHandle.standardError.write(Data("LifecycleProbe: \(error)\n".utf8))
    exit(1)
}
