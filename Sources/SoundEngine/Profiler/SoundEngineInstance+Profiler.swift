import Foundation
import SoundContent
import SoundCore
import SoundMixer
import SoundSession

/// What the live profiler reads of the engine, as the protocol's messages
/// (docs/profiling.md). Called on the link's thread only. Each reads the
/// control side's own state under its lock, or atomics the render thread
/// publishes; none waits on the render thread or makes it do anything.
extension SoundEngineInstance {
    /// `hello`.
    func profilerHello(t: Double, rate: Int, edits: Bool) -> String {
        let format = mixer.outputFormat
        var m = ProfilerMessage("hello", t: t)
        m.add("protocol", json: "1")
        m.add("pid", json: String(getpid()))
        m.add("program", json: ProfilerMessage.string(ProfilerSystem.programName))
        m.add("engine", json: ProfilerMessage.string(ProfilerLink.engineVersion))
        m.add("sampleRate", json: String(format.sampleRate))
        m.add("channels", json: String(format.channelCount))
        m.add("samplesPerFrame", json: String(settings.samplesPerFrame))
        m.add("rate", json: String(rate))
        m.add("edits", json: ProfilerMessage.bool(edits))
        return m.line
    }

    /// `session`, with the reason of the interruption in force (the link
    /// remembers it from the notifications; the snapshot has only the flag).
    func profilerSession(t: Double, interruptionReason: InterruptionReason?) -> String {
        let s = published.withLock { $0 }
        let state = isTerminated ? EngineState.stopped : s.state
        var m = ProfilerMessage("session", t: t)
        m.add("category", json: ProfilerMessage.string(s.configuration.category.description))
        m.add("options", json: ProfilerMessage.array(s.configuration.categoryOptions.names.map(ProfilerMessage.string)))
        m.add("mode", json: ProfilerMessage.string(s.configuration.mode.description))
        m.add("active", json: ProfilerMessage.bool(s.isActive))
        m.add("interrupted", json: ProfilerMessage.bool(s.isInterrupted))
        let reason = s.isInterrupted ? interruptionReason ?? .default : nil
        m.add("interruptionReason", json: reason.map { ProfilerMessage.string("\($0)") } ?? "null")
        m.add("otherAudioPlaying", json: ProfilerMessage.bool(s.isOtherAudioPlaying))
        m.add("secondaryAudioShouldBeSilenced", json: ProfilerMessage.bool(s.secondaryAudioShouldBeSilencedHint))
        m.add("engineState", json: ProfilerMessage.string(state.name))
        if case .paused(let why) = state { m.add("engineStateReason", json: ProfilerMessage.string("\(why)")) }
        m.add("route", json: ProfilerMessage.route(s.currentRoute))
        return m.line
    }

