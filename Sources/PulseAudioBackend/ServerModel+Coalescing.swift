import CPulseAudio
import SoundCore
import SoundSession

/// Coalescing: one physical change (a jack plugged: card, sink, server and
/// module events) becomes one `endpointsChanged`, then default changes and
/// moves of our streams, judged when the burst is over.
extension ServerModel {
    /// Notes a device-level event: the first of a burst arms the flush timer.
    func deviceChanged() {
        guard !stopped, flushTimer?.event == nil else { return }
        let timer = flushTimer ?? PATimerBox { [unowned self] in flush() }
        flushTimer = timer
        burstStart = .now
        context.arm(timer, after: Self.coalescingDelay)
    }

    /// Compares what the server has now with what the policy was told and
    /// reports the difference as one `endpointsChanged`, then default changes
    /// and moves of our streams.
    func flush() {
        guard !stopped else { return }
        if deviceQueriesInFlight > 0, let start = burstStart, ContinuousClock.now - start < Self.coalescingLimit,
            let timer = flushTimer
        {
            context.arm(timer, after: 5_000)  // answers still on their way: a little longer
            return
        }
        burstStart = nil
        guard started else { return }  // start() reports the state as of its end itself

        let current = currentEndpoints()
        let currentIDs = Set(current.map(\.id))
        let appeared = current.filter { reportedEndpoints[$0.id] != $0 }
        let disappeared = reportedEndpoints.keys.filter { !currentIDs.contains($0) }.sorted()
        let newlyPresent = Set(appeared.map(\.id).filter { reportedEndpoints[$0] == nil })
        reportedEndpoints = Dictionary(current.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        if !appeared.isEmpty || !disappeared.isEmpty {
            emit(.endpointsChanged(appeared: appeared, disappeared: disappeared))
        }

        // Defaults. A change of the server's default is the user's choice
        // unless it follows from the burst itself:
        //  - the old default endpoint went away (the server picked a fallback);
        //  - the new default endpoint only now appeared (a device plugged in, or
        //    a jack's port became available, and the server switched to it);
        //  - the engine made it current itself (selectOutput switched the port).
        let disappearedSet = Set(disappeared)
        // Directions whose server default moved by itself in this burst: a
        // stream of ours that follows the default moved with it (PulseAudio
        // ≥ 15 moves default-following streams), which is not the user's move.
        var defaultFollowed: Set<EndpointDirection> = []
        for direction in [EndpointDirection.output, .input] {
            let old = direction == .output ? reportedDefaultOutput : reportedDefaultInput
            let new = defaultEndpoint(direction)
            guard new != old else { continue }
            if direction == .output { reportedDefaultOutput = new } else { reportedDefaultInput = new }
            guard let new else { continue }
            let oldWentAway = old.map { disappearedSet.contains($0) || !currentIDs.contains($0) } ?? false
            let engineMade = engineMadeDefault.remove(new) != nil
            if oldWentAway || newlyPresent.contains(new) || engineMade {
                defaultFollowed.insert(direction)
                continue
            }
            emit(direction == .output ? .defaultOutputChanged(new) : .defaultInputChanged(new))
        }
        engineMadeDefault.removeAll()

        // A source's mute switch (a headset's or laptop's mic-mute key, or
        // `pactl set-source-mute`): each of its endpoints is muted.
        let muted = mutedInputs(current)
        for id in muted.subtracting(reportedMutedInputs).sorted() { emit(.inputMuteChanged(id, muted: true)) }
        for id in reportedMutedInputs.subtracting(muted).sorted() where currentIDs.contains(id) {
            emit(.inputMuteChanged(id, muted: false))
        }
        reportedMutedInputs = muted

        if let move = pendingOutputMove {
            pendingOutputMove = nil
            let followedDefault = defaultFollowed.contains(.output) && move.to == defaultSinkName
            if !followedDefault { judgeMove(from: move.from, to: move.to, output: true) }
        }
        if let move = pendingInputMove {
            pendingInputMove = nil
            let followedDefault = defaultFollowed.contains(.input) && move.to == defaultSourceName
            if !followedDefault { judgeMove(from: move.from, to: move.to, output: false) }
        }
    }

    /// Reports a move of our stream unless it is not the user's doing:
    /// the engine asked for it (the target), the old device went away (the
    /// server's rescue), the new device is a filter (module-filter-apply put
    /// an echo canceller in between), or the stream follows the server's
    /// default because the engine never selected a device.
    ///
    /// A move of our playback stream away from where the engine put it is
    /// confirmed by asking the server where the stream is, twice, the
    /// second time ``moveCheckDelay`` later: reports can be stale, and
    /// pipewire-pulse reports a moved stream on its old sink until
    /// WirePlumber has linked it again. A stale report judged as the user's
    /// move turned the route back to a device the stream had left (seen on
    /// pipewire-pulse in about 1 of 5 runs of 200 plug/unplug cycles: after
    /// a plug the engine moved the stream to the headphones, a report still
    /// had it on the speaker, and the session took that for the user's
    /// override while the stream played on the headphones). A real move by
    /// the user is reported that much later.
    func judgeMove(from: String?, to: String, output: Bool) {
        let devices = output ? sinks : sources
        let target = output ? outputTarget : inputTarget
        guard let device = devices.values.first(where: { $0.name == to }) else { return }
        if from == to {
            // Back where it was within one burst is no move — unless that is
            // not where the engine put it (the engine's move and the user's
            // move back fell into one window).
            if output, target?.device != to { confirmMoveAway(from: target) }
            return
        }
        let oldGone = from.map { name in !devices.values.contains { $0.name == name } } ?? true
        let defaultName = output ? defaultSinkName : defaultSourceName
        if oldGone || isFilter(device) || target?.device == to || (target == nil && to == defaultName) { return }
        if output, target != nil {
            confirmMoveAway(from: target)
            return
        }
        emit(.streamMovedByUser(EndpointID(output ? .output : .input, device: to, port: device.activePort)))
    }

    /// How long a move away from the engine's target must last to be the
    /// user's: WirePlumber's relinking after a move, with margin for a
    /// loaded machine.
    static let moveCheckDelay: UInt64 = 300_000

    /// Asks the server where our playback stream is; if it is on another
    /// device than `target` (the engine's choice), not a filter, asks again
    /// ``moveCheckDelay`` later, and if it is still there then, reports the
    /// user's move. Nothing when the engine chose no device, or a device
    /// that went away (then the server's rescue moved it), or when the
    /// engine chose another device meanwhile.
    private func confirmMoveAway(from target: EndpointID?, again: Bool = false) {
        guard !stopped, let target, sinks.values.contains(where: { $0.name == target.device }),
            let index = ownPlaybackIndex
        else { return }
        issue(PAListRequest<PASinkInputInfo>(
            onItem: { [unowned self] info in
                guard !stopped, info.index == ownPlaybackIndex, outputTarget == target, let now = sinks[info.sink],
                    now.name != target.device, !isFilter(now)
                else { return }
                if again {
                    emit(.streamMovedByUser(EndpointID(.output, device: now.name, port: now.activePort)))
                } else {
                    checkMoveAgain(from: target)
                }
            }, onEnd: { _ in })
        ) { context.getSinkInputs(index, $0) }
    }

    /// Arms the second look of ``confirmMoveAway(from:again:)`` (one at a time).
    private func checkMoveAgain(from target: EndpointID) {
        moveCheckTarget = target
        let timer = moveCheckTimer ?? PATimerBox { [unowned self] in
            confirmMoveAway(from: moveCheckTarget, again: true)
        }
        moveCheckTimer = timer
        if timer.event == nil { context.arm(timer, after: Self.moveCheckDelay) }
    }
}
