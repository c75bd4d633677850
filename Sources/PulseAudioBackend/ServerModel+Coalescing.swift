import CPulseAudio
import SoundCore
import SoundSession

/// What a flush leaves for the bursts after it, each entry until
/// ``ServerModel/settleGrace`` after the flush that made it: what the server
/// (or its session manager) does a little later because of what that flush
/// reported is judged as the burst's, not the user's.
struct BurstAftermath {
    /// Endpoints a flush reported new: a default change to one is the server's.
    var appeared: [EndpointID: ContinuousClock.Instant] = [:]
    /// Directions whose reported default went away: a default change is the server's fallback.
    var defaultLost: [EndpointDirection: ContinuousClock.Instant] = [:]
    /// Directions whose default the server (or the engine) moved: our stream
    /// moving onto that default follows it, and is not the user's move.
    var defaultMovedByServer: [EndpointDirection: ContinuousClock.Instant] = [:]

    mutating func forgetExpired(at now: ContinuousClock.Instant) {
        appeared = appeared.filter { $0.value > now }
        defaultLost = defaultLost.filter { $0.value > now }
        defaultMovedByServer = defaultMovedByServer.filter { $0.value > now }
    }

    /// Whether nothing is remembered any more at `now`.
    func isSettled(at now: ContinuousClock.Instant) -> Bool {
        let until = Array(appeared.values) + Array(defaultLost.values) + Array(defaultMovedByServer.values)
        return !until.contains { $0 > now }
    }
}

/// Coalescing: one physical change (a jack plugged: card, sink, server and
/// module events) becomes one `endpointsChanged`, then default changes and
/// moves of our streams, judged when the server has told everything of the
/// burst.
///
/// The end of a burst is found with a barrier: once every query the burst's
/// events started has been answered, the model asks for the server's info on
/// the same connection. The server answers its client in order, and sends
/// each event before any reply it makes later, so when that answer comes
/// every event the server sent before it has been delivered (and its query
/// issued and, with the next barrier, answered). No device-level event since
/// the barrier was sent: the burst is over and the model flushes. Another
/// event came: it waits for that event's queries and sends another barrier.
/// ``coalescingLimit`` after the first event it flushes whatever it has.
///
/// What comes later still (pipewire-pulse: WirePlumber sets the new default
/// or relinks our stream a few ms after the server's own burst, outside it)
/// is a new burst, judged with what the last flushes saw (``BurstAftermath``).
extension ServerModel {
    /// Notes a device-level event: the burst goes on, and is looked at again
    /// in the next loop iteration (after the event's queries are issued).
    func deviceChanged() {
        guard !stopped else { return }
        burstUnconfirmed = true
        if burstStart == nil { burstStart = .now }
        armBurstTimer(after: 0)
    }

    /// Moves the burst on: sends the barrier once every query is answered,
    /// flushes when a barrier came back with nothing new since it was sent,
    /// or when the limit has passed. Runs on the burst timer, when the last
    /// device query is answered and when the barrier is.
    func advanceBurst() {
        guard !stopped, let start = burstStart else { return }
        let elapsed = ContinuousClock.now - start
        if elapsed >= Self.coalescingLimit { return flush() }
        if deviceQueriesInFlight == 0 && !barrierInFlight {
            guard burstUnconfirmed else { return flush() }
            burstUnconfirmed = false
            barrierInFlight = true
            let sent = issue(PAListRequest<PAServerInfo>(
                onItem: { [unowned self] in serverInfo($0) },
                onEnd: { [unowned self] _ in
                    barrierInFlight = false
                    advanceBurst()
                })
            ) { context.getServerInfo($0) }
            guard sent else {
                barrierInFlight = false
                return flush()  // refused: the connection is going; nothing more will come
            }
        }
        // Answers on their way: they move it on, the limit at the latest.
        let left = Self.coalescingLimit - elapsed
        armBurstTimer(after: UInt64(left.components.seconds) * 1_000_000 + UInt64(left.components.attoseconds / 1_000_000_000_000))
    }

