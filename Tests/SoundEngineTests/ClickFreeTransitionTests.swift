import SoundCore
import Foundation
import SoundEngine
import SoundServerSupport
import Synchronization
import Testing

/// Records a monitor source in float32 for the whole test on a thread of its
/// own, so the recorder's pipe never fills: a block it dropped would look
/// like a click that never happened.
///
/// On PulseAudio the recorder is `parec`. On PipeWire it is `pw-record`,
/// PipeWire's own client capturing the sink: pipewire-pulse's record path
/// under load sometimes hands `parec` one graph cycle (256 frames) of zeros
/// in place of what the sink played — measured in issue 15 with both
/// recorders on one monitor during the same run: `parec` showed a jump, a
/// native `pw-record` of the same sink did not.
final class ContinuousRecording: Sendable {
    static let rate = 48_000
    static let channels = 2
    private let process: Subprocess
    private let samples = ControlLock<[Float]>([])
    private let done = Atomic<Bool>(false)

    init(_ server: PrivateSoundServer, source: String) throws {
        if server.kind.isPulseAudio {
            process = try Subprocess(
                [
                    "parec", "--latency-msec=20", "-d", source, "--format=float32le", "--rate=\(Self.rate)",
                    "--channels=\(Self.channels)", "--raw",
                ], extraEnvironment: ["PULSE_SERVER": server.address], captureStderr: false)
        } else {
            // A sink's monitor is the sink captured (stream.capture.sink); raw float32 on stdout.
            let monitorOf = source.hasSuffix(".monitor") ? String(source.dropLast(".monitor".count)) : nil
            process = try Subprocess(
                ["pw-record", "--target", monitorOf ?? source]
                    + (monitorOf == nil ? [] : ["-P", "{ stream.capture.sink=true }"])
                    + [
                        "--latency", "20ms", "--format", "f32", "--rate", "\(Self.rate)", "--channels",
                        "\(Self.channels)", "-",
                    ], extraEnvironment: ["XDG_RUNTIME_DIR": server.runtimeDirectory], captureStderr: false)
        }
        // A pipe of 1 MiB (2.7 s of audio) instead of 64 KiB (170 ms): on a
        // loaded machine this reader can be kept off the CPU for longer than
        // 170 ms, and a recorder blocked on a full pipe misses server cycles
        // (pw-record then skips audio: a splice that looks like a click).
        // F_SETPIPE_SZ is 1031 (Glibc declares it under _GNU_SOURCE only).
        _ = fcntl(process.stdout, 1031, Int32(1 << 20))
        let thread = Thread { [self] in readUntilEnd() }
        thread.name = "ContinuousRecording"
        thread.start()
    }

    private func readUntilEnd() {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var carry: [UInt8] = []
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(process.stdout, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            carry += chunk[0..<n]
            let usable = carry.count / 8 * 8  // whole stereo frames
            let floats = carry[0..<usable].withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            carry.removeFirst(usable)
            samples.withLock { $0 += floats }
        }
        done.store(true, ordering: .releasing)
    }

    /// Frames recorded so far.
    var frames: Int { samples.withLock { $0.count } / Self.channels }

    /// Interleaved samples of frames `range` (clamped to what was recorded).
    func samples(_ range: Range<Int>) -> [Float] {
        samples.withLock { all in
            let lower = min(range.lowerBound, all.count / Self.channels) * Self.channels
            let upper = min(range.upperBound, all.count / Self.channels) * Self.channels
            return Array(all[lower..<upper])
        }
    }

    /// Waits until at least `count` frames were recorded after `frame`.
    @discardableResult
    func waitFor(_ count: Int, after frame: Int, within seconds: Double = 5) -> Bool {
        eventually(within: seconds) { frames >= frame + count }
    }

