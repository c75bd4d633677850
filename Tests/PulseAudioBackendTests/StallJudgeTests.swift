@testable import PulseAudioBackend
import Testing

/// The stall watchdog's judgement (issue 15, "never silent"), fed looks at
/// made-up moments: when a playing stream that stops rendering is a stall,
/// and when it is not.
@Suite struct StallJudgeTests {
    let start = ContinuousClock.now

    /// The looks the watchdog takes every 100 ms, from `from` ms for `count` looks.
    func judge(
        _ judge: inout StallJudge, from: Int, count: Int, generation: UInt64 = 1, frames: (Int) -> UInt64,
        playing: Bool = true
    ) -> [(at: Int, stalled: Duration)] {
        (0..<count).compactMap { n in
            let ms = from + n * 100
            let look = StallJudge.Look(generation: generation, frames: frames(ms), playing: playing)
            return judge.look(look, at: start + .milliseconds(ms)).map { (ms, $0) }
        }
    }

    @Test func theTimeoutIsSixteenBuffersAndAtLeastHalfASecond() {
        #expect(StallJudge.timeout(targetFrames: 1024, sampleRate: 48_000) == .milliseconds(500))  // 16 × 21.3 ms = 341 ms
        #expect(StallJudge.timeout(targetFrames: 4800, sampleRate: 48_000) == .milliseconds(1600))
    }

    @Test func aPlayingStreamThatStopsRenderingIsReportedOnceAfterTheTimeout() {
        var j = StallJudge(timeout: .milliseconds(500))
        // Rendering for three seconds (past the start-up allowance), then nothing more.
        let reports = judge(&j, from: 0, count: 60) { UInt64(min($0, 3000) * 48) }
        #expect(reports.count == 1, "\(reports)")
        // The last progress was seen at 3000 ms: reported at the first look 500 ms later, no sooner.
        #expect(reports.first?.at == 3500, "\(reports)")
        #expect(reports.first?.stalled == .milliseconds(500))
        // Rendering steadily for one second, then nothing (a server that hangs
        // soon after the game began to play): the device was asking, so the
        // start-up allowance is over and the plain timeout holds.
        var k = StallJudge(timeout: .milliseconds(500))
        #expect(judge(&k, from: 0, count: 60) { UInt64(min($0, 1000) * 48) }.map(\.at) == [1500])
        // Only the top-up (spread over two looks), then nothing: a slow start,
        // held to the start-up timeout from the last progress.
        var m = StallJudge(timeout: .milliseconds(500))
        #expect(judge(&m, from: 0, count: 60) { UInt64(min($0, 100) * 5) }.map(\.at) == [3100])
    }

    @Test func aStreamThatKeepsRenderingIsNeverReported() {
        var j = StallJudge(timeout: .milliseconds(500))
        #expect(judge(&j, from: 0, count: 100) { UInt64($0 * 48) }.isEmpty)
    }

    @Test func aCorkedOrSuspendedStreamIsNotAStall() {
        var j = StallJudge(timeout: .milliseconds(500))
        // Not playing for 5 s without rendering a frame.
        #expect(judge(&j, from: 0, count: 50, frames: { _ in 0 }, playing: false).isEmpty)
        // Playing again: the wait starts now, not when the frames last moved,
        // and at the start of playing it is the start-up allowance.
        let reports = judge(&j, from: 5000, count: 40) { _ in 0 }
        #expect(reports.map(\.at) == [8000], "\(reports)")
    }

    @Test func aDeviceSlowToAskAtTheStartIsNotAStallButOneThatStopsLaterIs() {
        var j = StallJudge(timeout: .milliseconds(500))
        // The top-up at the start, then the device asks only after 2 s (PulseAudio's
        // null sink without a reader), then steadily, then not at all from 5 s on.
        let frames: (Int) -> UInt64 = { ms in ms < 2000 ? 512 : UInt64(512 + min(ms, 5000) * 48) }
        let reports = judge(&j, from: 0, count: 70, frames: frames)
        #expect(reports.map(\.at) == [5500], "\(reports)")
    }

    @Test func aFailedStreamIsNotReportedAgainButANewStreamIsJudgedAfresh() {
        var j = StallJudge(timeout: .milliseconds(500))
        j.streamFailed(generation: 1)  // before the first look at it
        #expect(judge(&j, from: 0, count: 20) { _ in 0 }.isEmpty)
        // The re-created stream (a new generation) stalls too: reported, the
        // start-up allowance after it appeared.
        let reports = judge(&j, from: 2000, count: 40, generation: 2) { _ in 0 }
        #expect(reports.map(\.at) == [5000], "\(reports)")
    }
}
