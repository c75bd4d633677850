/// The voice limit (`MixerConfiguration.maxAudibleVoices`): ranking the
/// voices that would be heard this quantum, and killing or virtualising the
/// ones that rank below the limit. Runs on the render thread at the start of
/// a quantum, after the commands, only while the limit is (or was last
/// quantum) exceeded: O(N) in the active voices, no allocation (the ranking
/// uses `rankScratch`, preallocated with `maxVoices` entries).
extension RenderCore {
    /// Ranks the contending voices and applies the limit to those left out.
    @_noLocks
    mutating func applyVoiceLimit() {
        let quantumEnd = clock + Int64(quantum)
        var count = 0
        for i in 0..<activeCount {
            let slot = Int(active[i])
            let v = voices[slot]
            guard isContending(v, before: quantumEnd) else { continue }
            let gain = v.left.value > v.right.value ? v.left.value : v.right.value
            let gainBits = gain > 0 ? UInt64(gain.bitPattern) : 0  // non-negative floats order as their bits
            rankScratch[count] = RankEntry(key: UInt64(v.priority) &<< 32 | gainBits, serial: v.serial, slot: Int32(slot))
            count += 1
        }
        if count > maxAudible { selectBest(count, maxAudible) }
        let audible = count < maxAudible ? count : maxAudible
        for r in 0..<audible { makeAudible(voices + Int(rankScratch[r].slot)) }
        var virtualCount = 0
        var killed: UInt64 = 0
        for r in audible..<count {
            let voice = voices + Int(rankScratch[r].slot)
            if voice.pointee.isVirtual || voice.pointee.fadeEnd == .virtualize {
                virtualCount += 1
            } else if !voice.pointee.resumeWhenInaudible || voice.pointee.stream >= 0 {
                killed += 1
                beginStop(voice, fadeFrames: 0)  // de-click fade if heard, else at once
            } else {
                virtualCount += 1
                if voice.pointee.phase == .scheduled || voice.pointee.fade.value == 0 || declickFrames == 0 {
                    becomeVirtual(voice)
                } else {
                    voice.pointee.fade.start(to: 0, over: declickFrames)
                    voice.pointee.fadeEnd = .virtualize
                }
            }
        }
        limitEngaged = count > maxAudible || virtualCount > 0
        let shared = atomics
        // relaxed: a published number and a counter; nothing is read on their strength.
        shared.pointee.virtualVoices.store(virtualCount, ordering: .relaxed)
        if killed > 0 { shared.pointee.voicesKilledByLimit.wrappingAdd(killed, ordering: .relaxed) }
    }

    /// Whether `v` competes for the limit this quantum: playing (heard or
    /// virtual) and not on its way to a stop or a pause, or scheduled to
    /// start before `quantumEnd`. Paused voices and waiting streams do not.
    @_noLocks @inline(__always)
    func isContending(_ v: RenderVoice, before quantumEnd: Int64) -> Bool {
        switch v.phase {
        case .playing: v.fadeEnd != .stop && v.fadeEnd != .pause
        case .scheduled: v.startTime < quantumEnd
        case .idle, .paused, .waitingForStream: false
        }
    }

    /// The voice stops being mixed: silent, virtual. One that restarts when
    /// audible goes back to its start and holds there.
    @_noLocks
    mutating func becomeVirtual(_ voice: UnsafeMutablePointer<RenderVoice>) {
        voice.pointee.isVirtual = true
        voice.pointee.fade = GainRamp(0)
        voice.pointee.fadeEnd = .nothing
        if voice.pointee.restartWhenAudible {
            voice.pointee.position = 0
            voice.pointee.inLoopBody = false
            rewindMarkers(voice, to: 0)
        }
    }

