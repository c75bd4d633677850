package import SoundCore

/// Opens a streamed sound's source; called on the streaming thread once per
/// voice that plays the sound.
package typealias AudioSourceOpener = @Sendable () throws(SoundEngineError) -> any AudioFrameSource

/// A request to the streaming thread: open `opener` into stream `slot` for `voice`.
struct StreamJob: Sendable {
    let slot: Int
    let opener: AudioSourceOpener
    let loop: Bool
    let voice: VoiceID
    /// The source frame to start at (a seek's target).
    var startFrame = 0
}
