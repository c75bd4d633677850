import CPulseAudio
import Foundation
import SoundBackend
import SoundCore
import SoundSession
import Synchronization

/// The playback stream: opening, the grant, closing and re-creating it.
extension Connection {
    func connectStream(_ loop: PAMainloop, deadline: ContinuousClock.Instant) throws(SoundEngineError) -> GrantedStream {
        try openPlayback(loop, deadline: deadline, device: nil)
        established.store(true, ordering: .releasing)
        if let priority = configuration.realtimePriority {
            requestedPriority = priority
            loop.once(raiseLoopThreadPriority, userdata)
            _ = waitLocked(loop, deadline: deadline) { grantedPriority != nil }
        }
        return try grant()
    }

    /// What the server granted for the current playback stream. Lock held.
    func grant() throws(SoundEngineError) -> GrantedStream {
        guard let s = stream, let granted = s.format, let buffer = s.bufferAttributes, let info = serverInfo else {
            throw .deviceNotReady("PulseAudio at \(addressTried) did not open our playback stream")
        }
        return GrantedStream(
            format: granted, buffer: buffer, serverName: info.serverName, serverVersion: info.serverVersion,
            deviceName: s.deviceName, realtimePriority: grantedPriority.flatMap { $0 > 0 ? $0 : nil },
            snapshot: snapshot, echoCancellationAvailable: withModel { $0.echoCancellationAvailable } ?? false)
    }

    /// Creates our playback stream, corked, on `device` (`nil`: where the
    /// server puts it), and waits until it is ready. Lock held.
    func openPlayback(
        _ loop: PAMainloop, deadline: ContinuousClock.Instant, device: String?
    ) throws(SoundEngineError) {
        guard let ctx = context else { throw .fail("internal: no context") }
        let format = configuration.format
        var props = configuration.streamProperties
        props["media.name"] = configuration.streamName
        props["application.name"] = configuration.applicationName
        let proplist = PAProplist.make(props)
        defer { proplist.free() }
        guard let s = PAStream.make(context: ctx, name: configuration.streamName, format: format, properties: proplist) else {
            throw .invalidParameter("PulseAudio refused a \(format) playback stream: \(ctx.lastError)")
        }
        stream = s
        if renderState == nil {
            let state = UnsafeMutablePointer<RenderState>.allocate(capacity: 1)
            state.initialize(to: RenderState(entry: render, bytesPerFrame: format.bytesPerFrame))
            renderState = state
        }
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
            throw .deviceNotReady("PulseAudio at \(addressTried) did not open our playback stream: \(ctx.lastError)")
        }
        _ = withModel { $0.ownPlaybackIndex = s.index }
        corkedNow.store(true, ordering: .releasing)
        streamIndexNow.store(s.index, ordering: .releasing)
        streamOpen.store(true, ordering: .releasing)
    }

    /// Disconnects and releases the playback stream (callbacks first, so
    /// none fires after). Lock held.
    func closePlayback() {
        guard let s = stream else { return }
        streamOpen.store(false, ordering: .releasing)
        streamIndexNow.store(paInvalidIndex, ordering: .releasing)
        s.clearCallbacks()
        s.disconnect()
        s.unref()
        stream = nil
    }

    /// Re-creates the playback (and an open capture) stream with new
    /// properties, corked, on the output selected last. Lock held.
    func replaceStreams(_ properties: StreamProperties, _ loop: PAMainloop) throws(SoundEngineError) {
        var props = configuration.streamProperties
        props.removeValue(forKey: "media.role")
        props.removeValue(forKey: "filter.want")
        props.merge(properties.proplist) { _, new in new }
        configuration.streamProperties = props
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
}
