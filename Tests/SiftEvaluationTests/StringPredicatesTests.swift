import SiftLanguage
import Testing
import TestTimeLimits
@testable import SiftEvaluation

/// `StringPredicates`: `== BEGINSWITH ENDSWITH CONTAINS` and the order of `< <= > >=` on strings,
/// under [], [c], [d], [cd], [n] (LANGUAGE.md §3–§4).
@Suite("String predicates")
struct StringPredicatesTests {
    enum Operation: String, Sendable {
        case equals = "=="
        case beginsWith = "BEGINSWITH"
        case endsWith = "ENDSWITH"
        case contains = "CONTAINS"

        func evaluate(_ a: String, _ b: String, _ o: ComparisonOptions) -> Bool {
            switch self {
            case .equals: StringPredicates.equals(a, b, options: o)
            case .beginsWith: StringPredicates.beginsWith(a, b, options: o)
            case .endsWith: StringPredicates.endsWith(a, b, options: o)
            case .contains: StringPredicates.contains(a, b, options: o)
            }
        }
    }

    struct Input: Sendable {
        let a: String
        let operation: Operation
        let b: String
    }

    static func row(_ a: String, _ op: Operation, _ b: String, _ expected: [Bool]) -> StringOptionRow<Input> {
        StringOptionRow(Input(a: a, operation: op, b: b), expected)
    }

