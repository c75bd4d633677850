import SoundContent

/// What a play action plays: containers resolved down to sounds.
extension ContentEngine {
    /// Containers nest at most this deep (a bank that contains itself is cut).
    static let maxNesting = 32

    /// Appends to `picks` every sound `object` resolves to on `gameObject`
    /// now, advancing random histories and sequence positions.
    func resolve(
        _ object: ContentID, on gameObject: GameObjectID,
        _ above: (path: [ContentID], volumeDB: Double, pitchCents: Double), depth: Int, into picks: inout [Pick],
        _ s: inout ContentState
    ) {
        guard depth < Self.maxNesting, let entry = s.objects[object] else {
            log.log(.warning, "object \(object) not played: \(depth < Self.maxNesting ? "not loaded" : "nested too deep")")
            return
        }
        switch entry.kind {
        case .sound(let sound, let mixerSound):
            picks.append(
                Pick(
                    sound: sound, mixerSound: mixerSound, bank: entry.bank, path: above.path + [object],
                    volumeDB: above.volumeDB + sound.volumeDB, pitchCents: above.pitchCents + sound.pitchCents))
        case .container(let container):
            let here = (
                path: above.path + [object], volumeDB: above.volumeDB + container.volumeDB,
                pitchCents: above.pitchCents + container.pitchCents
            )
            for child in children(container, object, on: gameObject, &s) {
                resolve(ContentID(child), on: gameObject, here, depth: depth + 1, into: &picks, &s)
            }
        }
    }

    /// The children a container plays this time.
    private func children(
        _ container: BankContainer, _ key: ContentID, on gameObject: GameObjectID, _ s: inout ContentState
    ) -> [String] {
        let all = container.children
        switch container.kind {
        case .blend:
            return all
        case .random(let weights, let avoidRepeatCount):
            guard !all.isEmpty else { return [] }
            let index = pickRandom(key, count: all.count, weights: weights, avoid: avoidRepeatCount, &s)
            return [all[index]]
        case .sequence(let loop):
            guard !all.isEmpty else { return [] }
            let index = min(s.gameObjects[gameObject]?.sequenceNext[key] ?? 0, all.count - 1)
            let next = index + 1 < all.count ? index + 1 : (loop ? 0 : index)
            s.gameObjects[gameObject]?.sequenceNext[key] = next
            return [all[index]]
        case .switchGroup(let group, let defaultChild):
            let groupKey = ContentID(group)
            let value = s.gameObjects[gameObject]?.switches[groupKey] ?? s.switchGroups[groupKey]?.value.defaultValue
            guard let child = value.flatMap({ container.switchChildren[$0] }) ?? defaultChild else { return [] }
            return [child]
        }
    }

    /// A weighted random child index that is not among the container's
    /// `avoid` most recent picks (kept per container, across game objects).
    private func pickRandom(
        _ key: ContentID, count: Int, weights: [Double], avoid: Int, _ s: inout ContentState
    ) -> Int {
        let avoid = max(0, min(avoid, count - 1))
        var history = s.randomHistory[key] ?? []
        let recent = Set(history.suffix(avoid))
        let candidates = (0..<count).filter { !recent.contains($0) }
        // A missing weight counts 1; a non-positive one never wins unless all are.
        var w = candidates.map { i -> Double in
            let weight = i < weights.count ? weights[i] : 1
            return weight.isFinite && weight > 0 ? weight : 0
        }
        // Only the ratios matter: huge weights whose sum overflows are scaled
        // down (Double.random traps on an infinite range).
        if !w.reduce(0, +).isFinite, let largest = w.max() { w = w.map { $0 / largest } }
        let total = w.reduce(0, +)
        var pick = candidates[Int.random(in: 0..<candidates.count)]
        if total > 0 {
            var r = Double.random(in: 0..<total)
            for (i, weight) in zip(candidates, w) {
                if r < weight {
                    pick = i
                    break
                }
                r -= weight
            }
        }
        history.append(pick)
        if history.count > max(avoid, 1) { history.removeFirst(history.count - max(avoid, 1)) }
        s.randomHistory[key] = history
        return pick
    }
}
