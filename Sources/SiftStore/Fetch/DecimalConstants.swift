import Foundation
import SiftLanguage

/// A typed rule of LANGUAGE.md §3, beside the reading of strings as dates
/// (``TypedComparisons``): a double constant compared with a Decimal attribute (`==`, `!=`,
/// `<`, `<=`, `>`, `>=`, `BETWEEN`, `IN`) is read as the decimal its shortest text spells —
/// `Total < 1.99` compares with the decimal 1.99 — so the comparison is exact, as the user wrote
/// it. Without it the evaluator compares a decimal and a double as two doubles, through
/// Foundation's conversion of the decimal, which is not always the nearest double (1.99 becomes
/// 1.9899999999999998, so `Total < 1.99` held for a Total of 1.99). A double that is no
/// decimal's (infinite, NaN, beyond a decimal's range) stays a double.
enum DecimalConstants {
    /// `expression` with its double constants (alone, or in an aggregate for IN and BETWEEN)
    /// read as decimals.
    static func decimals(in expression: ExpressionNode) -> ExpressionNode {
        var result = expression
        switch expression.kind {
        case .aggregate(let elements):
            result.kind = .aggregate(elements.map(decimals(in:)))
        case .constant(.double(let double)):
            if let decimal = decimal(double) { result.kind = .constant(.decimal(decimal)) }
        default:
            break
        }
        return result
    }

    /// The decimal `double`'s shortest text spells, when it reads back as that double.
    static func decimal(_ double: Double) -> Decimal? {
        guard double.isFinite, let decimal = Decimal(string: "\(double)", locale: nil),
              Double(decimal.description) == double else { return nil }
        return decimal
    }
}
