import Foundation
import SoundEngine
import SoundBackend
import SoundContent
import SoundCore
import SoundMixer
import SoundSession
import Synchronization

/// One public entry point as the hostile-input tests call it: a call with
/// generated arguments, and the names of those arguments, one of which an
/// `invalidParameter` refusal must contain (docs/input-validation.md).
struct EntryPoint: Sendable {
    let name: String
    let arguments: [String]
    /// Whether it goes through the door (and so throws `notInitialized`
    /// before the engine starts); settings and value types do not.
    let usesEngine: Bool
    /// How often ``draw(_:)`` picks it, relative to the others (10).
    let weight: Int
    let call: @Sendable (inout HostileValues, HostileRig) throws -> Void

    init(
        _ name: String, _ arguments: [String] = [], usesEngine: Bool = true, weight: Int = 10,
        _ call: @escaping @Sendable (inout HostileValues, HostileRig) throws -> Void
    ) {
        self.name = name
        self.arguments = arguments
        self.usesEngine = usesEngine
        self.weight = weight
        self.call = call
    }

    /// Calls it once. Returns the error it threw; a throw that is not a
    /// `SoundEngineError`, or an `invalidParameter` naming none of
    /// ``arguments``, is recorded in `rig`.
    @discardableResult
    func run(_ h: inout HostileValues, _ rig: HostileRig) -> SoundEngineError? {
        do {
            try call(&h, rig)
            return nil
        } catch let error as SoundEngineError {
            if case .invalidParameter(let why) = error, !arguments.contains(where: { why.contains($0) }) {
                rig.fail("\(name) refused with \"\(why.prefix(300))\", which names none of \(arguments)")
            }
            return error
        } catch {
            rig.fail("\(name) threw \(error), not a SoundEngineError")
            return nil
        }
    }

    static let sessionFields = ["category", "mode", "categoryOptions", "routeSharingPolicy", "setActiveOptions", "behavior"]
    static let settingsFields = ["InitSettings", "PlatformInitSettings"]

    /// Every call of ``EngineDoor``, the settings' validation, an engine
    /// started with hostile settings, and the public value types.
    static let all = makeAll()

    /// An entry point of ``all``, drawn by weight.
    static func draw(_ h: inout HostileValues) -> EntryPoint { h.pick(weighted) }

    private static let weighted = all.flatMap { Array(repeating: $0, count: $0.weight) }

    private static func makeAll() -> [EntryPoint] {
        var list: [EntryPoint] = []
        // MARK: Lifecycle, session, settings
        list.append(
            EntryPoint("getters") { _, r in try r.door.readGetters() })
        list.append(
            EntryPoint("suspend", ["fade"]) { h, r in try r.door.suspend(renderAnyway: h.chance(0.5), fade: h.duration()) })
        list.append(
            EntryPoint("wakeupFromSuspend") { _, r in try r.door.wakeupFromSuspend() })
        list.append(
            EntryPoint("setApplicationState") { h, r in try r.door.setApplicationState(h.chance(0.3) ? .background : .foreground) })
        list.append(
            EntryPoint("changeAudioSessionProperties", sessionFields) { h, r in
                try r.door.changeAudioSessionProperties(h.sessionConfiguration())
            })
        list.append(
            EntryPoint("muteBackgroundMusic") { h, r in try r.door.muteBackgroundMusic(h.chance(0.5)) })
        list.append(
            EntryPoint("readInput") { h, r in
                let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: h.int(in: 0...64))
                defer { buffer.deallocate() }
                _ = try r.door.readInput(into: buffer)
            })
        list.append(
            EntryPoint("AudioSession.setActive", ["options"]) { h, r in
                try r.door.liveSession.setActive(h.chance(0.7), options: h.setActiveOptions())
            })
        list.append(
            EntryPoint("AudioSession.overrideOutputAudioPort") { h, r in
                try r.door.liveSession.overrideOutputAudioPort(h.pick(PortOverride.allCases))
            })
        list.append(
            EntryPoint("AudioSession.setPreferredInput", ["setPreferredInput", "uid"]) { h, r in
                try r.door.liveSession.setPreferredInput(h.chance(0.2) ? nil : h.port())
            })
        list.append(
            EntryPoint("AudioSession.setPreferredInput(uid:)", ["uid"]) { h, r in
                try r.door.liveSession.setPreferredInput(uid: h.optionalName(["offline"]))
            })
        list.append(
            EntryPoint("AudioSession.pinOutput", ["uid"]) { h, r in
                try r.door.liveSession.pinOutput(h.optionalName(["offline"]).map { .device(uid: $0) } ?? .systemDefault)
            })
        list.append(
            EntryPoint("InitSettings.validate", settingsFields, usesEngine: false) { h, _ in
                let (settings, platform) = h.settings()
                try settings.validate()
                try platform.validate()
            })
        list.append(
            // Drawn a tenth as often: an offline engine's terminate waits out its fade (0.25 s).
            EntryPoint("SoundEngineInstance(backend: offline)", settingsFields, usesEngine: false, weight: 1) { h, _ in
                let (settings, platform) = h.settings()
                try SoundEngineInstance(settings, platform, backend: OfflineBackend()).terminate()
            })

