/// How a voice starts playing: everything ``Mixer/play(_:on:_:)`` needs
/// besides the sound and the bus. Defaults: unity volume, centre, original
/// pitch, no loop, no fade, starting at the next render quantum, the sound's
/// own interpolation quality (chosen when it was loaded; linear unless said),
/// no low-pass filter, priority 50, killed when the voice limit leaves it out.
///
/// Any values can be stored; `play` checks each field against the range its
/// doc gives and refuses one outside it (NaN and infinities included) with
/// `invalidParameter` naming it (`VoiceParameters.<field>`), starting nothing.
package struct VoiceParameters: Sendable, Hashable {
    /// Linear gain, 0…16 (1 = unchanged).
    package var volume: Float
    /// Stereo position, -1 (left) … 1 (right), equal-power law: a mono source
    /// gets `cos θ`, `sin θ` with `θ = (pan + 1) · π/4` (−3 dB each at 0); a
    /// stereo source is balanced (each side `min(1, √2 · cos θ / sin θ)`, so
    /// 0 leaves it unchanged).
    package var pan: Float
    /// Playback-rate ratio, 1/256 … 16 (2 = an octave up). The conversion
    /// from the sound's sample rate to the mixer's is applied on top.
    package var pitch: Double
    /// Whether the voice repeats the sound's ``LoopRegion`` until stopped.
    package var loop: Bool
    /// How long the voice fades in from silence (`.zero`: none, only the
    /// short de-click); 0…1 hour.
    package var fadeIn: Duration
    /// When the first frame plays.
    package var start: VoiceStart
    /// Interpolation between source samples for this voice, overriding the
    /// sound's default (the `quality` it was loaded with, see
    /// ``Mixer/loadSound(_:name:loop:quality:)``); `nil` (the default) uses
    /// the sound's.
    package var quality: ResamplerQuality?
    /// Cutoff of the voice's low-pass filter in Hz, 10…24000, or `nil` (the
    /// default) for none. The filter is 2-pole (−12 dB per octave, −3 dB at
    /// the cutoff rounded to 1/8 octave; see
    /// ``Mixer/setLowPass(_:cutoffHz:rampFrames:)``); voices in the same band
    /// of a bus share one filter.
    package var lowPassHz: Float?
    /// Importance of the voice, 0…100 (default 50), when more voices play
    /// than ``MixerConfiguration/maxAudibleVoices``: the lowest-priority ones
    /// are not mixed (ties: the quietest volume × pan gain, then the newest).
    package var priority: Int
    /// What happens to the voice when the voice limit leaves it out:
    /// ``VoiceLimitBehavior/kill`` (the default) or ``VoiceLimitBehavior/resume``.
    package var whenInaudible: VoiceLimitBehavior
    /// Where the voice sits among the speakers of a surround output
    /// (``SpeakerPlacement``); `nil` (the default) for none: the front
    /// pair, by `pan`. On a stereo output it changes nothing.
    package var placement: SpeakerPlacement?
    /// Aux sends the voice starts with (at most 4, each to another bus):
    /// send `k` is entry `k`, as ``Mixer/setSend(_:index:bus:gain:rampFrames:)``
    /// would set it, in the same quantum as the start. Default none.
    package var sends: [VoiceSend]

    /// Creates parameters; every argument has the default described on the type.
    package init(
        volume: Float = 1, pan: Float = 0, pitch: Double = 1, loop: Bool = false, fadeIn: Duration = .zero,
        start: VoiceStart = .immediately, quality: ResamplerQuality? = nil, lowPassHz: Float? = nil,
        priority: Int = 50, whenInaudible: VoiceLimitBehavior = .kill, placement: SpeakerPlacement? = nil,
        sends: [VoiceSend] = []
    ) {
        self.placement = placement
        self.sends = sends
        self.lowPassHz = lowPassHz
        self.priority = priority
        self.whenInaudible = whenInaudible
        self.volume = volume
        self.pan = pan
        self.pitch = pitch
        self.loop = loop
        self.fadeIn = fadeIn
        self.start = start
        self.quality = quality
    }
}

/// One aux send of a voice: its output, times `gain` (linear, 0…16), also
/// goes into `bus` (docs/mixer.md, "Aux sends").
package struct VoiceSend: Sendable, Hashable {
    package var bus: BusID
    package var gain: Float

    package init(bus: BusID, gain: Float) {
        self.bus = bus
        self.gain = gain
    }
}

/// When a voice's first frame plays, to the frame.
package enum VoiceStart: Sendable, Hashable {
    /// At the first frame of the next render quantum.
    case immediately
    /// This many frames (0…2^31−1) into the render quantum that picks the command up.
    case afterFrames(Int)
    /// This long (0…3600 s, the engine's one rule for times) after the start
    /// of the render quantum that picks the command up (converted to frames
    /// at the mix rate).
    case after(Duration)
    /// At this frame (≥ 0) of the mixer's clock (``Mixer/renderedFrames`` counts
    /// frames of rendered quanta). A time already past starts at the next quantum.
    case atFrame(Int64)
}

/// What the mixer does with a voice that ranks below the
/// ``MixerConfiguration/maxAudibleVoices`` most important ones
/// (``VoiceParameters/priority``).
package enum VoiceLimitBehavior: Sendable, Hashable {
    /// The voice ends (fading out over the de-click if it was heard) and its
    /// ``MixerEvent/voiceEnded(_:_:)`` is reported.
    case kill
    /// The voice becomes virtual: it is not mixed, but its position keeps
    /// moving with time (a loop wraps, a one-shot ends when it runs out),
    /// and it fades back in, in sync, when it ranks among the audible again.
    /// A streamed voice is killed instead.
    case resume
    /// The voice becomes virtual holding its place at its start, and plays
    /// from the start when it ranks among the audible again (Wwise's "play
    /// from beginning"). A streamed voice is killed instead.
    case restart
}
