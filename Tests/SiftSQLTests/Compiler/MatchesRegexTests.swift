import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
import Testing

/// ``MatchesRegex``'s translations of PCRE2 patterns to PostgreSQL's advanced regular
/// expressions, golden; and what it leaves to the evaluator (nil). (What the server answers with
/// them: PatternTranslationTests in the PostgreSQL store's tests.)
@Suite struct MatchesRegexTests {
    @Test(arguments: [
        ("abc", [], #"^(?:abc)$"#),
        ("", [], #"^$"#),
        ("a.c", [], #"^(?:a[^\u000A]c)$"#),
        ("[a-z]+", [], #"^(?:[\u0061-\u007A]+)$"#),
        ("[^a]*", [], #"^(?:[^\u0061]*)$"#),
        ("a|b", [], #"^(?:a|b)$"#),
        ("a|", [], #"^(?:a|(?:))$"#),
        ("stra(ss|ß)e", [], #"^(?:stra(?:ss|\u00DF)e)$"#),
        ("(?:ab)+c?", [], #"^(?:(?:ab)+c?)$"#),
        (#".*\\.*"#, [], #"^(?:[^\u000A]*\u005C[^\u000A]*)$"#),
        ("a{2,3}?b{2}c{1,}", [], #"^(?:a{2,3}b{2}c{1,})$"#),
        ("a*?b+?", [], #"^(?:a*b+)$"#),
        (#"x\.y\ \-"#, [], #"^(?:x\u002Ey\u0020\u002D)$"#),
        ("x y%", [], #"^(?:x\u0020y\u0025)$"#),
        ("a]}", [], #"^(?:a\u005D\u007D)$"#),
        ("caf\u{E9}", [], #"^(?:caf\u00E9)$"#),
        // The pattern is NFC first, as PCRE2 compiles it; under [n] it is taken as it is.
        ("cafe\u{301}", [], #"^(?:caf\u00E9)$"#),
        ("cafe\u{301}", [.normalized], #"^(?:cafe\u0301)$"#),
        ("cafe\u{301}", [.diacriticInsensitive], #"^(?:caf\u00E9)$"#),
        (#"\x{1F600}\x41\n\t"#, [], #"^(?:\U0001F600A\u000A\u0009)$"#),
        ("[]a]", [], #"^(?:[\u005D\u0061])$"#),
        ("[^]a-]", [], #"^(?:[^\u005D\u0061\u002D])$"#),
        (#"[-\]\x{E9}-\x{FF}]"#, [], #"^(?:[\u002D\u005D\u00E9-\u00FF])$"#),
        ("(a)*(bc)?", [], #"^(?:(?:a)*(?:bc)?)$"#),
    ] as [(String, ComparisonOptions, String)])
    func translates(_ pattern: String, _ options: ComparisonOptions, _ expected: String) {
        #expect(MatchesRegex.regex(pattern, options: options) == expected, "\(pattern)")
    }

    @Test(arguments: [
        // Unicode-aware or differently defined classes, anchors, options, PCRE2-only syntax.
        #"\d+"#, #"\w+"#, #"\s"#, #"\bx"#, #"\p{L}+"#, "[[:alpha:]]*", "(?i)abc", "^a", "a$", "(?=a)a", "(?!a)b", "(a)\\1",
        #"\Qa\E"#, "a*+", "a++", "(?>a)", "a{,3}", "a{300}", "a{2}{3}", "a{x}", "{", "[a-c-e]", "[a\\-z]", "[\\d]", "(*CR)a",
        #"\x{0}"#, "a\u{0}b", #"\u0041"#, #"\N"#, #"\R"#, #"\X"#, #"\cA"#, "(?#c)a",
        // Quantified groups with repetition inside (PCRE2's backtracking gives up where ARE answers).
        "(a+)+", "(a|b)*", "(a*b)*c", "((ab)+)?",
        // PCRE2 refuses these: the evaluator's error stands.
        "(", "[a-", "*a", "a{2,1}", "\\", "[z-a]", "a)",
    ])
    func staysInMemory(_ pattern: String) {
        #expect(MatchesRegex.regex(pattern, options: []) == nil, "\(pattern)")
    }

    @Test func caseInsensitiveStaysInMemory() {
        #expect(MatchesRegex.regex("abc", options: [.caseInsensitive]) == nil)
        #expect(MatchesRegex.regex("abc", options: [.caseInsensitive, .diacriticInsensitive]) == nil)
        // [n] wins over [c]: PCRE2 then matches case-sensitively.
        #expect(MatchesRegex.regex("abc", options: [.normalized]) == #"^(?:abc)$"#)
    }

    /// The library's newline is LF (the default build): `.` is every scalar but LF.
    @Test func dotIsAllButLineFeed() {
        #expect(MatchesRegex.dotIsAllButLF)
    }
}
