import SiftEvaluation
import SiftLanguage

/// Comparisons of an integer with a double, exact as the evaluator's
/// (`ValueComparison.compareIntDouble`: `2^53 + 1 > 9007199254740992.0` holds, `Int64.max ==
/// 9223372036854775808` does not), in a dialect that compares them as two doubles
/// (``SQLDialect/comparesIntegersWithDoublesExactly``: PostgreSQL converts a `bigint` to
/// `float8`, rounding every integer beyond 2^53, and its `float8::numeric` keeps 15 digits).
/// SQLite compares them exactly itself.
///
/// Against a constant the compiler decides here: a double `d` against an integer `x` becomes
/// an integer bound — `x > d` is `x > floor(d)`, `x >= d` is `x >= ceil(d)`, `x == d` is
/// `x = d` where `d` is a whole number (false otherwise); beyond the integers, always or never
/// (for a non-nil `x`). An integer `i` against a double `y` is left as it is where a double
/// holds `i` (converted exactly), else compared with the doubles either side (`y < i` is
/// `y <= below`, `y == i` false).
///
///     grp > 9007199254740992.0            "t0"."grp" > $1                       $1 = 9007199254740992 (bigint)
///     grp == 9223372036854775808          FALSE
///     grp < 9223372036854775808           "t0"."grp" IS NOT NULL
///     price >= 9007199254740993           nullif("t0"."price", 'NaN') >= $1     $1 = 9007199254740994.0
///
/// Between two expressions the double becomes the numeric bound the integer is compared with,
/// `x op B(y)` (y repeated, x once; NULL where y is):
///
///     CASE WHEN y >= 2^63 THEN 9223372036854775808 WHEN y < -2^63 THEN -9223372036854775809
///          ELSE CAST(floor(y) AS bigint) END                                -- >, <= (ceil for >=, <)
///     … ELSE CASE WHEN y = floor(y) THEN CAST(y AS bigint) ELSE 0.5 END END  -- == (0.5: equal to no integer)
///
/// The double side is NaN-free in SQL (a dialect holding NaN reads it as NULL), as every
/// comparison with NaN is false in the evaluator.
extension SQLFragment {
    /// Whether the value is an integer a double may not hold (beyond ±2^53): any integer
    /// expression, an integer constant only where it is that large.
    var mayExceedDoublePrecision: Bool {
        guard kind == .number(.integer) || kind == .number(.mixed) else { return false }
        if case .int(let i)? = constant { return i.magnitude > 1 << 53 }
        return true
    }
}

extension PredicateSQLCompiler {
    /// Whether `l` and `r` are an integer and a double that the dialect would compare as doubles,
    /// not exactly: an integer constant a double holds converts exactly.
    func isInexactNumberPair(_ l: SQLFragment, _ r: SQLFragment) -> Bool {
        guard !context.dialect.comparesIntegersWithDoublesExactly else { return false }
        let integer: SQLFragment
        if Self.isIntegral(l.kind) && r.kind == .number(.real) {
            integer = l
        } else if l.kind == .number(.real) && Self.isIntegral(r.kind) {
            integer = r
        } else {
            return false
        }
        if case .int(let i)? = integer.constant { return Double(exactly: i) == nil }
        return true
    }

    /// Whether values of the kind are integers in SQL (`bigint`, or the `numeric` of an exact sum).
    static func isIntegral(_ kind: SQLKind) -> Bool {
        kind == .number(.integer) || kind == .number(.mixed)
    }

    /// `== != < <= > >=` between an integer and a double, exactly; nil unless
    /// ``isInexactNumberPair(_:_:)``. Equality between two expressions is nil-safe (nil equals
    /// nil); `!=` is the negation of `==`.
    func exactNumberComparison(_ op: ComparisonOperator, _ l: SQLFragment, _ r: SQLFragment) throws -> SQLCondition? {
        guard isInexactNumberPair(l, r) else { return nil }
        // The integer on the left: `d < x` is `x > d`.
        guard Self.isIntegral(l.kind) else { return try exactNumberComparison(Self.flipped(op), r, l) }
        if op == .notEqualTo { return try exactNumberComparison(.equalTo, l, r)?.negated }
        if case .double(let d)? = r.constant { return try integerAgainstDouble(op, l, d) }
        if let value = l.constant {
            guard case .int(let i) = value else { throw SQLUnsupported("comparing \(value) with a double") }
            return try doubleAgainstInteger(Self.flipped(op), r, i)
        }
        let x = try expressions.materialised(l), y = try expressions.materialised(r)
        let test = SQLExpression.binary(try Self.sqlOperator(op), x.expression, try integerBound(op, of: y.expression))
        guard op == .equalTo else { return SQLCondition(expression: test, nullable: true) }
        // Nil-safe: both nil is equal (the double tested on its stored column, where NaN is not NULL).
        guard x.nullable || y.nullable else { return SQLCondition(expression: test, nullable: true) }
        guard let xNil = Self.nilTest(x), let yNil = Self.nilTest(y) else { throw SQLUnsupported("nil-safe equality with a value that may be NaN") }
        return SQLCondition(expression: .function(.standard(.coalesce), [test, .and([xNil, yNil])]), nullable: false)
    }

