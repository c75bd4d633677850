import CPulseAudio
import SoundCore
import SoundSession

/// The policy's server-side actions: moving our streams, muting and ducking
/// other clients' streams. Control thread, control lock held.
extension ServerModel {
    /// The answer to one control call.
    final class Outcome {
        var done = false
        var ok = false
        var error = ""
        var gone = false
    }

    /// Issues a control call; its outcome fills in when the server answers.
    func submit(_ call: (PASuccessRequest) -> PAOperation?) -> Outcome {
        let outcome = Outcome()
        let request = PASuccessRequest { ok, error, gone in
            outcome.done = true
            outcome.ok = ok
            outcome.error = error
            outcome.gone = gone
        }
        if !issue(request, call) {
            outcome.done = true
            outcome.error = context.lastError
        }
        return outcome
    }

    /// Waits for every outcome; throws when the server did not answer in time or the connection died.
    func awaitAll(_ done: () -> Bool, deadline: ContinuousClock.Instant, _ what: String) throws(SoundEngineError) {
        let answered = wait(deadline) { done() || !context.isGood }
        guard context.isGood else {
            throw .mediaServicesFailed("the connection to PulseAudio was lost while asking it to \(what)")
        }
        guard answered else { throw .fail("PulseAudio did not answer in time when asked to \(what)") }
    }

    /// Runs one control call to completion; throws with the server's reason when it refused.
    func run(_ what: String, deadline: ContinuousClock.Instant, _ call: (PASuccessRequest) -> PAOperation?) throws(SoundEngineError) {
        let outcome = submit(call)
        try awaitAll({ outcome.done }, deadline: deadline, what)
        guard outcome.ok else { throw .fail("PulseAudio refused to \(what): \(outcome.error)") }
    }

    /// Fresh volumes of these sink inputs (streams that are gone are absent).
    func currentVolumes(_ ids: [StreamID], deadline: ContinuousClock.Instant) throws(SoundEngineError) -> [UInt32: PAVolume] {
        var volumes: [UInt32: PAVolume] = [:]
        var outstanding = 0
        for id in ids {
            let ok = issue(PAListRequest<PASinkInputInfo>(
                onItem: { volumes[$0.index] = $0.volume }, onEnd: { _ in outstanding -= 1 })
            ) { context.getSinkInputs(id.rawValue, $0) }
            if ok { outstanding += 1 }
        }
        try awaitAll({ outstanding == 0 }, deadline: deadline, "describe streams \(ids)")
        return volumes
    }

