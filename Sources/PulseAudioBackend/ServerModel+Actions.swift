import CPulseAudio
import SoundCore
import SoundSession

/// Moving our streams where the policy routes them. Control thread, control
/// lock held. (Muting and ducking other streams: ServerModel+Holds.swift.)
extension ServerModel {
    /// Throws unless the model runs (started, not stopped).
    func requireRunning() throws(SoundEngineError) {
        guard !stopped, started else { throw .mediaServicesFailed("the PulseAudio server model is not running") }
    }

    /// Routes our playback (`output`) or capture stream to `id`; `nil`: no
    /// device fits, nothing moves (the engine keeps the stream corked).
    func select(_ id: EndpointID?, output: Bool, deadline: ContinuousClock.Instant) throws(SoundEngineError) {
        try requireRunning()
        guard let id else { return }
        try select(id, output: output, deadline: deadline)
    }

    /// Moves our stream to `id.device` (unless it is there) and makes `id.port`
    /// active (unless it is). The target is remembered first, so the move's
    /// own events are not taken for the user's; on failure it is put back.
    func select(_ id: EndpointID, output: Bool, deadline: ContinuousClock.Instant) throws(SoundEngineError) {
        let previous = output ? outputTarget : inputTarget
        if output { outputTarget = id } else { inputTarget = id }
        do throws(SoundEngineError) {
            let streamIndex = output ? ownPlaybackIndex : ownCaptureIndex
            let currentDevice = output ? ownPlaybackSink : ownCaptureSource
            if let streamIndex, currentDevice != id.device {
                let what = "move our \(output ? "playback" : "capture") stream to \(id.device)"
                try requests.run(what, deadline: deadline) {
                    output ? context.moveSinkInput(streamIndex, toSink: id.device, $0)
                        : context.moveSourceOutput(streamIndex, toSource: id.device, $0)
                }
            }
            let devices = output ? sinks : sources
            if let port = id.port, let device = devices.values.first(where: { $0.name == id.device }),
                device.activePort != port
            {
                engineMadeDefault[id] = .now + Self.settleGrace
                try requests.run("make port \(port) of \(id.device) active", deadline: deadline) {
                    output ? context.setSinkPort(id.device, port: port, $0) : context.setSourcePort(id.device, port: port, $0)
                }
            }
        } catch {
            if output { outputTarget = previous } else { inputTarget = previous }
            throw error
        }
    }
}