    /// The operator with its operands swapped: `a < b` is `b > a` (only `== != < <= > >=` come
    /// here; the others are kept as they are).
    static func flipped(_ op: ComparisonOperator) -> ComparisonOperator {
        switch op {
        case .lessThan: .greaterThan
        case .lessThanOrEqualTo: .greaterThanOrEqualTo
        case .greaterThan: .lessThan
        case .greaterThanOrEqualTo: .lessThanOrEqualTo
        case .equalTo, .notEqualTo, .beginsWith, .endsWith, .contains, .like, .matches, .in, .between, .utiConformsTo, .utiEquals: op
        }
    }

    /// The error for an operator other than `== < <= > >=` between an integer and a double.
    private static func notANumberComparison(_ op: ComparisonOperator) -> SQLUnsupported {
        SQLUnsupported("'\(op.symbol)' between an integer and a double")
    }

    private static func sqlOperator(_ op: ComparisonOperator) throws -> SQLBinaryOperator {
        op == .equalTo ? .equal : try orderOperator(op)
    }

    /// 2^63, the first double past the integers, and -2^63, the last one in them.
    private static let twoTo63 = 9_223_372_036_854_775_808.0

    /// An integer expression `x` against the constant double `d` (`op` ≠ `!=`).
    private func integerAgainstDouble(_ op: ComparisonOperator, _ x: SQLFragment, _ d: Double) throws -> SQLCondition {
        guard !d.isNaN else { return .false }
        let value = try expressions.materialised(x)
        // Every integer (never nil) is below `d`, or above it.
        let everyInteger = value.nullable ? SQLCondition(expression: .isNull(value.expression, negated: true), nullable: false) : .true
        if d >= Self.twoTo63 { return [.lessThan, .lessThanOrEqualTo].contains(op) ? everyInteger : .false }
        if d < -Self.twoTo63 { return [.greaterThan, .greaterThanOrEqualTo].contains(op) ? everyInteger : .false }
        let bound: Double
        switch op {
        case .equalTo:
            guard d.rounded(.down) == d else { return .false }
            bound = d
        case .greaterThan, .lessThanOrEqualTo: bound = d.rounded(.down)
        case .lessThan, .greaterThanOrEqualTo: bound = d.rounded(.up)
        case .notEqualTo, .beginsWith, .endsWith, .contains, .like, .matches, .in, .between, .utiConformsTo, .utiEquals: throw Self.notANumberComparison(op)
        }
        // (Whole and within [-2^63, 2^63): an Int64 exactly.)
        let test = SQLExpression.binary(try Self.sqlOperator(op), value.expression, context.bind(.integer(Int64(bound))))
        return SQLCondition(expression: test, nullable: value.nullable)
    }

    /// A double expression `y` against the constant integer `i`, which no double holds (`op` ≠ `!=`).
    private func doubleAgainstInteger(_ op: ComparisonOperator, _ y: SQLFragment, _ i: Int64) throws -> SQLCondition {
        let value = try expressions.materialised(y)
        func test(_ sqlOperator: SQLBinaryOperator, _ bound: Double) -> SQLCondition {
            SQLCondition(expression: .binary(sqlOperator, value.expression, context.bind(.real(bound))), nullable: true)
        }
        // `i` lies strictly between two neighbouring doubles (the upper one may be 2^63).
        let near = Double(i)
        let nearIsAbove = near >= Self.twoTo63 || Int64(near) > i
        let (below, above) = nearIsAbove ? (near.nextDown, near) : (near, near.nextUp)
        switch op {
        case .lessThan, .lessThanOrEqualTo: return test(.lessThanOrEqual, below)
        case .greaterThan, .greaterThanOrEqualTo: return test(.greaterThanOrEqual, above)
        case .equalTo: return .false
        case .notEqualTo, .beginsWith, .endsWith, .contains, .like, .matches, .in, .between, .utiConformsTo, .utiEquals: throw Self.notANumberComparison(op)
        }
    }

    /// The numeric bound an integer is compared with, under `op`, in place of the double `y`:
    /// `x op y` exactly when `x op B(y)` (see the type's documentation).
    private func integerBound(_ op: ComparisonOperator, of y: SQLExpression) throws -> SQLExpression {
        let inRange: SQLExpression
        switch op {
        case .equalTo:
            inRange = .case([(when: .binary(.equal, y, .function(.standard(.floor), [y])), then: .cast(y, "bigint"))], otherwise: .literal("0.5"))
        case .greaterThan, .lessThanOrEqualTo:
            inRange = .cast(.function(.standard(.floor), [y]), "bigint")
        case .lessThan, .greaterThanOrEqualTo:
            inRange = .cast(.function(.standard(.ceil), [y]), "bigint")
        case .notEqualTo, .beginsWith, .endsWith, .contains, .like, .matches, .in, .between, .utiConformsTo, .utiEquals:
            throw Self.notANumberComparison(op)
        }
        return .case([
            (when: .binary(.greaterThanOrEqual, y, context.bind(.real(Self.twoTo63))), then: .literal("9223372036854775808")),
            (when: .binary(.lessThan, y, context.bind(.real(-Self.twoTo63))), then: .literal("-9223372036854775809")),
        ], otherwise: inRange)
    }
}
