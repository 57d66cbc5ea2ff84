import SiftEvaluation
import SiftLanguage

/// What `MATCHES[c]` (PCRE2's caseless matching, as `RegularExpression` compiles it) lets an
/// ASCII scalar of the pattern match: the scalar itself, its other ASCII case, and the few
/// scalars above ASCII PCRE2's Unicode tables put in the same case set (`k` also matches U+212A
/// KELVIN SIGN, `s` U+017F LATIN SMALL LETTER LONG S). Read from PCRE2 itself once per process —
/// its tables, not Swift's, decide — so ``MatchesRegex`` can write each literal and bracket of a
/// caseless pattern as the exact set of scalars it accepts.
///
/// Subjects are NFC (or `[d]`-folded, then NFC) before PCRE2 sees them, as they are in SQL, so a
/// scalar is tested as its NFC form; one that NFC changes never occurs in a subject, and is
/// listed only where its NFC form is a single scalar matching.
struct CaselessASCII: Sendable {
    /// For each ASCII scalar value (1…127), the scalars a caseless literal of it matches (none
    /// at all if PCRE2 refused the patterns that read them).
    let sets: [UInt32: [UInt32]]

    /// PCRE2's sets, computed on first use.
    static let current = CaselessASCII()

    private init() {
        func compiled(_ pattern: String) -> RegularExpression? {
            do throws(EvaluationError) {
                return try RegularExpression(pattern: pattern, options: [.caseInsensitive])
            } catch {
                return nil
            }
        }
        func matches(_ expression: RegularExpression?, _ subject: String) -> Bool {
            do throws(EvaluationError) {
                return try expression?.matches(subject) ?? false
            } catch {
                return false
            }
        }
        // Scalars above ASCII that match some ASCII scalar caselessly (tested as they are), and
        // of those the ones whose NFC form is one scalar (the others match no single literal).
        guard let anyASCII = compiled(#"[\x{01}-\x{7F}]"#) else {
            sets = [:]
            return
        }
        let partners = anyASCII.matchingScalars().flatMap { range in range.compactMap(Unicode.Scalar.init) }.filter { u in
            u.value >= 0x80 && StringFolding.nfc(String(u)).unicodeScalars.count == 1
        }
        var sets: [UInt32: [UInt32]] = [:]
        for value in UInt32(1)...0x7F {
            let literal = compiled("\\x{" + String(value, radix: 16) + "}")
            let ascii = (UInt32(1)...0x7F).filter { other in
                Unicode.Scalar(other).map { matches(literal, String($0)) } ?? false
            }
            guard ascii.contains(value) else { continue }
            sets[value] = ascii + partners.filter { matches(literal, String($0)) }.map(\.value)
        }
        self.sets = sets
    }

    /// The scalars a caseless `value` (ASCII) matches, sorted; nil above ASCII.
    func set(_ value: UInt32) -> [UInt32]? {
        sets[value].map { $0.sorted() }
    }
}
