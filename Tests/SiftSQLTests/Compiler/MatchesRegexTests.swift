import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
@testable import SiftSQLiteStore
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
        ("[^]a-]", [], #"^(?:[^\u002D\u005D\u0061])$"#),
        (#"[-\]\x{E9}-\x{FF}]"#, [], #"^(?:[\u002D\u005D\u00E9-\u00FF])$"#),
        ("(a)*(bc)?", [], #"^(?:(?:a)*(?:bc)?)$"#),
    ] as [(String, ComparisonOptions, String)])
    func translates(_ pattern: String, _ options: ComparisonOptions, _ expected: String) {
        #expect(MatchesRegex.regex(pattern, options: options) == expected, "\(pattern)")
    }

    @Test(arguments: [
        // Unicode-aware or differently defined classes, anchors, options, PCRE2-only syntax.
        #"\bx"#, "[[:nope:]]*", "[[:alpha:]-z]", #"[\d-z]"#, #"\p{Nope}"#, #"\p{Cs}"#, "a(?i)bc", "(?s).", "^a", "a$", "(?=a)a", "(?!a)b", "(a)\\1", "[[.a.]]", "[[=a=]]",
        #"\Qa\E"#, "a*+", "a++", "(?>a)", "a{,3}", "a{300}", "a{2}{3}", "a{x}", "{", "[a-c-e]", "[a\\-z]", "(*CR)a",
        #"\x{0}"#, "a\u{0}b", #"\u0041"#, #"\N"#, #"\R"#, #"\X"#, #"\cA"#, "(?#c)a",
        // Quantified groups with repetition inside (PCRE2's backtracking gives up where ARE answers).
        "(a+)+", "(a|b)*", "(a*b)*c", "((ab)+)?",
        // PCRE2 refuses these: the evaluator's error stands.
        "(", "[a-", "*a", "a{2,1}", "\\", "[z-a]", "a)",
    ])
    func staysInMemory(_ pattern: String) {
        #expect(MatchesRegex.regex(pattern, options: []) == nil, "\(pattern)")
    }

    /// Under [c], each ASCII literal or member stands for what PCRE2's caseless matching accepts
    /// (K also matches U+212A KELVIN SIGN, s U+017F LONG S); anything above ASCII stays in memory.
    @Test func caseInsensitivePatterns() {
        #expect(MatchesRegex.regex("ab.1", options: [.caseInsensitive]) == #"^(?:[\u0041\u0061][\u0042\u0062][^\u000A]1)$"#)
        #expect(MatchesRegex.regex("k", options: [.caseInsensitive]) == #"^(?:[\u004B\u006B\u212A])$"#)
        #expect(MatchesRegex.regex("S", options: [.caseInsensitive, .diacriticInsensitive]) == #"^(?:[\u0053\u0073\u017F])$"#)
        #expect(MatchesRegex.regex("[a-c]", options: [.caseInsensitive]) == #"^(?:[\u0041-\u0043\u0061-\u0063])$"#)
        #expect(MatchesRegex.regex("[^j-l]*", options: [.caseInsensitive]) == #"^(?:[^\u004A-\u004C\u006A-\u006C\u212A]*)$"#)
        #expect(MatchesRegex.regex("caf\u{E9}", options: [.caseInsensitive]) == nil)
        #expect(MatchesRegex.regex(#"[a-\x{E9}]"#, options: [.caseInsensitive]) == nil)
        // A leading (?i) is [c] for the whole pattern, whatever the options.
        #expect(MatchesRegex.regex("(?i)ab", options: [.normalized]) == #"^(?:[\u0041\u0061][\u0042\u0062])$"#)
        #expect(MatchesRegex.regex("(?i)\u{E9}", options: []) == nil)
        // [n] wins over [c]: PCRE2 then matches case-sensitively.
        #expect(MatchesRegex.regex("abc", options: [.normalized, .caseInsensitive]) == #"^(?:abc)$"#)
    }

    /// PCRE2's caseless sets: an ASCII letter and its other case (and LONG S for s), nothing
    /// else for the rest of ASCII; KELVIN SIGN (for k) only as NFC turns it into K.
    @Test func caselessSets() {
        let sets = CaselessASCII.current
        for value in UInt32(1)...0x7F {
            guard let u = Unicode.Scalar(value) else { continue }
            var expected: Set<UInt32> = [value]
            if u.properties.isAlphabetic {
                expected.insert(value ^ 0x20)
                if u == "s" || u == "S" { expected.insert(0x17F) }
            }
            // (Scalars NFC maps to one of these, such as U+037E GREEK QUESTION MARK to ";", never
            // occur in a subject; PCRE2 is given them in NFC, so they are listed too.)
            let members = sets.set(value) ?? []
            let stable = members.filter { v in Unicode.Scalar(v).map { StringFolding.nfc(String($0)).unicodeScalars.first?.value == v } ?? false }
            #expect(Set(stable) == expected, "U+\(String(value, radix: 16))")
            for v in members where !stable.contains(v) {
                let image = Unicode.Scalar(v).map { StringFolding.nfc(String($0)).unicodeScalars.map(\.value) } ?? []
                #expect(image.count == 1 && expected.contains(image[0]), "U+\(String(v, radix: 16)) for U+\(String(value, radix: 16))")
            }
        }
    }

    /// Class escapes: the brackets of what PCRE2 (with Unicode properties) matches.
    @Test func classEscapes() throws {
        let digits = try #require(MatchesRegex.regex(#"\d+"#, options: []))
        #expect(digits.hasPrefix(#"^(?:[\u0030-\u0039"#) && digits.contains(#"\u0660-\u0669"#) && digits.hasSuffix("]+)$"), "\(digits)")
        let notDigits = try #require(MatchesRegex.regex(#"\D"#, options: [.caseInsensitive]))
        #expect(notDigits.hasPrefix(#"^(?:[\u0001-\u002F\u003A-"#), "\(notDigits)")
        let letters = try #require(MatchesRegex.regex(#"\p{L}\pN*"#, options: []))
        #expect(letters.hasPrefix(#"^(?:[\u0041-\u005A\u0061-\u007A"#), "\(letters)")
        #expect(MatchesRegex.regex(#"\p{Lu}"#, options: [.caseInsensitive]) == nil)
        // In brackets, as members among the others.
        #expect(MatchesRegex.regex(#"[\d_]"#, options: []).map { $0.hasPrefix(#"^(?:[\u0030-\u0039"#) && $0.contains(#"\u005F"#) } == true)
        let notAlpha = try #require(MatchesRegex.regex("[^[:alpha:]x]", options: []))
        #expect(notAlpha.hasPrefix(#"^(?:[^\u0041-\u005A\u0061-\u007A"#), "\(notAlpha)")
        #expect(MatchesRegex.regex("[[:alpha:]]", options: [.caseInsensitive]) == nil)
        #expect(MatchesRegex.regex(#"[\d]"#, options: [.caseInsensitive]) == nil)
        #expect(PCRE2ClassSets.ranges(#"\s"#)?.contains { $0.contains(0x0A) && $0.contains(0x0D) } == true)
    }

    /// The library's newline is LF (the default build): `.` is every scalar but LF.
    @Test func dotIsAllButLineFeed() {
        #expect(MatchesRegex.dotIsAllButLF)
    }
}