    static let T = true, F = false
    //                                                      []  [c] [d] [cd] [n]
    static let rows: [StringOptionRow<Input>] = [
        // Case folding is full case folding.
        row("STRASSE", .equals, "straße",                     [F, T, F, T, F]),
        row("straße", .equals, "STRASSE",                     [F, T, F, T, F]),
        row("\u{1E9E}", .equals, "ss",                        [F, T, F, T, F]),
        row("ΣΑΣ", .equals, "σας",                            [F, T, F, T, F]),
        row("KELVIN", .equals, "\u{212A}elvin",               [F, T, F, T, F]),
        row("\u{130}", .equals, "i",                          [F, F, F, T, F]),
        row("\u{130}", .equals, "i\u{307}",                   [F, T, F, T, F]),
        row("I", .equals, "\u{131}",                          [F, F, F, F, F]),
        row("\u{FB01}le", .equals, "FILE",                    [F, T, F, T, F]),
        // NFC: canonically equivalent strings are equal except under [n].
        row("\u{E9}", .equals, "e\u{301}",                    [T, T, T, T, F]),
        row("\u{C5}", .equals, "\u{212B}",                    [T, T, T, T, F]),
        row("\u{C5}", .equals, "A\u{30A}",                    [T, T, T, T, F]),
        row("\u{E9}", .equals, "e",                           [F, F, T, T, F]),
        row("\u{C9}", .equals, "e",                           [F, F, F, T, F]),
        row("abc", .equals, "abc",                            [T, T, T, T, T]),
        row("abc", .equals, "ABC",                            [F, T, F, T, F]),
        row("abc", .equals, "abcd",                           [F, F, F, F, F]),
        row("", .equals, "",                                  [T, T, T, T, T]),
        row("", .equals, "a",                                 [F, F, F, F, F]),
        row("👨‍👩‍👧", .equals, "👨‍👩‍👧",                        [T, T, T, T, T]),
        row("👍🏽", .equals, "👍",                              [F, F, F, F, F]),
        // BEGINSWITH: scalar prefixes of the prepared (NFC / folded) forms.
        row("\u{E9}", .beginsWith, "e",                       [F, F, T, T, F]),
        row("e\u{301}", .beginsWith, "e",                     [F, F, T, T, T]),  // [n]: literal bytes
        row("\u{E9}t\u{E9}", .beginsWith, "e\u{301}",         [T, T, T, T, F]),
        row("Stár Trek", .beginsWith, "Star",                 [F, F, T, T, F]),
        row("stár trek", .beginsWith, "Star",                 [F, F, F, T, F]),
        row("Star Wars", .beginsWith, "Star",                 [T, T, T, T, T]),
        row("STRASSE", .beginsWith, "stra\u{DF}",             [F, T, F, T, F]),
        row("straße", .beginsWith, "STRAS",                   [F, T, F, T, F]),  // the prefix ends inside "ß"→"ss"
        row("\u{1EB9}\u{301}", .beginsWith, "\u{1EB9}",       [T, T, T, T, T]),  // ẹ́: a prefix may end inside a cluster
        row("", .beginsWith, "a",                             [F, F, F, F, F]),
        row("ab", .beginsWith, "abc",                         [F, F, F, F, F]),
        // ENDSWITH.
        row("caf\u{E9}", .endsWith, "e",                      [F, F, T, T, F]),
        row("caf\u{E9}", .endsWith, "\u{301}",                [F, F, F, F, F]),  // [d] folds the needle to "": no match
        row("cafe\u{301}", .endsWith, "\u{301}",              [F, F, F, F, T]),  // [n]: the bytes as they are
        row("straße", .endsWith, "SSE",                       [F, T, F, T, F]),
        row("Å", .endsWith, "\u{212B}",                       [T, T, T, T, F]),
        row("bc", .endsWith, "abc",                           [F, F, F, F, F]),
        row("👨‍👩‍👧", .endsWith, "👧",                           [T, T, T, T, T]),  // scalar level
        // CONTAINS.
        row("Café au lait", .contains, "cafe",                [F, F, F, T, F]),
        row("Café au lait", .contains, "Café",                [T, T, T, T, T]),
        row("Cafe\u{301} au lait", .contains, "Café",         [T, T, T, T, F]),
        row("Straße", .contains, "SS",                        [F, T, F, T, F]),
        row("Straße", .contains, "aß",                        [T, T, T, T, T]),
        row("MASSE", .contains, "ß",                          [F, T, F, T, F]),
        row("Ångström", .contains, "angstrom",                [F, F, F, T, F]),
        row("naïve", .contains, "ive",                        [F, F, T, T, F]),
        row("", .contains, "a",                               [F, F, F, F, F]),
        row("abc", .contains, "abcd",                         [F, F, F, F, F]),
        row("aaaaaaaaab", .contains, "aab",                   [T, T, T, T, T]),
        row("aaaaaaaaaa", .contains, "aab",                   [F, F, F, F, F]),
        row("x👨‍👩‍👧y", .contains, "👩",                         [T, T, T, T, T]),  // scalar level
        row("日本語テキスト", .contains, "語テ",                 [T, T, T, T, T]),
        // An empty needle never matches (LANGUAGE.md §4, as Foundation's search finds nothing
        // for ""), whatever the string, "" included, and whatever the options.
        row("abc", .beginsWith, "",                           [F, F, F, F, F]),
        row("", .beginsWith, "",                              [F, F, F, F, F]),
        row("abc", .endsWith, "",                             [F, F, F, F, F]),
        row("", .endsWith, "",                                [F, F, F, F, F]),
        row("abc", .contains, "",                             [F, F, F, F, F]),
        row("", .contains, "",                                [F, F, F, F, F]),
        // A needle empty once prepared: a lone mark under [d] (x + U+0301 stays two scalars in NFC).
        row("x\u{301}", .contains, "\u{301}",                 [T, T, F, F, T]),
        row("x\u{301}", .endsWith, "\u{301}",                 [T, T, F, F, T]),
        row("\u{301}", .beginsWith, "\u{301}",                [T, T, F, F, T]),
        row("", .contains, "\u{301}",                         [F, F, F, F, F]),
        row("abc", .contains, "\u{301}\u{308}",               [F, F, F, F, F]),
    ]

    static let cases = expandOptionRows(rows) { "\(displayed($0.a)) \($0.operation.rawValue) \(displayed($0.b))" }

    @Test(arguments: cases)
    func predicate(_ c: StringOptionCase<Input>) {
        #expect(c.input.operation.evaluate(c.input.a, c.input.b, comparisonOptions(c.letters)) == c.expected)
    }

    /// `[l]` changes nothing; `[n]` wins over `[c]` and `[d]`.
    @Test(arguments: cases.filter { $0.letters == "" || $0.letters == "c" || $0.letters == "n" })
    func localeAndNormalizedOptions(_ c: StringOptionCase<Input>) {
        let variants: [String] = switch c.letters {
        case "": ["l"]
        case "c": ["cl"]
        default: ["cn", "dn", "cdn", "cdnl"]
        }
        for letters in variants {
            #expect(c.input.operation.evaluate(c.input.a, c.input.b, comparisonOptions(letters)) == c.expected, "[\(letters)]")
        }
    }

