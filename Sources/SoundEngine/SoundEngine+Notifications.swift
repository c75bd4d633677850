public import Foundation
import SoundSession

extension SoundEngine {
    /// Posted when an interruption begins or ends, like
    /// `AVAudioSession.interruptionNotification`. userInfo:
    /// ``interruptionTypeKey`` (`InterruptionType`), ``interruptionOptionKey``
    /// (`InterruptionOptions`, on ended), ``interruptionReasonKey``
    /// (`InterruptionReason`, on began), ``eventKey`` (the ``SessionEvent``).
    public static let interruptionNotification = Notification.Name("SoundEngineInterruptionNotification")
    /// Posted when the route changes, like `AVAudioSession.routeChangeNotification`.
    /// userInfo: ``routeChangeReasonKey`` (`RouteChangeReason`),
    /// ``routeChangePreviousRouteKey`` (`RouteDescription`), ``eventKey``.
    public static let routeChangeNotification = Notification.Name("SoundEngineRouteChangeNotification")
    /// Posted when the sound server goes away, like
    /// `AVAudioSession.mediaServicesWereLostNotification`. userInfo: ``eventKey``.
    public static let mediaServicesWereLostNotification = Notification.Name(
        "SoundEngineMediaServicesWereLostNotification")
    /// Posted when the server is back and the engine has rebuilt its streams,
    /// like `AVAudioSession.mediaServicesWereResetNotification`. userInfo: ``eventKey``.
    public static let mediaServicesWereResetNotification = Notification.Name(
        "SoundEngineMediaServicesWereResetNotification")
    /// Posted when another app's primary audio starts or stops, like
    /// `AVAudioSession.silenceSecondaryAudioHintNotification`. userInfo:
    /// ``silenceSecondaryAudioHintTypeKey`` (`SilenceSecondaryAudioHintType`), ``eventKey``.
    public static let silenceSecondaryAudioHintNotification = Notification.Name(
        "SoundEngineSilenceSecondaryAudioHintNotification")
    /// Posted for every other ``SessionEvent`` (engine state, other audio
    /// playing, background-music mute). userInfo: ``eventKey``.
    public static let sessionEventNotification = Notification.Name("SoundEngineSessionEventNotification")

    /// userInfo key: the ``SessionEvent`` itself, in every notification.
    public static let eventKey = "SoundEngineEventKey"
    /// userInfo key: an `InterruptionType` (AVAudioSessionInterruptionTypeKey).
    public static let interruptionTypeKey = "AVAudioSessionInterruptionTypeKey"
    /// userInfo key: `InterruptionOptions` (AVAudioSessionInterruptionOptionKey).
    public static let interruptionOptionKey = "AVAudioSessionInterruptionOptionKey"
    /// userInfo key: an `InterruptionReason` (AVAudioSessionInterruptionReasonKey).
    public static let interruptionReasonKey = "AVAudioSessionInterruptionReasonKey"
    /// userInfo key: a `RouteChangeReason` (AVAudioSessionRouteChangeReasonKey).
    public static let routeChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"
    /// userInfo key: the previous `RouteDescription` (AVAudioSessionRouteChangePreviousRouteKey).
    public static let routeChangePreviousRouteKey = "AVAudioSessionRouteChangePreviousRouteKey"
    /// userInfo key: a `SilenceSecondaryAudioHintType` (AVAudioSessionSilenceSecondaryAudioHintTypeKey).
    public static let silenceSecondaryAudioHintTypeKey = "AVAudioSessionSilenceSecondaryAudioHintTypeKey"

    /// The notification name and userInfo for `event`.
    static func notification(for event: SessionEvent) -> (Notification.Name, [String: any Sendable]) {
        var info: [String: any Sendable] = [eventKey: event]
        switch event {
        case .interruption(let i):
            info[interruptionTypeKey] = i.type
            if i.type == .ended { info[interruptionOptionKey] = i.options }
            if let reason = i.reason { info[interruptionReasonKey] = reason }
            return (interruptionNotification, info)
        case .routeChange(let change):
            info[routeChangeReasonKey] = change.reason
            info[routeChangePreviousRouteKey] = change.previousRoute
            return (routeChangeNotification, info)
        case .mediaServicesWereLost:
            return (mediaServicesWereLostNotification, info)
        case .mediaServicesWereReset:
            return (mediaServicesWereResetNotification, info)
        case .silenceSecondaryAudioHint(let type):
            info[silenceSecondaryAudioHintTypeKey] = type
            return (silenceSecondaryAudioHintNotification, info)
        case .engineState, .otherAudioPlaying, .backgroundMusicMuted:
            return (sessionEventNotification, info)
        }
    }
}
