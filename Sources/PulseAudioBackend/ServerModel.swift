import SoundSession
import CPulseAudio
import SoundCore

/// What the server has, kept current by the subscription: sinks, sources
/// (and their ports), cards, sink inputs, source outputs, clients, the
/// default devices. Turns server events into coalesced ``SystemEvent``s for
/// the session policy and performs the policy's server-side actions on other
/// clients' streams and on the routing of ours.
///
/// Confinement: the model lives on the connection's *control* context and
/// loop (`SoundEngine-ctl`), never on the playback loop that renders. Every
/// method runs on that loop's thread (callbacks) or with its lock held (the
/// Connection's control calls). `emit` is called on that thread and must
/// return quickly. Our own streams belong to the playback context's client
/// (`ownClient`); moves and mutes work on them and on other clients' streams
/// by index, which any context may do.
///
/// Lifetime of callbacks: every libpulse request goes through `requests`
/// (a ``RequestRunner``), which keeps it until its final callback ran;
/// `stop()` cancels what is still in flight (`pa_operation_cancel`: libpulse
/// never calls it again), removes the subscribe callbacks and frees the
/// timers, so nothing can call into the model after `stop()`.
///
/// What it changes on other clients' streams it records in `holds` first
/// (ServerModel+Holds.swift), so a crash can be repaired.
final class ServerModel {
    let requests: RequestRunner
    let emit: (SystemEvent) -> Void
    /// What the engine holds changed on other streams (the backend's, across connections).
    let holds: HoldBook
    /// The server this model mirrors (its name says whether it is pipewire-pulse).
    let server: PAServerInfo
    /// Our own playback stream's restore key (see `BackendConfiguration.ownRestoreKey`).
    let ownRestoreKey: String

    var context: PAContext { requests.context }
    var mainloop: PAMainloop { requests.mainloop }

    /// Our playback stream's sink-input index once it exists (set again when
    /// the stream is re-created): never reported as another client's stream;
    /// its moves that the engine did not ask for become ``SystemEvent/streamMovedByUser(_:)``.
    var ownPlaybackIndex: UInt32? {
        didSet {
            ownPlaybackSink = nil
            pendingOutputMove = nil
            ownPlayback = nil
            ownMutedAt = nil
            ownMutedByCork = false
            if ownPlaybackIndex != nil { ownPlaybackSettles = .now + Self.linkSettle }
            if let index = ownPlaybackIndex, started { querySinkInput(index) }
        }
    }
    /// Our capture stream's source-output index, likewise.
    var ownCaptureIndex: UInt32? {
        didSet {
            ownCaptureSource = nil
            pendingInputMove = nil
            if let index = ownCaptureIndex, started { querySourceOutput(index) }
        }
    }

    // MARK: State (mainloop lock)