    /// Waits until some 50 ms window after `frame` has an RMS above `level`;
    /// returns the frame where that window starts.
    func waitForSound(after frame: Int, level: Float = 0.2, within seconds: Double = 5) -> Int? {
        var found: Int?
        var start = frame
        let window = Self.rate / 20
        _ = eventually(within: seconds) {
            while frames >= start + window {
                if Self.rms(samples(start..<start + window)) > level {
                    found = start
                    return true
                }
                start += window / 2
            }
            return false
        }
        return found
    }

    /// Waits until a 100 ms window after `frame` is silent (every sample
    /// below 1e-4); returns where that window starts.
    func waitForSilence(after frame: Int, within seconds: Double = 5) -> Int? {
        var found: Int?
        var start = frame
        let window = Self.rate / 10
        _ = eventually(within: seconds) {
            while frames >= start + window {
                if samples(start..<start + window).allSatisfy({ abs($0) < 1e-4 }) {
                    found = start
                    return true
                }
                start += window / 4
            }
            return false
        }
        return found
    }

    /// Frames recorded after `frame` and the peak of the last 100 ms, for failure messages.
    func describe(after frame: Int) -> String {
        let end = frames
        let peak = samples(max(frame, end - Self.rate / 10)..<end).map(abs).max() ?? 0
        return "\(end - frame) frames recorded since, peak of the last 100 ms \(peak)"
    }

    /// Stops parec and waits until the reader has everything.
    func stop() {
        process.kill()
        _ = eventually(within: 2) { done.load(ordering: .acquiring) }
    }

    /// The largest sample-to-sample step within one channel over `range`, and where.
    func largestStep(_ range: Range<Int>) -> (step: Float, frame: Int) {
        let s = samples(range)
        var best: (Float, Int) = (0, range.lowerBound)
        var i = Self.channels
        while i < s.count {
            let step = abs(s[i] - s[i - Self.channels])
            if step > best.0 { best = (step, range.lowerBound + i / Self.channels) }
            i += 1
        }
        return best
    }

    /// A step over the click threshold: where (frame), how large, and how
    /// far into the sound it falls in.
    struct Step: CustomStringConvertible {
        var frame: Int
        var size: Float
        var sinceOnset: Int
        var description: String { "\(size) at \(frame) (\(sinceOnset) into a sound)" }
    }

    /// The frames where sound starts after at least 50 ms of silence (the
    /// start of the recording counts as silence), and every step over
    /// `threshold` within one channel.
    func stepsAndOnsets(over threshold: Float) -> (steps: [Step], onsets: [Int]) {
        let s = samples(0..<frames)
        let minimumSilence = Self.rate / 20
        var steps: [Step] = []
        var onsets: [Int] = []
        var silentFrames = minimumSilence
        var frame = 1
        while frame < s.count / Self.channels {
            var loudest: Float = 0
            var step: Float = 0
            for c in 0..<Self.channels {
                let i = frame * Self.channels + c
                loudest = max(loudest, abs(s[i]))
                step = max(step, abs(s[i] - s[i - Self.channels]))
            }
            if loudest < 1e-4 {
                silentFrames += 1
            } else {
                if silentFrames >= minimumSilence { onsets.append(frame) }
                silentFrames = 0
            }
            if step > threshold {
                steps.append(Step(frame: frame, size: step, sinceOnset: frame - (onsets.last ?? 0)))
            }
            frame += 1
        }
        return (steps, onsets)
    }

    static func rms(_ samples: [Float]) -> Float {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0) { $0 + $1 * $1 } / Float(samples.count)).squareRoot()
    }
}

/// One spinning shell per CPU, for tests that must hold on a busy machine.
final class CPULoad: Sendable {
    private let spinners: [Subprocess]

    init(processes: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        spinners = try (0..<processes).map { _ in
            try Subprocess(["sh", "-c", "while :; do :; done"], captureStderr: false)
        }
    }

    func stop() {
        for spinner in spinners { spinner.kill() }
    }
}

