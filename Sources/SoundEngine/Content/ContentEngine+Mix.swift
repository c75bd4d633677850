import Foundation
import SoundContent
import SoundCore
import SoundMixer

/// Composing levels (docs/content-engine.md, "How levels are composed") and
/// sending what changed to the mixer.
///
/// Voice volume dB = sound + containers on its path + setVolume offsets +
/// RTPC volume bindings + attenuation; pitch cents = sound + containers +
/// RTPC; low-pass = the lowest cut-off of the RTPC bindings and the
/// attenuation. Bus volume dB = the bank's + state offsets + busVolume RTPCs
/// (global values) + setBusVolume offsets + ducking.
/// How much of the mix a change can have moved (``ContentEngine/refresh(_:_:)``).
enum RefreshScope {
    /// Anything: every bus and voice is recomputed.
    case all
    /// Only voices started, stopped, paused or resumed.
    case startedVoices
}

extension ContentEngine {
    /// Brings the mixer in line with the state: ducking rules follow what
    /// plays, every bus and voice whose level changed is sent its new one,
    /// and a tick is queued while anything moves. Under the lock.
    ///
    /// `.startedVoices` (an event that only started, stopped, paused or
    /// resumed voices): a started voice was sent its mix as it started, and
    /// nothing any other voice or bus depends on changed — unless the new
    /// voice engages a ducking rule, an action changed a level, or a command
    /// of the last refresh is owed; then this is a full refresh. The cost of
    /// a plain post no longer grows with the voices, buses and game objects
    /// (docs/performance.md, "Call time").
    ///
    /// Returns whether voices were started since the last refresh: the
    /// caller wakes an idle-corked stream (``Playback/voiceQueued()``) once
    /// it has released the lock.
    @discardableResult
    func refresh(_ s: inout ContentState, _ scope: RefreshScope = .all) -> Bool {
        let started = !s.started.isEmpty
        defer { s.started.removeAll(keepingCapacity: true) }
        if scope == .startedVoices, !s.levelsChanged, !s.sendOwed, !startsDucking(s) { return started }
        s.levelsChanged = false
        s.sendOwed = false
        let now = ContinuousClock.now
        updateDucking(&s, now: now)
        let ramp = mixer.frames(Self.tick)
        for (id, entry) in s.buses {
            let volume = Self.linear(busVolumeDB(id, s, now: now))
            if let sent = s.busSent[id], abs(sent - volume) <= 1e-6 { continue }
            do {
                try mixer.setBusVolume(entry.bus, volume, rampFrames: ramp)
                s.busSent[id] = volume
            } catch {
                log.log(.debug, "bus '\(entry.name)' volume: \(error)")  // retried next refresh
                s.sendOwed = true
            }
        }
        sendEffectParameters(&s, now: now, ramp: ramp)
        for token in Array(s.voices.keys) {
            guard var v = s.voices[token] else { continue }
            let target = mix(v, s, now: now)
            if !send(&v, target, ramp: ramp) { s.sendOwed = true }
            s.voices[token] = v
        }
        scheduleTickIfMoving(&s, now: now)
        return started
    }

    /// Sends every RTPC-bound effect parameter whose value moved: the curve
    /// at the RTPC's global value, in the engine's units, clamped to the
    /// parameter's range, ramped over `ramp`.
    private func sendEffectParameters(_ s: inout ContentState, now: ContinuousClock.Instant, ramp: Int) {
        for (bus, bindings) in s.effectBindings {
            guard let entry = s.buses[bus] else { continue }
            for binding in bindings {
                let raw = Float(binding.curve.value(at: rtpcValue(binding.rtpc, nil, s, now: now))) * binding.scale
                let value = min(binding.range.upperBound, max(binding.range.lowerBound, raw))
                let key = EffectBinding.Key(bus: bus, slot: binding.slot, parameter: binding.parameter)
                if let sent = s.effectSent[key], abs(sent - value) <= 1e-6 * max(1, abs(value)) { continue }
                do throws(SoundEngineError) {
                    try mixer.setBusEffectParameter(
                        entry.bus, index: binding.slot, parameter: binding.parameter, value: value, rampFrames: ramp)
                    s.effectSent[key] = value
                } catch .commandQueueFull(let why) {
                    log.log(.debug, "bus '\(entry.name)' effect \(binding.slot): \(why)")  // retried next refresh
                    s.sendOwed = true
                } catch {
                    // The game put another effect (or none) in the slot: nothing to drive until it changes.
                    log.log(.debug, "bus '\(entry.name)' effect \(binding.slot): \(error)")
                    s.effectSent[key] = value
                }
            }
        }
    }

