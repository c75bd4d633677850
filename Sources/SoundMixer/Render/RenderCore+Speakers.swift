/// Voices placed over the speakers of a surround mix (docs/mixer.md,
/// "Surround"): the voice is mixed down to one signal, filtered on its own
/// filter if it has a low-pass, and added to each channel of its bus with
/// that channel's gain ramp.
extension RenderCore {
    /// Whether the voice is mixed over the speakers this quantum: the mix is
    /// surround and the voice's gains were computed for its layout.
    @_noLocks @inline(__always)
    func isPlaced(_ voice: UnsafeMutablePointer<RenderVoice>) -> Bool {
        mixChannels > 2 && Int(voice.pointee.speakerLayout) == mixChannels
    }

    /// Mixes frames `offset..<quantum` of a placed voice into `planes`
    /// (channel k at `planes + k · quantum`, a bus's or the send scratch):
    /// source × fade into the scratch's first plane (a stereo source at half
    /// gain into both, then summed), its low-pass on its own filter, then a
    /// pan-add per pair of channels with a gain. Its left/right ramps (the
    /// stereo equivalent the voice limit ranks by) move on as if mixed.
    @_noLocks
    mutating func renderPlaced(_ voice: UnsafeMutablePointer<RenderVoice>, from offset: Int, into planes: UnsafeMutablePointer<Float>) -> Bool {
        let slot = Int(voice - voices)
        let n = quantum - offset
        let mono = voiceScratch + offset, other = voiceScratch + quantum + offset
        clear(mono, other, n)
        let stereo = voice.pointee.body.planes == 2
        let gains = (voice.pointee.left, voice.pointee.right)
        voice.pointee.left = GainRamp(stereo ? 0.5 : 1)
        voice.pointee.right = GainRamp(stereo ? 0.5 : 0)
        let alive = renderRuns(voice, from: offset, into: voiceScratch, stereo ? voiceScratch + quantum : nil)
        if stereo {
            var i = 0
            while i < n {
                mono[i] += other[i]
                i += 1
            }
        }
        if voice.pointee.isFiltered {
            // Its own filter's state is stale unless it was already on it.
            if voice.pointee.route != RenderVoice.routeOwn { clearFilterState(slot) }
            voice.pointee.route = RenderVoice.routeOwn
            filterScratch(voice, mono, nil, n)
        } else {
            voice.pointee.route = RenderVoice.routeDirect
        }
        voice.pointee.left = gains.0
        voice.pointee.right = gains.1
        voice.pointee.left.advance(n)
        voice.pointee.right.advance(n)
        // Channels with a gain, added two at a time (a mono segment into two planes).
        var waiting = -1
        var k = 0
        while k < mixChannels {
            defer { k += 1 }
            let ramp = voiceExtras[slot].speakers[k]
            guard ramp.value != 0 || ramp.framesLeft > 0 else { continue }
            if waiting < 0 {
                waiting = k
                continue
            }
            panAdd(
                mono, from: offset, gains: (voiceExtras[slot].speakers[waiting], ramp), into: planes + waiting * quantum,
                planes + k * quantum)
            waiting = -1
        }
        if waiting >= 0 {
            panAdd(
                mono, from: offset, gains: (voiceExtras[slot].speakers[waiting], GainRamp(0)),
                into: planes + waiting * quantum, nil)
        }
        advanceSpeakers(slot, n)
        return alive
    }

    /// Moves the speaker gain ramps of the voice in `slot` on by `frames`.
    @_noLocks
    func advanceSpeakers(_ slot: Int, _ frames: Int) {
        var k = 0
        while k < Self.maxChannels {
            voiceExtras[slot].speakers[k].advance(frames)
            k += 1
        }
    }

    /// Applies a placement command: the voice's stereo-equivalent gains
    /// ramp like ``Command/setGains``, its speaker gains ramp to `gains`
    /// (from its front-pair gains when it was not placed for this layout;
    /// a starting voice's placement comes in the same quantum as its start,
    /// with no ramp).
    @_noLocks
    func place(_ voice: UnsafeMutablePointer<RenderVoice>, _ command: PlacementCommand) {
        let slot = Int(voice - voices)
        let ramp = Int(command.rampFrames)
        voice.pointee.target = command.stereo
        rampGains(voice, over: ramp)
        if voice.pointee.speakerLayout != command.layout {
            // From where it was heard: the front pair by its own gains.
            var k = 0
            while k < Self.maxChannels {
                voiceExtras[slot].speakers[k] = GainRamp(k == 0 ? voice.pointee.left.value : k == 1 ? voice.pointee.right.value : 0)
                k += 1
            }
            voice.pointee.speakerLayout = command.layout
        }
        var k = 0
        while k < Self.maxChannels {
            voiceExtras[slot].speakers[k].start(to: command.gains[k], over: ramp)
            k += 1
        }
    }
}
