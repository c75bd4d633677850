import CPulseAudio
import Foundation
import SoundBackend
import SoundCore
import SoundSession
import Synchronization

/// The playback stream: creating it (the session policy's first action),
/// re-creating it with new properties or after it was lost, the grant, closing it.
extension Connection {
    /// Creates our streams with `properties`, or re-creates them (playback
    /// and, if open, capture), corked, on the output selected last (the
    /// server's default if that device is gone). Lock held.
    func setStreamProperties(_ properties: StreamProperties, _ loop: PAMainloop) throws(SoundEngineError) {
        configuration.streamProperties = properties
        let deadline = ContinuousClock.now.advanced(by: configuration.connectTimeout)
        let hadCapture = capture != nil
        closeCapture()
        closePlayback()
        do throws(SoundEngineError) {
            try openPlayback(loop, deadline: deadline, device: withModel { $0.selectedOutput?.device } ?? nil)
        } catch {
            // The selected device may have gone meanwhile: let the server choose.
            closePlayback()
            try openPlayback(loop, deadline: deadline, device: nil)
        }
        if hadCapture { try openCapture(loop, deadline: deadline) }
    }

    /// The channel count (1…8) of the sink named `device`, or of the
    /// server's default sink for `nil`; nil when the model does not know it.
    func deviceChannels(_ device: String?) -> Int? {
        let channels = withModel { model -> Int? in
            let name = device ?? model.defaultSinkName
            return model.sinks.values.first { $0.name == name }?.channels
        } ?? nil
        return channels.map { min(8, max(1, $0)) }
    }

    /// What the server granted for the current playback stream. Lock held.
    func grant() -> GrantedStream? {
        guard let s = stream, s.isReady, let granted = s.format, let buffer = s.bufferAttributes, let info = serverInfo
        else { return nil }
        let server = ServerDescription(
            serverName: info.serverName, serverVersion: info.serverVersion, snapshot: snapshot,
            echoCancellationAvailable: withModel { $0.echoCancellationAvailable } ?? false)
        return GrantedStream(
            server: server, format: granted, buffer: buffer, deviceName: s.deviceName,
            realtimePriority: grantedPriority.flatMap { $0 > 0 ? $0 : nil })
    }

    /// Creates our playback stream, corked, on `device` (`nil`: where the
    /// server puts it), and waits until it is ready. Lock held.
    func openPlayback(_ loop: PAMainloop, deadline: ContinuousClock.Instant, device: String?) throws(SoundEngineError) {
        guard let ctx = context else { throw .fail("internal: no context") }
        if configuration.followDeviceChannels, let channels = deviceChannels(device) {
            configuration.format.channelCount = channels
        }
        let format = configuration.format
        let proplist = PAProplist.make(configuration.playbackProplist)
        defer { proplist.free() }
        guard let s = PAStream.make(context: ctx, name: configuration.streamName, format: format, properties: proplist) else {
            throw .invalidParameter("PulseAudio refused a \(format) playback stream: \(ctx.lastError)")
        }
        stream = s
        if renderState == nil {
            let state = UnsafeMutablePointer<RenderState>.allocate(capacity: 1)
            state.initialize(to: RenderState(
                entry: render, bytesPerFrame: format.bytesPerFrame, status: status, mainloop: loop.raw))
            renderState = state
        }
        renderState?.pointee.bytesPerFrame = format.bytesPerFrame
        // A new stream starts corked (START_CORKED): nothing is rendered into it before the uncork.
        renderState?.pointee.paused.store(true, ordering: .relaxed)
        s.setStateCallback(streamStateCallback, userdata)
        s.setWriteCallback(pulseWriteCallback, UnsafeMutableRawPointer(renderState))
        s.setUnderflowCallback(streamUnderflowCallback, userdata)
        s.setSuspendedCallback(streamSuspendedCallback, userdata)
        s.setEventCallback(streamEventCallback, userdata)
        guard s.connectPlayback(latency: configuration.latency, format: format, device: device) else {
            throw .deviceNotReady("PulseAudio at \(addressTried) refused our playback stream: \(ctx.lastError)")
        }
        _ = waitLocked(loop, deadline: deadline) { !s.isCreating || !ctx.isGood }
        guard s.isReady else {
            abandonIfUnanswered(s)
            throw .deviceNotReady("PulseAudio at \(addressTried) did not open our playback stream: \(ctx.lastError)")
        }
        _ = withModel { $0.ownPlaybackIndex = s.index }
        // releasing (all three): pair with the getters' acquiring loads.
        status.pointee.corked.store(true, ordering: .releasing)
        status.pointee.streamIndex.store(s.index, ordering: .releasing)
        status.pointee.streamGeneration.wrappingAdd(1, ordering: .releasing)
        status.pointee.streamOpen.store(true, ordering: .releasing)
    }

    /// A stream the server never answered for (a stopped or hung server) cannot
    /// be taken back: libpulse refuses to disconnect a stream still being
    /// created, and the server creates it whenever it wakes up, owned by our
    /// client. Only dropping the connection removes it, so the connection is
    /// given up (the reconnect thread makes a new one). Lock held.
    func abandonIfUnanswered(_ s: PAStream) {
        guard s.isCreating else { return }
        reportLost()
    }

    /// Disconnects and releases the playback stream (callbacks first, so
    /// none fires after). Lock held.
    func closePlayback() {
        guard let s = stream else { return }
        // releasing: pairs with the getters' acquiring loads.
        status.pointee.streamOpen.store(false, ordering: .releasing)
        status.pointee.streamIndex.store(paInvalidIndex, ordering: .releasing)
        status.pointee.corked.store(true, ordering: .releasing)
        s.clearCallbacks()
        s.disconnect()
        s.unref()
        stream = nil
    }
}