    struct Order: Sendable, CustomTestStringConvertible {
        let a: String, b: String, letters: String, expected: Int
        init(_ a: String, _ b: String, _ letters: String, _ expected: Int) {
            self.a = a; self.b = b; self.letters = letters; self.expected = expected
        }
        var testDescription: String { "\(displayed(a)) vs \(displayed(b)) [\(letters)] → \(expected)" }
    }

    static let orders: [Order] = [
        Order("B", "a", "", -1),  // code-point order: upper case first
        Order("a", "B", "", 1),
        Order("a", "B", "c", -1),
        Order("a", "A", "c", 0),
        Order("abc", "ab", "", 1),
        Order("", "a", "", -1),
        Order("", "", "", 0),
        Order("\u{E9}", "e\u{301}", "", 0),  // canonically equivalent
        Order("\u{E9}", "e\u{301}", "n", 1),  // [n]: bytes C3 A9 vs 65 CC 81
        Order("\u{E9}", "f", "", 1),  // U+00E9 after U+0066
        Order("\u{E9}", "f", "d", -1),
        Order("Z", "\u{C9}", "", -1),
        Order("z", "\u{C9}", "cd", 1),
        Order("Star Wars", "Stár Trek", "", -1),
        Order("Stár Trek", "The Star", "", -1),
        Order("The Star", "star trek", "", -1),
        Order("STRASSE", "straße", "c", 0),
        Order("straße", "strasse", "", 1),
        Order("\u{FFFF}", "\u{10000}", "", -1),  // scalar order, not UTF-16 order
        Order("\u{E000}", "\u{10000}", "", -1),
        Order("👍", "👍🏽", "", -1),
    ]

    @Test(arguments: orders)
    func compare(_ o: Order) {
        #expect(StringPredicates.compare(o.a, o.b, options: comparisonOptions(o.letters)) == o.expected)
        #expect(StringPredicates.compare(o.b, o.a, options: comparisonOptions(o.letters)) == -o.expected)
    }

    /// Order agrees with equality and with code-point order of the prepared strings, on a sample
    /// mixing ASCII, Latin-1, decomposed and astral text.
    @Test(arguments: stringOptionColumns)
    func compareAgreesWithEqualsAndScalarOrder(_ letters: String) {
        let o = comparisonOptions(letters)
        let sample = ["", "a", "A", "b", "B", "ab", "aB", "\u{E9}", "e\u{301}", "E\u{301}", "e", "f", "ß", "ss", "SS",
                      "\u{212B}", "\u{C5}", "å", "Ω", "ω", "😀", "\u{FFFF}", "日本", "z", "Z"]
        for a in sample {
            for b in sample {
                let r = StringPredicates.compare(a, b, options: o)
                #expect((r == 0) == StringPredicates.equals(a, b, options: o), "\(displayed(a)) \(displayed(b))")
                let pa = Preparation(o).apply(a), pb = Preparation(o).apply(b)
                let expected = pa.unicodeScalars.lexicographicallyPrecedes(pb.unicodeScalars, by: { $0.value < $1.value })
                    ? -1 : (pa.unicodeScalars.elementsEqual(pb.unicodeScalars) ? 0 : 1)
                #expect(r == expected, "\(displayed(a)) \(displayed(b))")
            }
        }
    }

    /// Long inputs: the substring search does not slow down on repetitive text of realistic size
    /// (a quadratic search would not finish within the time limit).
    @Test(.hangGuard()) func longInputs() {
        let hay = String(repeating: "a", count: 200_000) + "b"
        do {
            #expect(StringPredicates.contains(hay, "aaab"))
            #expect(!StringPredicates.contains(hay, "aaac"))
            #expect(StringPredicates.contains(hay, "AAAB", options: .caseInsensitive))
            #expect(StringPredicates.endsWith(hay, "ab"))
            #expect(StringPredicates.beginsWith(hay, "aa"))
        }
    }
}
