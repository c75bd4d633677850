import SoundEngine

/// An engine call the full-screen demo's model asks for; the driver
/// (``FullScreenDemo``) performs it and shows the result or the error. The
/// model decides, the driver acts (the swift-nio habit): so every key is a
/// plain unit test.
enum DemoAction: Equatable, Sendable {
    /// `changeAudioSessionProperties`.
    case setSession(AudioSession.Configuration)
    /// `audioSession.setActive`.
    case setActive(Bool)
    /// `audioSession.overrideOutputAudioPort`.
    case overrideOutput(AudioSession.PortOverride)
    /// Load and play a file once on the master bus.
    case playFile(String)
    /// Start (true) or stop (false) the chime looping on bus 'music' (mute for background music).
    case loopMusic(Bool)
    /// `stopAll` with a short fade.
    case stopAll
    /// `suspend` (true) or `wakeupFromSuspend` (false).
    case suspend(Bool)
    /// `muteBackgroundMusic`.
    case muteBackgroundMusic(Bool)
    /// `setSwitch` on a game object.
    case setSwitch(group: String, value: String, object: SoundEngine.GameObjectID)
    /// `postEvent` on a game object.
    case post(String, object: SoundEngine.GameObjectID)
    /// `setRTPCValue RPM` on the car, with ``EngineModel/ramp``.
    case setRPM(Double)
    /// `setPosition`.
    case setPosition(SoundEngine.GameObjectID, SoundEngine.Vector3)

    /// The call, as the status line shows it.
    var description: String {
        switch self {
        case .setSession(let c):
            "changeAudioSessionProperties(\(c.category), \(c.categoryOptions), \(c.mode))"
        case .setActive(let active): "setActive(\(active))"
        case .overrideOutput(let port): "overrideOutputAudioPort(.\(port == .speaker ? "speaker" : "none"))"
        case .playFile(let path): "play \(path)"
        case .loopMusic(let on): on ? "play looping music on bus 'music'" : "stop the looping music"
        case .stopAll: "stopAll"
        case .suspend(let on): on ? "suspend" : "wakeupFromSuspend"
        case .muteBackgroundMusic(let mute): "muteBackgroundMusic(\(mute))"
        case .setSwitch(let group, let value, _): "setSwitch \(group) = \(value)"
        case .post(let event, _): "postEvent \(event)"
        case .setRPM(let rpm): "setRTPCValue RPM = \(Int(rpm))"
        case .setPosition(_, let p): String(format: "setPosition (%.1f, %.1f, %.1f)", p.x, p.y, p.z)
        }
    }
}