        // MARK: Sounds and voices
        list.append(
            EntryPoint("loadSound(path:)", ["path", "loop"]) { h, r in
                let path = h.chance(0.5) ? r.tone : h.chance(0.3) ? r.tone + "\u{0}.ogg" : h.name([r.blip])
                r.remember(\.sounds, try r.door.loadSound(path: path, streaming: h.chance(0.2), loop: h.loop(), quality: h.quality()))
            })
        list.append(
            EntryPoint("loadSound(_:name:)", ["sampleRate", "channelCount", "samples", "loop"], weight: 20) { h, r in
                r.remember(\.sounds, try r.door.loadSound(h.decodedAudio(), name: h.name(), loop: h.loop(), quality: h.quality()))
            })
        list.append(
            EntryPoint("unloadSound", weight: 3) { h, r in try r.door.unloadSound(r.sound(&h)) })
        list.append(
            EntryPoint("play", ["PlayParameters", "loop"], weight: 30) { h, r in
                let (sound, bus) = (r.sound(&h), r.bus(&h))
                var callback: (@Sendable (CallbackInfo) -> Void)? = nil
                if h.chance(0.3) { callback = { _ in } }
                r.remember(\.voices, try r.door.play(sound, on: bus, h.playParameters(), callbackTypes: .all, callback: callback))
            })
        list.append(
            EntryPoint("stop(play)", ["fade"]) { h, r in try r.door.stop(r.voice(&h), fade: h.duration()) })
        list.append(
            EntryPoint("stopAll", ["fade"], weight: 3) { h, r in try r.door.stopAll(fade: h.duration()) })
        list.append(
            EntryPoint("setVolume", ["volume", "ramp", "playing"]) { h, r in try r.door.setVolume(r.voice(&h), h.float(0...2), ramp: h.duration()) })
        list.append(
            EntryPoint("setPan", ["pan", "ramp", "playing"]) { h, r in try r.door.setPan(r.voice(&h), h.float(), ramp: h.duration()) })
        list.append(
            EntryPoint("setPitch", ["pitch", "playing"]) { h, r in try r.door.setPitch(r.voice(&h), h.double(0.5...2)) })
        list.append(
            EntryPoint("setLowPass", ["cutoffHz", "ramp", "playing"]) { h, r in
                try r.door.setLowPass(r.voice(&h), cutoffHz: h.chance(0.2) ? nil : h.float(10...24_000), ramp: h.duration())
            })
        list.append(
            EntryPoint("pause", ["fade"]) { h, r in try r.door.pause(r.voice(&h), fade: h.duration()) })
        list.append(
            EntryPoint("resume", ["fade"]) { h, r in try r.door.resume(r.voice(&h), fade: h.duration()) })
        list.append(
            EntryPoint("isPlaying(play)") { h, r in _ = try r.door.isPlaying(r.voice(&h)) })
        list.append(
            EntryPoint("seek(to:)", ["seek position"]) { h, r in
                try r.door.seek(h.chance(0.5) ? r.voice(&h) : r.playing(&h), to: h.duration())
            })
        list.append(
            EntryPoint("seek(toFraction:)", ["seek fraction"]) { h, r in
                try r.door.seek(h.chance(0.5) ? r.voice(&h) : r.playing(&h), toFraction: h.double(0...1))
            })
        list.append(
            EntryPoint("playPosition") { h, r in
                let position = try r.door.playPosition(h.chance(0.5) ? r.voice(&h) : r.playing(&h))
                if let position, position < .zero { r.fail("play position \(position) is negative") }
            })

