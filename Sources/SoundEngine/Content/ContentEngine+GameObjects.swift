import SoundContent
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

extension ContentEngine {
    /// Replaces a game object's game-defined aux sends (Wwise
    /// `SetGameObjectAuxSendValues`): every voice it plays, now and later,
    /// sends its output times each level to each aux bus.
    func setAuxSends(_ object: GameObjectID, _ sends: [SoundEngine.AuxSend]) throws(SoundEngineError) {
        try checkValid(object)
        guard sends.count <= BankLimits.auxSends else {
            throw .invalidParameter("\(sends.count) aux sends: at most \(BankLimits.auxSends) per game object")
        }
        for (k, send) in sends.enumerated() {
            guard send.level.isFinite, (0...16).contains(send.level) else {
                throw .invalidParameter("aux send \(k) level = \(send.level): must be finite, 0…16 (linear)")
            }
            if sends[..<k].contains(where: { $0.bus.key == send.bus.key }) {
                throw .invalidParameter("aux send \(k): bus \(send.bus) is sent to twice")
            }
        }
        try withState { s throws(SoundEngineError) in
            try requireRegistered(object, s)
            var levels: [ContentID: Float] = [:]
            for send in sends {
                guard let entry = s.buses[send.bus.key], send.bus.matches(entry.name) else {
                    throw .idNotFound("bus \(send.bus) is not loaded")
                }
                guard entry.definition?.aux == true else {
                    throw .invalidParameter("bus \(send.bus) is not an aux bus (a bank bus with \"aux\": true)")
                }
                levels[send.bus.key] = send.level
            }
            s.gameObjects[object]?.auxSends = levels
            s.levelsChanged = true
        }
    }
}
