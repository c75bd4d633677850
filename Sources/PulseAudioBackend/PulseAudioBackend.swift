// The PulseAudio backend.
