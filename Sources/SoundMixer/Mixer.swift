// The real-time mixer target. See docs/mixer.md.
