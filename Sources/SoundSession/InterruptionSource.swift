/// What on Linux interrupted the session (there is no such key on iOS).
///
/// See docs/audio-session.md, "Interruptions", for when each one fires.
public enum InterruptionSource: String, Hashable, Sendable, Codable, CaseIterable {
    /// The server asked our stream to cork (`PA_STREAM_EVENT_REQUEST_CORK`,
    /// sent by PulseAudio's module-role-cork; never by pipewire-pulse).
    case serverCorkRequest
    /// Another client's stream with `media.role=phone` is playing.
    case phoneCall
    /// While our category is non-mixable, another client's music or video
    /// stream started later and won.
    case otherMedia
    /// The input in use was muted (a mic-mute key), in a category with input
    /// and without ``CategoryOptions/overrideMutedMicrophoneInterruption``.
    case microphoneMuted

    /// The reason a began from this source carries:
    /// ``InterruptionReason/builtInMicMuted`` for a muted microphone,
    /// ``InterruptionReason/default`` (another session took the audio) otherwise.
    public var reason: InterruptionReason { self == .microphoneMuted ? .builtInMicMuted : .default }
}
