// The SoundEngine façade.
