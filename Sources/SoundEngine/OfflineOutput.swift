package import SoundBackend

extension SoundEngine {
    /// An output with no sound server, for ``SoundEngine/initialize(_:_:offline:)``:
    /// the engine renders only when ``render(frames:)`` is called, on the
    /// calling thread. For a game's unit tests of its audio logic (no server,
    /// a deterministic clock) and for offline bounces.
    ///
    /// ```swift
    /// let output = SoundEngine.OfflineOutput()
    /// try SoundEngine.initialize(SoundEngine.defaultInitSettings(), SoundEngine.defaultPlatformInitSettings(),
    ///                            offline: output)
    /// defer { SoundEngine.terminate() }
    /// try SoundEngine.play(try SoundEngine.loadSound(path: "hit.wav"))
    /// let samples = output.render(frames: 4800)   // 100 ms, interleaved
    /// ```
    ///
    /// It pretends to be a server with one output, a built-in speaker named
    /// `offline`; it is not a model of PulseAudio (no other apps, no calls,
    /// no devices coming and going). One output serves one engine.
    public final class OfflineOutput: Sendable {
        package let backend = OfflineBackend()

        /// An output for one ``SoundEngine/initialize(_:_:offline:)``.
        public init() {}

        /// Advances the engine's clock by `frames` and returns what it
        /// rendered: interleaved samples of the platform settings' channel
        /// count, as float32 (an int16 output's scaled to -1…1). Queued work
        /// (posted events' actions) runs first, as it would before a server's
        /// next request. Empty while the engine is paused (suspended without
        /// render-anyway, interrupted, inactive, in the background), before
        /// initialize and after terminate. `frames` is clamped to 0…1 048 576
        /// (about 22 s at 48 kHz; render a longer bounce in several calls).
        public func render(frames: Int) -> [Float] { backend.renderFloat(frames: frames) ?? [] }
    }
}
