import SoundEngine

/// Performs the model's ``DemoAction``s on the engine and remembers the one
/// voice it must stop by ID (the looping music).
struct DemoActionPerformer {
    let musicBus: SoundEngine.BusID
    private(set) var musicLoop: SoundEngine.PlayingID?

    init(musicBus: SoundEngine.BusID) { self.musicBus = musicBus }

    /// Performs `actions` in order; each one's outcome goes to the model's
    /// status line (failures always, successes unless `quiet`: the timer's
    /// steps and positions would hide everything else).
    mutating func run(_ actions: [DemoAction], into model: inout DemoScreenModel, quiet: Bool) {
        for action in actions {
            do {
                try perform(action)
                if !quiet { model.message = "ok: " + action.description }
            } catch {
                model.message = "! \(action.description): \(error)"
            }
        }
    }

    mutating func perform(_ action: DemoAction) throws(SoundEngineError) {
        switch action {
        case .setSession(let configuration): try SoundEngine.changeAudioSessionProperties(configuration)
        case .setActive(let active): try SoundEngine.audioSession.setActive(active)
        case .overrideOutput(let port): try SoundEngine.audioSession.overrideOutputAudioPort(port)
        case .playFile(let path): _ = try SoundEngine.play(SoundEngine.loadSound(path: path))
        case .loopMusic(true):
            let sound = try SoundEngine.loadSound(path: HeadlessDemo.chimePath, streaming: true)
            musicLoop = try SoundEngine.play(sound, on: musicBus, SoundEngine.PlayParameters(loop: true))
        case .loopMusic(false):
            guard let playing = musicLoop else { return }
            musicLoop = nil
            try SoundEngine.stop(playing, fade: .milliseconds(50))
        case .stopAll:
            musicLoop = nil
            try SoundEngine.stopAll(fade: .milliseconds(50))
        case .suspend(true): try SoundEngine.suspend()
        case .suspend(false): try SoundEngine.wakeupFromSuspend()
        case .muteBackgroundMusic(let mute): try SoundEngine.muteBackgroundMusic(mute)
        case .setSwitch(let group, let value, let object): try SoundEngine.setSwitch(.init(group), .init(value), on: object)
        case .post(let event, let object): _ = try SoundEngine.postEvent(.init(event), on: object)
        case .setRPM(let rpm): try SoundEngine.setRTPCValue("RPM", rpm, on: PageObject.car, ramp: EngineModel.ramp)
        case .setPosition(let object, let position): try SoundEngine.setPosition(object, position)
        }
    }
}