    /// Whether a voice started since the last refresh plays through a bus
    /// whose ducking rule is not engaged yet.
    private func startsDucking(_ s: ContentState) -> Bool {
        for token in s.started {
            var bus: ContentID? = s.voices[token]?.bus
            var depth = 0  // a bound, should a bus ever name itself as an ancestor
            while let b = bus, depth < 64 {
                guard let entry = s.buses[b] else { break }
                if let rules = entry.definition?.ducking, !rules.isEmpty,
                    s.ducking[DuckKey(owner: b, index: 0)]?.engaged != true
                {
                    return true
                }
                bus = entry.parent
                depth += 1
            }
        }
        return false
    }

    /// Sends the parts of `target` that differ from what the voice was told;
    /// false when a command was refused and must be sent again.
    private func send(_ v: inout ContentVoice, _ target: VoiceMix, ramp: Int) -> Bool {
        do throws(SoundEngineError) {
            if abs(target.volume - v.sent.volume) > 1e-6 || abs(target.pan - v.sent.pan) > 1e-6
                || !Self.samePlacement(target.placement, v.sent.placement)
            {
                try mixer.setPlacement(
                    v.voice, volume: target.volume, pan: target.pan, placement: target.placement, rampFrames: ramp)
                v.sent.volume = target.volume
                v.sent.pan = target.pan
                v.sent.placement = target.placement
            }
            if abs(target.pitch / v.sent.pitch - 1) > 1e-9 {
                try mixer.setPitch(v.voice, target.pitch)
                v.sent.pitch = target.pitch
            }
            if target.lowPassHz != v.sent.lowPassHz {
                try mixer.setLowPass(v.voice, cutoffHz: target.lowPassHz, rampFrames: ramp)
                v.sent.lowPassHz = target.lowPassHz
            }
            if target.sends != v.sent.sends { try sendSends(&v, target.sends, ramp: ramp) }
        } catch .idNotFound {
            // The voice ended; its completion is on its way.
        } catch {
            log.log(.debug, "\(v.voice): \(error)")  // a full queue: retried next refresh
            return false
        }
        return true
    }

    /// Moves the voice's aux sends to `targets`: a bus it already sends to
    /// keeps its send index (its gain ramps); a send no longer wanted ramps
    /// to 0 and frees its index; a new bus takes a free index. Updates
    /// `v.sent.sends` as each command is accepted.
    private func sendSends(_ v: inout ContentVoice, _ targets: [ContentID: VoiceSendTarget], ramp: Int)
        throws(SoundEngineError)
    {
        var fading: Set<Int> = []  // not reused now: a new bus would cut the fade short
        for k in v.sendSlots.indices {
            guard let id = v.sendSlots[k], targets[id] == nil, let old = v.sent.sends[id] else { continue }
            try mixer.setSend(v.voice, index: k, bus: old.bus, gain: 0, rampFrames: ramp)
            v.sent.sends[id] = nil
            v.sendSlots[k] = nil
            fading.insert(k)
        }
        for (id, target) in targets.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where v.sent.sends[id] != target {
            let free = v.sendSlots.indices.filter { v.sendSlots[$0] == nil }
            guard let k = v.sendSlots.firstIndex(of: id) ?? free.first(where: { !fading.contains($0) }) ?? free.first
            else { continue }
            try mixer.setSend(v.voice, index: k, bus: target.bus, gain: target.gain, rampFrames: ramp)
            v.sendSlots[k] = id
            v.sent.sends[id] = target
        }
    }

