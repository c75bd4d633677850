/// Why an interruption began: AVAudioSession's `InterruptionReason`, same raw values.
///
/// SoundEngine produces ``default`` and ``builtInMicMuted`` (the input in use
/// was muted); the Linux-specific cause is in ``InterruptionSource``. The
/// other cases exist so values from iOS code map.
public enum InterruptionReason: UInt, Hashable, Sendable, Codable, CaseIterable {
    /// Another session took the audio (`0`).
    case `default` = 0
    /// The app was suspended (`1`, deprecated on iOS).
    case appWasSuspended = 1
    /// The built-in microphone was muted (`2`).
    case builtInMicMuted = 2
    /// The scene went to the background (`3`, visionOS).
    case sceneWasBackgrounded = 3
    /// The route was disconnected (`4`).
    case routeDisconnected = 4
    /// The device is not authenticated (`5`).
    case deviceUnauthenticated = 5
}