    /// Performs selectOutput, selectInput, mute/unmute, duck/unduck. Lock held.
    func perform(_ action: SessionAction, deadline: ContinuousClock.Instant) throws(SoundEngineError) {
        guard !stopped, started else { throw .mediaServicesFailed("the PulseAudio server model is not running") }
        switch action {
        case .selectOutput(let id):
            // nil: no output fits; the engine keeps the stream corked, nothing moves.
            guard let id else { return }
            try select(id, output: true, deadline: deadline)
        case .selectInput(let id):
            guard let id else { return }
            try select(id, output: false, deadline: deadline)
        case .muteOtherStreams(let ids):
            try setMute(ids, true, deadline: deadline)
        case .unmuteOtherStreams(let ids):
            try setMute(ids, false, deadline: deadline)
        case .duckOtherStreams(let ids, let factor):
            try duck(ids, factor: factor, deadline: deadline)
        case .unduckOtherStreams(let ids):
            try unduck(ids, deadline: deadline)
        case .setStreamProperties, .openCaptureStream, .closeCaptureStream, .fadeBackgroundMusicBuses, .pauseEngine,
            .resumeEngine:
            throw .invalidParameter("\(action) is not the server model's to perform")
        }
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
                try run(what, deadline: deadline) {
                    output ? context.moveSinkInput(streamIndex, toSink: id.device, $0)
                        : context.moveSourceOutput(streamIndex, toSource: id.device, $0)
                }
            }
            let devices = output ? sinks : sources
            if let port = id.port, let device = devices.values.first(where: { $0.name == id.device }),
                device.activePort != port
            {
                engineMadeDefault.insert(id)
                try run("make port \(port) of \(id.device) active", deadline: deadline) {
                    output ? context.setSinkPort(id.device, port: port, $0) : context.setSourcePort(id.device, port: port, $0)
                }
            }
        } catch {
            if output { outputTarget = previous } else { inputTarget = previous }
            throw error
        }
    }

    func setMute(_ ids: [StreamID], _ muted: Bool, deadline: ContinuousClock.Instant) throws(SoundEngineError) {
        let outcomes = ids.map { id in submit { context.setSinkInputMute(id.rawValue, muted, $0) } }
        let what = "\(muted ? "mute" : "unmute") streams \(ids)"
        try awaitAll({ outcomes.allSatisfy(\.done) }, deadline: deadline, what)
        // A stream that has gone away meanwhile is not an error.
        let refused = zip(ids, outcomes).filter { !$0.1.ok && !$0.1.gone }
        if let (id, outcome) = refused.first {
            throw .fail("PulseAudio refused to \(muted ? "mute" : "unmute") \(id): \(outcome.error)")
        }
    }

    /// Lowers each stream to `factor` (linear amplitude) of the volume found
    /// and remembers both. A stream ducked again keeps its first original
    /// volume unless the user changed it in between.
    func duck(_ ids: [StreamID], factor: Double, deadline: ContinuousClock.Instant) throws(SoundEngineError) {
        let volumes = try currentVolumes(ids, deadline: deadline)
        var plans: [(UInt32, PAVolume, PAVolume)] = []
        for id in ids {
            guard let current = volumes[id.rawValue] else { continue }  // gone
            var original = current
            if let earlier = ducked[id.rawValue], Self.same(earlier.set, current) { original = earlier.original }
            plans.append((id.rawValue, original, original.scaled(byLinear: factor)))
        }
        let outcomes = plans.map { plan in submit { context.setSinkInputVolume(plan.0, plan.2, $0) } }
        try awaitAll({ outcomes.allSatisfy(\.done) }, deadline: deadline, "duck streams \(ids)")
        for (plan, outcome) in zip(plans, outcomes) where outcome.ok {
            ducked[plan.0] = (original: plan.1, set: plan.2)
        }
        if let (plan, outcome) = zip(plans, outcomes).first(where: { !$0.1.ok && !$0.1.gone }) {
            throw .fail("PulseAudio refused to lower the volume of stream \(plan.0): \(outcome.error)")
        }
    }

    /// Puts back the remembered volume of each stream we ducked, unless the
    /// user changed it while ducked (then theirs stays and ours is forgotten).
    func unduck(_ ids: [StreamID], deadline: ContinuousClock.Instant) throws(SoundEngineError) {
        let mine = ids.filter { ducked[$0.rawValue] != nil }
        guard !mine.isEmpty else { return }
        let volumes = try currentVolumes(mine, deadline: deadline)
        var plans: [(UInt32, PAVolume)] = []
        for id in mine {
            let entry = ducked.removeValue(forKey: id.rawValue)!
            guard let current = volumes[id.rawValue], Self.same(entry.set, current) else { continue }
            plans.append((id.rawValue, entry.original))
        }
        let outcomes = plans.map { plan in submit { context.setSinkInputVolume(plan.0, plan.1, $0) } }
        try awaitAll({ outcomes.allSatisfy(\.done) }, deadline: deadline, "restore the volume of streams \(ids)")
        if let (plan, outcome) = zip(plans, outcomes).first(where: { !$0.1.ok && !$0.1.gone }) {
            throw .fail("PulseAudio refused to restore the volume of stream \(plan.0): \(outcome.error)")
        }
    }

    /// Whether the server still has the volume we set: equal channel by
    /// channel within rounding (pipewire-pulse stores volumes as floats and
    /// hands back values a few steps off; a user's change is far larger).
    static func same(_ a: PAVolume, _ b: PAVolume) -> Bool {
        a.channels.count == b.channels.count
            && zip(a.channels, b.channels).allSatisfy { max($0, $1) - min($0, $1) <= 64 }
    }
}
