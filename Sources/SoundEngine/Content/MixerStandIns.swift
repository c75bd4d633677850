import SoundCore
import SoundMixer

// TEMPORARY STAND-INS — deleted by the lead when the mixer branch merges.
//
// The mixer engineer adds these two calls (same signatures) with a real
// low-pass filter and one command for volume and pan. Until then the
// content layer codes against them here: volume and pan as two commands,
// and no filter at all (the cut-off is computed and "sent", but unheard).
extension Mixer {
    /// Stand-in: volume and pan as two ramped commands.
    func setVolumeAndPan(_ voice: VoiceID, volume: Float, pan: Float, rampFrames: Int? = nil) throws(SoundEngineError) {
        try setVolume(voice, volume, rampFrames: rampFrames)
        try setPan(voice, pan, rampFrames: rampFrames)
    }

    /// Stand-in: checks the voice exists and does nothing else (no filter yet).
    func setLowPass(_ voice: VoiceID, cutoffHz: Float?, rampFrames: Int? = nil) throws(SoundEngineError) {
        guard isActive(voice) else { throw .idNotFound("\(voice) has ended or never existed") }
    }
}