    /// Set by `start` once the snapshot is built; events are only emitted after it.
    var started = false
    /// Set by `stop`; nothing is issued or emitted afterwards.
    var stopped = false
    var ownClient: UInt32 = .max
    var serverName = ""
    var sinks: [UInt32: PADeviceInfo] = [:]
    var sources: [UInt32: PADeviceInfo] = [:]
    var cards: [UInt32: String] = [:]
    var modules: [UInt32: String] = [:]
    var defaultSinkName: String?
    var defaultSourceName: String?
    /// Other clients' sink inputs as last reported, as the policy sees them
    /// and as the server described them.
    var others: [UInt32: OtherStream] = [:]
    var otherInfos: [UInt32: PASinkInputInfo] = [:]
    /// Other streams whose mute and volume have not changed since they
    /// appeared: a restore database puts its saved state on a new stream at
    /// once (PulseAudio) or a moment later (WirePlumber).
    var fresh: Set<UInt32> = []
    /// Our playback stream as last reported, and whether its mute and volume
    /// are still those it appeared with.
    var ownPlayback: PASinkInputInfo?
    var ownPlaybackSince = ContinuousClock.now
    /// When the server last asked our playback stream to cork, and when our
    /// playback stream was last seen becoming muted: module-role-cork mutes a
    /// stream and asks it to cork in one go, so the two together mark the
    /// mute as the cork's (``ownMutedByCork``), not the user's.
    var lastCorkRequest: ContinuousClock.Instant?
    var ownMutedAt: ContinuousClock.Instant?
    /// Our playback stream is muted, and the mute is the server cork's:
    /// ``releaseCorkMute(deadline:)`` takes it back when the call is over.
    /// Cleared as soon as the stream is seen unmuted (by anyone).
    var ownMutedByCork = false
    /// The restore database, as this server offers it (ServerModel+Holds).
    var restoreDatabase = RestoreDatabaseAccess.none
    /// Keys to repair when the repair timer fires, and the timer.
    var keysToRepair: Set<String> = []
    var repairTimer: PATimerBox?
    /// Told when module-stream-restore's database changes (PulseAudio).
    var restoreWatch: PATimerBox?
    /// Entries repaired a moment ago, still recognised as the source of an
    /// echo until `until` (``echoGrace`` after the repair).
    var recentlyRepaired: [String: (repair: KeyRepair, until: ContinuousClock.Instant)] = [:]
    /// Streams the policy ducked before the server had given them a volume.
    var pendingDucks: Set<UInt32> = []
    /// The factor the policy ducks with (its last duck action's).
    var duckFactor = 0.2
    /// How long a repaired entry may still reach a new stream.
    static let echoGrace: Duration = .seconds(2)
    /// The device our playback (capture) stream was last seen on, by name.
    var ownPlaybackSink: String?
    /// Until when a move of our playback stream that the engine did not ask
    /// for is the session manager's, not the user's (``linkSettle``).
    var ownPlaybackSettles: ContinuousClock.Instant = .now + ServerModel.linkSettle
    var ownCaptureSource: String?
    /// A move of our stream seen since the last flush: where it was before the
    /// first move of the burst, where it is now. Judged at the flush, when the
    /// burst's device removals are known (a rescue move is not the user's).
    var pendingOutputMove: (from: String?, to: String)?
    var pendingInputMove: (from: String?, to: String)?
    /// What the policy selected last.
    var outputTarget: EndpointID?
    var inputTarget: EndpointID?
    /// A default endpoint the engine itself made current by switching a port:
    /// not the user's choice when a flush sees it, until then or until
    /// ``settleGrace`` after the switch (a burst of other events, our own
    /// stream's move, may be flushed while the switch is still on its way).
    var engineMadeDefault: [EndpointID: ContinuousClock.Instant] = [:]

    /// What the last `endpointsChanged` (or the snapshot) told the policy.
    var reportedEndpoints: [EndpointID: AudioEndpoint] = [:]
    var reportedDefaultOutput: EndpointID?
    var reportedDefaultInput: EndpointID?
    var reportedMutedInputs: Set<EndpointID> = []

    /// Coalescing (ServerModel+Coalescing.swift): the burst's timer, armed
    /// for the next loop iteration by each event and for the limit otherwise.
    var burstTimer: PATimerBox?
    /// A device-level event came that no barrier answered since.
    var burstUnconfirmed = false
    /// The barrier request (the server's info) is on its way.
    var barrierInFlight = false
    /// What recent flushes leave for later bursts to judge by.
    var aftermath = BurstAftermath()
    /// A move of our playback stream away from the engine's target, seen
    /// once, asked about again when this fires (``judgeMove``).
    var moveCheckTimer: PATimerBox?
    var moveCheckTarget: EndpointID?
    var burstStart: ContinuousClock.Instant?
    /// Device queries whose answers the flush should wait for (a little);
    /// only ``issueDeviceQuery(onItem:onEnd:_:)`` changes it.
    private(set) var deviceQueriesInFlight = 0

    var subscriber: PASubscriber?

    /// The flush runs when the server has told everything of the burst, but
    /// never later than this after its first event (a server that does not
    /// answer, or events that never stop).
    static let coalescingLimit: Duration = .milliseconds(90)
    /// How long after a flush what it saw still explains what follows: a
    /// default change to an endpoint that just appeared, or after the
    /// default went away, is the server's (or its session manager's, which
    /// acts a few ms after the server's own burst), and so is our stream
    /// following it. Far shorter than a person takes to react to a plug.
    static let settleGrace: Duration = .milliseconds(500)
    /// How long after our playback stream is created (or the connection made)
    /// a session manager may still move it on its own: WirePlumber links a
    /// new stream, restores its role's remembered target (which on 0.4 our
    /// own moves write, `Output/Audio:media.role:Music` being the music
    /// apps' key too; 0.5 honours our streams' `state.restore-target`), and re-links streams whose device a restart took away, all
    /// seconds late on a loaded machine while it starts. Such a move is
    /// corrected, never honoured as the user's: honoured, it pinned our
    /// stream to another application's sink for good (seen once in CI, seed
    /// 4 of the soak on pipewire-pulse: the game silent on the speaker after
    /// a server restart, its stream on the music app's sink). A person does
    /// not move a stream in a mixer within seconds of its appearing.
    static let linkSettle: Duration = .seconds(5)

