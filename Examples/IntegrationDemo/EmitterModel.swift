import Foundation
import SoundEngine

/// The 3D page's emitter: moved with the arrow keys around the listener (at
/// the origin, facing +Z), or orbiting it clockwise at its current distance.
struct EmitterModel: Equatable, Sendable {
    /// Metres an arrow key moves the emitter.
    static let step: Float = 1
    /// The emitter stays within ±limit metres on each axis.
    static let limit: Float = 20
    /// Radians per second while orbiting (a turn every 8 s, as ``OrbitModel``).
    static let orbitSpeed = OrbitModel().speed

    /// Right of the listener, metres.
    var x: Float = 0
    /// In front of the listener, metres.
    var z: Float = 8
    var playing = false
    var orbiting = false

    /// Where the emitter is (Wwise axes: X right, Y up, Z forward).
    var position: SoundEngine.Vector3 { SoundEngine.Vector3(x: x, y: 0, z: z) }

    /// Metres from the listener.
    var distance: Double { Double((x * x + z * z).squareRoot()) }

    /// Its bearing, 0..<360 degrees clockwise from the front (90 on the right).
    var degrees: Double {
        let d = atan2(Double(x), Double(z)) * 180 / .pi
        return d < 0 ? d + 360 : d
    }

    /// Moves one ``step`` (up the screen is forward), staying within ``limit``.
    mutating func move(_ key: MoveKey) {
        switch key {
        case .forward: z = min(Self.limit, z + Self.step)
        case .back: z = max(-Self.limit, z - Self.step)
        case .left: x = max(-Self.limit, x - Self.step)
        case .right: x = min(Self.limit, x + Self.step)
        }
    }

    enum MoveKey: Sendable { case forward, back, left, right }

    /// Turns the emitter clockwise about the listener for `seconds` at ``orbitSpeed``, keeping its distance.
    mutating func orbit(for seconds: Double) {
        let angle = atan2(Double(x), Double(z)) + seconds * Self.orbitSpeed
        let radius = distance
        x = Float(radius * sin(angle))
        z = Float(radius * cos(angle))
    }
}
