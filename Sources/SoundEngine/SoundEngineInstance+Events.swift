import SoundBackend
import SoundCore
import SoundMixer

extension SoundEngineInstance {
    /// Event thread: drains the mixer's render → control events and runs the
    /// game's voice and meter callbacks (outside every lock).
    func drainMixerEvents() {
        mixer.drainEvents { event in
            switch event {
            case .voiceEnded(let voice, _):
                let (callback, failure) = playback.callbacks.withLock { c in
                    (c.voiceEnded.removeValue(forKey: voice), c.voiceFailures.removeValue(forKey: voice))
                }
                callback?(voice, failure.map { .failed($0) } ?? .finished)
            case .streamFailed(let voice, let error):
                log.log(.error, "streamed \(voice) failed: \(error)")
                playback.callbacks.withLock { c in
                    if c.voiceEnded[voice] != nil { c.voiceFailures[voice] = error }
                }
            case .meter(let bus, let reading):
                playback.callbacks.withLock { $0.meters[bus] }?(reading)
            case .streamStarved(let voice):
                log.log(.warning, "streamed \(voice) starved: the decoder fell behind (silence played)")
            case .eventsDropped(let count):
                log.log(.warning, "\(count) meter, marker or starvation events were lost: the mixer's event queue was full")
            case .marker(let voice, _, let index):
                content.markerCrossed(voice, index: index)
            }
        }
    }

    /// Event thread, once, after terminate: nothing renders any more and the
    /// mixer's last events have been delivered. The voices still playing were
    /// stopped by terminate; their completions run now (`finished`, or
    /// `failed` for a stream whose failure was reported), so every completion
    /// runs exactly once, and no new one is taken.
    func completeRemainingVoices() {
        let remaining = playback.callbacks.withLock { c in
            defer {
                c.voiceEnded = [:]
                c.voiceFailures = [:]
                c.closed = true
            }
            return c.voiceEnded.sorted { ($0.key.slot, $0.key.generation) < ($1.key.slot, $1.key.generation) }
                .map { (voice: $0.key, callback: $0.value, failure: c.voiceFailures[$0.key]) }
        }
        for v in remaining { v.callback(v.voice, v.failure.map { .failed($0) } ?? .finished) }
        // Postings still waiting on delayed actions end now: one end-of-event each.
        content.finish()
    }

    /// Event thread: hands captured input to the game's input callback, in
    /// blocks of up to 1024 frames, from a buffer the event thread owns.
    func deliverInput(to callback: @Sendable (UnsafeBufferPointer<Float>) -> Void) {
        let channels = platformSettings.inputChannelCount
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 1024 * channels) { buffer in
            while true {
                let frames = backend.readCapture(into: buffer)
                guard frames > 0 else { return }
                callback(UnsafeBufferPointer(rebasing: buffer[0..<frames * channels]))
                if frames < 1024 { return }
            }
        }
    }
}
