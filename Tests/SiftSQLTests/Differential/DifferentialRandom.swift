/// The differential test's random numbers: SplitMix64 (Steele, Lea, Flood 2014), small,
/// fast and fully determined by its seed, so a seed reproduces a data set or a request on any
/// machine and any Swift version (the standard library's generator makes no such promise).
struct DifferentialRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` (0 when `n` is not positive).
    mutating func below(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        return Int(next() % UInt64(n))
    }

    /// A number in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// True `numerator` times in `denominator`.
    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        below(denominator) < numerator
    }

    /// One element (nil for an empty collection).
    mutating func pick<C: RandomAccessCollection>(_ items: C) -> C.Element? where C.Index == Int {
        guard !items.isEmpty else { return nil }
        return items[items.startIndex + below(items.count)]
    }

    /// One element of a non-empty array literal; `fallback` for an empty one.
    mutating func pick<T>(_ items: [T], or fallback: T) -> T {
        pick(items) ?? fallback
    }

    /// One of `choices`, each chosen in proportion to its weight.
    mutating func weighted<T>(_ choices: [(Int, T)], or fallback: T) -> T {
        let total = choices.reduce(0) { $0 + max(0, $1.0) }
        guard total > 0 else { return fallback }
        var roll = below(total)
        for (weight, value) in choices where weight > 0 {
            if roll < weight { return value }
            roll -= weight
        }
        return fallback
    }

    /// A seed for a sub-generator, so that adding draws to one part of a case does not change
    /// the others.
    mutating func fork() -> UInt64 { next() }

    /// The `index`-th seed derived from `seed` (a SplitMix64 step per index), so case `i` of a
    /// run can be regenerated without generating the cases before it.
    static func derive(_ seed: UInt64, _ index: Int) -> UInt64 {
        var generator = DifferentialRandom(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        return generator.next()
    }
}
