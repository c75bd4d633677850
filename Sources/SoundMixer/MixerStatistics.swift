/// Counters a ``Mixer`` keeps from its creation, read with ``Mixer/statistics``.
/// Each field is read from its own atomic, so a snapshot is not one instant.
public struct MixerStatistics: Sendable, Hashable {
    /// Commands the control side queued for the render thread.
    public var commandsQueued: UInt64 = 0
    /// Commands the render thread has applied.
    public var commandsProcessed: UInt64 = 0
    /// Calls refused with `commandQueueFull` (nothing was queued for them).
    public var commandsRejected: UInt64 = 0
    /// Render quanta mixed.
    public var quantaRendered: UInt64 = 0
    /// Calls of the render entry.
    public var renderCalls: UInt64 = 0
    /// Render calls that found another call still rendering and wrote silence.
    public var overlappingRenderCalls: UInt64 = 0
    /// Voices playing, paused or waiting to start, as of the last quantum.
    public var voicesActive: Int = 0
    /// Times a streamed voice ran dry.
    public var starvations: UInt64 = 0
    /// Source frames streamed voices have played from their rings (the
    /// render thread's side of streaming; 0 means no stream was heard).
    public var streamedFrames: UInt64 = 0
    /// Events the render thread produced.
    public var eventsPosted: UInt64 = 0
    /// Meter readings and starvation notices lost because the event queue
    /// was full (voice ends are never lost).
    public var eventsDropped: UInt64 = 0
    /// Voice ends that found the event queue full and were reported by a
    /// sweep of the voice slots instead (still exactly once each).
    public var voiceEndsDeferred: UInt64 = 0
    /// Voices not mixed because of ``MixerConfiguration/maxAudibleVoices``
    /// (virtual, or fading out to become so), as of the last quantum.
    public var virtualVoices: Int = 0
    /// Voices ended because the voice limit left them out (``VoiceLimitBehavior/kill``,
    /// and streamed voices).
    public var voicesKilledByLimit: UInt64 = 0
    /// Shared low-pass filters running (docs/mixer.md, "The shared
    /// low-pass"): one per bus and 1/8-octave band that low-passed voices
    /// use, or whose tail is still ringing; as of the last quantum.
    public var sharedLowPassFilters: Int = 0
    /// Low-passed voices filtered on their own because every shared filter
    /// was taken, as of the last quantum.
    public var voicesFilteredAlone: Int = 0
    /// Name of the kernel set in use: "avx512", "avx2+fma" or "portable".
    public var kernels: String = ""

    /// Creates zeroed counters.
    public init() {}
}
