/// What the application and the game did.
package enum LifecycleEvent: Hashable, Sendable {
    /// The app went to the background (window hidden or minimised; the game
    /// decides what counts).
    case appEnteredBackground
    /// The app came back to the foreground: the session takes audio back, as
    /// iOS apps do in `applicationDidBecomeActive`.
    case appEnteredForeground
    /// The game suspended the engine (`SoundEngine.suspend(renderAnyway:)`),
    /// or paused its own audio. With `renderAnyway` the engine keeps processing
    /// and outputs nothing. The engine stays paused until ``gameWokeUp``, even
    /// when an interruption ends meanwhile.
    case gameSuspended(renderAnyway: Bool)
    /// The game woke the engine (`SoundEngine.wakeupFromSuspend()`).
    case gameWokeUp
}