    /// A voice that ranks among the audible: a virtual one (or one fading out
    /// to become so) fades back in over the de-click, from where time has
    /// taken its position (or from its start, for one that restarts).
    @_noLocks
    func makeAudible(_ voice: UnsafeMutablePointer<RenderVoice>) {
        if voice.pointee.isVirtual {
            voice.pointee.isVirtual = false
            voice.pointee.fade = GainRamp(0)
            voice.pointee.fade.start(to: 1, over: declickFrames)
        } else if voice.pointee.fadeEnd == .virtualize {
            voice.pointee.fadeEnd = .nothing
            voice.pointee.fade.start(to: 1, over: declickFrames)
        }
    }

    /// Reorders `rankScratch[0..<count]` so that its first `k` entries
    /// (0 < k < count) are the `k` best (in no particular order):
    /// quickselect, Hoare partition around a median of three, O(count) on average.
    @_noLocks
    func selectBest(_ count: Int, _ k: Int) {
        let a = rankScratch
        let target = k - 1
        var lo = 0, hi = count - 1
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            // Median of three as the pivot (a copy: the entries move).
            var x = a[lo], y = a[mid], z = a[hi]
            if x.isBetter(than: y) { swap(&x, &y) }
            if y.isBetter(than: z) { swap(&y, &z) }
            if x.isBetter(than: y) { swap(&x, &y) }
            let pivot = y
            var i = lo, j = hi
            while i <= j {
                while a[i].isBetter(than: pivot) { i += 1 }
                while pivot.isBetter(than: a[j]) { j -= 1 }
                if i <= j {
                    let t = a[i]
                    a[i] = a[j]
                    a[j] = t
                    i += 1
                    j -= 1
                }
            }
            if target <= j {
                hi = j
            } else if target >= i {
                lo = i
            } else {
                break
            }
        }
    }

    /// Moves a virtual voice's position on by frames `offset..<quantum`
    /// without mixing it: a loop wraps, a one-shot that runs out ends, a
    /// scheduled stop in this quantum ends it (silent already). `false` when it ended.
    @_noLocks
    mutating func advanceVirtual(_ voice: UnsafeMutablePointer<RenderVoice>, from offset: Int) -> Bool {
        let n = quantum - offset
        if voice.pointee.stopTime < clock + Int64(quantum) {
            endVoice(Int(voice - voices))
            return false
        }
        voice.pointee.left.advance(n)
        voice.pointee.right.advance(n)
        if voice.pointee.restartWhenAudible { return true }  // holds at its start
        let body = voice.pointee.body
        // As renderRuns: the same step, so the position matches a voice that was mixed.
        let step = readStep(voice)
        var position = voice.pointee.position &+ UInt64(n) &* step
        if voice.pointee.looping {
            let loopStart = UInt64(body.loopStart) &<< 32, loopEnd = UInt64(body.loopEnd) &<< 32
            var wrapped = false
            if position >= loopEnd {
                position = loopStart + (position - loopStart) % (loopEnd - loopStart)
                wrapped = true
            }
            if body.loopPlane0 != nil && (wrapped || position >= UInt64(body.loopStart + 8) &<< 32) {
                voice.pointee.inLoopBody = true
            }
        } else if position >= UInt64(body.frames) &<< 32 {
            endVoice(Int(voice - voices))
            return false
        }
        voice.pointee.position = position
        // Markers crossed while virtual are skipped, not reported late in a burst.
        rewindMarkers(voice, to: Int(position &>> 32))
        return true
    }
}

/// One voice in the voice-limit ranking: priority and gain in `key`
/// (higher is better), start order in `serial` (older is better on a tie).
struct RankEntry: BitwiseCopyable {
    var key: UInt64 = 0
    var serial: UInt64 = 0
    var slot: Int32 = 0

    @_noLocks init() {}

    @_noLocks init(key: UInt64, serial: UInt64, slot: Int32) {
        self.key = key
        self.serial = serial
        self.slot = slot
    }

    /// Whether this voice ranks above `other` (entries are never equal: serials differ).
    @_noLocks @inline(__always)
    func isBetter(than other: RankEntry) -> Bool {
        key > other.key || (key == other.key && serial < other.serial)
    }
}
