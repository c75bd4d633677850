@testable import PulseAudioBackend
import SoundServerSupport
import Testing

/// Notices from the playback side reach the control loop even when the
/// notice ring has no pipe to wake it (`pipe()` failed): the control loop
/// then drains the ring on a 10 ms timer (NoticeWakeup).
@Suite struct NoticeFallbackTests {
    @Test(.enabled(if: PrivateSoundServer.kindUnderTest == .pulseaudio, "pipewire-pulse sends no cork requests"))
    func aCorkRequestArrivesWithoutTheNoticePipe() throws {
        // Cork requests are notices pushed on the render thread.
        try expectCorkRequestsReach(PulseAudioBackend(noticePipe: false))
    }
}
