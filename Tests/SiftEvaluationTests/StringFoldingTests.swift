import SiftLanguage
import Testing
@testable import SiftEvaluation

/// `StringFolding`: the one function behind `[c]` and `[d]` (LANGUAGE.md §4).
@Suite("String folding")
struct StringFoldingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let input: String
        let letters: String
        let expected: String
        init(_ input: String, _ letters: String, _ expected: String) {
            self.input = input; self.letters = letters; self.expected = expected
        }
        var testDescription: String { "\(displayed(input)) [\(letters)] → \(displayed(expected))" }
    }

    static let cases: [Case] = [
        // Full case folding (CaseFolding.txt C+F), not lower-casing.
        Case("STRASSE", "c", "strasse"),
        Case("straße", "c", "strasse"),
        Case("Straße", "cd", "strasse"),
        Case("\u{1E9E}", "c", "ss"),  // ẞ LATIN CAPITAL LETTER SHARP S
        Case("ß", "d", "ß"),
        Case("Σ", "c", "σ"),
        Case("ς", "c", "σ"),  // final sigma folds to sigma
        Case("σ", "c", "σ"),
        Case("ΣΟΦΟΣ", "c", "σοφοσ"),
        Case("\u{C5}", "c", "\u{E5}"),  // Å LATIN CAPITAL LETTER A WITH RING ABOVE
        Case("\u{212B}", "c", "\u{E5}"),  // Å ANGSTROM SIGN
        Case("A\u{30A}", "c", "\u{E5}"),  // decomposed; the result is NFC
        Case("\u{212B}", "d", "A"),
        Case("\u{C5}", "cd", "a"),
        Case("\u{FB01}", "c", "fi"),  // ﬁ ligature
        Case("\u{130}", "c", "i\u{307}"),  // İ: default (non-Turkic) folding keeps the dot as a mark
        Case("\u{130}", "cd", "i"),
        Case("I", "c", "i"),  // never dotless ı
        Case("\u{131}", "c", "\u{131}"),  // ı stays ı
        Case("\u{212A}", "c", "k"),  // KELVIN SIGN
        Case("\u{17F}", "c", "s"),  // ſ LONG S
        Case("\u{1C4}", "c", "\u{1C6}"),  // Ǆ → ǆ
        Case("\u{AB70}", "c", "\u{13A0}"),  // Cherokee folds to upper case
        Case("\u{149}", "c", "\u{2BC}n"),  // ŉ
        Case("\u{1F88}", "c", "\u{1F00}\u{3B9}"),  // ᾈ → ἀι
        Case("\u{1FB3}", "d", "α"),  // ᾳ: the ypogegrammeni is a nonspacing mark
        Case("\u{1FB3}", "cd", "αι"),  // ...which case folding turns into ι first
        // Diacritics: NFD, then nonspacing marks (Mn) removed, then NFC.
        Case("Stár", "d", "Star"),
        Case("Stár", "c", "stár"),
        Case("Stár", "cd", "star"),
        Case("e\u{301}", "d", "e"),
        Case("e\u{301}", "c", "\u{E9}"),
        Case("\u{C9}", "cd", "e"),
        Case("Ångström", "cd", "angstrom"),
        Case("Crème Brûlée", "d", "Creme Brulee"),
        Case("Ø", "d", "Ø"),  // no decomposition: the stroke is not a mark
        Case("한", "d", "한"),  // Hangul decomposes to jamo (letters) and recomposes
        Case("\u{915}\u{93F}", "d", "\u{915}\u{93F}"),  // कि: U+093F is Mc, kept
        Case("\u{915}\u{902}", "d", "\u{915}"),  // कं: U+0902 is Mn, removed
        // Emoji and ZWJ sequences are untouched.
        Case("👨‍👩‍👧", "cd", "👨‍👩‍👧"),
        Case("🇫🇷", "c", "🇫🇷"),
        Case("👍🏽", "cd", "👍🏽"),
        // No folding option, or [n]: the string comes back as it is (not even NFC).
        Case("Hello", "", "Hello"),
        Case("Hello", "n", "Hello"),
        Case("Hello", "cn", "Hello"),
        Case("Hello", "cdn", "Hello"),
        Case("HELLO", "l", "HELLO"),
        Case("HELLO", "cl", "hello"),
        Case("e\u{301}", "", "e\u{301}"),
        Case("e\u{301}", "n", "e\u{301}"),
        // ASCII.
        Case("", "cd", ""),
        Case("MiXeD 123 !@#", "c", "mixed 123 !@#"),
        Case("MiXeD 123 !@#", "d", "MiXeD 123 !@#"),
        Case("already lower", "c", "already lower"),
    ]

    @Test(arguments: cases)
    func fold(_ c: Case) {
        let folded = StringFolding.fold(c.input, options: comparisonOptions(c.letters))
        #expect(scalarHex(folded) == scalarHex(c.expected))
    }

    static let samples = [
        "", "abc", "ABC", "Straße", "STRASSE", "\u{1E9E}", "ΣΑΣ", "\u{212B}ngström", "A\u{30A}", "\u{FB01}x",
        "\u{130}stanbul", "e\u{301}\u{323}", "\u{1E0B}\u{323}", "\u{1FB3}\u{1F88}", "Crème Brûlée", "👨‍👩‍👧", "日本語",
        "\u{915}\u{902}", "q\u{307}\u{323}", "ǅ", "\u{345}", "\u{3B9}\u{345}",
    ]

    /// Folding is idempotent and its result is NFC, under every option set.
    @Test(arguments: ["c", "d", "cd"])
    func idempotentAndNFC(_ letters: String) {
        for s in Self.samples {
            let once = StringFolding.fold(s, options: comparisonOptions(letters))
            #expect(scalarHex(StringFolding.fold(once, options: comparisonOptions(letters))) == scalarHex(once), "\(displayed(s))")
            #expect(scalarHex(StringFolding.nfc(once)) == scalarHex(once), "\(displayed(s))")
            #expect(scalarHex(StringFolding.nfcSlow(once)) == scalarHex(once), "\(displayed(s))")
        }
    }

    /// Canonically equivalent inputs fold to byte-identical results.
    @Test(arguments: ["c", "d", "cd"])
    func canonicalEquivalentsFoldAlike(_ letters: String) {
        let pairs = [("\u{C5}", "\u{212B}"), ("\u{C5}", "A\u{30A}"), ("\u{E9}", "e\u{301}"),
                     ("\u{1E0B}\u{323}", "d\u{323}\u{307}"), ("\u{1E69}", "s\u{307}\u{323}")]
        for (a, b) in pairs {
            #expect(Array(StringFolding.fold(a, options: comparisonOptions(letters)).utf8)
                    == Array(StringFolding.fold(b, options: comparisonOptions(letters)).utf8), "\(displayed(a)) \(displayed(b))")
        }
    }

    @Test func nfc() {
        #expect(scalarHex(StringFolding.nfc("e\u{301}")) == "U+E9")
        #expect(scalarHex(StringFolding.nfc("\u{212B}")) == "U+C5")
        #expect(scalarHex(StringFolding.nfc("\u{1E0B}\u{323}")) == "U+1E0D U+307")
        #expect(scalarHex(StringFolding.nfc("\u{1100}\u{1161}")) == "U+AC00")  // Hangul jamo compose
        #expect(StringFolding.nfc("plain ascii") == "plain ascii")
        #expect(StringFolding.nfc("") == "")
        #expect(scalarHex(StringFolding.nfc("Stár")) == scalarHex("Stár"))
    }

    /// The NFC fast path assumes text whose scalars are all below U+0300 is NFC; check that for
    /// every such scalar and every pair of them against the standard library's normaliser.
    @Test func textBelowU0300IsAlwaysNFC() {
        let scalars = (0..<0x300).compactMap { Unicode.Scalar(UInt32($0)) }
        var failures = 0
        for a in scalars {
            for b in scalars {
                var s = String(a)
                s.unicodeScalars.append(b)
                if StringFolding.nfcSlow(s).utf8.count != s.utf8.count || !StringFolding.nfcSlow(s).utf8.elementsEqual(s.utf8) {
                    failures += 1
                }
            }
        }
        #expect(failures == 0)
    }

    /// ASCII input is returned as the same string (no copy) when folding cannot change it.
    @Test func asciiFastPaths() {
        #expect(StringFolding.fold("hello world", options: .caseInsensitive) == "hello world")
        #expect(StringFolding.fold("Hello World", options: .diacriticInsensitive) == "Hello World")
        #expect(StringFolding.fold("Hello World", options: [.caseInsensitive, .diacriticInsensitive]) == "hello world")
        let long = String(repeating: "AbC", count: 10_000)
        #expect(StringFolding.fold(long, options: .caseInsensitive) == String(repeating: "abc", count: 10_000))
    }
}
