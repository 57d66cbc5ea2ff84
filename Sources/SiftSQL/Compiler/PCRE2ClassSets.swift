import SiftEvaluation
import SiftLanguage

/// The scalars a PCRE2 class escape (`\d`, `\W`, `\s`, `\p{L}`, `\P{Nd}`…) or POSIX class
/// (`[[:alpha:]]`) matches as
/// `RegularExpression` compiles it (UTF, Unicode properties), read from PCRE2 itself — its
/// Unicode tables, not Swift's or the server's — once per escape per process, so
/// ``MatchesRegex`` can write the escape as an ARE bracket of exactly those scalars.
///
/// Every scalar is tested (literally, as under `[n]`: `RegularExpression.matchingScalars()`).
enum PCRE2ClassSets {
    private static let cache = Locked<[String: [ClosedRange<UInt32>]]>([:])

    /// The ranges of scalars `escape` (a class escape, or a bracket of one POSIX class) matches;
    /// nil for one PCRE2 refuses, one that matches no scalar, or one of other characters than
    /// ASCII letters, digits and `{}_&^=:- []\`.
    static func ranges(_ escape: String) -> [ClosedRange<UInt32>]? {
        guard escape.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || "0123456789{}_&^=:- []\\".unicodeScalars.contains($0)) }) else { return nil }
        if let hit = cache.withLock({ $0[escape] }) { return hit.isEmpty ? nil : hit }
        let computed = scan(escape) ?? []
        cache.withLock { $0[escape] = computed }
        return computed.isEmpty ? nil : computed
    }

    private static func scan(_ escape: String) -> [ClosedRange<UInt32>]? {
        do throws(EvaluationError) {
            return try RegularExpression(pattern: escape, options: .normalized).matchingScalars()
        } catch {
            return nil
        }
    }
}
