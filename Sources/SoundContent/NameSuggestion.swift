/// "Did you mean …?" for unknown keys and names: the allowed word closest
/// to a typo, by edit distance, if it is close enough to be a likely typo.
enum NameSuggestion {
    /// The candidate nearest to `word` (case-insensitive Levenshtein), or nil
    /// when none is within about a third of the word's length.
    static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let target = Array(word.lowercased().unicodeScalars)
        guard target.count <= 64 else { return nil }  // long junk: not a typo, and keeps this cheap
        let limit = max(1, target.count / 3)
        var best: (word: String, distance: Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased().unicodeScalars)
            guard abs(other.count - target.count) <= limit else { continue }
            let distance = editDistance(target, other)
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.word
    }

    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
