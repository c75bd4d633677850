import Foundation
import SoundContent
import SoundCore
@testable import SoundEngine
import SoundServerSupport
import SoundSession
import Testing

/// A 5.1 device on the server under test (issue 17, item 6): the engine
/// opens its stream in the device's layout and a 3D sound at +110° comes
/// out of the surround-right speaker.
@Suite(.serialized) struct SurroundLiveTests {
    static let fivePointOne = ["front-left", "front-right", "front-center", "lfe", "rear-left", "rear-right"]

    @Test func aSourceAtPlus110IsInTheSurroundRightOfA51Device() throws {
        let server = try PrivateSoundServer()
        let home = try server.addOutput(
            name: "home", properties: ["device.description": "Home Theatre", "device.bus": "pci"],
            channelMap: Self.fivePointOne)
        defer { try? home.remove() }
        // pipewire-pulse takes a new default only once wireplumber has the sink.
        #expect(try eventually {
            _ = try? server.pactl("set-default-sink", "home")
            return try server.defaultSink == "home"
        })
        let live = try LiveSession(SessionConfiguration(category: .playback), server: server)
        defer { live.stop() }
        #expect(eventually { (try? live.ourSink()) == "home" })
        #expect(try live.ourStream()?.channelMap == Self.fivePointOne, "our stream is not in the device's layout")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("surround-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let samples = (0..<48_000).map { 0.5 * Float(sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        _ = FileManager.default.createFile(atPath: folder + "/tone.wav", contents: WaveFile.monoFloat32(samples, rate: 48_000))
        try live.engine.loadBank(Bank(
            name: "surround", folder: folder,
            sounds: ["engine": BankSound(name: "engine", file: folder + "/tone.wav", loop: true, attenuation: "near")],
            attenuations: ["near": BankAttenuation(name: "near", volume: Curve(points: [(0, 0), (100, 0)]))],
            events: ["Engine": BankEvent(name: "Engine", actions: [BankAction(.play(object: "engine", fadeIn: .zero))])]))
        let car = GameObjectID(7)
        try live.engine.registerGameObject(car, name: "car")
        let angle = 110 * Double.pi / 180
        try live.engine.setPosition(car, SoundEngine.Vector3(x: Float(sin(angle) * 10), y: 0, z: Float(cos(angle) * 10)))
        try live.engine.postEvent("Engine", on: car)

        let recorder = try live.server.record("home.monitor", channelMap: Self.fivePointOne)
        defer { recorder.stop() }
        let rr = 5, fl = 0
        let heard = recorder.waitForLevel(windows: 4) { rms in
            rms[rr] > 0.25 && 20 * log10(Double(rms[rr]) / max(Double(rms[fl]), 1e-9)) >= 20
        }
        #expect(heard.met, "monitor RMS per channel \(heard.rms) in \(Self.fivePointOne)")
    }
}
