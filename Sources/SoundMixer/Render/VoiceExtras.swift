/// What only some voices use, per voice slot, kept out of ``RenderVoice``
/// so that the voice table the mix loop walks stays compact: the per-channel
/// gains of a voice placed over a surround layout (docs/mixer.md,
/// "Surround"). Render-owned, like the voice table; a copy of a voice into
/// a fade slot copies its extras (``RenderCore/copyVoice(_:to:)``).
struct VoiceExtras: BitwiseCopyable {
    /// Gain of the voice's (mono) signal in each output channel, ramped.
    /// Meaningful while the voice's ``RenderVoice/speakerLayout`` is the
    /// mix's channel count.
    var speakers: InlineArray<8, GainRamp>

    /// No gains.
    @_noLocks init() {
        speakers = InlineArray(repeating: GainRamp(0))
    }
}
