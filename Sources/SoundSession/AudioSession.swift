// The audio-session policy target. See docs/audio-session.md.
