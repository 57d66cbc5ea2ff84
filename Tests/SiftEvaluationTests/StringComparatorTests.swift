import SiftLanguage
import Testing
@testable import SiftEvaluation

/// The string sort comparators (FETCH.md §3).
@Suite("String comparators")
struct StringComparatorTests {
    struct Order: Sendable, CustomTestStringConvertible {
        let comparator: StringComparator
        let a: String, b: String
        let expected: Int
        init(_ comparator: StringComparator, _ a: String, _ b: String, _ expected: Int) {
            self.comparator = comparator; self.a = a; self.b = b; self.expected = expected
        }
        var testDescription: String { "\(comparator): \(displayed(a)) vs \(displayed(b)) → \(expected)" }
    }

    static let orders: [Order] = [
        // compare: code-point order after NFC.
        Order(.compare, "B", "a", -1),
        Order(.compare, "Star Wars", "Stár Trek", -1),
        Order(.compare, "Stár Trek", "The Star", -1),
        Order(.compare, "The Star", "star trek", -1),
        Order(.compare, "\u{E9}", "e\u{301}", 0),
        Order(.compare, "\u{C5}", "\u{212B}", 0),
        Order(.compare, "a", "A", 1),
        Order(.compare, "file10", "file2", -1),
        Order(.compare, "", "", 0),
        Order(.compare, "", "a", -1),
        // caseInsensitiveCompare: [c]-folded order, equal folded strings tie.
        Order(.caseInsensitiveCompare, "a", "B", -1),
        Order(.caseInsensitiveCompare, "A", "a", 0),
        Order(.caseInsensitiveCompare, "STRASSE", "straße", 0),
        Order(.caseInsensitiveCompare, "\u{E9}", "f", 1),  // accents still count
        Order(.caseInsensitiveCompare, "\u{C9}", "\u{E9}", 0),
        Order(.caseInsensitiveCompare, "errands", "Personal", -1),
        // localizedCompare: [cd]-folded order, then compare on equal ones.
        Order(.localizedCompare, "\u{E9}", "f", -1),
        Order(.localizedCompare, "e", "\u{E9}", -1),
        Order(.localizedCompare, "E", "e", -1),
        Order(.localizedCompare, "\u{C9}", "e", 1),
        Order(.localizedCompare, "\u{E9}", "e\u{301}", 0),  // only canonical equivalents tie
        Order(.localizedCompare, "Stár Trek", "star trek", -1),
        Order(.localizedCompare, "Zebra", "apple", 1),
        // localizedCaseInsensitiveCompare: [cd]-folded order, ties stay ties.
        Order(.localizedCaseInsensitiveCompare, "E", "\u{E9}", 0),
        Order(.localizedCaseInsensitiveCompare, "\u{E9}", "f", -1),
        Order(.localizedCaseInsensitiveCompare, "Zebra", "apple", 1),
        Order(.localizedCaseInsensitiveCompare, "Ångström", "angstrom", 0),
        Order(.localizedCaseInsensitiveCompare, "file10", "file2", -1),
        // localizedStandardCompare: also numeric runs by value.
        Order(.localizedStandardCompare, "file2", "file10", -1),
        Order(.localizedStandardCompare, "File2", "file10", -1),
        Order(.localizedStandardCompare, "file10", "file10", 0),
        Order(.localizedStandardCompare, "a01", "a1", 0),  // equal value: a tie, whatever the zeros
        Order(.localizedStandardCompare, "a001b", "a1c", -1),
        Order(.localizedStandardCompare, "x9", "x10", -1),
        Order(.localizedStandardCompare, "x10", "x100", -1),
        Order(.localizedStandardCompare, "2", "10", -1),
        Order(.localizedStandardCompare, "file", "file1", -1),
        Order(.localizedStandardCompare, "file 2", "file2", -1),  // " " < "2"
        Order(.localizedStandardCompare, "v1.10", "v1.9", 1),
        Order(.localizedStandardCompare, "a99999999999999999999999", "a100000000000000000000000", -1),  // no overflow
        Order(.localizedStandardCompare, "a0", "a", 1),
        Order(.localizedStandardCompare, "a0", "a00", 0),
        Order(.localizedStandardCompare, "Chapitre 2", "chapître 10", -1),
        Order(.localizedStandardCompare, "\u{663}", "\u{661}\u{660}", 1),  // Arabic-Indic digits are not numeric
    ]

    @Test(arguments: orders)
    func order(_ o: Order) {
        #expect(o.comparator.compare(o.a, o.b) == o.expected)
        #expect(o.comparator.compare(o.b, o.a) == -o.expected)
    }

    func sorted(_ values: [String], _ comparator: StringComparator) -> [String] {
        // Stable: ties keep the input order (FETCH.md breaks ties by insertion order).
        values.enumerated().sorted { x, y in
            let r = comparator.compare(x.element, y.element)
            return r != 0 ? r < 0 : x.offset < y.offset
        }.map(\.element)
    }

