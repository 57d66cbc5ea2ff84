import SiftSQL
import SiftSQLStore

/// A decimal number's digits read straight from its text — `-12.50`, `1e-05`, `5.25e+20`, as
/// the canonical decimal text (``DecimalText``) and a double's shortest text spell them — as an
/// integer significand and a power of ten: the value `Decimal(string:)` reads from the same
/// text, without building a `Decimal`. Text of any other shape, more than 18 significant
/// digits, or a power of ten beyond ±100 is nil (for the caller to read the slow way).
///
///     DecimalDigits.parse("-12.50")   // (significand: -1250, exponent: -2)
///     DecimalDigits.parse("1e-05")    // (significand: 1, exponent: -5)
enum DecimalDigits {
    static func parse<Bytes: Collection<UInt8>>(_ text: Bytes) -> (significand: Int64, exponent: Int)? {
        var index = text.startIndex
        var negative = false
        if index != text.endIndex, text[index] == UInt8(ascii: "-") {
            negative = true
            text.formIndex(after: &index)
        }
        var significand: Int64 = 0
        var digits = 0
        var exponent = 0
        var sawDigit = false
        var afterPoint = false
        var endsInPoint = false
        while index != text.endIndex {
            let byte = text[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                sawDigit = true
                if significand != 0 || byte != UInt8(ascii: "0") {
                    digits += 1
                    guard digits <= 18 else { return nil }
                    significand = significand * 10 + Int64(byte - UInt8(ascii: "0"))
                }
                if afterPoint { exponent -= 1 }
                endsInPoint = false
            } else if byte == UInt8(ascii: "."), !afterPoint, sawDigit {
                afterPoint = true
                endsInPoint = true
            } else {
                break
            }
            text.formIndex(after: &index)
        }
        guard sawDigit, !endsInPoint else { return nil }
        if index != text.endIndex {
            guard text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") else { return nil }
            text.formIndex(after: &index)
            var exponentNegative = false
            if index != text.endIndex, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                text.formIndex(after: &index)
            }
            var written = 0
            var exponentDigits = 0
            while index != text.endIndex, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") {
                written = written * 10 + Int(text[index] - UInt8(ascii: "0"))
                exponentDigits += 1
                guard written <= 1_000 else { return nil }
                text.formIndex(after: &index)
            }
            guard exponentDigits > 0, index == text.endIndex else { return nil }
            exponent += exponentNegative ? -written : written
        }
        guard (-100...100).contains(exponent) else { return nil }
        return (negative ? -significand : significand, exponent)
    }

    /// The digits of a double's shortest text (`"\(double)"`, which a REAL decimal is read
    /// through), as ``parse(_:)`` gives them; nil for an infinity or NaN.
    ///
    /// Money and most other REALs take a shortcut without writing the text: the fewest
    /// decimal places k ≤ 6 at which `(double × 10^k).rounded()` divided by 10^k is the double
    /// again, where the double's ulp is below half of 10^-k (so no other number of k places is
    /// that double, and the shortest text, which has the fewest digits, is that number).
    static func of(_ double: Double) -> (significand: Int64, exponent: Int)? {
        guard double.isFinite else { return nil }
        if double.magnitude < 1e9 {
            for places in 0...6 {
                let scale = powersOfTen[places]
                guard double.ulp < 0.5 / scale else { break }
                let scaled = (double * scale).rounded()
                if scaled / scale == double { return (Int64(scaled), -places) }
            }
        }
        return parse("\(double)".utf8)
    }

    private static let powersOfTen: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]
}
