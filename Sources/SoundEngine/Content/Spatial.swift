import Foundation

/// The listener-relative geometry of a 3D voice (docs/content-engine.md,
/// "Listener and coordinates"). Wwise's convention: left-handed, X right,
/// Y up, Z forward; so a listener's right is `top × front`.
struct Spatial {
    /// Distance from the listener, in game units.
    var distance: Double
    /// Equal-power pan, -1 (left) … 1 (right): the sine of the azimuth in the
    /// listener's horizontal plane. A source behind the listener mirrors to
    /// the front (stereo cannot tell front from back); one straight above,
    /// below or at the listener is centred.
    var pan: Float
    /// The direction in the listener's horizontal plane, in radians: 0
    /// ahead, +π/2 right, ±π behind (surround outputs tell front from back).
    var azimuth: Float
    /// How much of the distance is height (0 in the listener's plane, 1
    /// straight above or below or at the listener): on a surround output
    /// the sound spreads by at least this much, so a source overhead comes
    /// from all around rather than from one speaker.
    var elevation: Float

    init(emitter: Vector3, listenerAt position: Vector3, facing orientation: Orientation) {
        let d = emitter - position
        distance = d.length
        let right = orientation.top.cross(orientation.front)
        let x = d.dot(right), z = d.dot(orientation.front)
        let horizontal = (x * x + z * z).squareRoot()
        pan = horizontal > 1e-9 ? Float(max(-1, min(1, x / horizontal))) : 0
        azimuth = horizontal > 1e-9 ? Float(atan2(x, z)) : 0
        elevation = distance > 1e-9 ? Float(max(0, min(1, 1 - horizontal / distance))) : 1
    }
}
