import SoundContent
import SoundMixer

/// How the content layer starts its voices.
enum ContentVoices {
    /// The one place a content voice's ``VoiceParameters`` are made.
    static func parameters(
        _ mix: VoiceMix, sound: BankSound, fadeIn: Duration, start: VoiceStart
    ) -> VoiceParameters {
        var p = VoiceParameters(
            volume: mix.volume, pan: mix.pan, pitch: mix.pitch, loop: sound.loop, fadeIn: fadeIn,
            start: start)
        p.lowPassHz = mix.lowPassHz
        p.placement = mix.placement
        p.sends = mix.orderedSends.map { VoiceSend(bus: $0.send.bus, gain: $0.send.gain) }
        p.priority = sound.priority
        switch sound.virtualBehavior {
        case .kill: p.whenInaudible = .kill
        case .continue: p.whenInaudible = .resume
        case .restart: p.whenInaudible = .restart
        }
        return p
    }
}
