import SoundContent
import SoundCore
import SoundDecoding
import SoundMixer

/// Loading and unloading banks: all or nothing.
extension ContentEngine {
    func loadBank(path: String, options: BankLoadOptions) throws(SoundEngineError) -> BankID {
        try Playback.checkPath(path, "loadBank path")
        var options = options
        // The buses of banks already loaded may be named by this one.
        options.existingBuses.formUnion(try state.withLock { s throws(SoundEngineError) in
            guard !s.closed else { throw .notInitialized }
            return s.buses.values.map(\.name)
        })
        switch BankParser.load(path: path, options: options) {
        case .success(let bank): return try loadBank(bank)
        case .failure(let issues): throw issues.engineError
        }
    }

    func loadBank(_ bank: Bank) throws(SoundEngineError) -> BankID {
        try bankChanges.withLock { _ throws(SoundEngineError) -> BankID in
            let id = BankID(name: bank.name)
            try state.withLock { s throws(SoundEngineError) in
                guard !s.closed else { throw .notInitialized }
                try BankCheck(bank, id, s).run()
            }
            // Decoding is slow: done outside the state lock (bank changes are
            // serialised by `bankChanges`, so the check above still holds).
            let folder = try streamFolder(of: bank)
            let sounds = try decodeSounds(of: bank, streamingFrom: folder)
            do throws(SoundEngineError) {
                try withState { s throws(SoundEngineError) in
                    try commit(bank, id, sounds: sounds, folder: folder, &s)
                }
            } catch {
                unload(Set(sounds.values))
                throw error
            }
            log.log(.info, "loaded bank '\(bank.name)': \(bank.events.count) events, \(bank.sounds.count) sounds")
            return id
        }
    }

    /// The bank's folder, held open, when its streamed sounds must stay in it
    /// (a bank whose files may not leave its folder, with a streamed sound);
    /// they are then opened beneath it, through no link, on every play.
    private func streamFolder(of bank: Bank) throws(SoundEngineError) -> SoundFolder? {
        guard !bank.allowsFilesOutsideFolder, bank.sounds.values.contains(where: \.stream) else { return nil }
        do throws(SoundEngineError) {
            return try SoundFolder(path: bank.folder)
        } catch {
            throw error.naming("bank '\(bank.name)'")
        }
    }

    /// Decodes (or registers for streaming, opened in `folder` when there is
    /// one) every sound file once; on a failure, unloads what it loaded and throws.
    private func decodeSounds(of bank: Bank, streamingFrom folder: SoundFolder?) throws(SoundEngineError)
        -> [ContentID: SoundID]
    {
        try playback.checkAlive()
        var loaded: [String: SoundID] = [:]  // one mixer sound per file and way of playing it
        var sounds: [ContentID: SoundID] = [:]
        for sound in bank.sounds.values.sorted(by: { $0.name < $1.name }) {
            let key = "\(sound.stream) \(sound.loop) \(sound.markers) \(sound.file)"
            if let id = loaded[key] {
                sounds[ContentID(sound.name)] = id
                continue
            }
            do {
                let id = try playback.loadSound(
                    path: sound.file, streaming: sound.stream, loop: sound.loop ? .whole : nil,
                    markers: sound.markers, folder: folder)
                loaded[key] = id
                sounds[ContentID(sound.name)] = id
            } catch {
                unload(Set(loaded.values))
                throw error.naming("sound '\(sound.name)' of bank '\(bank.name)'")
            }
        }
        return sounds
    }

    private func unload(_ sounds: Set<SoundID>) {
        for sound in sounds { try? mixer.unloadSound(sound) }
    }

