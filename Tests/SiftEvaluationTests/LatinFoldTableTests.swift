import Testing
@testable import SiftEvaluation

/// The fast paths of `StringFolding` agree with its general algorithm.
@Suite("Folding fast paths")
struct LatinFoldTableTests {
    static let below0300 = (0..<0x300).compactMap { Unicode.Scalar(UInt32($0)) }

    /// Scalars whose folds are unusual: they expand, gain marks, or recompose.
    static let special: [Unicode.Scalar] = [
        "A", "a", "I", "i", "j", "n", "s", "\u{DF}", "\u{C5}", "\u{E9}", "\u{130}", "\u{131}", "\u{149}", "\u{17F}",
        "\u{1C4}", "\u{1C5}", "\u{1F0}", "\u{1E9}", "\u{2BC}", "\u{2C6}", "\u{2DC}", "\u{2FF}", "0", " ",
    ]

    /// Latin text folds scalar by scalar through the table: for every scalar below U+0300 next to
    /// each special one (both orders), the table path gives the general algorithm's bytes.
    @Test(arguments: [(true, false), (false, true), (true, true)])
    func tableAgreesWithTheGeneralAlgorithm(_ mode: (Bool, Bool)) {
        let (caseFold, stripMarks) = mode
        var mismatches: [String] = []
        for a in Self.below0300 {
            for b in Self.special {
                for pair in [[a, b], [b, a], [a]] {
                    var s = ""
                    s.unicodeScalars.append(contentsOf: pair)
                    let fast = StringFolding.fold(s, caseFold: caseFold, stripMarks: stripMarks)
                    let slow = StringFolding.foldUnicode(s, caseFold: caseFold, stripMarks: stripMarks)
                    if !fast.utf8.elementsEqual(slow.utf8) { mismatches.append(scalarHex(s)) }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    /// The ranges `isCaselessLetter` skips really have no case folding and no nonspacing marks.
    @Test func caselessRanges() {
        var wrong: [UInt32] = []
        for range in [0x4E00...0x9FFF, 0x3400...0x4DBF, 0x3041...0x3096, 0x30A1...0x30FA, 0x1100...0x11FF] {
            for value in range {
                let u = Unicode.Scalar(UInt32(value))!
                #expect(StringFolding.isCaselessLetter(u))
                if u.properties.changesWhenCaseFolded || u.properties.generalCategory == .nonspacingMark {
                    wrong.append(u.value)
                }
            }
        }
        #expect(wrong.isEmpty)
    }

    /// Preparation's byte views (in place, lower-cased into a temporary, table-folded, or rebuilt)
    /// are the bytes of `StringFolding`'s result.
    @Test(arguments: stringOptionColumns)
    func preparedBytesMatchTheFoldedString(_ letters: String) {
        let p = Preparation(comparisonOptions(letters))
        for s in ["", "abc", "ABC", "Crème Brûlée", "STRASSE", "Straße", "\u{130}", "e\u{301}", "日本語", "ΣΑΣ",
                  "\u{212B}", "👨‍👩‍👧", "Ǆ", "ŉ"] {
            let bytes = p.withUTF8(s) { Array($0) }
            #expect(bytes == Array(p.apply(s).utf8), "\(displayed(s))")
            if p != .literal { #expect(bytes == Array(StringFolding.nfc(p.apply(s)).utf8), "\(displayed(s))") }
        }
    }
}