/// Issue 8, item 1: every transition the engine makes fades out, waits until
/// the fade has been heard, then corks and flushes (or moves, or
/// disconnects), and starts again without stale audio. A 440 Hz tone at
/// amplitude 0.5 moves at most 0.029 per sample at 48 kHz (less after the
/// centre pan); a cut mid-waveform jumps by up to 0.5. The whole recording of
/// each monitor must stay below 0.05 per sample, and the silence and the
/// sound must come when they should.
@Suite(.serialized) struct ClickFreeTransitionTests {
    static let maxStep: Float = 0.05

    /// Checks a recording's largest step, naming the transition if it clicked.
    func expectNoClick(
        _ recording: ContinuousRecording, _ what: String, asserted: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let (step, frame) = recording.largestStep(0..<recording.frames)
        print("ClickFree[\(PrivateSoundServer.kindUnderTest.rawValue)]: \(what): largest step \(step) over \(recording.frames) frames")
        if let path = ProcessInfo.processInfo.environment["CLICK_DUMP"] {
            recording.samples(0..<recording.frames).withUnsafeBytes { try? Data($0).write(to: URL(fileURLWithPath: "\(path)-\(what.count).f32")) }
        }
        guard asserted else { return }
        #expect(step < Self.maxStep,
                "\(what): a jump of \(step) at \(Double(frame) / Double(ContinuousRecording.rate)) s",
                sourceLocation: sourceLocation)
    }

    /// The steps of `first` that `second` has too: at the same distance
    /// (within 20 ms) from the same sound onset. The recorders started at
    /// different moments, so the onsets are first lined up (the shift that
    /// puts the most onsets of `second` on onsets of `first`); a block one
    /// recorder lost moves its later frames, never the distance from an onset.
    static func stepsInBoth(
        _ first: (steps: [ContinuousRecording.Step], onsets: [Int]),
        _ second: (steps: [ContinuousRecording.Step], onsets: [Int])
    ) -> [ContinuousRecording.Step] {
        let tolerance = ContinuousRecording.rate / 50
        var shift = 0
        var best = -1
        for a in first.onsets.prefix(8) {
            for b in second.onsets.prefix(8) {
                let candidate = a - b
                let lined = second.onsets.filter { o in first.onsets.contains { abs($0 - (o + candidate)) <= tolerance } }.count
                if lined > best { (best, shift) = (lined, candidate) }
            }
        }
        func place(_ frame: Int, onsets: [Int], shift: Int) -> (onset: Int, offset: Int)? {
            guard let onset = onsets.last(where: { $0 <= frame }) else { return nil }
            return (onset + shift, frame - onset)
        }
        return first.steps.filter { step in
            guard let a = place(step.frame, onsets: first.onsets, shift: 0) else { return false }
            return second.steps.contains { other in
                guard let b = place(other.frame, onsets: second.onsets, shift: shift) else { return false }
                return abs(a.onset - b.onset) <= tolerance && abs(a.offset - b.offset) <= tolerance
            }
        }
    }

    /// Checks two recordings of one monitor, made side by side: a click
    /// the sink played is in both, at the same place of the same sound; a
    /// step in one only is a block that recorder lost (on a loaded machine a
    /// recorder is a client like any other and can miss a server cycle).
    /// Steps in one recording only are printed, not counted.
    func expectNoClick(
        _ first: ContinuousRecording, _ second: ContinuousRecording, _ what: String, asserted: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let a = first.stepsAndOnsets(over: Self.maxStep)
        let b = second.stepsAndOnsets(over: Self.maxStep)
        let inBoth = Self.stepsInBoth(a, b)
        print("ClickFree[\(PrivateSoundServer.kindUnderTest.rawValue)]: \(what): \(a.steps.count) and \(b.steps.count) steps over \(Self.maxStep) in the two recordings (\(first.frames) and \(second.frames) frames, \(a.onsets.count) and \(b.onsets.count) sounds), \(inBoth.count) in both; first \(a.steps.prefix(8)), second \(b.steps.prefix(8))")
        guard asserted else { return }
        #expect(inBoth.isEmpty, "\(what): the sink played a jump (in both recordings): \(inBoth.prefix(8))",
                sourceLocation: sourceLocation)
        // The comparison means something only if both recorded every sound.
        #expect(a.onsets.count == b.onsets.count, "the recordings hold \(a.onsets.count) and \(b.onsets.count) sounds")
    }

    @Test func suspendWakeupInterruptionSessionChangeAndTerminateDoNotClick() throws {
        let live = try LiveSession(SessionConfiguration(category: .playback))
        defer { live.stop() }
        let recording = try ContinuousRecording(live.server, source: "speaker.monitor")
        defer { recording.stop() }
        // A virtual sink for the call, so its own tone is not on our monitor.
        let callSink = try live.server.addOutput(name: "callsink")
        defer { try? callSink.remove() }
        try live.playTone()
        var mark = recording.frames
        #expect(recording.waitForSound(after: mark) != nil, "the tone never reached the monitor")

        // suspend → silence; wakeup → sound.
        try live.engine.suspend()
        mark = recording.frames
        #expect(eventually { (try? live.ourStream())??.corked == true })
        #expect(recording.waitForSilence(after: mark) != nil, "suspend did not fall silent")
        recording.waitFor(ContinuousRecording.rate / 5, after: recording.frames)
        let silentFrom = recording.frames
        try live.engine.wakeupFromSuspend()
        mark = recording.frames
        #expect(recording.samples(silentFrom - ContinuousRecording.rate / 5..<mark).allSatisfy { abs($0) < 1e-4 },
                "sound while suspended")
        guard let back = recording.waitForSound(after: mark) else {
            Issue.record("no sound after wakeupFromSuspend")
            return
        }
        #expect(back - mark < ContinuousRecording.rate / 2, "sound came back \(back - mark) frames after wakeup")

        // A call interrupts (fade, cork, flush) and ends (fresh audio, fade in).
        let call = try live.server.startClient(role: "phone", sink: "callsink")
        #expect(live.log.wait { if case .interruption(let i) = $0 { i.type == .began } else { false } } != nil)
        mark = recording.frames
        #expect(recording.waitForSilence(after: mark) != nil, "the interruption did not fall silent")
        try call.stop()
        #expect(live.log.wait { if case .interruption(let i) = $0 { i.type == .ended } else { false } } != nil)
        mark = recording.frames
        #expect(recording.waitForSound(after: mark) != nil, "no sound after the interruption ended")

        // A session change re-creates the stream (music → video role).
        try live.engine.changeAudioSessionProperties(SessionConfiguration(category: .playback, mode: .moviePlayback))
        mark = recording.frames
        #expect(recording.waitForSound(after: mark) != nil, "no sound after the session change")
        recording.waitFor(ContinuousRecording.rate / 5, after: recording.frames)

        // terminate: fade, heard, disconnect.
        live.engine.terminate()
        mark = recording.frames
        #expect(recording.waitForSilence(after: mark, within: 10) != nil,
                "terminate did not fall silent: \(recording.describe(after: mark)), stream \(String(describing: try? live.ourStream()))")
        recording.waitFor(ContinuousRecording.rate / 10, after: recording.frames)
        recording.stop()
        expectNoClick(recording, "suspend, wakeup, interruption, session change or terminate")
    }

    /// Issue 15: a jump of 0.37–0.48 around suspend/wakeup in 3 of 8 runs
    /// while the machine was busy. 50 cycles with one spinning process per
    /// CPU; every cycle must fall silent, come back, and never jump.
    ///
    /// Two recorders capture the monitor side by side, and a jump counts
    /// when both have it (a click the sink played); under this load a
    /// recorder alone sometimes loses a block (seen with `pw-record` on
    /// pipewire-pulse: a splice in one recording, none in the other).
    ///
    /// On pipewire-pulse 0.3.65 the jump is printed, never asserted: under
    /// the same two spinners its sink output has whole graph cycles (256
    /// frames) of silence and splices for any client — a plain `pacat`
    /// playing a steady tone for 25 s shows 1 to 3 in both recordings
    /// (docs/pulseaudio.md, "Clicks under load"). The server's data threads
    /// run `SCHED_FIFO` there; the floor is the server's, in this VM.
    ///
    /// The load is the test's two spinners, nothing else: inside the
    /// parallel suite, other tests' servers and clients load the machine far
    /// beyond that, and a stream of ours with a 21 ms buffer can underflow
    /// there like any client's (seen once in CI on the desktop server: one
    /// underflow, one jump). So the jump is asserted when the test runs on
    /// its own (`SOUNDENGINE_ISOLATED_RUN=1`, a step of `.ci/run` for each
    /// PulseAudio set-up); in the parallel suite every cycle must still fall
    /// silent and come back, and the steps are printed.
    @Test func fiftySuspendWakeupCyclesUnderLoadDoNotClick() throws {
        let live = try LiveSession(SessionConfiguration(category: .playback))
        defer { live.stop() }
        let recording = try ContinuousRecording(live.server, source: "speaker.monitor")
        defer { recording.stop() }
        let witness = try ContinuousRecording(live.server, source: "speaker.monitor")
        defer { witness.stop() }
        let load = try CPULoad()
        defer { load.stop() }
        try live.playTone()
        #expect(recording.waitForSound(after: 0) != nil, "the tone never reached the monitor")
        for cycle in 1...50 {
            try live.engine.suspend()
            guard recording.waitForSilence(after: recording.frames, within: 10) != nil else {
                Issue.record("cycle \(cycle): suspend did not fall silent: \(recording.describe(after: 0))")
                break
            }
            try live.engine.wakeupFromSuspend()
            guard let back = recording.waitForSound(after: recording.frames, within: 10) else {
                Issue.record("cycle \(cycle): no sound after wakeupFromSuspend: \(recording.describe(after: 0))")
                break
            }
            // Some tone before the next fade, so each fade starts from the waveform.
            recording.waitFor(ContinuousRecording.rate / 10, after: back)
        }
        load.stop()
        recording.waitFor(ContinuousRecording.rate / 10, after: recording.frames)
        witness.waitFor(ContinuousRecording.rate / 10, after: witness.frames)
        recording.stop()
        witness.stop()
        print("ClickFree[\(PrivateSoundServer.kindUnderTest.rawValue)]: \(live.engine.statistics.output.underflows) underflows in 50 cycles under load")
        expectNoClick(
            recording, witness, "50 suspend/wakeup cycles under load",
            asserted: ProcessInfo.processInfo.environment["SOUNDENGINE_ISOLATED_RUN"] == "1"
                && live.server.kind.isPulseAudio)
    }

    @Test func aRouteMoveByTheEngineDoesNotClickOnEitherDevice() throws {
        let live = try LiveSession(SessionConfiguration(category: .playback))
        defer { live.stop() }
        let speaker = try ContinuousRecording(live.server, source: "speaker.monitor")
        defer { speaker.stop() }
        try live.playTone()
        #expect(speaker.waitForSound(after: speaker.frames) != nil, "the tone never reached the speaker")
        let headphones = try live.server.addOutput(name: "usbphones", properties: usbHeadphones)
        let phones = try ContinuousRecording(live.server, source: "usbphones.monitor")
        defer { phones.stop() }
        // Headphones take the route: the engine fades, moves, fades in.
        #expect(eventually { (try? live.ourSink()) == "usbphones" }, "the stream did not move to the headphones")
        #expect(phones.waitForSound(after: 0) != nil, "no sound on the headphones")
        #expect(speaker.waitForSilence(after: speaker.frames) != nil, "the speaker did not fall silent")
        phones.waitFor(ContinuousRecording.rate / 5, after: phones.frames)
        speaker.waitFor(ContinuousRecording.rate / 5, after: speaker.frames)
        // (Unplugging is not checked: the server moves the stream off a
        // vanished device by itself, mid-waveform, before anyone can fade.)
        phones.stop()
        speaker.stop()
        expectNoClick(phones, "the move onto the headphones")
        expectNoClick(speaker, "the move off the speaker")
        try? headphones.remove()
    }
}