    /// `voices`: the content layer's voices (postings of events), then the
    /// voices the game played straight (no playing ID, event or object), each with
    /// what the render thread last published about it (``Mixer/report(of:)``:
    /// read after the content lock is let go, never under it).
    func profilerVoices(t: Double) -> String {
        let statistics = mixer.statistics
        let listed = content.state.withLock { s in
            s.voices.values.sorted { ($0.playing.rawValue, $0.voice.slot) < ($1.playing.rawValue, $1.voice.slot) }.map {
                v -> (voice: VoiceID, fields: [(String, String)]) in
                let sound = v.path.last.flatMap { s.objects[$0]?.name } ?? "?"
                let bus = s.buses[v.bus]?.name ?? "?"
                let position = s.gameObjects[v.gameObject]?.position
                return (
                    v.voice,
                    [
                        ("playingID", String(v.playing.rawValue)),
                        ("event", s.playings[v.playing].map { ProfilerMessage.string($0.event) } ?? "null"),
                        ("gameObject", String(v.gameObject.rawValue)),
                        ("sound", ProfilerMessage.string(sound)),
                        ("bus", ProfilerMessage.string(bus)),
                        ("position", position.map {
                            ProfilerMessage.array([$0.x, $0.y, $0.z].map { ProfilerMessage.number(Double($0)) })
                        } ?? "null"),
                        ("volume", ProfilerMessage.number(Double(v.sent.volume))),
                    ]
                )
            }
        }
        // Voices the game played straight (SoundEngine.play), no event's.
        let owned = Set(listed.map(\.voice))
        let busNames = Dictionary(mixer.busSummaries.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let direct = mixer.liveVoices.filter { !owned.contains($0.id) }.map { v -> (voice: VoiceID, fields: [(String, String)]) in
            (
                v.id,
                [
                    ("playingID", "null"), ("event", "null"), ("gameObject", "null"),
                    ("sound", ProfilerMessage.string(v.sound)), ("bus", ProfilerMessage.string(busNames[v.bus] ?? "?")),
                    ("position", "null"), ("volume", ProfilerMessage.number(Double(v.volume))),
                ]
            )
        }
        let voices = (listed + direct).map { entry -> String in
            var fields = entry.fields
            let report = mixer.report(of: entry.voice)
            let gain = Double(report?.heardGain ?? 0)
            fields.append(("gain", ProfilerMessage.number(gain)))
            fields.append(("audibleDB", gain > 0 ? ProfilerMessage.number(20 * log10(gain)) : "null"))
            fields.append(("virtual", ProfilerMessage.bool(report?.isVirtual ?? false)))
            let state: String
            switch report {
            case nil: state = "starting"
            case let r? where r.stopping: state = "stopping"
            case let r?:
                switch r.phase {
                case .starting: state = "starting"
                case .playing: state = "playing"
                case .paused: state = "paused"
                }
            }
            fields.append(("state", ProfilerMessage.string(state)))
            return ProfilerMessage.object(fields)
        }
        var m = ProfilerMessage("voices", t: t)
        m.add("voices", json: ProfilerMessage.array(voices))
        m.add("active", json: String(statistics.voicesActive))
        m.add("virtual", json: String(statistics.virtualVoices))
        return m.line
    }

    /// `buses`: the graph as the control side set it, and each bus's last
    /// meter reading (an atomic word per bus the render thread stores).
    func profilerBuses(t: Double) -> String {
        let buses = mixer.busSummaries.map { bus -> String in
            let meter = mixer.meter(bus.id)
            return ProfilerMessage.object([
                "id": String(bus.id.index),
                "name": ProfilerMessage.string(bus.name),
                "parent": bus.parent.map { String($0.index) } ?? "null",
                "volume": ProfilerMessage.number(Double(bus.volume)),
                "muted": ProfilerMessage.bool(bus.muted),
                "solo": ProfilerMessage.bool(bus.soloed),
                "peak": ProfilerMessage.array([ProfilerMessage.number(Double(meter.peak))]),
                "rms": ProfilerMessage.array([ProfilerMessage.number(Double(meter.rms))]),
            ])
        }
        var m = ProfilerMessage("buses", t: t)
        m.add("buses", json: ProfilerMessage.array(buses))
        return m.line
    }

    /// `syncs`: RTPC values (global, per game object), states, switches.
    func profilerSyncs(t: Double) -> String {
        let now = ContinuousClock.now
        let (rtpcs, states, switches) = content.state.withLock { s -> ([String], [String], [String]) in
            func rtpcName(_ id: ContentID) -> String { s.rtpcs[id]?.value.name ?? id.description }
            var rtpcs = s.globalRTPC.sorted { $0.key < $1.key }.map {
                ProfilerMessage.object([
                    "name": ProfilerMessage.string(rtpcName($0.key)), "gameObject": "null",
                    "value": ProfilerMessage.number($0.value.value(at: now)),
                ])
            }
            var switches: [String] = []
            for (object, o) in s.gameObjects.sorted(by: { $0.key < $1.key }) {
                for (id, ramp) in o.rtpc.sorted(by: { $0.key < $1.key }) {
                    rtpcs.append(
                        ProfilerMessage.object([
                            "name": ProfilerMessage.string(rtpcName(id)), "gameObject": String(object.rawValue),
                            "value": ProfilerMessage.number(ramp.value(at: now)),
                        ]))
                }
                for (group, value) in o.switches.sorted(by: { $0.key < $1.key }) {
                    switches.append(
                        ProfilerMessage.object([
                            "group": ProfilerMessage.string(s.switchGroups[group]?.value.name ?? group.description),
                            "gameObject": String(object.rawValue), "switch": ProfilerMessage.string(value),
                        ]))
                }
            }
            let states = s.states.sorted { $0.key < $1.key }.map {
                ProfilerMessage.object([
                    "group": ProfilerMessage.string(s.stateGroups[$0.key]?.value.name ?? $0.key.description),
                    "state": ProfilerMessage.string($0.value.current),
                ])
            }
            return (rtpcs, states, switches)
        }
        var m = ProfilerMessage("syncs", t: t)
        m.add("rtpcs", json: ProfilerMessage.array(rtpcs))
        m.add("states", json: ProfilerMessage.array(states))
        m.add("switches", json: ProfilerMessage.array(switches))
        return m.line
    }

    /// `performance` without `dropped` (each connection adds its own): the
    /// counters, the stream's latency, and the render CPU of the quanta
    /// between `previous` and `timing`.
    func profilerPerformance(t: Double, timing: Mixer.RenderTiming, previous: Mixer.RenderTiming?) -> ProfilerMessage {
        let statistics = self.statistics
        let quantumNanos = 1e9 * Double(settings.samplesPerFrame) / Double(mixer.outputFormat.sampleRate)
        let quanta = timing.quanta &- (previous?.quanta ?? 0)
        let mean = quanta > 0 ? Double(timing.sum &- (previous?.sum ?? 0)) / Double(quanta) : Double(timing.last)
        var m = ProfilerMessage("performance", t: t)
        m.add("quanta", json: String(statistics.quantaRendered))
        m.add(
            "renderCPU",
            json: ProfilerMessage.object([
                "last": ProfilerMessage.number(Double(timing.last) / quantumNanos),
                "mean": ProfilerMessage.number(mean / quantumNanos),
                "max": ProfilerMessage.number(Double(quanta > 0 ? timing.max : timing.last) / quantumNanos),
            ]))
        let latency = outputLatency.map { ProfilerMessage.number(TimeArgument.seconds($0) * 1000) } ?? "null"
        m.add("latencyMs", json: latency)
        m.add("underflows", json: String(statistics.underflows))
        m.add("starvations", json: String(statistics.starvations))
        m.add("voicesActive", json: String(statistics.voicesActive))
        m.add("voicesVirtual", json: String(statistics.voicesVirtual))
        m.add("commandsRejected", json: String(statistics.commandsRejected))
        return m
    }

    /// `notification`: `name` and the fields the headless demo prints for the
    /// event, except that its `type` (an interruption's, a hint's) is
    /// `interruptionType` / `hintType` here, `type` naming the message.
    static func profilerNotification(_ event: SessionEvent, t: Double) -> String {
        var m = ProfilerMessage("notification", t: t)
        func name(_ n: String) { m.add("name", json: ProfilerMessage.string(n)) }
        switch event {
        case .engineState(let state):
            name("engineState")
            m.add("state", json: ProfilerMessage.string(state.name))
            if case .paused(let reason) = state { m.add("reason", json: ProfilerMessage.string("\(reason)")) }
        case .interruption(let i):
            name("interruption")
            // Not `type` (the demo's name): that key says what the message is.
            m.add("interruptionType", json: ProfilerMessage.string(i.type == .began ? "began" : "ended"))
            if i.type == .ended { m.add("shouldResume", json: ProfilerMessage.bool(i.shouldResume)) }
            if let reason = i.reason { m.add("reason", json: ProfilerMessage.string("\(reason)")) }
            if let source = i.source { m.add("source", json: ProfilerMessage.string(source.rawValue)) }
        case .routeChange(let change):
            name("routeChange")
            m.add("reason", json: ProfilerMessage.string("\(change.reason)"))
            m.add("previousRoute", json: ProfilerMessage.route(change.previousRoute))
            m.add("currentRoute", json: ProfilerMessage.route(change.currentRoute))
        case .otherAudioPlaying(let playing):
            name("otherAudioPlaying")
            m.add("playing", json: ProfilerMessage.bool(playing))
        case .silenceSecondaryAudioHint(let type):
            name("silenceSecondaryAudioHint")
            m.add("hintType", json: ProfilerMessage.string(type == .begin ? "begin" : "end"))
        case .mediaServicesWereLost: name("mediaServicesWereLost")
        case .mediaServicesWereReset: name("mediaServicesWereReset")
        case .backgroundMusicMuted(let muted):
            name("backgroundMusic")
            m.add("muted", json: ProfilerMessage.bool(muted))
        }
        return m.line
    }
}
