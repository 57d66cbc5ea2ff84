import Foundation
import SiftEvaluation

/// Where a decimal meets a double, the evaluator converts the decimal to a double
/// (`NSDecimalNumber(decimal:).doubleValue`) and goes on with two doubles: comparisons
/// (`ValueComparison.order`), arithmetic (`Arithmetic.binary`), `**`, and the numeric functions
/// (`floor:`, `sqrt:`, `log:`, … of a decimal are of its double). In a dialect with the number
/// functions (a PostgreSQL store's, ``SQLNumberFunction``) the compiler does the same:
/// the decimal becomes a double fragment and the double's own SQL follows.
///
///     amount >= 2.0          nullif(sift_decimal_double("t0"."amount"), 'NaN') >= $1
///     -amount < weight       0 - nullif(sift_decimal_double("t0"."amount"), 'NaN') < nullif("t0"."weight", 'NaN')
///     floor:(amount)         nullif(floor(sift_decimal_double("t0"."amount")), 'NaN')
///     CAST("1.5", "NSDecimalNumber") < weight     $1 (the double, converted here) < …
///
/// Only a stored decimal (or its negation, which flips the sign and nothing else) is converted
/// in the server: Foundation's conversion depends on how the decimal is represented (a mantissa
/// and an exponent), which for a stored one is how `Decimal(string:)` reads its text and for a
/// computed one (a sum, a product) is whatever Foundation's arithmetic left. A constant is
/// converted here, by the evaluator's own code.
extension ExpressionSQLCompiler {
    /// `x`, a decimal, as the evaluator's double of it; nil where the dialect has no number
    /// functions or `x` is a computed decimal.
    func decimalAsDouble(_ x: SQLFragment) -> SQLFragment? {
        guard context.dialect.hasNumberFunctions, x.kind == .number(.decimal) else { return nil }
        if let value = x.constant {
            guard case .decimal(let d) = value else { return nil }
            return Self.constant(.double(NSDecimalNumber(decimal: d).doubleValue))
        }
        guard let expression = Self.decimalDouble(x.expression) else { return nil }
        var result = x
        result.expression = expression
        result.kind = .number(.real)
        return result
    }

    /// `x` and `y` with a decimal converted where the other is a double (nil where neither pair
    /// is one, or the decimal cannot be converted).
    func decimalsAsDoubles(_ x: SQLFragment, _ y: SQLFragment) -> (SQLFragment, SQLFragment)? {
        switch (x.kind, y.kind) {
        case (.number(.decimal), .number(.real)): decimalAsDouble(x).map { ($0, y) }
        case (.number(.real), .number(.decimal)): decimalAsDouble(y).map { (x, $0) }
        default: nil
        }
    }

    /// The double of a stored decimal's SQL: `nullif(c, 'NaN')` (how a dialect holding NaN reads
    /// a decimal column) becomes `nullif(sift_decimal_double(c), 'NaN')`, and a negation of one
    /// `0 - d` (Foundation's negation leaves a zero as it is: its double is 0.0, not -0.0).
    private static func decimalDouble(_ expression: SQLExpression) -> SQLExpression? {
        switch expression {
        case .function(.standard(.nullif), let arguments) where arguments.count == 2:
            guard case .column = arguments[0], case .string("NaN") = arguments[1] else { return nil }
            return .function(.standard(.nullif), [.function(.provided(.number(.decimalDouble)), [arguments[0]]), arguments[1]])
        case .unary(.negate, let operand):
            // `0 - d`, not `-d`: Foundation's negation leaves a zero as it is, whose double is 0.0, not -0.0.
            return decimalDouble(operand).map { .binary(.subtract, .integer(0), $0) }
        default:
            return nil
        }
    }
}