        // MARK: Buses
        list.append(
            EntryPoint("createBus", ["name", "parent"]) { h, r in
                r.remember(\.buses, try r.door.createBus(name: h.name(HostileRig.buses), parent: r.bus(&h)))
            })
        list.append(
            EntryPoint("bus(named:)") { h, r in _ = try r.door.bus(named: h.name(HostileRig.buses)) })
        list.append(
            EntryPoint("setBusVolume", ["volume", "ramp"]) { h, r in try r.door.setBusVolume(r.bus(&h), h.float(0...2), ramp: h.duration()) })
        list.append(
            EntryPoint("setBusEffect", ["index", "parameter", "attack", "release", "lookahead", "time", "rt60", "preDelay", "bands", "sidechain", "bus"]) { h, r in
                let effects: [SoundEngine.BusEffect?] = [
                    nil, .reverb(rt60: h.duration(), roomSize: h.float(0...1), wet: h.float(0...1)),
                    .compressor(threshold: h.float(-60...0), ratio: h.float(1...50), attack: h.duration(), sidechain: r.bus(&h)),
                    .limiter(ceiling: h.float(-30...0), lookahead: h.duration()),
                    .delay(time: h.duration(), feedback: h.float(0...0.95)),
                    .parametricEQ(bands: [.init(.peak, frequency: h.float(20...20_000), gain: h.float(-24...24), q: h.float(0.1...20))]),
                ]
                try r.door.setBusEffect(r.bus(&h), index: h.int(0...3), h.pick(effects))
            })
        list.append(
            EntryPoint("setBusEffectParameter", ["slot", "parameter", "ramp", "bus"]) { h, r in
                try r.door.setBusEffectParameter(
                    r.bus(&h), index: h.int(0...3), h.name(["wet", "rt60", "threshold", "ratio", "time", "band1Gain", "ceiling"]),
                    h.float(0...1), ramp: h.duration())
            })
        list.append(
            EntryPoint("setGameObjectAuxSendValues", ["game object", "bus", "level"]) { h, r in
                let sends = (0..<h.int(in: 0...5)).map { _ in
                    SoundEngine.AuxSend(bus: .init(h.name(HostileRig.buses)), level: h.float(0...16))
                }
                try r.door.setGameObjectAuxSendValues(r.object(&h), sends)
            })
        list.append(
            EntryPoint("setBus(muted:)", ["ramp"]) { h, r in try r.door.setBus(r.bus(&h), muted: h.chance(0.3), ramp: h.duration()) })
        list.append(
            EntryPoint("setBus(mutedForBackgroundMusic:)") { h, r in try r.door.setBus(r.bus(&h), mutedForBackgroundMusic: h.chance(0.3)) })
        list.append(
            EntryPoint("meter") { h, r in
                let meter = try r.door.meter(r.bus(&h))
                if !meter.peak.isFinite || !meter.rms.isFinite { r.fail("meter reading \(meter) is not finite") }
            })
        list.append(
            EntryPoint("setBusMeterCallback") { h, r in
                let bus = r.bus(&h)
                var callback: (@Sendable (BusMeter) -> Void)? = nil
                if h.chance(0.7) {
                    callback = { [weak r] meter in
                        // relaxed: a flag, read after the threads were joined.
                        if !meter.peak.isFinite || !meter.rms.isFinite { r?.badMeter.store(true, ordering: .relaxed) }
                    }
                }
                try r.door.setBusMeterCallback(bus, callback)
            })

