package import SoundCore

extension SoundEngine {
    /// What a playing ID's callback is told (Wwise `AkCallbackInfo`), for a
    /// posting of ``SoundEngine/postEvent(_:on:callbackTypes:callback:)`` and a play of
    /// ``SoundEngine/play(_:on:_:callbackTypes:callback:)`` alike.
    ///
    /// Callbacks run on the engine's event thread (`SoundEngine-evt`), never on
    /// the render thread and never under an engine lock: they may call the
    /// engine, including `postEvent`. They should return quickly — other
    /// callbacks and notifications wait behind them.
    public enum CallbackInfo: Hashable, Sendable {
        /// It has finished (`AK_EndOfEvent`): every voice it started has ended
        /// and none of its delayed actions is still waiting. Sent exactly once
        /// per ``PlayingID``, whatever ended it (played out,
        /// ``SoundEngine/stop(_:fade:)``, a stop action, an unloaded sound,
        /// bank or game object, a failed stream, terminate), and also for an
        /// event that played nothing. Always the last callback of its ID.
        case endOfEvent(PlayingID)
        /// A voice crossed a marker of its bank sound (`AK_Marker`): the
        /// marker's name from the bank, the sound's name. Markers arrive in
        /// order, at most about one render quantum (plus the event thread's
        /// 10 ms poll) after the marked audio was mixed; each lap of a looping
        /// sound crosses them again; markers crossed while a voice is virtual
        /// are skipped.
        case marker(PlayingID, name: String, sound: String)
        /// A voice of it did not play: it could not start (`maxReached`:
        /// every voice slot holds a voice of at least its priority, and the
        /// voice limit could free none; the error names the sound), or its
        /// streamed file could not be opened or read (the error names the
        /// file and why). ``endOfEvent(_:)`` follows once the rest of the
        /// playing has ended.
        case voiceFailed(PlayingID, SoundEngineError)
        /// A voice of it started (`AK_Duration`): its sound's name, the
        /// source's length at its own rate — one lap of a looping sound,
        /// before any pitch change; `nil` for a stream whose file does not
        /// say — and whether it streams from disk. Sent once per voice, before
        /// any marker of that voice and before ``endOfEvent(_:)``; a voice
        /// that could not start sends ``voiceFailed(_:_:)`` instead.
        case duration(PlayingID, sound: String, length: Duration?, streaming: Bool)

        /// The playing ID the callback is about.
        public var playingID: PlayingID {
            switch self {
            case .endOfEvent(let id), .marker(let id, _, _), .voiceFailed(let id, _), .duration(let id, _, _, _): id
            }
        }

        /// Which of ``CallbackTypes`` it is.
        public var type: CallbackTypes {
            switch self {
            case .endOfEvent: .endOfEvent
            case .marker: .marker
            case .voiceFailed: .voiceFailed
            case .duration: .duration
            }
        }
    }

    /// Which ``CallbackInfo`` cases a callback is told (Wwise's
    /// `AkCallbackType` flags of `PostEvent`, with the same bits): pass them
    /// as `callbackTypes:` to ``SoundEngine/postEvent(_:on:callbackTypes:callback:)``
    /// or ``SoundEngine/play(_:on:_:callbackTypes:callback:)``.
    public struct CallbackTypes: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// ``CallbackInfo/endOfEvent(_:)`` (`AK_EndOfEvent`, 0x1).
        public static let endOfEvent = CallbackTypes(rawValue: 0x1)
        /// ``CallbackInfo/marker(_:name:sound:)`` (`AK_Marker`, 0x4).
        public static let marker = CallbackTypes(rawValue: 0x4)
        /// ``CallbackInfo/duration(_:sound:length:streaming:)`` (`AK_Duration`, 0x8).
        public static let duration = CallbackTypes(rawValue: 0x8)
        /// ``CallbackInfo/voiceFailed(_:_:)`` (0x10; Wwise reports it only in its log).
        public static let voiceFailed = CallbackTypes(rawValue: 0x10)
        /// What a callback is told unless it asks otherwise: its end, its
        /// markers and its failed voices — not the durations, which a
        /// callback written as `{ _ in done() }` would take for its end.
        public static let `default`: CallbackTypes = [.endOfEvent, .marker, .voiceFailed]
        /// Every type.
        public static let all: CallbackTypes = [.endOfEvent, .marker, .duration, .voiceFailed]
    }
}

/// A callback that is told only the `types` asked for; `nil` when nothing is
/// asked (or there is no callback).
func filtered(
    _ callback: (@Sendable (SoundEngine.CallbackInfo) -> Void)?, _ types: SoundEngine.CallbackTypes
) -> (@Sendable (SoundEngine.CallbackInfo) -> Void)? {
    guard let callback, !types.isEmpty else { return nil }
    if types.isSuperset(of: .all) { return callback }
    return { info in if types.contains(info.type) { callback(info) } }
}
