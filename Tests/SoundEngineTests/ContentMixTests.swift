import Foundation
@testable import SoundEngine
import SoundBackend
import SoundContent
import SoundCore
import SoundMixer
import SoundSession
import SoundServerSupport
import Testing

/// Levels, measured on rendered buffers: 3D attenuation and panning, RTPC
/// curves, states and ducking.
@Suite struct ContentMixTests {
    static let car = GameObjectID(10)
    static let ear = GameObjectID(11)
    /// A centred 0.5 sine's RMS per channel: the 0 dB reference.
    static let centre = sineRMS(0.5) * cos(Double.pi / 4)

    static func bank(_ rig: ContentRig) -> Bank {
        let tone = rig.sineFile("tone")
        return Bank(
            name: "mix", folder: rig.folder,
            sounds: [
                "engine": BankSound(name: "engine", file: tone, loop: true, attenuation: "road"),
                "radio": BankSound(name: "radio", file: tone, loop: true),
                "music": BankSound(name: "music", file: tone, loop: true, bus: "music"),
                "line": BankSound(name: "line", file: rig.sineFile("line", frequency: 300, seconds: 2), bus: "dialogue"),
            ],
            buses: [
                BankBus(name: "music", volumeDB: -6),
                BankBus(
                    name: "dialogue",
                    ducking: [BankDucking(bus: "music", volumeDB: -10, attack: .milliseconds(100), release: .milliseconds(200))]),
            ],
            attenuations: [
                "road": BankAttenuation(
                    name: "road", volume: Curve(points: [(0, 0), (100, -40)]),
                    lowPass: Curve(points: [(0, 20_000), (100, 500)]))
            ],
            rtpcs: [
                "Speed": BankRTPC(
                    name: "Speed", range: 0...100, defaultValue: 0,
                    bindings: [RTPCBinding(target: .volume(object: "radio"), curve: Curve(points: [(0, -40), (50, -6), (100, 0)]))])
            ],
            stateGroups: [
                "Mode": BankStateGroup(
                    name: "Mode", states: ["explore", "combat"], defaultState: "explore",
                    busVolumes: ["combat": ["music": -12]], transition: .milliseconds(200))
            ],
            events: [
                "Engine": BankEvent(name: "Engine", actions: [BankAction(.play(object: "engine", fadeIn: .zero))]),
                "Radio": BankEvent(name: "Radio", actions: [BankAction(.play(object: "radio", fadeIn: .zero))]),
                "Music": BankEvent(name: "Music", actions: [BankAction(.play(object: "music", fadeIn: .zero))]),
                "Line": BankEvent(name: "Line", actions: [BankAction(.play(object: "line", fadeIn: .zero))]),
                "Quieter": BankEvent(
                    name: "Quieter", actions: [BankAction(.setVolume(object: "radio", volumeDB: -12, fade: .zero, scope: .global))]),
                "MusicDown": BankEvent(
                    name: "MusicDown", actions: [BankAction(.setBusVolume(bus: "music", volumeDB: -6, fade: .milliseconds(50)))]),
                "Hold": BankEvent(name: "Hold", actions: [BankAction(.pause(object: "radio", fade: .zero, scope: .gameObject))]),
                "Go": BankEvent(name: "Go", actions: [BankAction(.resume(object: "radio", fade: .zero, scope: .gameObject))]),
            ])
    }

    static func start() throws -> ContentRig {
        let rig = try ContentRig()
        try rig.engine.loadBank(bank(rig))
        try rig.engine.registerGameObject(car, name: "car")
        try rig.engine.registerGameObject(ear, name: "ear")
        return rig
    }

    /// Levels after the 16 ms moves have settled.
    static func settled(_ rig: ContentRig) -> (left: Double, right: Double) {
        rig.render(4800)
        return rig.levels()
    }

