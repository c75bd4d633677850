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

    init(emitter: Vector3, listenerAt position: Vector3, facing orientation: Orientation) {
        let d = emitter - position
        distance = d.length
        let right = orientation.top.cross(orientation.front)
        let x = d.dot(right), z = d.dot(orientation.front)
        let horizontal = (x * x + z * z).squareRoot()
        pan = horizontal > 1e-9 ? Float(max(-1, min(1, x / horizontal))) : 0
    }
}
