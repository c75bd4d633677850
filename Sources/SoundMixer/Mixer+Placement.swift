package import SoundCore

/// Placing voices over the speakers of a surround output (control world;
/// docs/mixer.md, "Surround").
extension Mixer {
    /// Ramps a voice's volume (linear gain 0…16), pan (-1…1) and placement
    /// together over `rampFrames` (default: one quantum), in one command:
    /// what a game sends per 3D emitter per frame. On a stereo output it is
    /// ``setVolumeAndPan(_:volume:pan:rampFrames:)``; on a surround output a
    /// placed voice's gain in every channel ramps to the placement's
    /// (``SpeakerPlacement``), and `nil` puts a placed voice back on the
    /// front pair. The placement is kept: when the output's layout changes,
    /// the voice is placed for the new one.
    ///
    /// - Throws: `idNotFound` for a voice that ended; `invalidParameter`
    ///   naming the value out of range; `commandQueueFull`. Nothing changes
    ///   when it throws.
    package func setPlacement(
        _ voice: VoiceID, volume: Float, pan: Float, placement: SpeakerPlacement?, rampFrames: Int? = nil
    ) throws(SoundEngineError) {
        try Self.check(volume: volume)
        try Self.check(pan: pan)
        if let placement { try SpeakerPlacement.check(placement) }
        let ramp = rampFrames ?? configuration.quantumFrames
        try Self.check(frames: ramp, "rampFrames")
        try control.withLock { state throws(SoundEngineError) in
            let slot = try voiceSlot(voice, in: state)
            var v = state.voices[slot]
            let wasPlaced = v.placement?.isPlaced == true
            v.volume = volume
            v.pan = pan
            v.placement = placement
            let gains = Self.gains(volume: volume, pan: pan)
            if let command = placementCommand(voice, v, rampFrames: ramp) {
                try push(.place(command))
            } else if wasPlaced, currentLayout != nil {
                // Off the speakers: back on the front pair (layout 0).
                try push(.place(PlacementCommand(
                    slot: voice.slot, generation: voice.generation, stereo: gains,
                    gains: InlineArray(repeating: 0), rampFrames: Int32(ramp), layout: 0)))
            } else {
                try push(.setGains(slot: voice.slot, generation: voice.generation, gains: gains, rampFrames: Int32(ramp)))
            }
            state.voices[slot] = v
        }
    }

    /// The layout of the output now, or nil for a mono or stereo one.
    var currentLayout: SpeakerLayout? { Self.speakerLayouts[min(outputFormat.channelCount, 8)] }

    /// The layouts by channel count (nil for 0–2).
    static let speakerLayouts: [SpeakerLayout?] = (0...8).map { SpeakerLayout(channels: $0) }

    /// The place command for `voice` as `v` describes it, or nil when the
    /// output is not surround or the voice has no placement to make.
    func placementCommand(_ voice: VoiceID, _ v: ControlState.Voice, rampFrames: Int) -> PlacementCommand? {
        guard let placement = v.placement, placement.isPlaced, let layout = currentLayout else { return nil }
        var gains = InlineArray<8, Float>(repeating: 0)
        for (k, g) in layout.gains(volume: v.volume, pan: v.pan, placement: placement).enumerated() { gains[k] = g }
        return PlacementCommand(
            slot: voice.slot, generation: voice.generation, stereo: Self.gains(volume: v.volume, pan: v.pan),
            gains: gains, rampFrames: Int32(rampFrames), layout: UInt8(layout.channels))
    }

    /// After a change of layout: every placed voice is placed for the new
    /// one (or back on the front pair, with its stereo gains, on a stereo
    /// output), at once. A full queue leaves a voice on the front pair until
    /// its next placement (counted in `commandsRejected`).
    func placeAgain(_ state: ControlState) {
        for slot in state.voices.indices where state.voices[slot].inUse && state.voices[slot].placement?.isPlaced == true {
            let v = state.voices[slot]
            let id = VoiceID(slot: UInt32(slot), generation: v.generation)
            let command = placementCommand(id, v, rampFrames: 0) ?? PlacementCommand(
                slot: id.slot, generation: id.generation, stereo: Self.gains(volume: v.volume, pan: v.pan),
                gains: InlineArray(repeating: 0), rampFrames: 0, layout: 0)
            try? push(.place(command))
        }
    }
}
