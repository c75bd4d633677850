/// Counters a ``Mixer`` keeps from its creation, read with ``Mixer/statistics``.
/// Each field is read from its own atomic, so a snapshot is not one instant.
package struct MixerStatistics: Sendable, Hashable {
    /// Commands the control side queued for the render thread.
    package var commandsQueued: UInt64 = 0
    /// Commands the render thread has applied.
    package var commandsProcessed: UInt64 = 0
    /// Calls refused with `commandQueueFull` (nothing was queued for them).
    package var commandsRejected: UInt64 = 0
    /// Render quanta mixed.
    package var quantaRendered: UInt64 = 0
    /// Calls of the render entry.
    package var renderCalls: UInt64 = 0
    /// Render calls that found another call still rendering and wrote silence.
    package var overlappingRenderCalls: UInt64 = 0
    /// Voices playing, paused or waiting to start, as of the last quantum.
    package var voicesActive: Int = 0
    /// Times a streamed voice ran dry.
    package var starvations: UInt64 = 0
    /// Source frames streamed voices have played from their rings (the
    /// render thread's side of streaming; 0 means no stream was heard).
    package var streamedFrames: UInt64 = 0
    /// Events the render thread produced.
    package var eventsPosted: UInt64 = 0
    /// Meter readings and starvation notices lost because the event queue
    /// was full (voice ends are never lost).
    package var eventsDropped: UInt64 = 0
    /// Voice ends that found the event queue full and were reported by a
    /// sweep of the voice slots instead (still exactly once each).
    package var voiceEndsDeferred: UInt64 = 0
    /// Voices not mixed because of ``MixerConfiguration/maxAudibleVoices``
    /// (virtual, or fading out to become so), as of the last quantum.
    package var virtualVoices: Int = 0
    /// Voices ended because the voice limit left them out (``VoiceLimitBehavior/kill``,
    /// and streamed voices).
    package var voicesKilledByLimit: UInt64 = 0
    /// Voices ended because every voice slot was in use and a voice of higher
    /// priority took theirs (a heard one fades out over the de-click).
    package var voicesStolen: UInt64 = 0
    /// Shared low-pass filters running (docs/mixer.md, "The shared
    /// low-pass"): one per bus and 1/8-octave band that low-passed voices
    /// use, or whose tail is still ringing; as of the last quantum.
    package var sharedLowPassFilters: Int = 0
    /// Low-passed voices filtered on their own because every shared filter
    /// was taken, as of the last quantum.
    package var voicesFilteredAlone: Int = 0
    /// Name of the kernel set in use: "avx512", "avx2+fma" or "portable".
    package var kernels: String = ""

    /// Creates zeroed counters.
    package init() {}
}
