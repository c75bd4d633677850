package import SoundCore

extension SoundEngine {
    /// What a playing ID's callback is told (Wwise `AkCallbackInfo`), for a
    /// posting of ``SoundEngine/postEvent(_:on:callback:)`` and a play of
    /// ``SoundEngine/play(_:on:_:callback:)`` alike.
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

        /// The playing ID the callback is about.
        public var playingID: PlayingID {
            switch self {
            case .endOfEvent(let id), .marker(let id, _, _), .voiceFailed(let id, _): id
            }
        }
    }
}