    @Test func distanceAndDirectionSetLevelAndPan() throws {
        let rig = try Self.start()
        let amplitude = sineRMS(0.5)
        try rig.engine.setPosition(Self.car, Vector3(x: 50, y: 0, z: 0))
        try rig.engine.postEvent("Engine", on: Self.car)
        // 50 units on the right: -20 dB, all in the right channel.
        var l = Self.settled(rig)
        #expect(abs(dB(l.right / (amplitude * 0.1))) < 0.2, "right \(dB(l.right / amplitude)) dB, want -20")
        #expect(l.left < 1e-4, "left \(l.left)")
        // 25 units ahead: -10 dB, centred (equal power: -3 dB each side).
        try rig.engine.setPosition(Self.car, Vector3(x: 0, y: 0, z: 25))
        l = Self.settled(rig)
        let tenDB: Double = Self.centre * pow(10, -0.5)
        #expect(abs(dB(l.left / tenDB)) < 0.2)
        #expect(abs(dB(l.right / tenDB)) < 0.2)
        // Behind on the right at 45°: mirrors to the front, pan = sin 45°.
        let d = 50 / 2.0.squareRoot()
        try rig.engine.setPosition(Self.car, Vector3(x: Float(d), y: 0, z: Float(-d)))
        l = Self.settled(rig)
        let theta: Double = (sin(Double.pi / 4) + 1) * Double.pi / 4
        let wantLeft: Double = amplitude * 0.1 * cos(theta), wantRight: Double = amplitude * 0.1 * sin(theta)
        #expect(abs(dB(l.left / wantLeft)) < 0.2, "left \(l.left)")
        #expect(abs(dB(l.right / wantRight)) < 0.2, "right \(l.right)")
        // The low-pass follows the distance (heard once the mixer has its filter).
        let sent = rig.engine.content.state.withLock { $0.voices.values.first?.sent.lowPassHz }
        let wantHz: Double = 20_000 + (500 - 20_000) * 0.5
        #expect(abs(Double(sent ?? 0) - wantHz) < 1)
    }

    @Test func aTurningListenerMovesTheSource() throws {
        let rig = try Self.start()
        try rig.engine.setDefaultListeners([Self.ear])
        try rig.engine.setPosition(Self.car, Vector3(x: 50, y: 0, z: 0))
        try rig.engine.postEvent("Engine", on: Self.car)
        #expect(Self.settled(rig).left < 1e-4)  // the ear faces +Z at the origin: the car is on its right
        // The ear turns to face +X: the car is straight ahead.
        let facingX = Orientation(front: Vector3(x: 2, y: 0, z: 0), top: Vector3(x: 0, y: 3, z: 0))
        try rig.engine.setPosition(Self.ear, .zero, orientation: facingX)
        let l = Self.settled(rig)
        #expect(abs(dB(l.left / l.right)) < 0.1, "left \(l.left) right \(l.right)")
        #expect(abs(dB(l.left / (Self.centre * 0.1))) < 0.2)
    }

    @Test func aSoundWithoutAttenuationIsCentredAtFullVolume() throws {
        let rig = try Self.start()
        try rig.engine.setPosition(Self.car, Vector3(x: 500, y: 0, z: 0))
        try rig.engine.setRTPCValue("Speed", 100)
        try rig.engine.postEvent("Radio", on: Self.car)
        let l = Self.settled(rig)
        #expect(abs(dB(l.left / Self.centre)) < 0.1 && abs(dB(l.right / Self.centre)) < 0.1)
    }

    @Test func anInterpolatedRTPCFollowsItsCurveOnTheWay() throws {
        let rig = try Self.start()
        let curve = Curve(points: [(0, -40), (50, -6), (100, 0)])
        try rig.engine.postEvent("Radio", on: Self.car)
        #expect(abs(dB(Self.settled(rig).left / Self.centre) + 40) < 0.2)
        try rig.engine.setRTPCValue("Speed", 100, ramp: .seconds(2))
        var checked = 0
        var seenMiddle = false
        let done = try rig.renderUntil {
            let before = try rig.engine.rtpcValue("Speed")
            let level = dB(rig.levels(1024).left / Self.centre)
            let after = try rig.engine.rtpcValue("Speed")
            if before > 5 && after < 95 {
                // The mixer is at most a tick (16 ms ≈ 1 unit) and one ramp behind the value.
                let low = curve.value(at: max(0, before - 3)) - 0.5, high = curve.value(at: after) + 0.5
                #expect(level >= low && level <= high, "at \(before)…\(after): \(level) dB, curve \(low)…\(high)")
                checked += 1
                // Half way in time, the curve says -23 dB where a straight line between the ends says -20.
                if abs(before - 25) < 5 { seenMiddle = abs(level - curve.value(at: before)) < 2 }
            }
            return after >= 100
        }
        #expect(done && checked >= 10, "checked \(checked) points")
        #expect(seenMiddle || checked < 10)
        #expect(abs(dB(Self.settled(rig).left / Self.centre)) < 0.2)
    }

