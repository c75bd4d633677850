import Foundation
import SoundBackend
import SoundContent
import SoundCore
@testable import SoundEngine
import SoundMixer
import Testing

/// 3D sounds of a bank on a surround output (issue 17, item 6): the
/// direction picks the speakers, the attenuation's spread curve widens the
/// sound with distance, the LFE carries only sounds that name it, and
/// height spreads a sound over the ring.
@Suite struct ContentSurroundTests {
    static let car = GameObjectID(10)

    static func start(channels: Int) throws -> ContentRig {
        let backend = OfflineBackend(grantedFormat: StreamFormat(sampleRate: 48_000, channelCount: channels, sampleFormat: .float32))
        let rig = try ContentRig(backend: backend)
        let tone = rig.sineFile("tone")
        try rig.engine.loadBank(Bank(
            name: "surround", folder: rig.folder,
            sounds: [
                "engine": BankSound(name: "engine", file: tone, loop: true, attenuation: "road"),
                "rumble": BankSound(name: "rumble", file: tone, loop: true, attenuation: "road", lfeDB: -6),
                "wide": BankSound(name: "wide", file: tone, loop: true, attenuation: "wide"),
                "radio": BankSound(name: "radio", file: tone, loop: true),
            ],
            attenuations: [
                "road": BankAttenuation(name: "road", volume: Curve(points: [(0, 0), (100, 0)])),
                "wide": BankAttenuation(
                    name: "wide", volume: Curve(points: [(0, 0), (100, 0)]), spread: Curve(points: [(0, 100), (50, 0)])),
            ],
            events: [
                "Engine": BankEvent(name: "Engine", actions: [BankAction(.play(object: "engine", fadeIn: .zero))]),
                "Rumble": BankEvent(name: "Rumble", actions: [BankAction(.play(object: "rumble", fadeIn: .zero))]),
                "Wide": BankEvent(name: "Wide", actions: [BankAction(.play(object: "wide", fadeIn: .zero))]),
                "Radio": BankEvent(name: "Radio", actions: [BankAction(.play(object: "radio", fadeIn: .zero))]),
            ]))
        try rig.engine.registerGameObject(car, name: "car")
        return rig
    }

    /// RMS per channel of `frames` frames rendered after the moves settled.
    static func levels(_ rig: ContentRig, channels: Int, frames: Int = 4800) -> [Double] {
        rig.engine.content.runQueuedPosts()
        _ = rig.backend.renderFloat(frames: 4800)
        let out = rig.backend.renderFloat(frames: frames) ?? []
        return (0..<channels).map { c in
            (stride(from: c, to: out.count, by: channels).map { Double(out[$0] * out[$0]) }.reduce(0, +) / Double(frames))
                .squareRoot()
        }
    }

    /// A position `distance` away at `degrees` (+ right) in the listener's plane.
    static func at(_ degrees: Double, _ distance: Double = 10) -> SoundEngine.Vector3 {
        let r = degrees * Double.pi / 180
        return SoundEngine.Vector3(x: Float(sin(r) * distance), y: 0, z: Float(cos(r) * distance))
    }

    @Test func aSourceAtPlus110IsInTheSurroundRight() throws {
        let rig = try Self.start(channels: 6)
        try rig.engine.setPosition(Self.car, Self.at(110))
        try rig.engine.postEvent("Engine", on: Self.car)
        let l = Self.levels(rig, channels: 6)
        #expect(abs(l[5] - sineRMS(0.5)) < 0.01, "RR \(l[5])")
        #expect(dB(l[5] / max(l[0], 1e-9)) >= 20, "RR \(l[5]), FL \(l[0])")
        #expect(l[3] == 0, "no LFE: the sound sends none")
        // It follows its game object: ahead is the centre speaker.
        try rig.engine.setPosition(Self.car, Self.at(0))
        let ahead = Self.levels(rig, channels: 6)
        #expect(abs(ahead[2] - sineRMS(0.5)) < 0.01 && ahead[5] < 1e-3, "\(ahead)")
    }

    @Test func onlyASoundThatNamesTheLFEReachesIt() throws {
        let rig = try Self.start(channels: 6)
        try rig.engine.setPosition(Self.car, Self.at(-45))
        try rig.engine.postEvent("Rumble", on: Self.car)
        let l = Self.levels(rig, channels: 6)
        #expect(abs(dB(l[3] / sineRMS(0.5)) + 6) < 0.2, "LFE \(l[3]) at −6 dB")
        // 2D sounds stay on the front pair and send nothing to the LFE.
        let rig2 = try Self.start(channels: 6)
        try rig2.engine.postEvent("Radio", on: Self.car)
        let two = Self.levels(rig2, channels: 6)
        #expect(two[0] > 0.2 && two[1] > 0.2 && two[2...].allSatisfy { $0 == 0 }, "\(two)")
    }

    @Test func theSpreadCurveWidensANearSource() throws {
        let rig = try Self.start(channels: 8)
        try rig.engine.setPosition(Self.car, Self.at(90, 0.001))  // at the listener: spread 100 %
        try rig.engine.postEvent("Wide", on: Self.car)
        let near = Self.levels(rig, channels: 8)
        let speakers = [0, 1, 2, 4, 5, 6, 7]
        let each = sineRMS(0.5) / Double(speakers.count).squareRoot()
        for c in speakers { #expect(abs(near[c] - each) < 0.005, "channel \(c): \(near[c]), want \(each)") }
        try rig.engine.setPosition(Self.car, Self.at(90, 60))  // beyond 50: a point on the right side speaker
        let far = Self.levels(rig, channels: 8)
        #expect(abs(far[7] - sineRMS(0.5)) < 0.01 && far[0] < 1e-3, "\(far)")
    }

    @Test func aStereoOutputPansAsBefore() throws {
        let rig = try Self.start(channels: 2)
        try rig.engine.setPosition(Self.car, Self.at(110))
        try rig.engine.postEvent("Engine", on: Self.car)
        let l = Self.levels(rig, channels: 2)
        // pan = sin 110°, mirrored to the front, equal power.
        let theta = (sin(110 * Double.pi / 180) + 1) * Double.pi / 4
        #expect(abs(dB(l[0] / (sineRMS(0.5) * cos(theta)))) < 0.2)
        #expect(abs(dB(l[1] / (sineRMS(0.5) * sin(theta)))) < 0.2)
    }
}
