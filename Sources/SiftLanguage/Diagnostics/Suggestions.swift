/// "Did you mean ...?": the closest candidate by edit distance, if it is close enough.
public enum Suggestions {
    /// The candidate nearest to `word` (case-insensitive optimal-string-alignment distance),
    /// when the distance is small for the word's length; nil otherwise.
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let target = Array(word.uppercased().unicodeScalars)
        guard !target.isEmpty, target.count <= 64 else { return nil }
        let limit = target.count <= 3 ? 1 : (target.count <= 6 ? 2 : 3)
        var best: (String, Int)?
        for candidate in candidates {
            let other = Array(candidate.uppercased().unicodeScalars)
            if abs(other.count - target.count) > limit { continue }
            let distance = editDistance(target, other)
            if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Optimal string alignment distance (Levenshtein with adjacent transpositions).
    static func editDistance<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
