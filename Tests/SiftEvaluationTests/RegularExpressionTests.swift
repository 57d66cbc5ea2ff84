import Dispatch
import SiftLanguage
import Synchronization
import Testing
import TestTimeLimits
@testable import SiftEvaluation

/// `RegularExpression`: `MATCHES` on PCRE2 (LANGUAGE.md §4).
@Suite("Regular expressions")
struct RegularExpressionTests {
    struct Input: Sendable {
        let subject: String
        let pattern: String
    }

    static func row(_ subject: String, _ pattern: String, _ expected: [Bool]) -> StringOptionRow<Input> {
        StringOptionRow(Input(subject: subject, pattern: pattern), expected)
    }

    static let T = true, F = false
    //                                                  []  [c] [d] [cd] [n]
    static let rows: [StringOptionRow<Input>] = [
        // Whole-string semantics.
        row("abc", "b",                                  [F, F, F, F, F]),
        row("abc", "a.c",                                [T, T, T, T, T]),
        row("abc", "ab",                                 [F, F, F, F, F]),
        row("abc", "bc",                                 [F, F, F, F, F]),
        row("abc", ".*b.*",                              [T, T, T, T, T]),
        row("ab", "a|ab",                                [T, T, T, T, T]),  // the end anchor backtracks into "ab"
        row("abab", "(ab)+",                             [T, T, T, T, T]),
        row("abc\n", "abc",                              [F, F, F, F, F]),  // no "$ before a final newline"
        row("abc", "^abc$",                              [T, T, T, T, T]),
        row("", "",                                      [T, T, T, T, T]),
        row("", "a*",                                    [T, T, T, T, T]),
        row("a", "",                                     [F, F, F, F, F]),
        row("a\nb", "a.b",                               [F, F, F, F, F]),
        row("a\nb", "(?s)a.b",                           [T, T, T, T, T]),
        row("2024-01-31", "\\d{4}-\\d{2}-\\d{2}",       [T, T, T, T, T]),
        row("jane@example.com", "[^@]+@[^@]+\\.[a-z]+",  [T, T, T, T, T]),
        // [c] is PCRE2 caseless matching (simple case folding).
        row("ABC", "abc",                                [F, T, F, T, F]),
        row("Hello World", "hello.*",                    [F, T, F, T, F]),
        row("ÉCOLE", "école",                            [F, T, F, F, F]),  // [cd] strips the subject's accent only
        row("ΣΑΣ", "σας",                                [F, T, F, T, F]),
        row("STRASSE", "straße",                         [F, F, F, F, F]),  // no full folding in PCRE2
        // [d] folds the subject's diacritics, not the pattern's.
        row("Stár", "Star",                              [F, F, T, T, F]),
        row("STÁR", "star",                              [F, F, F, T, F]),
        row("Star", "Stár",                              [F, F, F, F, F]),
        row("Crème Brûlée", "Creme.*",                   [F, F, T, T, F]),
        // NFC: subject and pattern are normalised (except under [n]); [d] strips only the subject.
        row("cafe\u{301}", "caf\u{E9}",                  [T, T, F, F, F]),
        row("caf\u{E9}", "cafe\u{301}",                  [T, T, F, F, F]),
        row("cafe\u{301}", "caf.",                       [T, T, T, T, F]),
        row("cafe\u{301}", "cafe.",                      [F, F, F, F, T]),
        row("\u{212B}", "\u{C5}",                        [T, T, F, F, F]),
        row("\u{212B}", "A",                             [F, F, T, T, F]),
        // UTF mode with Unicode properties.
        row("日本語", "\\w+",                              [T, T, T, T, T]),
        row("日本語", "...",                              [T, T, T, T, T]),
        row("Ünïcödé", "[[:alpha:]]+",                   [T, T, T, T, T]),
        row("😀", ".",                                    [T, T, T, T, T]),
        row("👨‍👩‍👧", ".",                                  [F, F, F, F, F]),  // . is one scalar; \X is one cluster
        row("👨‍👩‍👧", "\\X",                                [T, T, T, T, T]),
        row("١٢٣", "\\d+",                               [T, T, T, T, T]),
    ]

    static let cases = expandOptionRows(rows) { "\(displayed($0.subject)) MATCHES \(displayed($0.pattern))" }

    @Test(arguments: cases)
    func matches(_ c: StringOptionCase<Input>) throws {
        let regex = try RegularExpression(pattern: c.input.pattern, options: comparisonOptions(c.letters))
        #expect(try regex.matches(c.input.subject) == c.expected)
        #expect(try RegularExpression.matches(c.input.subject, pattern: c.input.pattern, options: comparisonOptions(c.letters)) == c.expected)
    }

    @Test func usesTheJITWhenThereIsOne() throws {
        let regex = try RegularExpression(pattern: "a+b", caseInsensitive: false)
        #expect(regex.usesJIT == RegularExpression.jitAvailable)
    }

