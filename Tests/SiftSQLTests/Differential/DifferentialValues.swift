import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// The values data sets and predicate constants are drawn from: few enough that ties and
/// matches are frequent, and chosen for the edges where two engines could disagree.
enum DifferentialValues {
    /// Strings: ASCII with case variants and code-point order traps (`"B" < "a"`), ß and
    /// STRASSE (case folding that changes length), é precomposed and decomposed (equal after
    /// NFC), Å in three spellings (U+00C5, A + U+030A, U+212B ANGSTROM SIGN, which NFC maps to
    /// U+00C5), emoji (one of them a two-scalar grapheme), the empty string, quotes, the LIKE and
    /// SQL wildcards `* ? % _`, backslashes, numbers in text for `localizedStandardCompare`,
    /// Greek final sigma, dotted İ, a ligature, a titlecase digraph, and U+0000 alone, inside
    /// and at either end (SQLite's `substr`, `length` and `LIKE` stop at a text's first NUL,
    /// PostgreSQL's text cannot hold one); a mark that composes with nothing (x + U+0301) and a
    /// lone mark, which `[d]` folds to the empty string (an empty needle never matches,
    /// LANGUAGE.md §4).
    static let strings: [String] = [
        "", "a", "A", "b", "B", "abc", "Abc", "ABC", "abd", "ab",
        "straße", "STRASSE", "Strasse", "ß",
        "caf\u{E9}", "cafe\u{301}", "CAF\u{C9}", "cafe", "x\u{301}", "\u{301}",
        "\u{C5}ngstr\u{F6}m", "A\u{30A}", "\u{212B}", "\u{C5}", "\u{E5}",
        "😀", "a😀b", "👍🏽", "日本",
        "it's", "say \"hi\"", "100%", "a%b", "a_b", "a*b", "a?b", "*", "?", "back\\slash", "\\",
        "file2", "file10", "File1", "x y", " lead",
        "Σίσυφος", "ς", "İstanbul", "ﬁle", "ǅemal", "Zebra", "zebra",
        "a\u{0}b", "\u{0}", "ab\u{0}", "\u{0}b", "A\u{0}B", "\u{E9}\u{0}\u{C9}",
    ]

    /// Integer 64 values: small ones, negatives, powers of two around 2^53 (where doubles stop
    /// being exact: 2^53 + 1 and 2^53 + 3 round to other doubles), 2^62 + 1, the greatest double
    /// below 2^63 and the integer after it, and the limits.
    static let integers64: [Int64] = [
        0, 1, -1, 2, 3, 5, 7, 10, 42, -42, 100, 1000, 2_147_483_648, 4_294_967_296,
        9_007_199_254_740_992, 9_007_199_254_740_993, -9_007_199_254_740_993, 9_007_199_254_740_995,
        4_611_686_018_427_387_905, 9_223_372_036_854_774_784, 9_223_372_036_854_774_785,
        .max, .min, .max - 1, .min + 1,
    ]

    static let integers32: [Int64] = [0, 1, -1, 18, 30, 45, 65, 2_147_483_647, -2_147_483_648]

    static let integers16: [Int64] = [0, 1, -1, 2, 3, 100, -100, 32767, -32768]

    /// Doubles: sums of powers of two; -0.0; some that are not exact (0.1, 0.2, 0.3, 0.001),
    /// whose sums and averages over a to-many relationship depend on the order they are added
    /// in (both engines add in the collection's order); extremes; and the doubles at the
    /// integers' edges (``edgeDoubles``).
    static let doubles: [Double] = [
        0.0, -0.0, 0.5, 1.0, 1.5, -1.5, 2.0, 2.25, 3.0, 4.5, 10.0, 100.0, -7.75, 0.125,
        0.1, 0.2, 0.3, 0.001, 1e15, 1e300, -1e300, .leastNonzeroMagnitude,
    ] + edgeDoubles

    /// Doubles where Integer 64 values stop being doubles: 2^53 and the doubles after it, 2^62,
    /// 2^63 - 1024 (the greatest double below 2^63), 2^63 (the least above every integer) and
    /// -2^63: an integer compared with one of them as a double (rounded) is answered wrong.
    static let edgeDoubles: [Double] = [
        9_007_199_254_740_992, 9_007_199_254_740_994, -9_007_199_254_740_992, 4_611_686_018_427_387_904,
        9_223_372_036_854_774_784, 9_223_372_036_854_775_808, -9_223_372_036_854_775_808,
    ]

