import CPulseAudio
import Foundation
import SoundBackend
import SoundCore
import SoundSession
import Synchronization

/// The record stream (record and playAndRecord categories).
extension Connection {
    /// Opens the record stream on the input selected last (the server's
    /// default when none), with our stream properties. Lock held.
    func openCapture(_ loop: PAMainloop, deadline: ContinuousClock.Instant) throws(SoundEngineError) {
        guard capture == nil else { return }
        guard let ctx = context else { throw .fail("internal: no context") }
        let format = StreamFormat(
            sampleRate: configuration.format.sampleRate, channelCount: configuration.captureChannels,
            sampleFormat: .float32)
        let proplist = PAProplist.make(configuration.captureProplist)
        defer { proplist.free() }
        guard let s = PAStream.make(context: ctx, name: "input", format: format, properties: proplist) else {
            throw .invalidParameter("PulseAudio refused a \(format) record stream: \(ctx.lastError)")
        }
        capture = s
        let state = UnsafeMutablePointer<CaptureState>.allocate(capacity: 1)
        state.initialize(to: CaptureState(ring: captureRing, channels: format.channelCount))
        captureState = state
        captureRing.pointee.discard()
        s.setStateCallback(streamStateCallback, userdata)
        s.setReadCallback(pulseReadCallback, UnsafeMutableRawPointer(state))
        // About 10 ms per fragment: input reaches the game promptly.
        let device = withModel { $0.selectedInput?.device } ?? nil
        guard s.connectRecord(device: device, fragmentFrames: format.sampleRate / 100, format: format) else {
            closeCapture()
            throw .deviceNotReady("PulseAudio at \(addressTried) refused our record stream: \(ctx.lastError)")
        }
        _ = waitLocked(loop, deadline: deadline) { !s.isCreating || !ctx.isGood }
        guard s.isReady else {
            abandonIfUnanswered(s)
            closeCapture()
            throw .deviceNotReady("PulseAudio at \(addressTried) did not open our record stream: \(ctx.lastError)")
        }
        _ = withModel { $0.ownCaptureIndex = s.index }
    }

    /// Closes the record stream. Lock held: no read callback is running, and
    /// none runs after `clearCallbacks`, so its state can be freed at once.
    func closeCapture() {
        if let s = capture {
            s.clearCallbacks()
            s.disconnect()
            s.unref()
            capture = nil
        }
        _ = withModel { $0.ownCaptureIndex = nil }
        if let state = captureState {
            state.deinitialize(count: 1)
            state.deallocate()
            captureState = nil
        }
    }
}
