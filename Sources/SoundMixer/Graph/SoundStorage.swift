import SoundCore

/// The real-time layout of an in-memory sound: planar float32 with guard
/// samples (see ``SoundBody``), in one ``SoundArena`` allocation the control
/// side frees once the render thread has released the sound.
struct SoundStorage: @unchecked Sendable {
    // @unchecked: the memory is written once, before the first command naming the sound, and freed once, by the control side after the render thread released it.
    /// Where the samples are.
    let allocation: SoundArena.Allocation
    /// The render thread's view.
    let body: SoundBody
    /// Bytes held.
    let bytes: Int

    /// Copies `audio` into the layout, in memory from `allocate` (called once
    /// with a byte count). Throws `invalidParameter` for an empty sound, a
    /// rate or channel count out of range, a partial frame, a sample that is
    /// not finite or a bad loop region (before allocating).
    init(
        _ audio: DecodedAudio, name: String, loop: LoopRegion?, markers: [Int] = [],
        allocate: (Int) -> SoundArena.Allocation
    ) throws(SoundEngineError) {
        if let problem = audio.problem { throw .invalidParameter("sound '\(name)': \(problem)") }
        let frames = audio.frameCount
        guard frames > 0, frames < Int(Int32.max) else {
            throw .invalidParameter("sound '\(name)': samples hold \(frames) frames; a sound needs 1…\(Int32.max - 1)")
        }
        guard (1000...768_000).contains(audio.sampleRate) else {
            throw .invalidParameter("sound '\(name)': sampleRate = \(audio.sampleRate): must be 1000…768000")
        }
        var loopStart = 0, loopEnd = 0, inner = false
        if let loop {
            loopStart = loop.start
            loopEnd = loop.end ?? frames
            guard loopStart >= 0, loopEnd <= frames, loopStart < loopEnd else {
                throw .invalidParameter("loop region \(loop) of sound '\(name)' is not inside its \(frames) frames")
            }
            inner = loopStart != 0 || loopEnd != frames
            if inner && loopEnd - loopStart < 64 {
                throw .invalidParameter("loop region \(loop) of sound '\(name)' is shorter than 64 frames")
            }
        }
        let g = StreamRing.guardFrames
        let downmix = Downmix(channels: audio.channelCount)
        let planes = downmix.planes
        let planeStride = frames + 2 * g
        let loopLength = loopEnd - loopStart
        let loopStride = inner ? loopLength + 2 * g : 0
        let total = planes * (planeStride + loopStride)
        let sortedMarkers = try Self.sortedMarkers(markers, frames: frames, of: "sound '\(name)'")
        // Marker frames (Int32) after the samples: Float and Int32 share size and alignment.
        bytes = (total + sortedMarkers.count) * MemoryLayout<Float>.stride
        allocation = allocate(bytes)
        let memory = allocation.memory.bindMemory(to: Float.self, capacity: total)
        memory.initialize(repeating: 0, count: total)
        let markerMemory = Self.store(markers: sortedMarkers, at: allocation.memory + total * MemoryLayout<Float>.stride)

        let plane0 = memory + g
        let plane1 = planes == 2 ? plane0 + planeStride : nil
        audio.samples.withUnsafeBufferPointer { samples in
            let source = samples.baseAddress!
            for i in 0..<frames {
                downmix.fold(source, frame: i, into: { plane0[i] = $0 }, { plane1?[i] = $0 })
            }
        }
        let wraps = loop != nil && !inner
        for plane in [plane0, plane1].compactMap({ $0 }) {
            if wraps {  // guards continue the loop in both directions
                for j in 0..<g {
                    plane[frames + j] = plane[j % frames]
                    plane[-1 - j] = plane[frames - 1 - (j % frames)]
                }
            }
        }
        var body = SoundBody()
        body.plane0 = UnsafePointer(plane0)
        body.plane1 = plane1.map { UnsafePointer($0) }
        if inner {
            let loopBase = memory + planes * planeStride + g
            for p in 0..<planes {
                let source = p == 0 ? plane0 : plane1!
                let copy = loopBase + p * loopStride
                for j in -g..<(loopLength + g) {
                    copy[j] = source[loopStart + ((j % loopLength) + loopLength) % loopLength]
                }
            }
            body.loopPlane0 = UnsafePointer(loopBase)
            body.loopPlane1 = planes == 2 ? UnsafePointer(loopBase + loopStride) : nil
        }
        body.frames = frames
        body.loopStart = loopStart
        body.loopEnd = loop == nil ? 0 : loopEnd
        body.planes = planes
        body.sampleRate = Double(audio.sampleRate)
        body.markers = sortedMarkers.isEmpty ? nil : markerMemory
        body.markerCount = sortedMarkers.count
        self.body = body
    }
}

extension SoundStorage {
    /// `markers` in ascending order, each checked to be a frame of a sound
    /// `frames` long; `what` names the sound in the error.
    /// - Throws: `invalidParameter` naming the first marker outside.
    static func sortedMarkers(_ markers: [Int], frames: Int, of what: String) throws(SoundEngineError) -> [Int] {
        let sorted = markers.sorted()
        if let bad = sorted.first(where: { $0 < 0 || $0 >= frames }) {
            throw .invalidParameter("marker at frame \(bad) of \(what) is not inside its \(frames) frames")
        }
        return sorted
    }

    /// Writes marker frames as the `Int32`s the render thread reads, at `memory`.
    static func store(markers: [Int], at memory: UnsafeMutableRawPointer) -> UnsafePointer<Int32> {
        let marks = memory.bindMemory(to: Int32.self, capacity: markers.count)
        for (i, frame) in markers.enumerated() { marks[i] = Int32(frame) }
        return UnsafePointer(marks)
    }
}