    /// SEED-APPS N8: `name↑` / `name↑[caseInsensitive]`.
    @Test func seedCategories() {
        let names = ["Personal", "Work", "errands"]
        #expect(sorted(names, .compare) == ["Personal", "Work", "errands"])
        #expect(sorted(names, .caseInsensitiveCompare) == ["errands", "Personal", "Work"])
        #expect(sorted(names, .localizedStandardCompare) == ["errands", "Personal", "Work"])
    }

    /// SEED-APPS M6: `title↑` — upper case first, accented letters after both.
    @Test func seedMovies() {
        let titles = ["Star Wars", "Alien", "Aliens", "star trek", "Arrival", "Stár Trek Beyond", "Starship Troopers",
                      "Lone Star", "The Star"]
        #expect(sorted(titles, .compare) == ["Alien", "Aliens", "Arrival", "Lone Star", "Star Wars", "Starship Troopers",
                                             "Stár Trek Beyond", "The Star", "star trek"])
        #expect(sorted(titles, .localizedCaseInsensitiveCompare) == ["Alien", "Aliens", "Arrival", "Lone Star",
                                                                     "star trek", "Stár Trek Beyond", "Star Wars",
                                                                     "Starship Troopers", "The Star"])
    }

    @Test func fileNames() {
        let files = ["file10.txt", "File2.txt", "file1.txt", "file20.txt", "file3.txt", "file02.txt"]
        #expect(sorted(files, .localizedStandardCompare)
                == ["file1.txt", "File2.txt", "file02.txt", "file3.txt", "file10.txt", "file20.txt"])
        #expect(sorted(files, .compare)
                == ["File2.txt", "file02.txt", "file1.txt", "file10.txt", "file20.txt", "file3.txt"])
    }

    /// Every comparator is a total preorder: antisymmetric and transitive on a mixed sample.
    @Test(arguments: StringComparator.allCases)
    func totalPreorder(_ comparator: StringComparator) {
        let sample = ["", "a", "A", "b", "B", "\u{E9}", "e\u{301}", "E", "\u{C9}", "e", "f", "ß", "ss", "SS", "Straße",
                      "strasse", "\u{212B}", "\u{C5}", "å", "a1", "a01", "a2", "a10", "A10", "a1b", "file 2", "file2",
                      "😀", "日本", "z9", "z09x", "Z10"]
        for a in sample {
            for b in sample {
                let ab = comparator.compare(a, b)
                #expect(ab == -comparator.compare(b, a), "\(displayed(a)) \(displayed(b))")
                for c in sample where ab <= 0 && comparator.compare(b, c) <= 0 {
                    #expect(comparator.compare(a, c) <= 0, "\(displayed(a)) ≤ \(displayed(b)) ≤ \(displayed(c))")
                    if ab == 0 && comparator.compare(b, c) == 0 { #expect(comparator.compare(a, c) == 0) }
                }
            }
        }
    }

    /// A comparator's sort key orders (by UTF-8 bytes) and ties exactly as the comparator does:
    /// on the mixed sample, every pair of the table above, and random strings of digits, letters,
    /// marks and other scripts.
    @Test(arguments: [StringComparator.caseInsensitiveCompare, .localizedCaseInsensitiveCompare, .localizedStandardCompare])
    func sortKeyOrdersAsTheComparator(_ comparator: StringComparator) {
        var sample = ["", "a", "A", "b", "B", "\u{E9}", "e\u{301}", "E", "\u{C9}", "e", "f", "ß", "ss", "SS", "Straße",
                      "strasse", "\u{212B}", "\u{C5}", "å", "a1", "a01", "a2", "a10", "A10", "a1b", "file 2", "file2",
                      "😀", "日本", "z9", "z09x", "Z10", "0", "00", "000a", "/", ":", "a0", "a00", "a/", "a:",
                      "x123456789", "x1234567890", "x99999999", "x000000000123", "\u{663}", "\u{661}\u{660}"]
        sample += Self.orders.flatMap { [$0.a, $0.b] }
        var generator = SystemRandomNumberGenerator()
        let alphabet: [String] = ["0", "1", "9", "0", "5", "a", "B", "é", "E\u{301}", "ß", " ", "-", "/", ":", "日", "\u{663}", "Z"]
        for _ in 0..<400 {
            sample.append((0..<Int.random(in: 0...7, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "" }.joined())
        }
        func byteOrder(_ x: String, _ y: String) -> Int {
            let a = Array(x.utf8), b = Array(y.utf8)
            return a == b ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1)
        }
        for a in sample {
            guard let ka = comparator.sortKey(a) else { Issue.record("no key"); return }
            for b in sample {
                guard let kb = comparator.sortKey(b) else { continue }
                #expect(byteOrder(ka, kb) == comparator.compare(a, b), "\(displayed(a)) vs \(displayed(b)): keys \(displayed(ka)), \(displayed(kb))")
            }
        }
        #expect(StringComparator.compare.sortKey("a") == nil && StringComparator.localizedCompare.sortKey("a") == nil)
    }
}