    /// (Re-)arms the burst timer `microseconds` from now.
    private func armBurstTimer(after microseconds: UInt64) {
        let timer = burstTimer ?? PATimerBox { [unowned self] in advanceBurst() }
        burstTimer = timer
        PAContext.cancelTimer(timer, mainloop: mainloop)
        context.arm(timer, after: microseconds)
    }

    /// Compares what the server has now with what the policy was told and
    /// reports the difference as one `endpointsChanged`, then default changes
    /// and moves of our streams.
    func flush() {
        guard !stopped else { return }
        if let timer = burstTimer { PAContext.cancelTimer(timer, mainloop: mainloop) }
        burstStart = nil
        burstUnconfirmed = false
        guard started else { return }  // start() reports the state as of its end itself
        let now = ContinuousClock.now
        let settles = now + Self.settleGrace
        aftermath.forgetExpired(at: now)
        engineMadeDefault = engineMadeDefault.filter { $0.value > now }

        let current = currentEndpoints()
        let currentIDs = Set(current.map(\.id))
        let appeared = current.filter { reportedEndpoints[$0.id] != $0 }
        let disappeared = reportedEndpoints.keys.filter { !currentIDs.contains($0) }.sorted()
        let newlyPresent = Set(appeared.map(\.id).filter { reportedEndpoints[$0] == nil })
        reportedEndpoints = Dictionary(current.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        for id in newlyPresent { aftermath.appeared[id] = settles }
        for id in disappeared { aftermath.appeared[id] = nil }
        if !appeared.isEmpty || !disappeared.isEmpty {
            emit(.endpointsChanged(appeared: appeared, disappeared: disappeared))
        }

        // Defaults. A change of the server's default is the user's choice
        // unless it follows from this burst or one just before it:
        //  - the old default endpoint went away (the server picked a fallback),
        //    now or a moment ago;
        //  - the new default endpoint appeared now or a moment ago (a device
        //    plugged in, or a jack's port became available, and the server or
        //    its session manager switched to it);
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
            let oldWentAway = old.map { disappearedSet.contains($0) || !currentIDs.contains($0) } ?? false
            if oldWentAway { aftermath.defaultLost[direction] = settles }
            guard let new else { continue }
            let engineMade = engineMadeDefault.removeValue(forKey: new) != nil
            let serverMade = oldWentAway || newlyPresent.contains(new) || aftermath.appeared[new] != nil
                || aftermath.defaultLost[direction] != nil
            if serverMade || engineMade {
                defaultFollowed.insert(direction)
                aftermath.defaultMovedByServer[direction] = settles
                continue
            }
            emit(direction == .output ? .defaultOutputChanged(new) : .defaultInputChanged(new))
        }
        // A default that moved a moment ago, in a burst of its own: our
        // stream follows it now (WirePlumber relinks it after the switch).
        defaultFollowed.formUnion(aftermath.defaultMovedByServer.keys)

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
        if output, ContinuousClock.now < ownPlaybackSettles {
            // The session manager's linking or restore, while the stream is
            // new: put it back where the engine wants it (no target yet: the
            // policy's first selection moves it).
            if let target { moveBack(to: target) }
            return
        }
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
                    if ContinuousClock.now < ownPlaybackSettles {
                        moveBack(to: target)
                    } else {
                        emit(.streamMovedByUser(EndpointID(.output, device: now.name, port: now.activePort)))
                    }
                } else {
                    checkMoveAgain(from: target)
                }
            }, onEnd: { _ in })
        ) { context.getSinkInputs(index, $0) }
    }

    /// Moves our playback stream back to `target`, the engine's choice, after
    /// a move that was not the user's (``linkSettle``). Fire and forget: a
    /// refused move leaves the stream where it is, as before.
    private func moveBack(to target: EndpointID) {
        guard !stopped, let index = ownPlaybackIndex, sinks.values.contains(where: { $0.name == target.device }) else { return }
        _ = issue(PASuccessRequest { _, _, _ in }) { context.moveSinkInput(index, toSink: target.device, $0) }
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
