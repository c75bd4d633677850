@testable import IntegrationDemo
import SoundEngine
import Testing
import TerminalUI

/// The full-screen demo's model: keys to engine calls, and frames rendered
/// for made-up engine states, all without a terminal or an engine.
extension PageModelTests {
    static let speaker = EngineSnapshot.Port(type: "Speaker", name: "Speaker", uid: "speaker")
    static let running = EngineSnapshot(
        status: "running", isRunning: true, isActive: true, outputs: [speaker], availableOutputs: [speaker],
        master: .init(peak: 0.5, rms: 0.25), music: .init(), world: .init())

    @Test func sessionKeysCycleTheCategoryToggleOptionsAndActivate() {
        var model = DemoScreenModel(hasContent: true)
        var engine = Self.running
        engine.configuration.categoryOptions = [.duckOthers]
        let next = model.handle(.character("c"), engine: engine, now: 0)
        #expect(next == [.setSession(AudioSession.Configuration(category: .playback))])  // options cleared
        let previous = model.handle(.character("C"), engine: engine, now: 0)
        #expect(previous == [.setSession(AudioSession.Configuration(category: .ambient))])
        let mix = model.handle(.character("x"), engine: engine, now: 0)
        #expect(mix == [.setSession(AudioSession.Configuration(categoryOptions: [.duckOthers, .mixWithOthers]))])
        let unduck = model.handle(.character("d"), engine: engine, now: 0)
        #expect(unduck == [.setSession(AudioSession.Configuration())])
        #expect(model.handle(.character("m"), engine: engine, now: 0)
                    == [.setSession(AudioSession.Configuration(categoryOptions: [.duckOthers], mode: .voiceChat))])
        #expect(model.handle(.character("a"), engine: engine, now: 0) == [.setActive(false)])
        #expect(model.handle(.character("o"), engine: engine, now: 0) == [.overrideOutput(.speaker)])
        engine.speakerOverride = true
        #expect(model.handle(.character("o"), engine: engine, now: 0) == [.overrideOutput(.none)])
    }

    @Test func everyOptionHasAKeyAndAName() {
        let keys = DemoScreenModel.optionKeys.map(\.key)
        #expect(Set(keys).count == keys.count)
        #expect(Set(DemoScreenModel.optionKeys.map(\.name)) == Set(AudioSession.CategoryOptions.names))
        // No option key is a global key or another session key.
        #expect(Set(keys).isDisjoint(with: ["q", "c", "C", "m", "M", "a", "o"]))
    }

    @Test func numberKeysTabAndQuit() {
        var model = DemoScreenModel(hasContent: false)
        _ = model.handle(.character("3"), engine: Self.running, now: 0)
        #expect(model.page == .playback)
        _ = model.handle(.tab, engine: Self.running, now: 0)
        #expect(model.page == .footsteps)
        _ = model.handle(.backTab, engine: Self.running, now: 0)
        _ = model.handle(.backTab, engine: Self.running, now: 0)
        #expect(model.page == .route)
        _ = model.handle(.character("1"), engine: Self.running, now: 0)
        _ = model.handle(.backTab, engine: Self.running, now: 0)
        #expect(model.page == .log)
        _ = model.handle(.character("9"), engine: Self.running, now: 0)
        #expect(model.page == .log)
        #expect(!model.quitRequested)
        var other = model
        _ = model.handle(.character("q"), engine: Self.running, now: 0)
        _ = other.handle(.controlC, engine: Self.running, now: 0)
        #expect(model.quitRequested && other.quitRequested)
    }

    @Test func contentPagesWithoutABankSayWhyAndIgnoreKeys() {
        var model = DemoScreenModel(hasContent: false)
        model.page = .rtpc
        #expect(model.handle(.character("e"), engine: Self.running, now: 0).isEmpty)
        #expect(model.render(engine: Self.running, width: 80, height: 24).contains("No bank loaded"))
    }

    @Test func theFilePromptTakesAPath() {
        var model = DemoScreenModel(hasContent: true)
        model.page = .playback
        #expect(model.handle(.character("f"), engine: Self.running, now: 0).isEmpty)
        for c in "/tmp/a.wavq" { _ = model.handle(.character(c), engine: Self.running, now: 0) }
        _ = model.handle(.backspace, engine: Self.running, now: 0)
        #expect(!model.quitRequested)  // q typed into the prompt is a letter
        #expect(model.render(engine: Self.running, width: 80, height: 24).contains("/tmp/a.wav_"))
        #expect(model.handle(.enter, engine: Self.running, now: 0) == [.playFile("/tmp/a.wav")])
        #expect(model.prompt == nil)
        _ = model.handle(.character("f"), engine: Self.running, now: 0)
        _ = model.handle(.escape, engine: Self.running, now: 0)
        #expect(model.prompt == nil)
    }

    @Test func playbackKeys() {
        var model = DemoScreenModel(hasContent: true)
        model.page = .playback
        #expect(model.handle(.character("c"), engine: Self.running, now: 0) == [.playFile(HeadlessDemo.chimePath)])
        #expect(model.handle(.character("l"), engine: Self.running, now: 0) == [.loopMusic(true)])
        #expect(model.handle(.character("l"), engine: Self.running, now: 0) == [.loopMusic(false)])
        #expect(model.handle(.character("z"), engine: Self.running, now: 0) == [.suspend(true)])
        var suspended = Self.running
        suspended.isRunning = false
        #expect(model.handle(.character("z"), engine: suspended, now: 0) == [.suspend(false)])
        #expect(model.handle(.character("x"), engine: Self.running, now: 0) == [.muteBackgroundMusic(true)])
        #expect(model.handle(.character("s"), engine: Self.running, now: 0) == [.stopAll])
    }

    @Test func walkingStepsEveryHalfSecond() {
        var model = DemoScreenModel(hasContent: true)
        model.page = .footsteps
        let step = DemoAction.post("Play_Footstep", object: PageObject.player)
        #expect(model.handle(.right, engine: Self.running, now: 0)
                    == [.setSwitch(group: "Surface", value: "gravel", object: PageObject.player)])
        #expect(model.handle(.left, engine: Self.running, now: 0).count == 1)
        #expect(model.handle(.left, engine: Self.running, now: 0)
                    == [.setSwitch(group: "Surface", value: "wood", object: PageObject.player)])
        #expect(model.handle(.character(" "), engine: Self.running, now: 0) == [step])
        #expect(model.handle(.character("w"), engine: Self.running, now: 1) == [step])
        #expect(model.tick(now: 1.2).isEmpty)
        #expect(model.tick(now: 1.5) == [step])
        _ = model.handle(.character("w"), engine: Self.running, now: 1.6)
        #expect(model.tick(now: 3).isEmpty)
    }

    @Test func rpmKeysSetTheRTPC() {
        var model = DemoScreenModel(hasContent: true)
        model.page = .rtpc
        #expect(model.handle(.character("e"), engine: Self.running, now: 0) == [.post("Play_Engine", object: PageObject.car)])
        #expect(model.handle(.character("+"), engine: Self.running, now: 0) == [.setRPM(1300)])
        #expect(model.handle(.down, engine: Self.running, now: 0) == [.setRPM(800)])
        var engine = Self.running
        engine.rpmInForce = 640
        let screen = model.render(engine: engine, width: 80, height: 24)
        #expect(screen.contains("RPM set     800"))
        #expect(screen.contains("in force    640"))
    }

    @Test func theEmitterMovesWithArrowsAndOrbitsAtItsDistance() {
        var model = DemoScreenModel(hasContent: true)
        model.page = .positioning
        #expect(model.handle(.character("p"), engine: Self.running, now: 0)
                    == [.post("Play_Emitter", object: PageObject.emitter)])
        #expect(model.handle(.right, engine: Self.running, now: 0)
                    == [.setPosition(PageObject.emitter, SoundEngine.Vector3(x: 1, y: 0, z: 8))])
        _ = model.handle(.down, engine: Self.running, now: 0)
        for _ in 0..<40 { _ = model.handle(.left, engine: Self.running, now: 0) }
        #expect(model.emitter.x == -EmitterModel.limit && model.emitter.z == 7)
        _ = model.handle(.character("h"), engine: Self.running, now: 0)
        #expect(model.emitter.position == SoundEngine.Vector3(x: 0, y: 0, z: 8))
        #expect(OrbitModel.side(degrees: model.emitter.degrees) == "front")

        _ = model.handle(.character("o"), engine: Self.running, now: 0)
        _ = model.tick(now: 10)
        let moved = model.tick(now: 12)  // a quarter turn: front to right
        #expect(moved.count == 1)
        #expect(abs(model.emitter.x - 8) < 1e-3 && abs(model.emitter.z) < 1e-3)
        #expect(abs(model.emitter.distance - 8) < 1e-3)
        let screen = model.render(engine: Self.running, width: 80, height: 24)
        #expect(screen.contains("(right)"))
        #expect(screen.contains("world"))
    }

    @Test func musicKeys() {
        var model = DemoScreenModel(hasContent: true)
        model.page = .music
        #expect(model.handle(.character("m"), engine: Self.running, now: 0) == [.post("Play_Music", object: PageObject.player)])
        #expect(model.handle(.character("d"), engine: Self.running, now: 0) == [.post("Play_Dialogue", object: PageObject.player)])
        var engine = Self.running
        engine.backgroundMusicMuted = true
        #expect(model.handle(.character("x"), engine: engine, now: 0) == [.muteBackgroundMusic(false)])
        #expect(model.render(engine: engine, width: 80, height: 24).contains("Background music muted   yes"))
    }

    @Test func everyPageFits80x24WithTheLogStripAndTheKeys() {
        var model = DemoScreenModel(hasContent: true)
        for i in 0..<10 { model.log.append(.init(t: Double(i), text: "event \(i)")) }
        model.message = "! something failed"
        for page in DemoPage.allCases {
            model.page = page
            for (width, height) in [(80, 24), (132, 50)] {
                let screen = model.render(engine: Self.running, width: width, height: height)
                #expect(screen.lines.count == height)
                #expect(screen.lines[0].contains(page.title))
                #expect(screen.lines[height - 1].hasPrefix("1-8 page  Tab next  q quit"))
                #expect(screen.lines[height - 2].hasPrefix("! something failed"))
                #expect(screen.contains("   9.000  event 9"), "\(page) shows the newest notification")
                if page == .log { #expect(screen.contains("   5.000  event 5")) }
            }
        }
    }

    @Test func aTinyTerminalIsClippedNotACrash() {
        var model = DemoScreenModel(hasContent: true)
        model.log.append(.init(t: 1, text: "engine running"))
        model.emitter.x = -EmitterModel.limit
        for page in DemoPage.allCases {
            model.page = page
            for (width, height) in [(1, 1), (20, 5), (40, 10), (79, 23)] {
                #expect(model.render(engine: Self.running, width: width, height: height, glyphs: .ascii).lines.count == height)
            }
        }
    }

    @Test func theSessionAndRoutePagesShowTheEnginesState() {
        var model = DemoScreenModel(hasContent: true)
        var engine = Self.running
        engine.configuration = AudioSession.Configuration(category: .playAndRecord, categoryOptions: [.defaultToSpeaker])
        let usb = EngineSnapshot.Port(type: "USBAudio", name: "USB Headphones", uid: "usbhp")
        engine.outputs = [usb]
        engine.availableOutputs = [Self.speaker, usb]
        let session = model.render(engine: engine, width: 80, height: 24)
        #expect(session.contains("Category     playAndRecord"))
        #expect(session.contains("[x] s  defaultToSpeaker"))
        #expect(session.contains("[ ] x  mixWithOthers"))
        model.page = .route
        let route = model.render(engine: engine, width: 80, height: 24)
        #expect(route.lines.contains { $0.contains("route out") && $0.contains("USB Headphones") && $0.contains("usbhp") })
        #expect(route.lines.contains { $0.contains("available out") && $0.contains("speaker") })
    }

    @Test func theLogKeepsTheNewestEntries() {
        var log = EventLog(capacity: 3)
        for i in 0..<5 { log.append(.init(t: Double(i) + 0.0005, text: "e\(i)")) }
        #expect(log.entries.map(\.text) == ["e2", "e3", "e4"])
        #expect(log.last(2).map(\.text) == ["e3", "e4"])
        #expect(log.entries[0].line == "   2.001  e2" || log.entries[0].line == "   2.000  e2")
    }
}
