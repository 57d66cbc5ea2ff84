import SiftEvaluation
import SiftLanguage

/// `+ - * /` with a decimal operand: the evaluator's own arithmetic (`Arithmetic`), through
/// `sift_call` (`add:to:`, `from:subtract:`, `multiply:by:`, `divide:by:`), since SQLite holds a
/// decimal as its text (``DecimalText``) and has no decimal arithmetic:
///
///     price * 2        sift_call('multiply:by:', 'ei', "t0"."price", ?1)     -- a decimal, as its text
///     price * 1.5      sift_call('multiply:by:', 'er', "t0"."price", ?1)     -- a double
///
/// A decimal with an integer, a boolean or a decimal is a decimal (division by zero nil); with a
/// double it is a double. With a value that may be either an integer or a double (integer
/// arithmetic that may overflow) the kind of the result is not known before running: the
/// evaluator computes it.
extension ExpressionSQLCompiler {
    /// The arithmetic, or nil when neither operand is a decimal.
    func decimalArithmetic(_ op: BinaryOperator, _ x: SQLFragment, _ y: SQLFragment) throws -> SQLFragment? {
        guard case .number(let m) = x.kind, case .number(let n) = y.kind, m == .decimal || n == .decimal else { return nil }
        let function: BuiltinFunction
        switch op {
        case .add: function = .add
        case .subtract: function = .subtract
        case .multiply: function = .multiply
        case .divide: function = .divide
        case .power, .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift: return nil
        }
        let kind: SQLKind.NumberKind
        var divergence = x.divergence.union(y.divergence)
        switch m == .decimal ? n : m {
        case .decimal, .integer, .boolean:
            kind = .decimal
        case .real:
            // The evaluator's arithmetic of two doubles, the decimal converted as it converts it.
            if let (p, q) = decimalsAsDoubles(x, y) { return try arithmetic(op, p, q) }
            kind = .real
            // A decimal's double is finite: only an infinite double times a zero is NaN.
            let real = m == .real ? x : y, decimal = m == .real ? y : x
            if op == .multiply, Self.mayBeInfinite(real), Self.mayBeZero(decimal) { divergence.insert(.nanIsNull) }
        case .mixed:
            throw SQLUnsupported("'\(op.symbol)' on a decimal and a number that may be an integer or a double")
        }
        return try call(function, [x, y], kind: .number(kind), nullable: x.nullable || y.nullable || op == .divide || divergence.contains(.nanIsNull),
                        divergence: divergence)
    }
}
