import Foundation
import SiftEvaluation
import SiftLanguage

/// Comparisons between numbers one of which is a decimal. SQLite holds a decimal as its text
/// (``DecimalText``), which neither orders nor compares as a number, so such comparisons are the
/// evaluator's own (`ValueComparison.order`, numerically across integers, doubles, decimals and
/// booleans — a decimal and a double as two doubles), through `sift_order`:
///
///     price > 12.5                 sift_order("t0"."price", ?1, 'er') > 0
///     price == 0.1                 sift_order("t0"."price", ?1, 'er') = 0
///     price == cost                coalesce(sift_order("t0"."price", "t0"."cost", 'ee') = 0, "t0"."price" IS NULL AND "t0"."cost" IS NULL)
///     price BETWEEN {1, 2}         sift_order("t0"."price", ?1, 'ei') >= 0 AND sift_order("t0"."price", ?2, 'ei') <= 0
///
/// `sift_order` is NULL where either value is nil, so every test is false on nil as the
/// evaluator's is, and nil-safe equality between two expressions adds the nil case.
///
/// A Decimal column of a database Sift did not create holds SQLite numbers, each read as the
/// decimal its shortest text spells: against a constant that is itself a double's shortest text
/// (or an integer), within ±2^53, it compares as the numbers do — the shortest text is
/// monotonic in the double, and such a constant is that double's — so SQLite compares the
/// stored number with the constant's double, and an index on the column serves:
///
///     Total > 1.98                 "t0"."Total" > ?1         ?1 = 1.98
///
/// A dialect without Sift's functions compares a decimal with a decimal, an integer or a boolean
/// exactly (PostgreSQL's `numeric`), and with a double as a double
/// (``ExpressionSQLCompiler/decimalsAsDoubles(_:_:)``, where the store installed the number
/// functions).
extension PredicateSQLCompiler {
    /// Whether two values are numbers and one of them a decimal.
    static func isDecimalPair(_ l: SQLFragment, _ r: SQLFragment) -> Bool {
        guard case .number(let m) = l.kind, case .number(let n) = r.kind else { return false }
        return m == .decimal || n == .decimal
    }

    /// Whether a constant is a decimal.
    static func isDecimal(_ value: Value) -> Bool {
        if case .decimal = value { return true }
        return false
    }

    /// `sift_order(x, y, 'kk')`, and the two operands as SQL.
    private func decimalOrder(_ l: SQLFragment, _ r: SQLFragment) throws -> (sql: SQLExpression, x: SQLFragment, y: SQLFragment) {
        guard let a = SQLArgumentKind(l.kind), let b = SQLArgumentKind(r.kind) else {
            throw SQLUnsupported("comparing \(l.kind) with \(r.kind)")
        }
        let x = try expressions.materialised(l), y = try expressions.materialised(r)
        return (.function(.provided(.registered(.order)), [x.expression, y.expression, .string("\(a.rawValue)\(b.rawValue)")]), x, y)
    }

    /// `< <= > >=` by the evaluator's numeric order.
    func decimalOrdering(_ op: ComparisonOperator, _ l: SQLFragment, _ r: SQLFragment) throws -> SQLCondition {
        if let (x, y) = storedNumberPair(l, r) {
            return SQLCondition(expression: .binary(try Self.orderOperator(op), x, y), nullable: true)
        }
        if let (x, y) = expressions.decimalsAsDoubles(l, r) { return try order(op, [], x, y) }
        if let (x, y) = try exactDecimalPair(l, r) {
            return SQLCondition(expression: .binary(try Self.orderOperator(op), x.expression, y.expression), nullable: x.nullable || y.nullable)
        }
        return SQLCondition(expression: .binary(try Self.orderOperator(op), try decimalOrder(l, r).sql, .integer(0)), nullable: true)
    }

    /// In a dialect without Sift's functions whose decimals are numbers (PostgreSQL's
    /// `numeric`): a decimal and a decimal or an integer (or boolean), compared exactly as the
    /// evaluator compares them, a decimal constant bound as its text and cast (`CAST($1 AS
    /// numeric)`). Nil elsewhere (a double: the evaluator compares it and a decimal as doubles).
    private func exactDecimalPair(_ l: SQLFragment, _ r: SQLFragment) throws -> (SQLFragment, SQLFragment)? {
        guard !context.dialect.hasSiftFunctions, case .number(let m) = l.kind, case .number(let n) = r.kind,
              [m, n].allSatisfy({ [.decimal, .integer, .boolean].contains($0) }) else { return nil }
        func operand(_ f: SQLFragment) throws -> SQLFragment {
            var x = try expressions.materialised(f)
            if case .decimal? = f.constant { x.expression = .cast(x.expression, "numeric") }
            return x
        }
        return (try operand(l), try operand(r))
    }

    /// Nil-safe `==`: against a constant, equal in the evaluator's numeric order (NULL, so false,
    /// where the other is nil); between two expressions, also true where both are nil.
    func decimalEquality(_ l: SQLFragment, _ r: SQLFragment) throws -> SQLCondition {
        if let (x, y) = storedNumberPair(l, r) { return SQLCondition(expression: .binary(.equal, x, y), nullable: true) }
        if let (x, y) = try exactDecimalPair(l, r) {
            if l.constant != nil || r.constant != nil || (!x.nullable && !y.nullable) {
                return SQLCondition(expression: .binary(.equal, x.expression, y.expression), nullable: true)
            }
            return SQLCondition(expression: .binary(.is, x.expression, y.expression), nullable: false)
        }
        let (order, x, y) = try decimalOrder(l, r)
        if l.constant != nil || r.constant != nil || (!x.nullable && !y.nullable) {
            // (NULL also where a decimal that is NaN meets a double: no order, as in the evaluator.)
            return SQLCondition(expression: .binary(.equal, order, .integer(0)), nullable: true)
        }
        return SQLCondition(expression: .function(.standard(.coalesce), [.binary(.equal, order, .integer(0)),
                                                               .and([.isNull(x.expression, negated: false), .isNull(y.expression, negated: false)])]),
                            nullable: false)
    }

    /// A foreign Decimal column held as numbers and a constant compared as numbers (the constant
    /// bound as its double, or integer), in their order; nil for any other pair.
    private func storedNumberPair(_ l: SQLFragment, _ r: SQLFragment) -> (SQLExpression, SQLExpression)? {
        func number(_ value: Value) -> SQLValue? {
            let limit = 9_007_199_254_740_992.0  // 2^53: every integer up to it is a double
            switch value {
            case .int(let i) where abs(Double(i)) <= limit: return .integer(i)
            case .bool(let b): return .integer(b ? 1 : 0)
            case .decimal(let d):
                guard let double = Double(d.description), double.isFinite, abs(double) < limit,
                      Decimal(string: "\(double)", locale: nil) == d else { return nil }
                return .real(double)
            default: return nil
            }
        }
        if l.decimalsAreNumbers, l.constant == nil, let value = r.constant, let bound = number(value) {
            return (l.expression, context.bind(bound))
        }
        if r.decimalsAreNumbers, r.constant == nil, let value = l.constant, let bound = number(value) {
            return (context.bind(bound), r.expression)
        }
        return nil
    }
}