        // MARK: Content
        list.append(
            EntryPoint("loadBank(path:)", ["path", "bank"]) { h, r in
                let path = h.chance(0.4) ? r.bankFile : h.name([r.bankFile + "\u{0}", r.folder])
                r.remember(\.banks, try r.door.loadBank(path: path, options: BankLoadOptions()))
            })
        list.append(
            EntryPoint("loadBank(_:)", ["bank"]) { h, r in r.remember(\.banks, try r.door.loadBank(h.chance(0.3) ? r.bank : h.mutated(r.bank))) })
        list.append(
            EntryPoint("unloadBank", ["bank"], weight: 3) { h, r in try r.door.unloadBank(r.bankID(&h)) })
        list.append(
            EntryPoint("registerGameObject", ["game object"]) { h, r in
                let object = GameObjectID(h.chance(0.7) ? UInt64(h.int(in: 1...20)) : h.uint64())
                try r.door.registerGameObject(object, name: h.optionalName())
                r.remember(\.objects, object)
            })
        list.append(
            EntryPoint("unregisterGameObject", ["game object"]) { h, r in try r.door.unregisterGameObject(r.object(&h)) })
        list.append(
            EntryPoint("setPosition", ["position", "orientation", "game object"]) { h, r in
                try r.door.setPosition(r.object(&h), h.vector(), orientation: h.orientation())
            })
        list.append(
            EntryPoint("setDefaultListeners", ["game object"]) { h, r in
                let listeners = (0..<h.int(in: 0...3)).map { _ in r.object(&h) }
                try r.door.setDefaultListeners(listeners)
            })
        list.append(
            EntryPoint("postEvent(name)", ["game object"], weight: 30) { h, r in
                let (event, object) = (h.name(HostileRig.events), r.object(&h))
                var callback: (@Sendable (CallbackInfo) -> Void)? = nil
                if h.chance(0.3) { callback = { _ in } }
                r.remember(\.playings, try r.door.postEvent(.init(event), on: object, callbackTypes: .all, callback: callback))
            })
        list.append(
            EntryPoint("postEvent(ID)", ["game object"]) { h, r in
                r.remember(\.playings, try r.door.postEvent(.id(r.content(&h)), on: r.object(&h), callbackTypes: .default, callback: nil))
            })
        list.append(
            EntryPoint("stop(posting)", ["fade"]) { h, r in try r.door.stop(r.playing(&h), fade: h.duration()) })
        list.append(
            EntryPoint("stopAll(on:)", ["fade", "game object"]) { h, r in
                try r.door.stopAll(on: r.object(&h), fade: h.duration())
            })
        list.append(
            EntryPoint("isPlaying(posting)") { h, r in _ = try r.door.isPlaying(r.playing(&h)) })
        list.append(
            EntryPoint("setRTPCValue(name)", ["value", "ramp", "game object"]) { h, r in
                let (rtpc, value, object) = (h.name(HostileRig.rtpcs), h.double(-100...9000), r.optionalObject(&h))
                try r.door.setRTPCValue(.init(rtpc), value, on: object, ramp: h.duration())
            })
        list.append(
            EntryPoint("setRTPCValue(on: playing)", ["value", "ramp", "playing"]) { h, r in
                let (rtpc, value) = (h.name(HostileRig.rtpcs), h.double(-100...9000))
                try r.door.setRTPCValue(.init(rtpc), value, on: h.chance(0.8) ? r.playing(&h) : r.voice(&h), ramp: h.duration())
            })
        list.append(
            EntryPoint("resetRTPCValue(on: playing)", ["playing"]) { h, r in
                try r.door.resetRTPCValue(.init(h.name(HostileRig.rtpcs)), on: r.playing(&h))
            })
        list.append(
            EntryPoint("rtpcValue(on: playing)", ["playing"]) { h, r in
                let value = try r.door.rtpcValue(.init(h.name(HostileRig.rtpcs)), on: r.playing(&h))
                if !value.isFinite { r.fail("RTPC value \(value) of a posting is not finite") }
            })
        list.append(
            EntryPoint("setRTPCValue(ID)", ["value", "ramp", "game object"]) { h, r in
                let (rtpc, value, object) = (r.content(&h), h.double(-100...9000), r.optionalObject(&h))
                try r.door.setRTPCValue(.id(rtpc), value, on: object, ramp: h.duration())
            })
        list.append(
            EntryPoint("resetRTPCValue", ["game object"]) { h, r in
                if h.chance(0.5) {
                    try r.door.resetRTPCValue(.init(h.name(HostileRig.rtpcs)), on: r.optionalObject(&h))
                } else {
                    try r.door.resetRTPCValue(.id(r.content(&h)), on: r.optionalObject(&h))
                }
            })
        list.append(
            EntryPoint("rtpcValue", ["game object"]) { h, r in
                let value = try h.chance(0.5)
                    ? r.door.rtpcValue(.init(h.name(HostileRig.rtpcs)), on: r.optionalObject(&h))
                    : r.door.rtpcValue(.id(r.content(&h)), on: r.optionalObject(&h))
                if !value.isFinite { r.fail("rtpcValue read \(value)") }
            })
        list.append(
            EntryPoint("setState") { h, r in
                if h.chance(0.5) {
                    try r.door.setState(.init(h.name(HostileRig.stateGroups)), .init(h.name(HostileRig.states)))
                } else {
                    try r.door.setState(.id(r.content(&h)), .id(r.content(&h)))
                }
            })
        list.append(
            EntryPoint("currentState") { h, r in _ = try r.door.currentState(.init(h.name(HostileRig.stateGroups))) })
        list.append(
            EntryPoint("setSwitch", ["game object"]) { h, r in
                if h.chance(0.5) {
                    try r.door.setSwitch(.init(h.name(HostileRig.switchGroups)), .init(h.name(HostileRig.switches)), on: r.object(&h))
                } else {
                    try r.door.setSwitch(.id(r.content(&h)), .id(r.content(&h)), on: r.object(&h))
                }
            })
        list.append(
            EntryPoint("switchValue", ["game object"]) { h, r in
                _ = try r.door.switchValue(.init(h.name(HostileRig.switchGroups)), on: r.object(&h))
            })

