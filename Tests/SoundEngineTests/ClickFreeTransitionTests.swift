import SoundCore
import Foundation
import SoundEngine
import SoundBackend
import SoundContent
import SoundMixer
import SoundSession
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

    /// A step over the click threshold: where (frame), how large, and the
    /// samples around it (8 frames before and after, interleaved).
    struct Step: CustomStringConvertible {
        var frame: Int
        var size: Float
        var around: [Float]
        var description: String { "\(size) at \(frame)" }

        /// The same step in another recording of the same monitor: the same samples around it.
        func matches(_ other: Step) -> Bool {
            around.count == other.around.count && zip(around, other.around).allSatisfy { abs($0 - $1) < 1e-6 }
        }
    }

    /// Every step over `threshold` within one channel.
    func steps(over threshold: Float) -> [Step] {
        let s = samples(0..<frames)
        let count = s.count / Self.channels
        var found: [Step] = []
        var frame = 1
        while frame < count {
            var step: Float = 0
            for c in 0..<Self.channels {
                let i = frame * Self.channels + c
                step = max(step, abs(s[i] - s[i - Self.channels]))
            }
            if step > threshold {
                let lower = max(0, frame - 8) * Self.channels
                let upper = min(count, frame + 8) * Self.channels
                found.append(Step(frame: frame, size: step, around: Array(s[lower..<upper])))
            }
            frame += 1
        }
        return found
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

    /// Whether a jump fails the tests: on PulseAudio (the test under load:
    /// only when run on its own). On pipewire-pulse
    /// 0.3.65 on the 2-vCPU VM (December 2026) the sink breaks a plain
    /// `pacat` tone too — from 0 to 56 times in 3 s on an idle machine,
    /// varying from minute to minute — so a jump there cannot be told from
    /// the server's; the steps are printed, with a second recorder to tell
    /// the recorder's own losses apart (docs/pulseaudio.md, "Clicks under
    /// load"). Every transition must still fall silent and come back.
    static var assertsWithoutLoad: Bool { PrivateSoundServer.kindUnderTest.isPulseAudio }

    /// Whether the tests of the whole suspend/wakeup sequence assert the
    /// jump: on PulseAudio, when they run on their own
    /// (`SOUNDENGINE_ISOLATED_RUN=1`, steps of `.ci/run` for each PulseAudio
    /// set-up). Inside the parallel suite the machine carries other tests'
    /// servers and clients, and a stream with a 21 ms buffer can underflow
    /// there like any client's (seen in CI: one jump of 0.35 in the sequence
    /// test while the same run's isolated 50 cycles had none); there every
    /// transition must still fall silent and come back, and the steps and
    /// underflows are printed.
    static var assertedAlone: Bool {
        ProcessInfo.processInfo.environment["SOUNDENGINE_ISOLATED_RUN"] == "1" && assertsWithoutLoad
    }

    /// A second recorder of the same monitor, on pipewire-pulse only: there
    /// `pw-record` under load sometimes loses a block itself (a splice in its
    /// recording that another recorder beside it does not have), so a step
    /// counts only when both recordings have it. On PulseAudio one `parec`
    /// is reliable, and a second one on the same monitor is not neutral
    /// (measured: holes of a graph cycle in both recordings after a move
    /// onto a sink both had just joined, none with one recorder).
    func witness(of server: PrivateSoundServer, source: String) throws -> ContinuousRecording? {
        server.kind.isPulseAudio ? nil : try ContinuousRecording(server, source: source)
    }

    /// Steps a plain client's tone gets from `server` right now: a second
    /// application (`startClient`: `pacat` playing a 440 Hz sine) plays on
    /// the speaker for 3 s (no cork, no move, nothing of ours) and one
    /// recorder counts the steps. A click test that found steps asks this
    /// before it fails: on a machine whose timing has gone bad (seen on the
    /// 2-vCPU VM for an hour in December 2026, on PulseAudio too: 6 to 17
    /// steps per test in a CI run that had none an hour earlier) the server
    /// breaks every client's audio, and the test cannot tell ours from the
    /// server's.
    static func referenceSteps(on server: PrivateSoundServer) throws -> Int {
        // The recorder first and stopped before the client: the sine starts
        // at zero, and the cut of pacat's kill is not recorded.
        let recording = try ContinuousRecording(server, source: "speaker.monitor")
        defer { recording.stop() }
        let client = try server.startClient(role: nil, sink: "speaker")
        defer { try? client.stop() }
        recording.waitFor(ContinuousRecording.rate * 3, after: recording.frames)
        recording.stop()
        let steps = recording.steps(over: maxStep)
        print("ClickFree[\(server.kind.rawValue)]: a reference pacat tone, 3 s: \(steps.count) steps over \(maxStep) \(steps.prefix(4))")
        return steps.count
    }

    /// Checks a recording's steps, naming the transition if it clicked.
    /// With a `witness` (a second recorder of the same monitor), a step
    /// counts only when the witness has it too, with the same samples around
    /// it: both recorders receive the sink's output bit for bit, so a click
    /// the sink played is in both, and a block one recorder lost is not.
    /// Steps in one recording only are printed, not counted.
    func expectNoClick(
        _ recording: ContinuousRecording, witness: ContinuousRecording? = nil, _ what: String, asserted: Bool = true,
        underflows: UInt64 = 0, server: PrivateSoundServer, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let steps = recording.steps(over: Self.maxStep)
        var counted = steps
        var report = "\(steps.count) steps over \(Self.maxStep) in \(recording.frames) frames \(steps.prefix(8))"
        if let witness {
            let other = witness.steps(over: Self.maxStep)
            counted = steps.filter { x in other.contains { x.matches($0) } }
            report += "; the witness \(other.count) in \(witness.frames) frames \(other.prefix(8)); \(counted.count) in both"
        }
        print("ClickFree[\(PrivateSoundServer.kindUnderTest.rawValue)]: \(what): \(report)")
        if let path = ProcessInfo.processInfo.environment["CLICK_DUMP"] {
            recording.samples(0..<recording.frames).withUnsafeBytes { try? Data($0).write(to: URL(fileURLWithPath: "\(path)-\(what.count).f32")) }
        }
        guard asserted else { return }
        if !counted.isEmpty, underflows > 0, UInt64(counted.count) <= 2 * underflows {
            // An underflow is a dropout: the server played a hole where our
            // audio was late, a step into silence and one out of it (CI,
            // December 2026: pairs 255 frames apart, 2 and 7 underflows in
            // two runs of the sequence on a loaded VM; in the 50 cycles under
            // load, 1 underflow and 2 steps 69 ms apart in 1 of 10 runs). This
            // recording cannot tell those steps from a transition's, so up to
            // two steps per underflow are dropouts; more are still clicks.
            print("ClickFree[\(server.kind.rawValue)]: \(what): not asserted: our stream underflowed \(underflows) times, \(counted.count) steps")
            return
        }
        if !counted.isEmpty, let floor = try? Self.referenceSteps(on: server), floor > 0 {
            print("ClickFree[\(server.kind.rawValue)]: \(what): not asserted: the server broke a plain pacat tone \(floor) times in 3 s")
            return
        }
        #expect(counted.isEmpty, "\(what): a jump of \(counted.prefix(8))", sourceLocation: sourceLocation)
        if let witness {
            // The comparison means something only if both recorded the whole run.
            #expect(abs(recording.frames - witness.frames) < ContinuousRecording.rate / 2,
                    "the recordings hold \(recording.frames) and \(witness.frames) frames", sourceLocation: sourceLocation)
        }
    }

    @Test func suspendWakeupInterruptionSessionChangeAndTerminateDoNotClick() throws {
        let live = try LiveSession(SessionConfiguration(category: .playback))
        defer { live.stop() }
        let recording = try ContinuousRecording(live.server, source: "speaker.monitor")
        defer { recording.stop() }
        let witness = try witness(of: live.server, source: "speaker.monitor")
        defer { witness?.stop() }
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
        let underflows = live.engine.statistics.output.underflows
        live.engine.terminate()
        mark = recording.frames
        #expect(recording.waitForSilence(after: mark, within: 10) != nil,
                "terminate did not fall silent: \(recording.describe(after: mark)), stream \(String(describing: try? live.ourStream()))")
        for recording in [recording, witness].compactMap(\.self) {
            recording.waitFor(ContinuousRecording.rate / 10, after: recording.frames)
            recording.stop()
        }
        print("ClickFree[\(PrivateSoundServer.kindUnderTest.rawValue)]: \(underflows) underflows in the sequence")
        expectNoClick(
            recording, witness: witness, "suspend, wakeup, interruption, session change or terminate",
            asserted: Self.assertedAlone, underflows: underflows, server: live.server)
    }

    /// Issue 15: a jump of 0.37–0.48 around suspend/wakeup in 3 of 8 runs
    /// while the machine was busy. 50 cycles with one spinning process per
    /// CPU; every cycle must fall silent, come back, and never jump.
    ///
    /// Not on pipewire-pulse unless the suite runs on its own
    /// (`SOUNDENGINE_ISOLATED_RUN=1`): there nothing is asserted
    /// (``assertsWithoutLoad``), and its spinners would only load the
    /// parallel suite.
    ///
    /// The load is the test's two spinners, nothing else: inside the
    /// parallel suite, other tests' servers and clients load the machine far
    /// beyond that, and a stream of ours with a 21 ms buffer can underflow
    /// there like any client's (seen once in CI on the desktop server: one
    /// underflow, one jump). So the jump is asserted when the test runs on
    /// its own (`SOUNDENGINE_ISOLATED_RUN=1`, a step of `.ci/run` for each
    /// PulseAudio set-up); in the parallel suite every cycle must still fall
    /// silent and come back, and the steps are printed.
    @Test(.enabled(
        if: PrivateSoundServer.kindUnderTest.isPulseAudio
            || ProcessInfo.processInfo.environment["SOUNDENGINE_ISOLATED_RUN"] == "1",
        "on pipewire-pulse it asserts nothing, and its spinners would only load the parallel suite"))
    func fiftySuspendWakeupCyclesUnderLoadDoNotClick() throws {
        let live = try LiveSession(SessionConfiguration(category: .playback))
        defer { live.stop() }
        let recording = try ContinuousRecording(live.server, source: "speaker.monitor")
        defer { recording.stop() }
        let witness = try witness(of: live.server, source: "speaker.monitor")
        defer { witness?.stop() }
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
        for recording in [recording, witness].compactMap(\.self) {
            recording.waitFor(ContinuousRecording.rate / 10, after: recording.frames)
            recording.stop()
        }
        let underflows = live.engine.statistics.output.underflows
        print("ClickFree[\(PrivateSoundServer.kindUnderTest.rawValue)]: \(underflows) underflows in 50 cycles under load")
        expectNoClick(
            recording, witness: witness, "50 suspend/wakeup cycles under load",
            asserted: Self.assertedAlone, underflows: underflows, server: live.server)
    }

    @Test func aRouteMoveByTheEngineDoesNotClickOnEitherDevice() throws {
        let live = try LiveSession(SessionConfiguration(category: .playback))
        defer { live.stop() }
        let speaker = try ContinuousRecording(live.server, source: "speaker.monitor")
        defer { speaker.stop() }
        let speakerWitness = try witness(of: live.server, source: "speaker.monitor")
        defer { speakerWitness?.stop() }
        try live.playTone()
        #expect(speaker.waitForSound(after: speaker.frames) != nil, "the tone never reached the speaker")
        let headphones = try live.server.addOutput(name: "usbphones", properties: usbHeadphones)
        let phones = try ContinuousRecording(live.server, source: "usbphones.monitor")
        defer { phones.stop() }
        let phonesWitness = try witness(of: live.server, source: "usbphones.monitor")
        defer { phonesWitness?.stop() }
        // Headphones take the route: the engine fades, moves, fades in.
        #expect(eventually { (try? live.ourSink()) == "usbphones" }, "the stream did not move to the headphones")
        #expect(phones.waitForSound(after: 0) != nil, "no sound on the headphones")
        #expect(speaker.waitForSilence(after: speaker.frames) != nil, "the speaker did not fall silent")
        let all = [phones, phonesWitness, speaker, speakerWitness].compactMap(\.self)
        for recording in all { recording.waitFor(ContinuousRecording.rate / 5, after: recording.frames) }
        // (Unplugging is not checked: the server moves the stream off a
        // vanished device by itself, mid-waveform, before anyone can fade.)
        for recording in all { recording.stop() }
        expectNoClick(
            phones, witness: phonesWitness, "the move onto the headphones", asserted: Self.assertsWithoutLoad,
            server: live.server)
        expectNoClick(
            speaker, witness: speakerWitness, "the move off the speaker", asserted: Self.assertsWithoutLoad,
            server: live.server)
        try? headphones.remove()
    }
}
