import Foundation
import SiftLanguage

/// Arithmetic and bitwise operators (LANGUAGE.md §6): integers stay integers (`/` truncates
/// toward zero) unless they overflow, which gives a double (as SQLite does); a double operand
/// gives a double, a decimal one a decimal; division or modulus by zero is nil; `**` is always
/// a double; any nil operand gives nil; `date ± n` adds seconds.
enum Arithmetic {
    enum Number {
        case int(Int64), double(Double), decimal(Decimal)

        var doubleValue: Double {
            switch self {
            case .int(let i): Double(i)
            case .double(let d): d
            case .decimal(let d): NSDecimalNumber(decimal: d).doubleValue
            }
        }

        var decimalValue: Decimal {
            switch self {
            case .int(let i): Decimal(i)
            // Decimal has no infinity (its initialiser traps on one).
            case .double(let d): d.isInfinite ? Decimal.nan : Decimal(d)
            case .decimal(let d): d
            }
        }

        var value: Value {
            switch self {
            case .int(let i): .int(i)
            case .double(let d): .double(d)
            case .decimal(let d): .decimal(d)
            }
        }
    }

    /// A value as a number: integers, doubles, decimals and booleans (which are 1 and 0).
    static func number(_ value: Value) -> Number? {
        switch value {
        case .int(let i): .int(i)
        case .double(let d): .double(d)
        case .decimal(let d): .decimal(d)
        case .bool(let b): .int(b ? 1 : 0)
        default: nil
        }
    }

    static func mismatch(_ what: String, _ a: Value, _ b: Value? = nil, in expression: String?) -> EvaluationError {
        let kinds = b.map { "\(a.kindName) and \($0.kindName)" } ?? a.kindName
        let place = expression.map { " in '\($0)'" } ?? ""
        return EvaluationError(.typeMismatch, "\(what) cannot take \(kinds)\(place)", keyPath: expression)
    }

    static func binary(_ op: BinaryOperator, _ a: Value, _ b: Value, expression: String? = nil) throws(EvaluationError) -> Value {
        if a.isNull || b.isNull { return .null }
        switch op {
        case .add, .subtract:
            // Dates move by seconds.
            if case .date(let d) = a, let n = number(b) {
                return .date(d.addingTimeInterval(op == .add ? n.doubleValue : -n.doubleValue))
            }
            if op == .add, case .date(let d) = b, let n = number(a) { return .date(d.addingTimeInterval(n.doubleValue)) }
            if op == .subtract, case .date(let x) = a, case .date(let y) = b { return .double(x.timeIntervalSince(y)) }
            fallthrough
        case .multiply, .divide:
            guard let x = number(a), let y = number(b) else { throw mismatch("'\(op.symbol)'", a, b, in: expression) }
            return arithmetic(op, x, y)
        case .power:
            guard let x = number(a), let y = number(b) else { throw mismatch("'**'", a, b, in: expression) }
            return .double(pow(x.doubleValue, y.doubleValue))
        case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift:
            guard case .int(let x)? = number(a), case .int(let y)? = number(b) else {
                throw mismatch("'\(op.symbol)' (bitwise operators take integers)", a, b, in: expression)
            }
            return .int(bitwise(op, x, y))
        }
    }

    /// `+ - * /` of two numbers (``binary(_:_:_:expression:)`` computes the other operators
    /// itself, and never sends them here).
    static func arithmetic(_ op: BinaryOperator, _ x: Number, _ y: Number) -> Value {
        switch (x, y) {
        case let (.int(i), .int(j)):
            switch op {
            case .add:
                let (r, o) = i.addingReportingOverflow(j)
                return o ? .double(Double(i) + Double(j)) : .int(r)
            case .subtract:
                let (r, o) = i.subtractingReportingOverflow(j)
                return o ? .double(Double(i) - Double(j)) : .int(r)
            case .multiply:
                let (r, o) = i.multipliedReportingOverflow(by: j)
                return o ? .double(Double(i) * Double(j)) : .int(r)
            case .divide:
                if j == 0 { return .null }
                let (r, o) = i.dividedReportingOverflow(by: j)
                return o ? .double(Double(i) / Double(j)) : .int(r)
            case .power, .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift:
                return notArithmetic(op)
            }
        case (.decimal, _), (_, .decimal):
            if case .double = x { return arithmetic(op, .double(x.doubleValue), .double(y.doubleValue)) }
            if case .double = y { return arithmetic(op, .double(x.doubleValue), .double(y.doubleValue)) }
            let (p, q) = (x.decimalValue, y.decimalValue)
            switch op {
            case .add: return .decimal(p + q)
            case .subtract: return .decimal(p - q)
            case .multiply: return .decimal(p * q)
            case .divide: return q == 0 ? .null : .decimal(p / q)
            case .power, .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift: return notArithmetic(op)
            }
        default:
            let (p, q) = (x.doubleValue, y.doubleValue)
            switch op {
            case .add: return .double(p + q)
            case .subtract: return .double(p - q)
            case .multiply: return .double(p * q)
            case .divide: return q == 0 ? .null : .double(p / q)
            case .power, .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift: return notArithmetic(op)
            }
        }
    }

    /// An operator that is not `+ - * /` where only those come: a bug, nil in a release build.
    private static func notArithmetic(_ op: BinaryOperator) -> Value {
        assertionFailure("'\(op.symbol)' is not one of + - * /")
        return .null
    }

    /// `& | ^ << >>` of two integers (``binary(_:_:_:expression:)`` sends no other operator).
    static func bitwise(_ op: BinaryOperator, _ x: Int64, _ y: Int64) -> Int64 {
        switch op {
        case .bitwiseAnd: return x & y
        case .bitwiseOr: return x | y
        case .bitwiseXor: return x ^ y
        case .leftShift: return x << y
        case .rightShift: return x >> y
        case .add, .subtract, .multiply, .divide, .power:
            assertionFailure("'\(op.symbol)' is not a bitwise operator")
            return 0
        }
    }

    /// `a % b` with the sign of the dividend (`fmod` on doubles); nil for a zero divisor.
    static func modulus(_ a: Value, _ b: Value, expression: String? = nil) throws(EvaluationError) -> Value {
        if a.isNull || b.isNull { return .null }
        guard let x = number(a), let y = number(b) else { throw mismatch(BuiltinFunction.modulus.selector, a, b, in: expression) }
        if case .int(let i) = x, case .int(let j) = y {
            if j == 0 { return .null }
            let (r, o) = i.remainderReportingOverflow(dividingBy: j)
            return o ? .int(0) : .int(r)
        }
        let q = y.doubleValue
        return q == 0 ? .null : .double(fmod(x.doubleValue, q))
    }

    static func unary(_ op: UnaryOperator, _ a: Value, expression: String? = nil) throws(EvaluationError) -> Value {
        if a.isNull { return .null }
        switch op {
        case .negate:
            guard let x = number(a) else { throw mismatch("'-'", a, in: expression) }
            switch x {
            case .int(let i): return i == .min ? .double(-Double(i)) : .int(-i)
            case .double(let d): return .double(-d)
            case .decimal(let d): return .decimal(-d)
            }
        case .bitwiseNot:
            guard case .int(let i)? = number(a) else { throw mismatch("'~' (bitwise operators take integers)", a, in: expression) }
            return .int(~i)
        }
    }
}
