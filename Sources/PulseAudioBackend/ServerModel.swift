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
/// Lifetime of callbacks: every libpulse request carries an object the model
/// keeps in `pending` until its final callback ran; `stop()` cancels what is
/// still in flight (`pa_operation_cancel`: libpulse never calls it again),
/// removes the subscribe callback and frees the coalescing timer, so nothing
/// can call into the model after `stop()`.
final class ServerModel {
    /// Waits with the mainloop lock held until the condition holds or the
    /// deadline passes; returns whether it held (the Connection's waitLocked).
    typealias Wait = (ContinuousClock.Instant, () -> Bool) -> Bool

    let context: PAContext
    let mainloop: PAMainloop
    let emit: (SystemEvent) -> Void
    let wait: Wait

    /// Our playback stream's sink-input index once it exists (set again when
    /// the stream is re-created): never reported as another client's stream;
    /// its moves that the engine did not ask for become ``SystemEvent/streamMovedByUser(_:)``.
    var ownPlaybackIndex: UInt32? {
        didSet {
            ownPlaybackSink = nil
            pendingOutputMove = nil
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
    private var started = false
    /// Set by `stop`; nothing is issued or emitted afterwards.
    private var stopped = false
    private var ownClient: UInt32 = .max
    private var serverName = ""
    private var sinks: [UInt32: PADeviceInfo] = [:]
    private var sources: [UInt32: PADeviceInfo] = [:]
    private var cards: [UInt32: String] = [:]
    private var modules: [UInt32: String] = [:]
    private var defaultSinkName: String?
    private var defaultSourceName: String?
    /// Other clients' sink inputs as last reported.
    private var others: [UInt32: OtherStream] = [:]
    /// The device our playback (capture) stream was last seen on, by name.
    private var ownPlaybackSink: String?
    private var ownCaptureSource: String?
    /// A move of our stream seen since the last flush: where it was before the
    /// first move of the burst, where it is now. Judged at the flush, when the
    /// burst's device removals are known (a rescue move is not the user's).
    private var pendingOutputMove: (from: String?, to: String)?
    private var pendingInputMove: (from: String?, to: String)?
    /// What the policy selected last.
    private var outputTarget: EndpointID?
    private var inputTarget: EndpointID?
    /// A default endpoint the engine itself made current by switching a port:
    /// not the user's choice when the flush sees it.
    private var engineMadeDefault: Set<EndpointID> = []
    /// Streams we ducked: the volume found, and the volume we set.
    private var ducked: [UInt32: (original: PAVolume, set: PAVolume)] = [:]

    /// What the last `endpointsChanged` (or the snapshot) told the policy.
    private var reportedEndpoints: [EndpointID: AudioEndpoint] = [:]
    private var reportedDefaultOutput: EndpointID?
    private var reportedDefaultInput: EndpointID?
    private var reportedMutedInputs: Set<EndpointID> = []

    /// Coalescing: the timer armed by the first event of a burst.
    private var flushTimer: PATimerBox?
    private var burstStart: ContinuousClock.Instant?
    /// Device queries whose answers the flush should wait for (a little);
    /// only ``issueDeviceQuery(onItem:onEnd:_:)`` changes it.
    private(set) var deviceQueriesInFlight = 0

    /// Requests libpulse may still call back, by identity.
    private var pending: [ObjectIdentifier: PARequest] = [:]
    private var subscriber: PASubscriber?

    /// The flush runs this long after the first event of a burst.
    static let coalescingDelay: UInt64 = 60_000  // µs
    /// If device answers are still missing then, it waits for them up to this long after the first event.
    static let coalescingLimit: Duration = .milliseconds(90)

    init(context: PAContext, mainloop: PAMainloop, wait: @escaping Wait, emit: @escaping (SystemEvent) -> Void) {
        self.context = context
        self.mainloop = mainloop
        self.wait = wait
        self.emit = emit
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
            issue(PAListRequest<PAServerDefaults>(onItem: { [unowned self] in serverInfo($0) }, onEnd: done("describe itself"))) {
                context.getServerDefaults($0)
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
        let complete = wait(deadline) { outstanding == 0 || !context.isGood }
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

    /// Issues a request and keeps it (and so its userdata) alive until its
    /// final callback ran. Returns false when libpulse refused at once.
    @discardableResult
    private func issue<R: PARequest>(_ request: R, _ call: (R) -> PAOperation?) -> Bool {
        guard !stopped, let op = call(request) else { return false }
        request.operation = op
        let key = ObjectIdentifier(request)
        pending[key] = request
        request.onFinish = { [unowned self] in
            pending[key]?.operation?.unref()
            pending[key] = nil
            // A control thread may be waiting for this answer (start, perform).
            mainloop.signal()
        }
        return true
    }

    /// Issues a query whose answer the coalescing flush waits for (a device,
    /// every device, the server's defaults): counted in
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
                issue(PAListRequest<PACardInfo>(onItem: { [unowned self] in cards[$0.index] = $0.name }, onEnd: { _ in })) {
                    context.getCards(index, $0)
                }
                requeryAllDevices()
            }
        case .server:
            deviceChanged()
            issueDeviceQuery(onItem: { [unowned self] in serverInfo($0) }) { context.getServerDefaults($0) }
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

    private func serverInfo(_ info: PAServerDefaults) {
        serverName = info.serverName
        defaultSinkName = info.defaultSink
        defaultSourceName = info.defaultSource
    }

    private func queryDevice(_ index: UInt32, output: Bool) {
        deviceChanged()
        issueDeviceQuery(onItem: { [unowned self] (info: PADeviceInfo) in
            if output { sinks[info.index] = info } else { sources[info.index] = info }
        }) { output ? context.getSinks(index, $0) : context.getSources(index, $0) }
    }

    /// Re-reads every sink and source (after a card change); devices the
    /// answers no longer list are dropped.
    private func requeryAllDevices() {
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

    private func querySinkInput(_ index: UInt32) {
        issue(PAListRequest<PASinkInputInfo>(onItem: { [unowned self] in sinkInputInfo($0) }, onEnd: { _ in })) {
            context.getSinkInputs(index, $0)
        }
    }

    private func querySourceOutput(_ index: UInt32) {
        issue(PAListRequest<PASourceOutputInfo>(onItem: { [unowned self] in sourceOutputInfo($0) }, onEnd: { _ in })) {
            context.getSourceOutput(index, $0)
        }
    }

    private func sinkInputInfo(_ info: PASinkInputInfo) {
        guard !stopped else { return }
        if info.client == ownClient {
            // Ours: never another client's stream. Watch the playback stream's sink.
            if info.index == ownPlaybackIndex, let sink = sinks[info.sink]?.name { ownStreamSeen(on: sink, output: true) }
            return
        }
        let stream = OtherStream(
            id: StreamID(rawValue: info.index), client: ClientID(rawValue: info.client ?? paInvalidIndex),
            role: info.role.map(MediaRole.init(rawValue:)), isRunning: !info.corked, isMuted: info.muted)
        guard others[info.index] != stream else { return }  // a volume change or the like: nothing the policy sees
        others[info.index] = stream
        if started { emit(.otherStreamChanged(stream)) }
    }

    private func sinkInputRemoved(_ index: UInt32) {
        ducked[index] = nil
        guard others.removeValue(forKey: index) != nil, started else { return }
        emit(.otherStreamRemoved(StreamID(rawValue: index)))
    }

    private func sourceOutputInfo(_ info: PASourceOutputInfo) {
        guard !stopped, info.index == ownCaptureIndex, let source = sources[info.source]?.name else { return }
        ownStreamSeen(on: source, output: false)
    }

    /// Our stream is on `device`: the first sighting is recorded; a change is a
    /// move, judged at the next flush (see `judgeMove`).
    private func ownStreamSeen(on device: String, output: Bool) {
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

    // MARK: - Coalescing

    /// Notes a device-level event: the first of a burst arms the flush timer.
    private func deviceChanged() {
        guard !stopped, flushTimer?.event == nil else { return }
        let timer = flushTimer ?? PATimerBox { [unowned self] in flush() }
        flushTimer = timer
        burstStart = .now
        context.arm(timer, after: Self.coalescingDelay)
    }

    /// Compares what the server has now with what the policy was told and
    /// reports the difference as one `endpointsChanged`, then default changes
    /// and moves of our streams.
    private func flush() {
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
    private func judgeMove(from: String?, to: String, output: Bool) {
        let devices = output ? sinks : sources
        let target = output ? outputTarget : inputTarget
        guard let device = devices.values.first(where: { $0.name == to }) else { return }
        if from == to {
            // Back where it was within one burst is no move — unless that is
            // not where the engine put it (the engine's move and the user's
            // move back fell into one window). Reports can be stale
            // (pipewire-pulse, a rescue racing our move): ask the server
            // where the stream is now and judge that answer.
            // A target that went away was a rescue by the server, and an
            // engine move since the judgement makes the answer moot.
            guard output, let target, target.device != to, devices.values.contains(where: { $0.name == target.device }),
                let index = ownPlaybackIndex
            else { return }
            issue(PAListRequest<PASinkInputInfo>(
                onItem: { [unowned self] info in
                    guard !stopped, info.index == ownPlaybackIndex, outputTarget == target, let now = sinks[info.sink],
                        now.name != target.device, !isFilter(now)
                    else { return }
                    emit(.streamMovedByUser(EndpointID(.output, device: now.name, port: now.activePort)))
                }, onEnd: { _ in })
            ) { context.getSinkInputs(index, $0) }
            return
        }
        let oldGone = from.map { name in !devices.values.contains { $0.name == name } } ?? true
        let defaultName = output ? defaultSinkName : defaultSourceName
        if oldGone || isFilter(device) || target?.device == to || (target == nil && to == defaultName) { return }
        emit(.streamMovedByUser(EndpointID(output ? .output : .input, device: to, port: device.activePort)))
    }

    // MARK: - Endpoints

    /// An echo canceller module-filter-apply put between our streams and a
    /// device (module-echo-cancel: `NAME.echo-cancel`, class filter, intended
    /// for phone): the route stays the master device. Other filter devices
    /// (a remap source the user made a microphone of) are devices of their own.
    private func isFilter(_ device: PADeviceInfo) -> Bool {
        let p = device.properties
        guard p["device.class"] == "filter" || p["device.master_device"] != nil else { return false }
        return device.name.hasSuffix(".echo-cancel")
            || (p["device.intended_roles"] ?? "").split(separator: " ").contains("phone")
    }

    /// The input endpoints among `endpoints` whose source is muted.
    private func mutedInputs(_ endpoints: [AudioEndpoint]) -> Set<EndpointID> {
        let mutedSources = Set(sources.values.filter(\.muted).map(\.name))
        return Set(endpoints.map(\.id).filter { $0.direction == .input && mutedSources.contains($0.device) })
    }

    /// Every endpoint, oldest device first (by index), outputs then inputs.
    private func currentEndpoints() -> [AudioEndpoint] {
        let outputs = sinks.keys.sorted().compactMap { sinks[$0] }.filter { !isFilter($0) }
            .flatMap { endpoints(of: $0, .output) }
        let inputs = sources.keys.sorted().compactMap { sources[$0] }.filter { $0.monitorOfSink == nil && !isFilter($0) }
            .flatMap { endpoints(of: $0, .input) }
        return outputs + inputs
    }

    /// A device's endpoints: one per port that is not known to be unplugged,
    /// or one for the device when it has no ports.
    private func endpoints(of device: PADeviceInfo, _ direction: EndpointDirection) -> [AudioEndpoint] {
        let accessory = accessory(of: device)
        if device.ports.isEmpty {
            let type = classifyPort(PortFacts(direction: direction, properties: device.properties, hasCard: device.card != nil))
            return [AudioEndpoint(id: EndpointID(direction, device: device.name), portType: type, name: device.description,
                                  accessory: accessory)]
        }
        return device.ports.filter { $0.availability != .no }.map { port in
            let type = classifyPort(PortFacts(
                direction: direction, portType: port.type, portName: port.name, properties: device.properties,
                hasCard: device.card != nil))
            return AudioEndpoint(
                id: EndpointID(direction, device: device.name, port: port.name), portType: type,
                name: port.description.isEmpty ? device.description : "\(device.description) – \(port.description)",
                accessory: accessory)
        }
    }

    /// What a device's output and input share: its card, or the bus path,
    /// Bluetooth address or device string.
    private func accessory(of device: PADeviceInfo) -> String? {
        if let card = device.card, let name = cards[card] { return name }
        let p = device.properties
        return p["device.bus_path"] ?? p["api.bluez5.address"] ?? p["bluez.path"] ?? p["device.string"]
    }

    /// The server's default sink or source and its active port; a filter's
    /// master device stands for the filter; nil for a monitor or an unknown device.
    private func defaultEndpoint(_ direction: EndpointDirection) -> EndpointID? {
        let devices = direction == .output ? sinks : sources
        guard let name = direction == .output ? defaultSinkName : defaultSourceName,
            var device = devices.values.first(where: { $0.name == name })
        else { return nil }
        if isFilter(device), let master = device.properties["device.master_device"],
            let masterDevice = devices.values.first(where: { $0.name == master })
        {
            device = masterDevice
        }
        guard device.monitorOfSink == nil else { return nil }
        return EndpointID(direction, device: device.name, port: device.activePort)
    }

    // MARK: - Actions (control thread, lock held)

    /// The answer to one control call.
    private final class Outcome {
        var done = false
        var ok = false
        var error = ""
        var gone = false
    }

    /// Issues a control call; its outcome fills in when the server answers.
    private func submit(_ call: (PASuccessRequest) -> PAOperation?) -> Outcome {
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
    private func awaitAll(_ done: () -> Bool, deadline: ContinuousClock.Instant, _ what: String) throws(SoundEngineError) {
        let answered = wait(deadline) { done() || !context.isGood }
        guard context.isGood else {
            throw .mediaServicesFailed("the connection to PulseAudio was lost while asking it to \(what)")
        }
        guard answered else { throw .fail("PulseAudio did not answer in time when asked to \(what)") }
    }

    /// Runs one control call to completion; throws with the server's reason when it refused.
    private func run(_ what: String, deadline: ContinuousClock.Instant, _ call: (PASuccessRequest) -> PAOperation?) throws(SoundEngineError) {
        let outcome = submit(call)
        try awaitAll({ outcome.done }, deadline: deadline, what)
        guard outcome.ok else { throw .fail("PulseAudio refused to \(what): \(outcome.error)") }
    }

    /// Fresh volumes of these sink inputs (streams that are gone are absent).
    private func currentVolumes(_ ids: [StreamID], deadline: ContinuousClock.Instant) throws(SoundEngineError) -> [UInt32: PAVolume] {
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
    private func select(_ id: EndpointID, output: Bool, deadline: ContinuousClock.Instant) throws(SoundEngineError) {
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

    private func setMute(_ ids: [StreamID], _ muted: Bool, deadline: ContinuousClock.Instant) throws(SoundEngineError) {
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
    private func duck(_ ids: [StreamID], factor: Double, deadline: ContinuousClock.Instant) throws(SoundEngineError) {
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
    private func unduck(_ ids: [StreamID], deadline: ContinuousClock.Instant) throws(SoundEngineError) {
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

    // MARK: - Stop

    /// Unsubscribes and cancels pending timers and operations. Lock held, before the context disconnects.
    func stop() {
        guard !stopped else { return }
        stopped = true
        context.setSubscriber(nil)
        subscriber = nil
        if let timer = flushTimer { PAContext.cancelTimer(timer, mainloop: mainloop) }
        flushTimer = nil
        for request in pending.values {
            request.onFinish = nil
            if let op = request.operation {
                if op.isRunning { op.cancel() }
                op.unref()
            }
            request.operation = nil
        }
        pending = [:]
    }
}
