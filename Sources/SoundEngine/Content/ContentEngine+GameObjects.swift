import SoundCore

/// Game objects, positions and listeners.
extension ContentEngine {
    func registerGameObject(_ object: GameObjectID, name: String?) throws(SoundEngineError) {
        try checkValid(object)
        try withState { s throws(SoundEngineError) in
            guard s.gameObjects[object] == nil else { return }  // twice: nothing (Wwise)
            s.gameObjects[object] = GameObject(name: name)
        }
    }

    /// Stops the object's playing IDs (short fade) and forgets it: its
    /// switches, RTPC values and sequence positions, and its place among
    /// the default listeners.
    func unregisterGameObject(_ object: GameObjectID) throws(SoundEngineError) {
        try checkValid(object)
        try withState { s throws(SoundEngineError) in
            try requireRegistered(object, s)
            for (id, p) in s.playings where p.gameObject == object { stop(id, fade: .zero, &s) }
            s.gameObjects[object] = nil
            s.defaultListeners.removeAll { $0 == object }
            s.volumeOffsets = s.volumeOffsets.filter { $0.key.gameObject != object }
        }
    }

    func setPosition(_ object: GameObjectID, position: Vector3, orientation: Orientation) throws(SoundEngineError) {
        try checkValid(object)
        guard position.isFinite else { throw .invalidParameter("position \(position) must be finite") }
        let unit = try orientation.normalized().get()
        try withState { s throws(SoundEngineError) in
            try requireRegistered(object, s)
            s.gameObjects[object]?.position = position
            s.gameObjects[object]?.orientation = unit
        }
    }

    func setDefaultListeners(_ listeners: [GameObjectID]) throws(SoundEngineError) {
        for listener in listeners { try checkValid(listener) }
        try withState { s throws(SoundEngineError) in
            for listener in listeners { try requireRegistered(listener, s) }
            s.defaultListeners = listeners
        }
    }

    func checkValid(_ object: GameObjectID) throws(SoundEngineError) {
        guard object.isValid else {
            throw .invalidParameter("\(object) is invalid (0 and UInt64.max are reserved, as in Wwise)")
        }
    }

    func requireRegistered(_ object: GameObjectID, _ s: ContentState) throws(SoundEngineError) {
        try checkValid(object)
        guard s.gameObjects[object] != nil else { throw .idNotFound("\(object) is not registered") }
    }
}
