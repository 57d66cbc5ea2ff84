import Foundation

/// Which section a value belongs to (FETCH.md §4): values equal under `==` share a section.
///
/// A section is named by the text of its first object's value (``ValueText``), and values with
/// the same text share it, as nil and `""` do. Numbers are one more case: `0`, `-0`, `0.0` and
/// `-0.0` are equal under `==` but print as `0`, `0.0` and `-0.0`; `1`, `1.0`, `true` and the
/// decimal `1` are equal too. So a number's identity is its numeric value in one spelling —
/// an integral value that fits 64 bits as an integer (`-0.0` is `0`), any other as the
/// shortest double text — and the section keeps the name of whichever came first.
///
/// Both engines group by this identity: the evaluator's sections and the SQLite store's
/// (which merges the stored values its GROUP BY query gives).
public enum SectionIdentity {
    /// The text that decides which section `value` falls in.
    public static func key(of value: Value) -> String {
        switch value {
        case .bool(let b): b ? "1" : "0"
        case .int(let i): String(i)
        case .double(let d): numberKey(d)
        case .decimal(let d):
            if let i = integer(d) { String(i) } else { numberKey(Arithmetic.Number.decimal(d).doubleValue) }
        default: ValueText.text(value)
        }
    }

    /// A double's key: an integral value within the 64-bit range as that integer, anything
    /// else (fractions, beyond 2^63, infinities, NaN) as its shortest text.
    private static func numberKey(_ d: Double) -> String {
        if d.isFinite, d.rounded(.towardZero) == d, d >= -9.223372036854775808e18, d < 9.223372036854775808e18 {
            return String(Int64(d))
        }
        return d.description
    }

    /// A decimal that is a whole number within the 64-bit range, as that integer.
    private static func integer(_ d: Decimal) -> Int64? {
        guard !d.isNaN, d.isFinite else { return nil }
        var value = d
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .plain)
        guard rounded == d, d >= Decimal(Int64.min), d <= Decimal(Int64.max) else { return nil }
        // Its text is plain digits (Decimal writes no exponent); read back exactly.
        return Int64(rounded.description).flatMap { Decimal($0) == d ? $0 : nil }
    }
}
