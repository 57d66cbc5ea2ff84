@_spi(_Unicode) import Swift
import SiftLanguage

/// THE folding function behind the `[c]` and `[d]` options (LANGUAGE.md §4). Both engines use it:
/// the evaluator calls it, the SQL engine registers it as a SQLite function, so `[c]`/`[d]` mean
/// the same thing everywhere. Pure, deterministic and locale-independent.
///
/// - `[c]`: Unicode *default full case folding* (CaseFolding.txt statuses C+F, never the Turkic
///   T mappings): "ß"/"ẞ" → "ss", "Σ"/"ς" → "σ", "ﬁ" → "fi", "İ" → "i" + U+0307, Kelvin sign → "k".
///   It is applied to the canonical decomposition, as Unicode's canonical caseless match does
///   (D145: NFD(toCasefold(NFD(x)))).
/// - `[d]`: canonical decomposition (NFD) with every nonspacing mark (General Category Mn) removed:
///   "Stár" → "Star", "Å" (U+00C5 or U+212B) → "A". Marks of other categories (Mc, Me) stay.
/// - `[cd]`: case folding first, then the marks are removed. (The one place where the order shows is
///   U+0345 COMBINING GREEK YPOGEGRAMMENI, a mark that case-folds to the letter ι: under `[cd]`
///   "ᾳ" is "αι", under `[d]` it is "α".)
///
/// The result is NFC, so two strings that are equal after folding are byte-identical.
/// Pure-ASCII input never goes through Unicode normalisation: `[c]` lower-cases the bytes, `[d]` is
/// the identity.
///
/// Case folding comes from the standard library's own Unicode tables
/// (`Unicode.Scalar.Properties._caseFolded`, `String._nfd`, `String._nfcCodeUnits`: SPI that
/// swift-foundation builds on); the tests pin the results, so a toolchain that changed them would
/// fail loudly.
public enum StringFolding {
    /// The string folded as `options` say. Without `[c]`/`[d]`, or with `[n]` (which wins), the
    /// string is returned unchanged (not even NFC-normalised; see `nfc`).
    public static func fold(_ s: String, options: ComparisonOptions) -> String {
        guard case let .fold(caseFold, stripMarks) = Preparation(options) else { return s }
        return fold(s, caseFold: caseFold, stripMarks: stripMarks)
    }

    /// The string in Unicode Normalization Form C. ASCII and any text whose scalars are all below
    /// U+0300 (Latin-1, Latin Extended A/B, IPA) are returned as they are without a look; other
    /// text passes the standard library's NFC quick check first, and is only rebuilt when needed.
    public static func nfc(_ s: String) -> String {
        let trivial = UTF8Bytes.with(s) { UTF8Bytes.maxByte($0) < UTF8Bytes.trivialNFCLimit }
        return trivial || isQuickNFC(s) ? s : nfcSlow(s)
    }

    /// Whether the NFC quick check says `s` is NFC (false: it is not, or "maybe").
    @inline(__always)
    static func isQuickNFC(_ s: String) -> Bool {
        var span = s.utf8Span
        return span.checkForNFC(quickCheck: true)
    }

    /// The string in Unicode Normalization Form D, by the standard library's tables (the ones
    /// folding uses).
    package static func nfd(_ s: String) -> String {
        var scalars = String.UnicodeScalarView()
        for u in s._nfd { scalars.append(u) }
        return String(scalars)
    }

    static func nfcSlow(_ s: String) -> String {
        String(decoding: s._nfcCodeUnits, as: UTF8.self)
    }

    static func fold(_ s: String, caseFold: Bool, stripMarks: Bool) -> String {
        UTF8Bytes.with(s) { bytes in
            let top = UTF8Bytes.maxByte(bytes)
            if top < 0x80 {
                // ASCII: [d] is the identity, [c] lower-cases (only when there is something to).
                guard caseFold && UTF8Bytes.hasUppercaseASCII(bytes) else { return s }
                return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                    UTF8Bytes.lowercaseASCII(bytes, into: buffer)
                    return bytes.count
                }
            }
            if top < UTF8Bytes.trivialNFCLimit {
                let table = LatinFoldTable.shared
                let mode = LatinFoldTable.mode(caseFold: caseFold, stripMarks: stripMarks)
                let count = table.foldedCount(bytes, mode: mode)
                return String(unsafeUninitializedCapacity: count) { buffer in
                    table.fold(bytes, mode: mode, into: buffer)
                    return count
                }
            }
            return foldUnicode(s, caseFold: caseFold, stripMarks: stripMarks)
        }
    }

    /// The general algorithm, for any text: NFD, full case folding, NFD again where folding produced
    /// non-ASCII text (a folded scalar may decompose or need canonical reordering), nonspacing marks
    /// removed, NFC. (`LatinFoldTable` is built from this.)
    static func foldUnicode(_ s: String, caseFold: Bool, stripMarks: Bool) -> String {
        var scalars = String.UnicodeScalarView()
        var renormalise = false
        for u in s._nfd {
            if u.value < 0x80 {
                scalars.append(caseFold && u.value &- 0x41 < 26 ? Unicode.Scalar(UInt8(u.value) | 0x20) : u)
            } else if isCaselessLetter(u) {
                scalars.append(u)
            } else if caseFold && u.properties.changesWhenCaseFolded {
                for f in u.properties._caseFolded.unicodeScalars {
                    if f.value >= 0x80 { renormalise = true }
                    if !(stripMarks && isNonspacingMark(f)) { scalars.append(f) }
                }
            } else if !(stripMarks && isNonspacingMark(u)) {
                scalars.append(u)
            }
        }
        var folded = String(scalars)
        if renormalise {
            var again = String.UnicodeScalarView()
            for u in folded._nfd where !(stripMarks && isNonspacingMark(u)) { again.append(u) }
            folded = String(again)
        }
        return nfc(folded)
    }

    @inline(__always)
    static func isNonspacingMark(_ u: Unicode.Scalar) -> Bool {
        u.value >= 0x300 && u.properties.generalCategory == .nonspacingMark
    }

    /// Letters of large caseless scripts, which neither case folding nor `[d]` touch once in NFD:
    /// CJK ideographs (and extension A), hiragana and katakana letters, Hangul jamo (Hangul
    /// syllables arrive decomposed). Saves the property look-ups; `StringFoldingTests` checks
    /// every scalar of these ranges.
    @inline(__always)
    static func isCaselessLetter(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x3041...0x3096, 0x30A1...0x30FA, 0x1100...0x11FF: true
        default: false
        }
    }
}
