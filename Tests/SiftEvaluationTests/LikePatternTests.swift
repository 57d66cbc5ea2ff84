import SiftLanguage
import Testing
import TestTimeLimits
@testable import SiftEvaluation

/// `LikePattern`: `LIKE` with `*`, `?` and the three escapes (LANGUAGE.md §4).
@Suite("LIKE patterns")
struct LikePatternTests {
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
        // Whole-string wildcards.
        row("abc", "abc",                                [T, T, T, T, T]),
        row("abc", "ab",                                 [F, F, F, F, F]),
        row("abc", "bc",                                 [F, F, F, F, F]),
        row("abc", "a*c",                                [T, T, T, T, T]),
        row("abcd", "a*c",                               [F, F, F, F, F]),
        row("ac", "a*c",                                 [T, T, T, T, T]),
        row("abc", "a?c",                                [T, T, T, T, T]),
        row("ac", "a?c",                                 [F, F, F, F, F]),
        row("abbc", "a?c",                               [F, F, F, F, F]),
        row("", "*",                                     [T, T, T, T, T]),
        row("", "**",                                    [T, T, T, T, T]),
        row("", "?",                                     [F, F, F, F, F]),
        row("", "",                                      [T, T, T, T, T]),
        row("a", "",                                     [F, F, F, F, F]),
        row("anything at all", "*",                      [T, T, T, T, T]),
        row("notes.txt", "*.txt",                        [T, T, T, T, T]),
        row("notes.txt.bak", "*.txt",                    [F, F, F, F, F]),
        row("abcabc", "*abc",                            [T, T, T, T, T]),
        row("abcabc", "abc*abc",                         [T, T, T, T, T]),
        row("abcab", "abc*abc",                          [F, F, F, F, F]),
        row("aXbXc", "*b*",                              [T, T, T, T, T]),
        row("aXbXc", "?*?*?",                            [T, T, T, T, T]),
        row("ab", "?*?*?",                               [F, F, F, F, F]),
        row("mississippi", "m*iss*ppi",                  [T, T, T, T, T]),
        row("mississippi", "m*iss*iss*ppi",              [T, T, T, T, T]),
        row("mississippi", "m*iss*iss*iss*ppi",          [F, F, F, F, F]),
        // Escapes: \* \? \\ are literal; a backslash before anything else is itself literal.
        row("*", "\\*",                                  [T, T, T, T, T]),
        row("a", "\\*",                                  [F, F, F, F, F]),
        row("?", "\\?",                                  [T, T, T, T, T]),
        row("a", "\\?",                                  [F, F, F, F, F]),
        row("\\", "\\\\",                                [T, T, T, T, T]),
        row("\\\\", "\\\\",                              [F, F, F, F, F]),
        row("a*b", "a\\*b",                              [T, T, T, T, T]),
        row("axb", "a\\*b",                              [F, F, F, F, F]),
        row("a\\xb", "a\\\\*",                           [T, T, T, T, T]),
        row("a\\b", "a\\b",                              [T, T, T, T, T]),
        row("a\\", "a\\",                                [T, T, T, T, T]),
        row("50% off_x", "50% off_x",                    [T, T, T, T, T]),  // SQL's % and _ are not special
        row("50 off", "50% off",                         [F, F, F, F, F]),
        row("[abc]", "[abc]",                            [T, T, T, T, T]),
        row("a", "[abc]",                                [F, F, F, F, F]),
        row("a.c", "a.c",                                [T, T, T, T, T]),
        row("abc", "a.c",                                [F, F, F, F, F]),
        // Options fold both sides.
        row("ABC", "a*",                                 [F, T, F, T, F]),
        row("abc", "A?C",                                [F, T, F, T, F]),
        row("STRASSE", "straße",                         [F, T, F, T, F]),
        row("straße", "STRASSE",                         [F, T, F, T, F]),
        row("straße", "??????",                          [T, F, T, F, T]),  // 6 characters; [c] folds to 7
        row("straße", "???????",                         [F, T, F, T, F]),
        row("STRASSE", "*ß*",                            [F, T, F, T, F]),
        row("Café", "cafe",                              [F, F, F, T, F]),
        row("Café", "Cafe",                              [F, F, T, T, F]),
        row("Café", "Caf?",                              [T, T, T, T, T]),
        row("Stár Trek Beyond", "Star*",                 [F, F, T, T, F]),
        row("stár trek", "STAR*",                        [F, F, F, T, F]),
        // NFC: canonically equivalent text matches except under [n].
        row("caf\u{E9}", "cafe\u{301}",                  [T, T, T, T, F]),
        row("cafe\u{301}", "caf\u{E9}",                  [T, T, T, T, F]),
        row("cafe\u{301}", "caf?",                       [T, T, T, T, T]),  // ? is one grapheme cluster
        row("\u{C5}", "\u{212B}",                        [T, T, T, T, F]),
        row("\u{E9}", "e*",                              [F, F, T, T, F]),
        // Grapheme clusters: emoji, ZWJ sequences, flags, skin tones, CR LF.
        row("👨‍👩‍👧", "?",                                 [T, T, T, T, T]),
        row("👨‍👩‍👧", "??",                                [F, F, F, F, F]),
        row("🇫🇷🇩🇪", "??",                                [T, T, T, T, T]),
        row("a👍🏽b", "a?b",                               [T, T, T, T, T]),
        row("a👍🏽b", "a*b",                               [T, T, T, T, T]),
        row("a👍🏽b", "a👍*",                              [F, F, F, F, F]),  // 👍 alone is not the cluster 👍🏽
        row("x👨‍👩‍👧y", "*👩*",                             [F, F, F, F, F]),
        row("x👨‍👩‍👧y", "x👨‍👩‍👧?",                          [T, T, T, T, T]),
        row("a\r\nb", "a?b",                             [T, T, T, T, T]),  // CR LF is one character
        row("a\r\nb", "a??b",                            [F, F, F, F, F]),
        row("a\rb", "a?b",                               [T, T, T, T, T]),
        row("日本語", "日?語",                             [T, T, T, T, T]),
        row("日本語", "*語",                              [T, T, T, T, T]),
    ]

    static let cases = expandOptionRows(rows) { "\(displayed($0.subject)) LIKE \(displayed($0.pattern))" }

    @Test(arguments: cases)
    func like(_ c: StringOptionCase<Input>) {
        let pattern = LikePattern(c.input.pattern, options: comparisonOptions(c.letters))
        #expect(pattern.matches(c.input.subject) == c.expected)
    }

    /// The byte path (ASCII subjects) and the Character path agree: the same patterns over the same
    /// ASCII subjects, forced through the Character matcher.
    @Test(arguments: ["", "c"])
    func bytePathAgreesWithCharacterPath(_ letters: String) {
        let subjects = ["", "a", "ab", "abc", "aXbXc", "mississippi", "AbCaBc", "*?\\", "a\rb"]
        let patterns = ["*", "?", "a*", "*c", "a?c", "*b*", "?*?", "m*iss*ppi", "*A*b*", "\\**", "\\?\\\\", "a?b", "ABC*"]
        for p in patterns {
            let pattern = LikePattern(p, options: comparisonOptions(letters))
            for s in subjects {
                let characters = Array(pattern.program.preparation.apply(s))
                let slow = pattern.program.elements.withUnsafeBufferPointer { elements in
                    pattern.program.bounds.withUnsafeBufferPointer { bounds in
                        LikePattern.match(characters, elements, bounds) { e, ch in
                            if case let .literal(l) = e { return l == ch }
                            return true
                        }
                    }
                }
                #expect(pattern.matches(s) == slow, "\(displayed(s)) LIKE[\(letters)] \(displayed(p))")
            }
        }
    }

    /// Many stars on a long subject: linear-ish, never exponential (a backtracking matcher
    /// would not finish within the time limit; the speed itself is Benchmarks/' business).
    @Test(.hangGuard()) func manyStarsOnLongInputFinish() {
        let long = String(repeating: "a", count: 100_000)
        let accented = String(repeating: "é", count: 20_000)
        do {
            #expect(!LikePattern("*a*a*a*a*a*a*a*a*a*a*b", options: []).matches(long))
            #expect(LikePattern("*a*a*a*a*a*a*a*a*a*a*", options: []).matches(long))
            #expect(!LikePattern("*a*a*a*a*b*a", options: .caseInsensitive).matches(long))
            #expect(!LikePattern("*?a*?a*aab*", options: []).matches(long))
            #expect(!LikePattern("*é*é*é*é*x", options: []).matches(accented))
            #expect(LikePattern("*E*E*E*E*", options: [.caseInsensitive, .diacriticInsensitive]).matches(accented))
            #expect(!LikePattern("*aaaaaaaaaaaaaaaaaaaaaaab*", options: []).matches(long))
        }
    }

    @Test func compiledOnce() {
        let pattern = LikePattern("*a\\*b?c*", options: .caseInsensitive)
        #expect(pattern.program.segments == [[], [.literal("a"), .literal("*"), .literal("b"), .any, .literal("c")], []])
        #expect(pattern.program.asciiElements == [97, 42, 98, -1, 99])
        #expect(LikePattern("a**b", options: []).program.segments.count == 2)
        #expect(LikePattern("**", options: []).program.segments == [[], []])
        #expect(LikePattern("é", options: []).program.asciiElements == nil)
        #expect(LikePattern("é", options: .diacriticInsensitive).program.asciiElements == [101])
        #expect(LikePattern("a\r\nb", options: []).program.asciiElements == nil)
    }
}