    /// Creates the buses and enters every definition in the indexes. Under
    /// the lock; on a failure, the buses it made are retired and nothing
    /// else has changed.
    private func commit(
        _ bank: Bank, _ id: BankID, sounds: [ContentID: SoundID], folder: SoundFolder?, _ s: inout ContentState
    ) throws(SoundEngineError) {
        var made: [(ContentID, BusEntry)] = []
        do throws(SoundEngineError) {
            for definition in bank.buses {
                let key = ContentID(definition.name)
                let parentName = ContentID(definition.parent)
                guard let parent = made.first(where: { $0.0 == parentName })?.1.bus ?? s.buses[parentName]?.bus else {
                    throw .idNotFound("bus '\(definition.parent)' (parent of bus '\(definition.name)')")
                }
                let bus: BusID
                if let reused = s.retiredBuses[key]?.popLast() {
                    try mixer.setBusParent(reused, parent)
                    bus = reused
                } else {
                    bus = try mixer.createBus(name: definition.name, parent: parent)
                }
                try mixer.setBusMutedForBackgroundMusic(bus, definition.muteForBackgroundMusic)
                made.append((key, BusEntry(name: definition.name, bus: bus, bank: id, definition: definition)))
            }
            // Effects once every bus exists: a sidechain may name a bus made after its own.
            for (_, entry) in made {
                for (slot, effect) in (entry.definition?.effects ?? []).enumerated() {
                    let key = try effect.sidechain.map { name throws(SoundEngineError) -> BusID in
                        guard let bus = made.first(where: { $0.0 == ContentID(name) })?.1.bus ?? s.buses[ContentID(name)]?.bus
                        else { throw .idNotFound("bus '\(name)' (sidechain of bus '\(entry.name)')") }
                        return bus
                    }
                    do throws(SoundEngineError) {
                        try mixer.setBusEffect(entry.bus, index: slot, (effect.kind, effect.parameters), sidechain: key)
                    } catch {
                        throw error.naming("bank '\(bank.name)', bus '\(entry.name)' effects[\(slot)]")
                    }
                }
            }
        } catch {
            for (key, entry) in made { retire(key, entry.bus, &s) }
            throw error
        }
        var loaded = LoadedBank(bank: bank, sounds: sounds, buses: [], folder: folder)
        for (key, entry) in made {
            s.buses[key] = entry
            loaded.buses.append(key)
        }
        for sound in bank.sounds.values {
            guard let mixerSound = sounds[ContentID(sound.name)] else { continue }
            s.objects[ContentID(sound.name)] = ObjectEntry(bank: id, kind: .sound(sound, mixerSound))
        }
        for container in bank.containers.values {
            s.objects[ContentID(container.name)] = ObjectEntry(bank: id, kind: .container(container))
        }
        for event in bank.events.values { s.events[ContentID(event.name)] = Owned(bank: id, value: event) }
        for rtpc in bank.rtpcs.values { s.rtpcs[ContentID(rtpc.name)] = Owned(bank: id, value: rtpc) }
        for group in bank.switchGroups.values { s.switchGroups[ContentID(group.name)] = Owned(bank: id, value: group) }
        for group in bank.stateGroups.values {
            s.stateGroups[ContentID(group.name)] = Owned(bank: id, value: group)
            s.states[ContentID(group.name)] = StateRuntime(current: group.defaultState)
        }
        s.banks[id] = loaded
        rebuildBindings(&s)
        // A new bus starts at its volume, not ramping to it from unity.
        let now = ContinuousClock.now
        for (key, entry) in made {
            let volume = Self.linear(busVolumeDB(key, s, now: now))
            try? mixer.setBusVolume(entry.bus, volume, rampFrames: 0)
            s.busSent[key] = volume
        }
    }

    /// Silences a bus the mixer cannot remove and keeps it for a bank that
    /// defines the same name later.
    private func retire(_ key: ContentID, _ bus: BusID, _ s: inout ContentState) {
        for slot in 0..<Mixer.effectsPerBus { try? mixer.setBusEffect(bus, index: slot, nil) }
        try? mixer.setBusVolume(bus, 0, rampFrames: mixer.configuration.declickFrames)
        try? mixer.setBusMutedForBackgroundMusic(bus, false)
        s.retiredBuses[key, default: []].append(bus)
        s.busSent[key] = nil
    }

    func unloadBank(_ id: BankID) throws(SoundEngineError) {
        try bankChanges.withLock { _ throws(SoundEngineError) in
            let sounds = try withState { s throws(SoundEngineError) -> Set<SoundID> in
                guard let loaded = s.banks[id] else { throw .idNotFound("\(id) is not loaded") }
                try checkNoDependents(loaded, id, s)
                // Delayed actions of its events name its definitions: cancelled.
                for (playing, p) in s.playings where p.bank == id {
                    cancelWaiting(playing, &s)
                    endIfDone(playing, &s)
                }
                forget(loaded, id, &s)
                return Set(loaded.sounds.values)
            }
            // Voices of its sounds fade out (the mixer's de-click) and end;
            // their playing IDs end with them.
            unload(sounds)
            log.log(.info, "unloaded \(id)")
        }
    }