    /// Integer 64 values no double holds, and the limits (``integers64``'s edges).
    static let edgeIntegers: [Int64] = [
        9_007_199_254_740_993, -9_007_199_254_740_993, 9_007_199_254_740_995, 4_611_686_018_427_387_905,
        9_223_372_036_854_774_785, .max, .min + 1,
    ]

    /// Decimals: ones a double cannot hold (0.1, 12.552, 10^20 + 0.5, 38 digits), whose sums
    /// are exact only as decimals (12.495 a thousand times is 12495, as doubles 12494.999…),
    /// and ones equal to a double or an integer.
    static let decimals: [String] = [
        "0", "1", "0.1", "0.2", "0.3", "1.5", "-1.5", "12.552", "12.495", "0.01", "-7.75", "2.25",
        "100000000000000000000", "100000000000000000000.5", "0.0000000000000000000001",
        "123456789012345678901234567890.12345678", "-0.000001",
    ]

    /// Float values (stored as the Float's value widened to a double).
    static let floats: [Double] = [0, -0.0, 0.5, 0.25, 1, -2.5, 0.1, 1.0 / 3.0, 1e10, 3.4e38, 1e-7]

    /// Dates, as seconds since 2001-01-01 UTC: the epochs of both calendars, fractions a
    /// quarter second exact, a day apart, before 1970 and far ahead.
    static let dateSeconds: [Double] = [
        0, -978_307_200, 1_000_000_000, 1_000_000_000.5, 631_152_000, 631_238_400, -1, 86399.25,
        3_155_760_000, -31_557_600_000,
    ]

    static let uuids: [UUID] = [
        "00000000-0000-0000-0000-000000000000", "1975DB51-5A45-4FD6-AC54-46CA6042C710",
        "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
    ].compactMap(UUID.init(uuidString:))

    /// The pool of values for an attribute of a model type.
    static func pool(for type: AttributeType) -> [Value] {
        switch type {
        case .string, .uri: strings.map(Value.string)
        case .integer64: integers64.map(Value.int)
        case .integer32: integers32.map(Value.int)
        case .integer16: integers16.map(Value.int)
        case .double: doubles.map(Value.double)
        case .float: floats.map { .double(Double(Float($0))) }
        case .decimal: decimals.compactMap { Decimal(string: $0, locale: nil) }.map(Value.decimal)
        case .boolean: [.bool(false), .bool(true)]
        case .date: dateSeconds.map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .uuid: uuids.map(Value.uuid)
        default: []
        }
    }

    /// A few of a pool's values (2 to 6 of them, first ones more likely, since the pools start
    /// with the ordinary values): one data set draws most of its values from its palette, so
    /// equal values — sort ties, shared sections, matches — are common.
    static func palette(for type: AttributeType, _ random: inout DifferentialRandom) -> [Value] {
        let pool = pool(for: type)
        guard !pool.isEmpty else { return [] }
        let size = min(pool.count, random.int(in: 2...6))
        var chosen: [Value] = []
        var indices: Set<Int> = []
        while chosen.count < size {
            // Half the time from the first third of the pool, which holds the ordinary values.
            let index = random.chance(1, in: 2) ? random.below(max(1, pool.count / 3)) : random.below(pool.count)
            if indices.insert(index).inserted { chosen.append(pool[index]) }
        }
        // One palette in three holds where engines part (issue 29): text with NUL, an integer no
        // double holds, a double at the integers' edge.
        if random.chance(1, in: 3) {
            switch type {
            case .string, .uri: chosen.append(.string(random.pick(nulStrings, or: "a\u{0}b")))
            case .integer64: chosen.append(.int(random.pick(edgeIntegers, or: .max)))
            case .double: chosen.append(.double(random.pick(edgeDoubles, or: 0)))
            default: break
            }
        }
        return chosen
    }

    /// The strings holding U+0000.
    static var nulStrings: [String] { strings.filter { $0.unicodeScalars.contains("\u{0}") } }
}