        // MARK: Value types: none may trap whatever it holds
        list.append(
            EntryPoint("value types", usesEngine: false) { h, r in
                // An offline output no engine uses renders nothing, whatever it is asked for.
                let unused = SoundEngine.OfflineOutput().render(frames: h.int())
                if !unused.isEmpty { r.fail("an unused offline output rendered \(unused.count) samples") }
                let audio = h.decodedAudio()
                _ = (audio.frameCount, audio.duration)
                _ = StreamFormat(sampleRate: h.int(), channelCount: h.int(), sampleFormat: .float32).bytesPerFrame
                _ = LatencyRequest(targetFrames: h.int(), requestFrames: h.int()).scaled(toSampleRate: h.int())
                let points = [(x: h.double(), y: h.double()), (x: h.double(), y: h.double())]
                _ = Curve(points: points, shape: h.pick(Curve.Shape.allCases)).value(at: h.double())
                _ = (ContentID(h.name()), BankID(name: h.name()), GameObjectID(h.uint64()).isValid, h.vector().isFinite)
                _ = "\(String(describing: h.loop())) \(VoiceID(slot: h.uint32(), generation: h.uint32())) \(BusID(index: h.uint32()))"
                let playing = PlayingID(rawValue: h.uint64())
                _ = (playing.description, playing.voice, playing.posting, SoundEngine.ContentReference(h.name()).description)
                _ = (try? PlayParameters(volume: h.float(), pan: h.float(), pitch: h.double(), fadeIn: h.duration(),
                                         delay: h.duration(), lowPassHz: h.float()).voiceParameters()) as VoiceParameters?
                _ = SoundEngineError.invalidParameter(h.name()).description
            })
        return list
    }
}
