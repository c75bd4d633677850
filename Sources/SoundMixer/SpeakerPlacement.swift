package import SoundCore

/// Where a voice sits among the speakers of a surround output
/// (docs/mixer.md, "Surround"): a direction in the listener's horizontal
/// plane, how far the sound spreads from it, and how much of it goes to the
/// LFE channel.
///
/// On a stereo (or mono) output a placement changes nothing: the voice is
/// panned by its ``VoiceParameters/pan`` exactly as without one. On an
/// output of 3 to 8 channels a placed voice is mixed down to one signal
/// (a stereo source as (L + R) / 2) and panned over the speakers of the
/// layout by pairwise amplitude panning (VBAP), its energy spread over all
/// of them as `spread` says, with `lfe` of it in the LFE channel (5.1, 6.1
/// and 7.1).
package struct SpeakerPlacement: Sendable, Hashable {
    /// The direction, in radians in the listener's horizontal plane: 0
    /// ahead, +π/2 right, −π/2 left, ±π behind (−π…π); `nil` for a voice
    /// without a direction, which stays on the front pair, panned by its
    /// ``VoiceParameters/pan`` (only its ``lfe`` makes it placed).
    package var azimuth: Float?
    /// 0 (a point at `azimuth`) … 1 (the same level from every speaker):
    /// each speaker's power is `(1 − spread) · vbap² + spread / speakers`.
    package var spread: Float
    /// Linear gain, 0…16, of the voice's signal (after its volume) in the
    /// LFE channel; 0 for none. Layouts without an LFE channel drop it.
    package var lfe: Float

    /// A placement; every argument defaults to none (ahead, a point, no LFE).
    package init(azimuth: Float? = nil, spread: Float = 0, lfe: Float = 0) {
        self.azimuth = azimuth
        self.spread = spread
        self.lfe = lfe
    }

    /// Whether it changes anything on a surround output: a direction or an LFE send.
    var isPlaced: Bool { azimuth != nil || lfe > 0 }

    /// Refuses NaN, infinities and values out of range, naming the field.
    package static func check(_ p: SpeakerPlacement, _ name: String = "placement") throws(SoundEngineError) {
        if let azimuth = p.azimuth {
            guard azimuth.isFinite, abs(azimuth) <= Float.pi + 1e-6 else {
                throw .invalidParameter("\(name).azimuth = \(azimuth): must be finite, −π…π radians")
            }
        }
        guard p.spread.isFinite, (0...1).contains(p.spread) else {
            throw .invalidParameter("\(name).spread = \(p.spread): must be 0…1")
        }
        guard p.lfe.isFinite, (0...16).contains(p.lfe) else {
            throw .invalidParameter("\(name).lfe = \(p.lfe): must be finite, 0…16 (linear gain)")
        }
    }
}