    @Test func aGameObjectsRTPCOverridesTheGlobalOne() throws {
        let rig = try Self.start()
        try rig.engine.setRTPCValue("Speed", 50)
        try rig.engine.setRTPCValue("Speed", 100, on: Self.car)
        #expect(try rig.engine.rtpcValue("Speed", on: Self.car) == 100)
        #expect(try rig.engine.rtpcValue("Speed", on: Self.ear) == 50)
        try rig.engine.postEvent("Radio", on: Self.ear)
        #expect(abs(dB(Self.settled(rig).left / Self.centre) + 6) < 0.2)
        try rig.engine.stopAll(on: Self.ear)
        #expect(rig.renderUntil { rig.contentVoiceCount == 0 })
        try rig.engine.postEvent("Radio", on: Self.car)
        #expect(abs(dB(Self.settled(rig).left / Self.centre)) < 0.2)
        try rig.engine.resetRTPCValue("Speed", on: Self.car)
        #expect(try rig.engine.rtpcValue("Speed", on: Self.car) == 50)
        try rig.engine.setRTPCValue(.id(ContentID("Speed")), 1000)  // clamped to the range
        #expect(try rig.engine.rtpcValue(.id(ContentID("Speed"))) == 100)
    }

    @Test func aStateMovesItsBusVolume() throws {
        let rig = try Self.start()
        try rig.engine.postEvent("Music", on: Self.car)
        #expect(abs(dB(Self.settled(rig).left / Self.centre) + 6) < 0.2)  // the bus's own -6 dB
        try rig.engine.setState("Mode", "combat")
        #expect(rig.renderUntil { abs(dB(rig.levels(1024).left / Self.centre) + 18) < 0.2 })
        try rig.engine.setState(.id(ContentID("Mode")), .id(ContentID("explore")))
        #expect(rig.renderUntil { abs(dB(rig.levels(1024).left / Self.centre) + 6) < 0.2 })
    }

    @Test func volumePauseAndBusActionsChangeWhatIsHeard() throws {
        let rig = try Self.start()
        try rig.engine.setRTPCValue("Speed", 100)
        try rig.engine.postEvent("Radio", on: Self.car)
        #expect(abs(dB(Self.settled(rig).left / Self.centre)) < 0.2)
        try rig.engine.postEvent("Quieter", on: Self.ear)  // global scope: reaches the car's radio
        #expect(abs(dB(Self.settled(rig).left / Self.centre) + 12) < 0.2)
        try rig.engine.postEvent("Hold", on: Self.ear)  // game-object scope: the ear plays no radio
        #expect(Self.settled(rig).left > 0.01)
        try rig.engine.postEvent("Hold", on: Self.car)
        #expect(Self.settled(rig).left < 1e-4)
        try rig.engine.postEvent("Go", on: Self.car)
        #expect(abs(dB(Self.settled(rig).left / Self.centre) + 12) < 0.2)
        try rig.engine.stopAll(on: Self.car)
        try rig.engine.postEvent("Music", on: Self.car)
        try rig.engine.postEvent("MusicDown", on: Self.car)
        #expect(rig.renderUntil { abs(dB(rig.levels(1024).left / Self.centre) + 12) < 0.2 })  // -6 bus, -6 action
    }

    @Test func dialogueDucksTheMusicAndReleasesIt() throws {
        let rig = try Self.start()
        let music = try #require(try rig.engine.bus(named: "music"))
        try rig.engine.postEvent("Music", on: Self.car)
        rig.render(9600)
        let before = try rig.engine.meter(music).rms
        #expect(abs(dB(Double(before) / Self.centre) + 6) < 0.3)
        let ends = EndCounter()
        let line = try rig.engine.postEvent("Line", on: Self.ear, callback: ends.callback)
        #expect(rig.renderUntil { abs(dB(Double(((try? rig.engine.meter(music).rms) ?? 0) / before)) + 10) < 0.3 })
        #expect(ends.count(line) == 0, "the line ended before the music was ducked")
        #expect(rig.renderUntil { ends.count(line) == 1 })
        #expect(rig.renderUntil { abs(dB(Double(((try? rig.engine.meter(music).rms) ?? 0) / before))) < 0.3 })
    }
}
