/// The binding strengths of the language (LANGUAGE.md §2), tightest last. One table serves the
/// parser (which operator binds next) and the printer (where parentheses are needed).
public enum Precedence: Int, Comparable, Sendable {
    case or = 1
    case and
    case not
    case comparison
    /// `$x := value` binds looser than arithmetic and tighter than comparison.
    case assignment
    case bitwise
    case additive
    case multiplicative
    case power
    case unary
    case postfix
    case primary

    public static func < (a: Precedence, b: Precedence) -> Bool { a.rawValue < b.rawValue }

    /// The next tighter level.
    var tighter: Precedence { Precedence(rawValue: rawValue + 1) ?? .primary }

    static func of(_ op: BinaryOperator) -> Precedence {
        switch op {
        case .add, .subtract: .additive
        case .multiply, .divide: .multiplicative
        case .power: .power
        case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift: .bitwise
        }
    }

    /// `**` is right-associative; every other binary operator is left-associative.
    static func isRightAssociative(_ op: BinaryOperator) -> Bool { op == .power }

    /// The level of an expression as written (what binds it to its neighbours).
    static func of(_ expression: ExpressionNode) -> Precedence {
        switch expression.kind {
        case .binary(let op, _, _): of(op)
        case .unary: .unary
        case .assignment: .assignment
        case .constant(let value):
            // A negative number is written with a leading minus sign.
            switch value {
            case .int(let i) where i < 0: .unary
            case .double(let d) where d.sign == .minus: .unary
            default: .primary
            }
        case .keyPath, .index: .postfix
        case .evaluatedObject, .variable, .aggregate, .function, .dictionary, .functionExpression, .subquery, .ternary, .cast: .primary
        }
    }
}