    /// What a voice should be told now.
    func mix(_ v: ContentVoice, _ s: ContentState, now: ContinuousClock.Instant) -> VoiceMix {
        var db = v.baseVolumeDB, cents = v.basePitchCents, sendDB = 0.0
        var lowPass: Double?
        for object in v.path {
            db += s.volumeOffsets[OffsetKey(object: object, gameObject: nil)]?.value(at: now) ?? 0
            db += s.volumeOffsets[OffsetKey(object: object, gameObject: v.gameObject)]?.value(at: now) ?? 0
            for binding in s.objectBindings[object] ?? [] {
                let y = binding.curve.value(at: rtpcValue(binding.rtpc, v.gameObject, playing: v.playing, s, now: now))
                switch binding.parameter {
                case .volume: db += y
                case .pitch: cents += y
                case .lowPass: lowPass = min(lowPass ?? .infinity, y)
                case .auxSend: sendDB += y
                }
            }
        }
        var pan: Float = 0
        var placement: SpeakerPlacement? = v.lfeDB.map { SpeakerPlacement(lfe: Self.linear($0)) }
        if let attenuation = v.attenuation, let object = s.gameObjects[v.gameObject] {
            let (position, orientation) = listener(s)
            let spatial = Spatial(emitter: object.position, listenerAt: position, facing: orientation)
            db += attenuation.volume.value(at: spatial.distance)
            if let curve = attenuation.lowPass { lowPass = min(lowPass ?? .infinity, curve.value(at: spatial.distance)) }
            if let curve = attenuation.auxSend { sendDB += curve.value(at: spatial.distance) }
            if attenuation.spatialize {
                pan = spatial.pan
                let spread = Float(min(100, max(0, attenuation.spread?.value(at: spatial.distance) ?? 0)) / 100)
                placement = SpeakerPlacement(
                    azimuth: spatial.azimuth, spread: max(spread, spatial.elevation), lfe: placement?.lfe ?? 0)
            }
        }
        return VoiceMix(
            volume: Self.linear(db), pan: pan, pitch: min(16, max(1.0 / 256, pow(2, cents / 1200))),
            lowPassHz: lowPass.map { Float(min(24_000, max(10, $0))) }, placement: placement,
            sends: sends(v, s, extraDB: sendDB))
    }

