extension SoundEngine {
    /// A position or direction in game units, Wwise's coordinate system:
    /// left-handed, X to the right, Y up, Z forward (docs/content-engine.md).
    public struct Vector3: Hashable, Sendable, CustomStringConvertible {
        public var x: Float
        public var y: Float
        public var z: Float

        /// Creates a vector.
        public init(x: Float, y: Float, z: Float) {
            self.x = x
            self.y = y
            self.z = z
        }

        /// The origin.
        public static let zero = Vector3(x: 0, y: 0, z: 0)

        /// Whether every component is finite.
        public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

        public var description: String { "(\(x), \(y), \(z))" }

        // Arithmetic in Double: distances of large worlds keep their precision.
        var length: Double { (dot(self)).squareRoot() }
        func dot(_ o: Vector3) -> Double { Double(x) * Double(o.x) + Double(y) * Double(o.y) + Double(z) * Double(o.z) }
        static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
        func scaled(_ k: Double) -> Vector3 { Vector3(x: Float(Double(x) * k), y: Float(Double(y) * k), z: Float(Double(z) * k)) }
        /// The cross product `self × o` (the formula is the same in either handedness).
        func cross(_ o: Vector3) -> Vector3 {
            Vector3(x: y * o.z - z * o.y, y: z * o.x - x * o.z, z: x * o.y - y * o.x)
        }
    }
}
