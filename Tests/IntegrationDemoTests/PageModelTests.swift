@testable import IntegrationDemo
import SoundEngine
import SoundBackend
import SoundContent
import SoundCore
import SoundMixer
import SoundSession
import Testing

/// The interactive content pages' state, without a terminal.
@Suite struct PageModelTests {
    @Test func footstepKeysChooseASurface() {
        #expect(FootstepsModel.surface(forKey: "1") == "grass")
        #expect(FootstepsModel.surface(forKey: "3") == "wood")
        #expect(FootstepsModel.surface(forKey: "Gravel") == "gravel")
        #expect(FootstepsModel.surface(forKey: "4") == nil)
        #expect(FootstepsModel.surface(forKey: "s") == nil)
    }

    @Test func rpmStaysInTheRTPCRange() {
        var engine = EngineModel()
        #expect(engine.change(by: 1) == 1300)
        for _ in 0..<40 { _ = engine.change(by: 1) }
        #expect(engine.rpm == 8000)
        #expect(engine.gauge(width: 10) == "[##########]")
        for _ in 0..<40 { _ = engine.change(by: -1) }
        #expect(engine.rpm == 0)
        #expect(engine.gauge(width: 4) == "[----]")
    }

    @Test func theEmitterCirclesTheListenerClockwise() {
        let orbit = OrbitModel(radius: 10, speed: .pi / 2)  // a quarter turn per second
        let front = orbit.position(after: 0)
        let right = orbit.position(after: 1)
        let behind = orbit.position(after: 2)
        #expect(abs(front.z - 10) < 1e-4 && abs(front.x) < 1e-4)
        #expect(abs(right.x - 10) < 1e-4 && abs(right.z) < 1e-4)
        #expect(abs(behind.z + 10) < 1e-4)
        #expect(abs(orbit.degrees(after: 5) - 90) < 1e-9)
        #expect(OrbitModel.side(degrees: 0) == "front")
        #expect(OrbitModel.side(degrees: 90) == "right")
        #expect(OrbitModel.side(degrees: 200) == "behind")
        #expect(OrbitModel.side(degrees: 350) == "front")
    }

    @Test func theMusicSummaryNamesTheState() {
        let model = MusicModel(musicPlaying: true, otherAudioPlaying: true, backgroundMusicMuted: true)
        #expect(model.summary.contains("music playing"))
        #expect(model.summary.contains("other audio playing"))
        #expect(model.summary.contains("background music muted"))
    }

    @Test func theDemoBankIsFoundFromTheSourceTree() throws {
        let path = try #require(DemoBanks.defaultBankPath)
        #expect(path.hasSuffix("Banks/demo/demo.json"))
        let banks = try DemoBanks(paths: [path])
        for event in ["Play_Footstep", "Play_Engine", "Stop_Engine", "Play_Emitter", "Stop_Emitter", "Play_Music",
                      "Stop_Music", "Play_Dialogue"] {
            #expect(banks.event(named: event) != nil, "\(event)")
        }
    }
}
