#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The speakers of an output of 3 to 8 channels, in the output's channel
/// order (the backend's channel maps, docs/pulseaudio.md "Channel maps"),
/// and the gains that place a voice among them (docs/mixer.md, "Surround").
/// Control side only: the render thread receives the gains.
///
/// | channels | channel order | azimuths (degrees, + is right) |
/// |---|---|---|
/// | 3 | FL FR FC | −30, 30, 0 |
/// | 4 | FL FR RL RR | −45, 45, −135, 135 |
/// | 5 | FL FR FC RL RR | −30, 30, 0, −110, 110 |
/// | 6 | FL FR FC LFE RL RR | −30, 30, 0, LFE, −110, 110 |
/// | 7 | FL FR FC LFE RC SL SR | −30, 30, 0, LFE, 180, −90, 90 |
/// | 8 | FL FR FC LFE RL RR SL SR | −30, 30, 0, LFE, −150, 150, −90, 90 |
///
/// The 5.1 surrounds are at ITU-R BS.775's ±110°, 7.1's sides at ±90° and
/// backs at ±150° (as Dolby and Wwise place them).
struct SpeakerLayout {
    /// Channels of the output (3…8).
    let channels: Int
    /// Azimuth of each channel in radians (+ is right); `nil` for the LFE.
    let azimuths: [Double?]
    /// Channel indices of the speakers (not the LFE), ordered by azimuth.
    private let ring: [Int]

    /// The layout of a `channels`-channel output, or nil for 1, 2 and more than 8.
    init?(channels: Int) {
        let degrees: [Double?]
        switch channels {
        case 3: degrees = [-30, 30, 0]
        case 4: degrees = [-45, 45, -135, 135]
        case 5: degrees = [-30, 30, 0, -110, 110]
        case 6: degrees = [-30, 30, 0, nil, -110, 110]
        case 7: degrees = [-30, 30, 0, nil, 180, -90, 90]
        case 8: degrees = [-30, 30, 0, nil, -150, 150, -90, 90]
        default: return nil
        }
        self.channels = channels
        let radians = degrees.map { $0.map { $0 * Double.pi / 180 } }
        azimuths = radians
        ring = radians.indices.filter { radians[$0] != nil }.sorted { radians[$0]! < radians[$1]! }
    }

    /// The channel of the LFE, if the layout has one.
    var lfeChannel: Int? { azimuths.firstIndex { $0 == nil } }

    /// Per channel, the gain of a voice of `volume` placed by `placement`:
    /// the pairwise panning (VBAP) gains of its direction, normalised to
    /// unit power, widened by its spread, times `volume`; the LFE channel
    /// gets `volume · lfe`. A placement without a direction pans the front
    /// pair by `pan` with the equal-power law, as a stereo output would.
    func gains(volume: Float, pan: Float, placement: SpeakerPlacement) -> [Float] {
        var power = [Double](repeating: 0, count: channels)
        if let azimuth = placement.azimuth {
            let (a, b, ga, gb) = pair(for: Double(azimuth))
            power[a] += ga * ga
            power[b] += gb * gb
        } else {
            let theta = (Double(pan) + 1) * Double.pi / 4
            power[0] = cos(theta) * cos(theta)
            power[1] = sin(theta) * sin(theta)
        }
        let spread = Double(placement.spread)
        if spread > 0 {
            let share = spread / Double(ring.count)
            for k in ring { power[k] = (1 - spread) * power[k] + share }
        }
        var gains = power.map { Float($0.squareRoot()) * volume }
        if let lfe = lfeChannel { gains[lfe] = volume * placement.lfe }
        return gains
    }

    /// The two neighbouring speakers around `azimuth` and their gains (unit
    /// power): VBAP's 2-D solution where the pair spans less than 180°, an
    /// equal-power crossfade by angle where it does not (the back of a 3.0
    /// layout), so every direction is reached.
    func pair(for azimuth: Double) -> (Int, Int, Double, Double) {
        let twoPi = 2 * Double.pi
        var theta = azimuth.truncatingRemainder(dividingBy: twoPi)
        if theta < -Double.pi { theta += twoPi } else if theta > Double.pi { theta -= twoPi }
        let n = ring.count
        for i in 0..<n {
            let a = ring[i], b = ring[(i + 1) % n]
            let from = azimuths[a]!
            var span = azimuths[b]! - from
            if span <= 0 { span += twoPi }
            var offset = theta - from
            if offset < 0 { offset += twoPi }
            guard offset <= span else { continue }
            if offset == 0 { return (a, b, 1, 0) }
            if span < Double.pi - 1e-9 {
                // Solve p = ga·la + gb·lb for the unit vectors (x right, y ahead).
                let (ax, ay) = (sin(from), cos(from)), (bx, by) = (sin(from + span), cos(from + span))
                let (px, py) = (sin(theta), cos(theta))
                let det = ax * by - ay * bx
                var ga = (px * by - py * bx) / det, gb = (ax * py - ay * px) / det
                ga = max(0, ga)
                gb = max(0, gb)
                let norm = (ga * ga + gb * gb).squareRoot()
                return (a, b, ga / norm, gb / norm)
            }
            let t = offset / span * Double.pi / 2
            return (a, b, cos(t), sin(t))
        }
        return (ring[0], ring[0], 1, 0)  // unreachable: the ring covers the circle
    }
}
