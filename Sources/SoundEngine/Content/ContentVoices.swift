import SoundContent
import SoundMixer

/// How the content layer starts its voices.
enum ContentVoices {
    /// The one place a content voice's ``VoiceParameters`` are made.
    static func parameters(
        _ mix: VoiceMix, sound: BankSound, fadeInFrames: Int, start: VoiceStart
    ) -> VoiceParameters {
        let p = VoiceParameters(
            volume: mix.volume, pan: mix.pan, pitch: mix.pitch, loop: sound.loop, fadeInFrames: fadeInFrames,
            start: start)
        // MIXER MERGE: set the fields the mixer branch adds here —
        //   p.lowPassHz = mix.lowPassHz
        //   p.priority = sound.priority
        //   p.whenInaudible = sound.virtualBehavior == .resume ? .resume : .kill
        // (then make `p` a var).
        return p
    }
}
