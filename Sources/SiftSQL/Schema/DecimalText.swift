import Foundation

/// How a Decimal is held in SQLite (FETCH.md §2, layout version 3): TEXT in one canonical
/// spelling, the compacted decimal's `description` — plain digits, no exponent, no trailing
/// zeros (`12.552`, `100000000000000000000.5`, `-0.1`, `0`); the NaN a computation may make
/// (a store never holds one) is `NaN`. So a value reads back exactly, equal decimals are
/// equal text (GROUP BY, sections, uniqueness constraints and `=` between stored values agree
/// with the evaluator, which groups decimals by this text too), and other programs read a
/// number they understand.
///
/// Text has no numeric order: SQL orders decimals by ``sortKey(_:)``, a BLOB whose byte order
/// is the decimals' numeric order (`sift_decimal_key`), and compares them with the evaluator's
/// own comparison (`sift_order`).
package enum DecimalText {
    /// The canonical text of a decimal.
    package static func text(_ decimal: Decimal) -> String {
        if decimal.isNaN { return "NaN" }
        var compact = decimal
        NSDecimalCompact(&compact)
        return compact.description
    }

    /// The double nearest the decimal, which is what a REAL column holds for it: the double its
    /// canonical text parses to, so a REAL read back through its shortest text (as
    /// ``ColumnCodec`` reads one as a decimal) is the same decimal — `5.94` is stored as the
    /// double nearest 5.94. (Not `NSDecimalNumber.doubleValue`, which divides by ten once per
    /// digit and gives `5.9399999999999995`; that conversion stays how a decimal *meets* a
    /// double in the evaluator's comparisons and arithmetic.) NaN is NaN.
    package static func nearestDouble(_ decimal: Decimal) -> Double {
        if decimal.isNaN { return .nan }
        let nearest = Double(text(decimal))
        assert(nearest != nil, "a decimal's canonical text is a double's text")
        return nearest ?? NSDecimalNumber(decimal: decimal).doubleValue
    }

    /// The decimal a stored text holds (nil when it is not a decimal's text). An infinity,
    /// which SQLite writes as `Inf` when one is stored into the TEXT column by other means,
    /// reads as NaN, as an infinite REAL does (a decimal has no infinity).
    package static func decimal(_ text: String) -> Decimal? {
        if text == "NaN" || text == "Inf" || text == "-Inf" { return .nan }
        return Decimal(string: text, locale: nil)
    }

    /// Bytes that order as the decimals do, compared as SQLite compares BLOBs (`memcmp`, a
    /// prefix first): a sign byte (negative `0x40`, zero `0x80`, positive `0xC0`, NaN `0xFF`
    /// after every number), then the exponent of the first significant digit (offset to 16
    /// unsigned bits, big-endian) and the significant digits without trailing zeros; for a
    /// negative number the exponent and digits are complemented and end with `0xFF`, so a
    /// greater magnitude orders first.
    ///
    ///     12.552  → C0 80 01 '1' '2' '5' '5' '2'
    ///     0.00123 → C0 7F FD '1' '2' '3'
    ///     -1.5    → 40 7F FF ~'1' ~'5' FF
    package static func sortKey(_ decimal: Decimal) -> [UInt8] {
        if decimal.isNaN { return [0xFF] }
        if decimal.isZero { return [0x80] }
        let spelled = text(decimal)
        let negative = spelled.hasPrefix("-")
        let parts = spelled.utf8.drop { $0 == UInt8(ascii: "-") }.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let whole = parts.first.map(Array.init) ?? []
        let digits = whole + (parts.count > 1 ? Array(parts[1]) : [])
        let leadingZeros = digits.prefix { $0 == UInt8(ascii: "0") }.count
        var significant = Array(digits.dropFirst(leadingZeros))
        while significant.last == UInt8(ascii: "0") { significant.removeLast() }
        let exponent = UInt16(truncatingIfNeeded: whole.count - 1 - leadingZeros + 0x8000)
        let head = [UInt8(truncatingIfNeeded: exponent >> 8), UInt8(truncatingIfNeeded: exponent)]
        if negative { return [0x40] + (head + significant).map { ~$0 } + [0xFF] }
        return [0xC0] + head + significant
    }
}