    /// A voice's aux sends: its game object's levels and its sound's own
    /// (the same aux bus in both: added), each times `extraDB` (the
    /// attenuation's aux-send curve and RTPCs), the four loudest; a bus
    /// that is not loaded is left out.
    func sends(_ v: ContentVoice, _ s: ContentState, extraDB: Double) -> [ContentID: VoiceSendTarget] {
        var levels: [ContentID: Double] = [:]
        for (bus, level) in s.gameObjects[v.gameObject]?.auxSends ?? [:] { levels[bus, default: 0] += Double(level) }
        for send in v.ownSends { levels[ContentID(send.bus), default: 0] += Double(Self.linear(send.volumeDB)) }
        guard !levels.isEmpty else { return [:] }
        let scale = Double(Self.linear(extraDB))
        var sends: [ContentID: VoiceSendTarget] = [:]
        for (bus, level) in levels.sorted(by: { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) })
            .prefix(BankLimits.auxSends)
        {
            guard let entry = s.buses[bus] else { continue }
            sends[bus] = VoiceSendTarget(bus: entry.bus, gain: Float(min(16, level * scale)))
        }
        return sends
    }

    /// Whether two placements put a voice in the same place (to 1e-4).
    static func samePlacement(_ a: SpeakerPlacement?, _ b: SpeakerPlacement?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        if (a.azimuth == nil) != (b.azimuth == nil) { return false }
        if let x = a.azimuth, let y = b.azimuth, abs(x - y) > 1e-4 { return false }
        return abs(a.spread - b.spread) <= 1e-4 && abs(a.lfe - b.lfe) <= 1e-6
    }

    /// The listener the mix uses: the first registered default listener, or
    /// the implicit one at the origin facing +Z.
    func listener(_ s: ContentState) -> (Vector3, Orientation) {
        for id in s.defaultListeners {
            if let object = s.gameObjects[id] { return (object.position, object.orientation) }
        }
        return (.zero, .default)
    }

    /// An RTPC's value for a posting's voice on a game object: the
    /// posting's own, else the game object's, else the global, else the default.
    func rtpcValue(
        _ rtpc: ContentID, _ object: GameObjectID?, playing: PlayingID? = nil, _ s: ContentState,
        now: ContinuousClock.Instant
    ) -> Double {
        if let playing, let ramp = s.playings[playing]?.rtpc[rtpc] { return ramp.value(at: now) }
        if let object, let ramp = s.gameObjects[object]?.rtpc[rtpc] { return ramp.value(at: now) }
        if let ramp = s.globalRTPC[rtpc] { return ramp.value(at: now) }
        return s.rtpcs[rtpc]?.value.defaultValue ?? 0
    }

    func busVolumeDB(_ id: ContentID, _ s: ContentState, now: ContinuousClock.Instant) -> Double {
        var db = s.buses[id]?.definition?.volumeDB ?? 0
        for (group, runtime) in s.states {
            db += stateOffset(bus: id, group: group, runtime, s, now: now)
        }
        for binding in s.busBindings[id] ?? [] {
            db += binding.curve.value(at: rtpcValue(binding.rtpc, nil, s, now: now))
        }
        db += s.busOffsets[id]?.value(at: now) ?? 0
        for (key, duck) in s.ducking where duckTarget(key, s) == id {
            db += duck.level.value(at: now)
        }
        return db
    }

    /// A state group's offset of a bus now, part way between the states.
    func stateOffset(
        bus: ContentID, group: ContentID, _ runtime: StateRuntime, _ s: ContentState, now: ContinuousClock.Instant
    ) -> Double {
        let target = stateTarget(bus: bus, group: group, state: runtime.current, s)
        let from = runtime.from[bus] ?? 0
        return from + (target - from) * runtime.progress.value(at: now)
    }

    /// The offset `state` of `group` gives `bus`, in dB.
    func stateTarget(bus: ContentID, group: ContentID, state: String, _ s: ContentState) -> Double {
        guard let offsets = s.stateGroups[group]?.value.busVolumes[state] else { return 0 }
        return offsets.first { ContentID($0.key) == bus }?.value ?? 0
    }

    /// The bus a ducking rule turns down.
    func duckTarget(_ key: DuckKey, _ s: ContentState) -> ContentID? {
        guard let rules = s.buses[key.owner]?.definition?.ducking, key.index < rules.count else { return nil }
        return ContentID(rules[key.index].bus)
    }

    /// Engages the rules of buses that something plays on (or below), and
    /// releases the others, each over its attack or release.
    func updateDucking(_ s: inout ContentState, now: ContinuousClock.Instant) {
        var active = Set<ContentID>()
        for v in s.voices.values {
            var bus: ContentID? = v.bus
            var depth = 0  // a bound, should a bus ever name itself as an ancestor
            while let b = bus, depth < 64 {
                active.insert(b)
                bus = s.buses[b]?.parent
                depth += 1
            }
        }
        for (owner, entry) in s.buses {
            guard let rules = entry.definition?.ducking else { continue }
            for (index, rule) in rules.enumerated() {
                let key = DuckKey(owner: owner, index: index)
                var duck = s.ducking[key] ?? DuckRuntime()
                let engaged = active.contains(owner)
                guard engaged != duck.engaged || s.ducking[key] == nil else { continue }
                duck.engaged = engaged
                duck.level.move(to: engaged ? rule.volumeDB : 0, over: engaged ? rule.attack : rule.release, now: now)
                s.ducking[key] = duck
            }
        }
    }

    /// Whether any gradual change is under way (a tick is needed).
    func isMoving(_ s: ContentState, now: ContinuousClock.Instant) -> Bool {
        s.globalRTPC.values.contains { $0.isMoving(at: now) }
            || s.gameObjects.values.contains { $0.rtpc.values.contains { $0.isMoving(at: now) } }
            || s.playings.values.contains { $0.rtpc.values.contains { $0.isMoving(at: now) } }
            || s.states.values.contains { $0.progress.isMoving(at: now) }
            || s.volumeOffsets.values.contains { $0.isMoving(at: now) }
            || s.busOffsets.values.contains { $0.isMoving(at: now) }
            || s.ducking.values.contains { $0.level.isMoving(at: now) }
    }

    /// dB → the mixer's linear gain, 0…16.
    static func linear(_ db: Double) -> Float {
        guard db.isFinite else { return db > 0 ? 16 : 0 }
        return Float(min(16, max(0, pow(10, db / 20))))
    }
}