    init(
        requests: RequestRunner, server: PAServerInfo, holds: HoldBook, ownRestoreKey: String,
        emit: @escaping (SystemEvent) -> Void
    ) {
        self.requests = requests
        self.server = server
        self.holds = holds
        self.ownRestoreKey = ownRestoreKey
        self.emit = emit
        serverName = server.serverName
    }

    // MARK: - Start

    /// Subscribes, loads every list and returns the snapshot. Lock held.
    func start(ownClient: UInt32, deadline: ContinuousClock.Instant) throws(SoundEngineError) -> SystemSnapshot {
        self.ownClient = ownClient
        let subscriber = PASubscriber { [weak self] facility, kind, index in self?.handle(facility, kind, index) }
        self.subscriber = subscriber
        context.setSubscriber(subscriber)

        var outstanding = 0
        var failures: [String] = []
        func done(_ what: String) -> (Bool) -> Void {
            outstanding += 1
            return { ok in
                outstanding -= 1
                if !ok { failures.append(what) }
            }
        }
        let subscribed = done("subscribe to its events")
        let issued = [
            issue(PASuccessRequest { ok, _, _ in subscribed(ok) }) { context.subscribeAll($0) },
            issue(PAListRequest<PAServerInfo>(onItem: { [unowned self] in serverInfo($0) }, onEnd: done("describe itself"))) {
                context.getServerInfo($0)
            },
            issue(PAListRequest<PACardInfo>(onItem: { [unowned self] in cards[$0.index] = $0.name }, onEnd: done("list its cards"))) {
                context.getCards(nil, $0)
            },
            issue(PAListRequest<PADeviceInfo>(onItem: { [unowned self] in sinks[$0.index] = $0 }, onEnd: done("list its sinks"))) {
                context.getSinks(nil, $0)
            },
            issue(PAListRequest<PADeviceInfo>(onItem: { [unowned self] in sources[$0.index] = $0 }, onEnd: done("list its sources"))) {
                context.getSources(nil, $0)
            },
            issue(PAListRequest<PASinkInputInfo>(onItem: { [unowned self] in sinkInputInfo($0) }, onEnd: done("list its streams"))) {
                context.getSinkInputs(nil, $0)
            },
            issue(PAListRequest<PAModuleInfo>(onItem: { [unowned self] in modules[$0.index] = $0.name }, onEnd: done("list its modules"))) {
                context.getModules($0)
            },
        ]
        guard issued.allSatisfy({ $0 }) else {
            throw .deviceNotReady("PulseAudio refused to describe its devices: \(context.lastError)")
        }
        let complete = requests.wait(deadline) { outstanding == 0 || !context.isGood }
        guard context.isGood else {
            throw .deviceNotReady("the connection to PulseAudio failed while listing its devices: \(context.lastError)")
        }
        guard complete else { throw .deviceNotReady("PulseAudio did not list its devices in time") }
        guard failures.isEmpty else {
            throw .fail("PulseAudio refused to \(failures.joined(separator: ", ")): \(context.lastError)")
        }

        let endpoints = currentEndpoints()
        reportedEndpoints = Dictionary(endpoints.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        reportedDefaultOutput = defaultEndpoint(.output)
        reportedDefaultInput = defaultEndpoint(.input)
        reportedMutedInputs = mutedInputs(endpoints)
        fresh = []  // streams already there are not new
        // The hold repair that ran before this model started wrote every key
        // we touched: the server may still hand a new stream our change (see
        // echoSource), recognised as for any repair.
        let until = ContinuousClock.now + Self.echoGrace
        for repair in holds.journal.touchedKeys { recentlyRepaired[repair.key] = (repair, until) }
        watchRestoreDatabase(deadline: deadline)
        started = true
        return SystemSnapshot(
            ownClient: ClientID(rawValue: ownClient), endpoints: endpoints, defaultOutput: reportedDefaultOutput,
            defaultInput: reportedDefaultInput, streams: others.keys.sorted().compactMap { others[$0] },
            mutedInputs: reportedMutedInputs)
    }

    /// The output the policy selected last (where a re-created playback
    /// stream should connect), `nil` for the server's default.
    var selectedOutput: EndpointID? { outputTarget }
    /// The input the policy selected last, `nil` for the server's default.
    var selectedInput: EndpointID? { inputTarget }

    /// Whether `filter.want=echo-cancel` will be honoured (module-filter-heuristics
    /// and module-filter-apply are loaded); `false` on pipewire-pulse.
    var echoCancellationAvailable: Bool {
        let loaded = Set(modules.values)
        return !serverName.contains("PipeWire") && loaded.contains("module-filter-heuristics")
            && loaded.contains("module-filter-apply")
    }

    // MARK: - Requests

    /// Issues a request through `requests` (kept until its final callback).
    @discardableResult
    func issue<R: PARequest>(_ request: R, _ call: (R) -> PAOperation?) -> Bool {
        requests.issue(request, call)
    }

    /// Issues a query whose answer the coalescing flush waits for (a device,
    /// every device, a card, the server's defaults): counted in
    /// ``deviceQueriesInFlight`` until its last answer, and not at all when
    /// libpulse refuses it (a context no longer ready, the model stopped) —
    /// else every later flush would wait the whole ``coalescingLimit``.
    /// Returns false when refused.
    @discardableResult
    func issueDeviceQuery<Info>(
        onItem: @escaping (Info) -> Void, onEnd: @escaping (Bool) -> Void = { _ in },
        _ call: (PAListRequest<Info>) -> PAOperation?
    ) -> Bool {
        deviceQueriesInFlight += 1
        let request = PAListRequest<Info>(onItem: onItem, onEnd: { [unowned self] ok in
            deviceQueriesInFlight -= 1
            onEnd(ok)
            // An answer after its burst was flushed at the limit opens a
            // burst of its own, to report what it brought.
            if burstStart == nil { deviceChanged() } else if deviceQueriesInFlight == 0 { advanceBurst() }
        })
        guard issue(request, call) else {
            deviceQueriesInFlight -= 1
            return false
        }
        return true
    }

    // MARK: - Subscription (mainloop thread)

    /// One subscription event (the subscribe callback; a test may call it to
    /// stand for the server).
    func handle(_ facility: PASubscriptionFacility, _ kind: PASubscriptionKind, _ index: UInt32) {
        guard !stopped else { return }
        switch facility {
        case .sink:
            if kind == .remove {
                sinks[index] = nil
                deviceChanged()
            } else {
                queryDevice(index, output: true)
            }
        case .source:
            if kind == .remove {
                sources[index] = nil
                deviceChanged()
            } else {
                queryDevice(index, output: false)
            }
        case .card:
            // A card change is how PulseAudio reports a port's availability
            // (a jack plugged) and a profile switch: re-read the card and every
            // device, since the ports of its sinks and sources may have changed.
            if kind == .remove {
                cards[index] = nil
            } else {
                requeryAllDevices()
                issueDeviceQuery(onItem: { [unowned self] (info: PACardInfo) in cards[info.index] = info.name }) {
                    context.getCards(index, $0)
                }
            }
        case .server:
            deviceChanged()
            issueDeviceQuery(onItem: { [unowned self] in serverInfo($0) }) { context.getServerInfo($0) }
        case .module:
            if kind == .remove {
                modules[index] = nil
            } else {
                issue(PAListRequest<PAModuleInfo>(onItem: { [unowned self] in modules[$0.index] = $0.name }, onEnd: { _ in })) {
                    context.getModules($0)
                }
            }
        case .sinkInput:
            if kind == .remove {
                sinkInputRemoved(index)
            } else {
                querySinkInput(index)
            }
        case .sourceOutput:
            // Other clients' capture streams do not matter to the policy; ours is watched for moves.
            guard index == ownCaptureIndex else { return }
            if kind == .remove {
                ownCaptureSource = nil
            } else {
                querySourceOutput(index)
            }
        case .client, .sampleCache, .other:
            break
        }
    }

    func serverInfo(_ info: PAServerInfo) {
        serverName = info.serverName
        defaultSinkName = info.defaultSink
        defaultSourceName = info.defaultSource
    }

    func queryDevice(_ index: UInt32, output: Bool) {
        deviceChanged()
        issueDeviceQuery(onItem: { [unowned self] (info: PADeviceInfo) in
            if output { sinks[info.index] = info } else { sources[info.index] = info }
        }) { output ? context.getSinks(index, $0) : context.getSources(index, $0) }
    }

    /// Re-reads every sink and source (after a card change); devices the
    /// answers no longer list are dropped.
    func requeryAllDevices() {
        deviceChanged()
        for output in [true, false] {
            var fresh: [UInt32: PADeviceInfo] = [:]
            issueDeviceQuery(
                onItem: { (info: PADeviceInfo) in fresh[info.index] = info },
                onEnd: { [unowned self] ok in
                    guard ok else { return }
                    if output { sinks = fresh } else { sources = fresh }
                }
            ) { output ? context.getSinks(nil, $0) : context.getSources(nil, $0) }
        }
    }

    func querySinkInput(_ index: UInt32) {
        issue(PAListRequest<PASinkInputInfo>(onItem: { [unowned self] in sinkInputInfo($0) }, onEnd: { _ in })) {
            context.getSinkInputs(index, $0)
        }
    }

    func querySourceOutput(_ index: UInt32) {
        issue(PAListRequest<PASourceOutputInfo>(onItem: { [unowned self] in sourceOutputInfo($0) }, onEnd: { _ in })) {
            context.getSourceOutput(index, $0)
        }
    }

    func sinkInputInfo(_ info: PASinkInputInfo) {
        guard !stopped else { return }
        if info.client == ownClient {
            // Ours: never another client's stream. Watch the playback stream's sink.
            if info.index == ownPlaybackIndex {
                if let sink = sinks[info.sink]?.name { ownStreamSeen(on: sink, output: true) }
                ownPlaybackChanged(info)
            }
            return
        }
        otherStreamChanged(info)
        let stream = OtherStream(
            id: StreamID(rawValue: info.index), client: ClientID(rawValue: info.client ?? paInvalidIndex),
            role: info.role.map(MediaRole.init(rawValue:)), isRunning: !info.corked, isMuted: info.muted)
        guard others[info.index] != stream else { return }  // a volume change or the like: nothing the policy sees
        others[info.index] = stream
        if started { emit(.otherStreamChanged(stream)) }
    }

    func sinkInputRemoved(_ index: UInt32) {
        otherStreamRemoved(index)
        guard others.removeValue(forKey: index) != nil, started else { return }
        emit(.otherStreamRemoved(StreamID(rawValue: index)))
    }

    func sourceOutputInfo(_ info: PASourceOutputInfo) {
        guard !stopped, info.index == ownCaptureIndex, let source = sources[info.source]?.name else { return }
        ownStreamSeen(on: source, output: false)
    }

    /// Our stream is on `device`: the first sighting is recorded; a change is a
    /// move, judged at the next flush (see `judgeMove`).
    func ownStreamSeen(on device: String, output: Bool) {
        let last = output ? ownPlaybackSink : ownCaptureSource
        guard let last else {
            if output { ownPlaybackSink = device } else { ownCaptureSource = device }
            return
        }
        guard last != device else { return }
        // Judged at the flush, from where the stream was to where it is now:
        // pipewire-pulse may report a stale sink in between.
        if output {
            pendingOutputMove = (from: pendingOutputMove?.from ?? last, to: device)
            ownPlaybackSink = device
        } else {
            pendingInputMove = (from: pendingInputMove?.from ?? last, to: device)
            ownCaptureSource = device
        }
        deviceChanged()
    }

    // MARK: - Stop

    /// Unsubscribes and cancels pending timers and operations. Lock held, before the context disconnects.
    func stop() {
        guard !stopped else { return }
        stopped = true
        context.setSubscriber(nil)
        subscriber = nil
        for timer in [burstTimer, repairTimer, moveCheckTimer].compactMap(\.self) {
            PAContext.cancelTimer(timer, mainloop: mainloop)
        }
        burstTimer = nil
        repairTimer = nil
        moveCheckTimer = nil
        stopWatchingRestoreDatabase()
        requests.stop()
    }
}
