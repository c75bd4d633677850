/// How a source's channels fold into the mixer's one or two planes: mono
/// stays one plane, stereo two, and more channels are mixed down to stereo
/// once, when a sound is loaded or a stream is decoded, so the render thread
/// only ever reads one or two planes.
///
/// Channel orders are WAVE/SMPTE (L R C LFE BL BR SL SR). Centre and
/// surrounds go to both sides at −3 dB (surrounds to their side), the LFE is
/// dropped, channels beyond the eighth are ignored. No normalisation: loud
/// surround content can exceed full scale.
struct Downmix {
    /// Planes the mixer stores: 1 or 2.
    let planes: Int
    /// Per source channel: its weight in the left and the right plane.
    let weights: [(left: Float, right: Float)]

    init(channels: Int) {
        let h: Float = 0.707_106_77
        switch channels {
        case 1: weights = [(1, 0)]
        case 2: weights = [(1, 0), (0, 1)]
        case 3: weights = [(1, 0), (0, 1), (h, h)]
        case 4: weights = [(1, 0), (0, 1), (h, 0), (0, h)]
        case 5: weights = [(1, 0), (0, 1), (h, h), (h, 0), (0, h)]
        case 6: weights = [(1, 0), (0, 1), (h, h), (0, 0), (h, 0), (0, h)]
        case 7: weights = [(1, 0), (0, 1), (h, h), (0, 0), (0.5, 0.5), (h, 0), (0, h)]
        default:
            weights =
                [(1, 0), (0, 1), (h, h), (0, 0), (h, 0), (0, h), (h, 0), (0, h)]
                + [(Float, Float)](repeating: (0, 0), count: max(0, channels - 8))
        }
        planes = channels == 1 ? 1 : 2
    }

    /// Writes frame `frame` of interleaved `source` into `left` (and `right`).
    @inline(__always)
    func fold(
        _ source: UnsafePointer<Float>, frame: Int, into left: (Float) -> Void, _ right: (Float) -> Void
    ) {
        let n = weights.count
        let x = source + frame * n
        if n == 1 {
            left(x[0])
        } else if n == 2 {
            left(x[0])
            right(x[1])
        } else {
            var l: Float = 0, r: Float = 0
            for c in 0..<n {
                l += weights[c].left * x[c]
                r += weights[c].right * x[c]
            }
            left(l)
            right(r)
        }
    }
}