    @Test func caseInsensitiveInitializer() throws {
        #expect(try RegularExpression(pattern: "abc", caseInsensitive: true).matches("ABC"))
        #expect(try !RegularExpression(pattern: "abc", caseInsensitive: false).matches("ABC"))
        #expect(try RegularExpression(pattern: "caf\u{E9}", caseInsensitive: false).matches("cafe\u{301}"))
    }

    struct Invalid: Sendable, CustomTestStringConvertible {
        let pattern: String
        let fragments: [String]
        var testDescription: String { displayed(pattern) }
    }

    static let invalid: [Invalid] = [
        Invalid(pattern: "a(b", fragments: ["\"a(b\"", "missing closing parenthesis", "offset 3"]),
        Invalid(pattern: "[z-a]", fragments: ["\"[z-a]\"", "range out of order", "offset 3"]),
        Invalid(pattern: "*a", fragments: ["\"*a\"", "quantifier does not follow a repeatable item", "offset 0"]),
        Invalid(pattern: "é(", fragments: ["\"é(\"", "offset 2"]),  // offsets count characters, not bytes
        Invalid(pattern: "\\", fragments: ["\"\\\"", "\\ at end of pattern"]),
    ]

    @Test(arguments: invalid)
    func invalidPattern(_ c: Invalid) {
        func check(_ error: EvaluationError) {
            #expect(error.code == .invalidRegularExpression)
            for fragment in c.fragments { #expect(error.message.contains(fragment), "\(error.message)") }
        }
        do {
            _ = try RegularExpression(pattern: c.pattern, caseInsensitive: false)
            Issue.record("no error for \(displayed(c.pattern))")
        } catch { check(error) }
        do {
            _ = try RegularExpression.matches("x", pattern: c.pattern, options: [])
            Issue.record("no error for \(displayed(c.pattern))")
        } catch { check(error) }
    }

    /// Catastrophic backtracking hits the match limit and throws instead of hanging.
    @Test(.hangGuard(), arguments: ["(a+)+$", "(a|a)+", "(a|aa)+", "(.*a){12}"])
    func catastrophicPatternHitsTheLimit(_ pattern: String) throws {
        let subject = String(repeating: "a", count: 40) + "b"
        let regex = try RegularExpression(pattern: pattern, caseInsensitive: false)
        var caught: EvaluationError?
        do throws(EvaluationError) { _ = try regex.matches(subject) } catch { caught = error }
        #expect(caught?.code == .regularExpressionLimit)
        #expect(caught?.message.contains(pattern) == true)
        // The expression still works afterwards.
        #expect(try regex.matches("aaaa") == (pattern != "(.*a){12}"))
    }

    /// A long subject that needs deep backtracking still matches (JIT stack exhausted → interpreter).
    @Test func longSubjects() throws {
        let subject = String(repeating: "ab", count: 50_000)
        #expect(try RegularExpression(pattern: "(a|b)*", caseInsensitive: false).matches(subject))
        #expect(try RegularExpression(pattern: "(?:ab)+", caseInsensitive: false).matches(subject))
        #expect(try !RegularExpression(pattern: "(a|b)*c", caseInsensitive: false).matches(subject))
    }

    /// One compiled expression used from many threads at once.
    @Test func concurrentMatches() throws {
        let regex = try RegularExpression(pattern: "([a-z]+)-(\\d+)", options: .caseInsensitive)
        let subjects = (0..<1_000).map { i in i % 3 == 0 ? "Item-\(i)" : i % 3 == 1 ? "item_\(i)" : "ÉLAN-\(i)" }
        let matched = Atomic<Int>(0)
        let failed = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<50 {
                for (i, s) in subjects.enumerated() where (i + worker + round) % 8 == 0 {
                    do {
                        let expected = i % 3 == 0
                        if try regex.matches(s) == expected { matched.add(1, ordering: .relaxed) } else { failed.add(1, ordering: .relaxed) }
                        // The cached path too, with patterns that differ per worker.
                        let p = "item-\\d{\(1 + worker % 4)}"
                        _ = try RegularExpression.matches(s, pattern: p, options: .caseInsensitive)
                    } catch {
                        failed.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        #expect(failed.load(ordering: .relaxed) == 0)
        #expect(matched.load(ordering: .relaxed) == 8 * 50 * 1_000 / 8)
    }

    @Test func cacheReusesCompiledExpressions() throws {
        let a = try RegularExpression.cached(pattern: "x+y", options: .caseInsensitive)
        let b = try RegularExpression.cached(pattern: "x+y", options: [.caseInsensitive, .localeSensitive])
        let c = try RegularExpression.cached(pattern: "x+y", options: [])
        #expect(a === b)
        #expect(a !== c)
        #expect(a.caseInsensitive && !c.caseInsensitive)
        // More patterns than the cache holds: still correct.
        for i in 0..<(RegularExpression.cacheCapacity + 10) {
            #expect(try RegularExpression.matches("a\(i)", pattern: "a\(i)", options: []))
        }
    }
}
