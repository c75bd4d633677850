/// What an event's callback is told (Wwise `AkCallbackType`).
///
/// Callbacks run on the engine's event thread (`SoundEngine-evt`), never on
/// the render thread and never under an engine lock: they may call the
/// engine, including `postEvent`. They should return quickly — other
/// callbacks and notifications wait behind them.
public enum EventCallback: Hashable, Sendable {
    /// The posting has finished (`AK_EndOfEvent`): every voice it started
    /// has ended and none of its delayed actions is still waiting. Sent
    /// exactly once per ``PlayingID``, whatever ended it (played out,
    /// ``SoundEngineInstance/stopPlayingID(_:fadeOut:)``, a stop action, an
    /// unloaded bank or game object, terminate), and also for an event that
    /// played nothing.
    case endOfEvent(PlayingID)
    /// A voice of the posting crossed a marker of its sound (`AK_Marker`):
    /// the marker's name from the bank, the sound's name. Markers arrive in
    /// order, at most about one render quantum (plus the event thread's
    /// 10 ms poll) after the marked audio was mixed; each lap of a looping
    /// sound crosses them again; markers crossed while a voice is virtual
    /// are skipped. Always before the posting's ``endOfEvent(_:)``.
    case marker(PlayingID, name: String, sound: String)
}