    /// Refuses to unload a bank whose buses carry another bank's buses or sounds.
    private func checkNoDependents(_ loaded: LoadedBank, _ id: BankID, _ s: ContentState) throws(SoundEngineError) {
        let mine = Set(loaded.buses)
        for (otherID, other) in s.banks where otherID != id {
            for bus in other.bank.buses where mine.contains(ContentID(bus.parent)) {
                throw .invalidParameter(
                    "bank '\(loaded.bank.name)' is still needed: its bus '\(bus.parent)' is the parent of bus '\(bus.name)' of bank '\(other.bank.name)'")
            }
            for bus in other.bank.buses {
                for key in bus.effects.compactMap(\.sidechain) where mine.contains(ContentID(key)) {
                    throw .invalidParameter(
                        "bank '\(loaded.bank.name)' is still needed: its bus '\(key)' keys an effect of bus '\(bus.name)' of bank '\(other.bank.name)'")
                }
            }
            for sound in other.bank.sounds.values where mine.contains(ContentID(sound.bus)) {
                throw .invalidParameter(
                    "bank '\(loaded.bank.name)' is still needed: sound '\(sound.name)' of bank '\(other.bank.name)' plays on its bus '\(sound.bus)'")
            }
        }
    }

    /// Removes every definition of the bank and the runtime values keyed by them.
    private func forget(_ loaded: LoadedBank, _ id: BankID, _ s: inout ContentState) {
        let bank = loaded.bank
        for name in Array(bank.sounds.keys) + Array(bank.containers.keys) {
            let key = ContentID(name)
            s.objects[key] = nil
            s.randomHistory[key] = nil
            s.volumeOffsets = s.volumeOffsets.filter { $0.key.object != key }
        }
        for name in bank.events.keys { s.events[ContentID(name)] = nil }
        for name in bank.rtpcs.keys {
            let key = ContentID(name)
            s.rtpcs[key] = nil
            s.globalRTPC[key] = nil
            for object in s.gameObjects.keys { s.gameObjects[object]?.rtpc[key] = nil }
        }
        for name in bank.stateGroups.keys {
            s.stateGroups[ContentID(name)] = nil
            s.states[ContentID(name)] = nil
        }
        for name in bank.switchGroups.keys { s.switchGroups[ContentID(name)] = nil }
        for key in loaded.buses {
            guard let entry = s.buses.removeValue(forKey: key) else { continue }
            s.busOffsets[key] = nil
            s.ducking = s.ducking.filter { $0.key.owner != key }
            retire(key, entry.bus, &s)
        }
        s.banks[id] = nil
        rebuildBindings(&s)
    }

    /// Re-indexes every loaded RTPC's bindings by what they drive.
    private func rebuildBindings(_ s: inout ContentState) {
        s.objectBindings = [:]
        s.busBindings = [:]
        s.effectBindings = [:]
        s.effectSent = [:]
        for (id, rtpc) in s.rtpcs {
            for binding in rtpc.value.bindings {
                switch binding.target {
                case .volume(let object):
                    s.objectBindings[ContentID(object), default: []].append(ObjectBinding(rtpc: id, parameter: .volume, curve: binding.curve))
                case .pitch(let object):
                    s.objectBindings[ContentID(object), default: []].append(ObjectBinding(rtpc: id, parameter: .pitch, curve: binding.curve))
                case .lowPass(let object):
                    s.objectBindings[ContentID(object), default: []].append(ObjectBinding(rtpc: id, parameter: .lowPass, curve: binding.curve))
                case .auxSendVolume(let object):
                    s.objectBindings[ContentID(object), default: []].append(ObjectBinding(rtpc: id, parameter: .auxSend, curve: binding.curve))
                case .busVolume(let bus):
                    s.busBindings[ContentID(bus), default: []].append((id, binding.curve))
                case .effectParameter(let bus, let slot, let parameter):
                    let effects = s.buses[ContentID(bus)]?.definition?.effects ?? []
                    guard slot < effects.count, let info = effects[slot].kind.parameters.first(where: { $0.name == parameter })
                    else { continue }  // BankCheck refused such a bank; nothing to drive
                    s.effectBindings[ContentID(bus), default: []].append(EffectBinding(
                        rtpc: id, slot: slot, parameter: info.index, scale: info.bankScale,
                        range: info.minimum...info.maximum, curve: binding.curve))
                }
            }
        }
    }
}

extension SoundEngineError {
    /// The same error with `what` in front of its reason, e.g. which sound of
    /// which bank a file error belongs to.
    func naming(_ what: String) -> SoundEngineError {
        switch self {
        case .fileNotFound(let r): .fileNotFound("\(what): \(r)")
        case .invalidFile(let r): .invalidFile("\(what): \(r)")
        case .invalidParameter(let r): .invalidParameter("\(what): \(r)")
        case .maxReached(let r): .maxReached("\(what): \(r)")
        case .idNotFound(let r): .idNotFound("\(what): \(r)")
        default: self
        }
    }
}
