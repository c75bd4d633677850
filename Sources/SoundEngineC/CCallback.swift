import CSoundEngineABI
import Glibc
import SoundEngine
import SoundBackend
import SoundCore
import SoundMixer
import SoundSession

/// A C function pointer and the cookie the game gave with it, carried into
/// the engine's Swift callbacks.
///
/// `@unchecked Sendable`: the function is plain C code, and sound_engine.h
/// tells the game that it is called with its cookie on the engine's event
/// thread (the log callback: on any thread); the engine never dereferences
/// the cookie.
struct CCallback<Function>: @unchecked Sendable {
    let function: Function
    let cookie: UnsafeMutableRawPointer?

    /// `nil` when the game passed no function.
    init?(_ function: Function?, _ cookie: UnsafeMutableRawPointer?) {
        guard let function else { return nil }
        self.function = function
        self.cookie = cookie
    }
}

/// The engine's log messages, passed to the game's SE_LogCallback from
/// `minimum` up.
struct CLogger: SoundLogger {
    let callback: CCallback<SE_LogCallback>
    let minimum: LogLevel

    func log(_ level: LogLevel, _ message: String) {
        guard level >= minimum else { return }
        message.withCString { callback.function(SE_LogLevel(level.rawValue), $0, callback.cookie) }
    }
}

extension PlatformInitSettings.AudioCallbacks {
    /// The session callbacks of `p`, each calling its C function with its cookie.
    init(_ p: SE_PlatformInitSettings) {
        self.init()
        if let c = CCallback(p.interruption_callback, p.interruption_callback_cookie) {
            interruptionCallback = { interruption in
                var info = interruption.c
                c.function(&info, c.cookie)
            }
        }
        if let c = CCallback(p.route_change_callback, p.route_change_callback_cookie) {
            routeChangeCallback = { change in
                let previous = RouteBlock.make(change.previousRoute)
                let current = RouteBlock.make(change.currentRoute)
                defer {
                    free(previous)
                    free(current)
                }
                var info = SE_RouteChange(
                    reason: SE_RouteChangeReason(change.reason.rawValue), previous_route: previous,
                    current_route: current)
                c.function(&info, c.cookie)
            }
        }
        if let c = CCallback(p.media_services_lost_callback, p.media_services_lost_callback_cookie) {
            mediaServicesLostCallback = { c.function(c.cookie) }
        }
        if let c = CCallback(p.media_services_reset_callback, p.media_services_reset_callback_cookie) {
            mediaServicesResetCallback = { c.function(c.cookie) }
        }
        if let c = CCallback(p.other_audio_playing_callback, p.other_audio_playing_callback_cookie) {
            otherAudioPlayingCallback = { playing in c.function(playing, c.cookie) }
        }
        if let c = CCallback(p.silence_secondary_audio_hint_callback, p.silence_secondary_audio_hint_callback_cookie) {
            silenceSecondaryAudioHintCallback = { type in c.function(SE_SilenceSecondaryAudioHintType(type.rawValue), c.cookie) }
        }
        if let c = CCallback(p.input_callback, p.input_callback_cookie) {
            let channels = max(1, Int(p.input_channel_count))
            inputCallback = { samples in
                c.function(samples.baseAddress, samples.count / channels, UInt32(channels), c.cookie)
            }
        }
    }
}
