import SoundCore

extension SoundEngine {
    /// Which way a game object faces: its front and top directions (Wwise
    /// `AkSoundPosition`'s orientation). They need not be unit length or exactly
    /// perpendicular — ``SoundEngine/setPosition(_:_:orientation:)``
    /// normalises them and makes top perpendicular to front — but both must be
    /// finite, non-zero and not parallel.
    public struct Orientation: Hashable, Sendable {
        /// Where the object looks.
        public var front: Vector3
        /// Its up direction.
        public var top: Vector3

        /// Creates an orientation.
        public init(front: Vector3, top: Vector3) {
            self.front = front
            self.top = top
        }

        /// Facing +Z (forward) with +Y up: the default of every game object and
        /// of the implicit listener.
        public static let `default` = Orientation(front: Vector3(x: 0, y: 0, z: 1), top: Vector3(x: 0, y: 1, z: 0))

        /// The orientation with a unit front and a unit top perpendicular to it,
        /// or why it cannot be made one.
        func normalized() -> Result<Orientation, SoundEngineError> {
            guard front.isFinite, top.isFinite else {
                return .failure(.invalidParameter("orientation \(front), \(top) must be finite"))
            }
            let f = front.length
            guard f > 1e-6 else { return .failure(.invalidParameter("orientation front \(front) must not be zero")) }
            let unitFront = front.scaled(1 / f)
            // Gram-Schmidt: drop top's component along front.
            let along = top.dot(unitFront)
            let t = top - unitFront.scaled(along)
            let tl = t.length
            guard top.length > 1e-6, tl > 1e-6 * max(1, top.length) else {
                return .failure(.invalidParameter("orientation top \(top) must be non-zero and not parallel to front \(front)"))
            }
            return .success(Orientation(front: unitFront, top: t.scaled(1 / tl)))
        }
    }
}
