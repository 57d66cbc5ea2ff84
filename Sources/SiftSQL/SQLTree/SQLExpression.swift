
/// A SQL expression as a tree, the compiler's model of the SQL it writes (after GRDB's
/// `SQLExpression`): each case documents the SQL it renders. A ``SQLDialect`` spells it —
/// placeholders, function names, what a boolean is — and ``SQLRenderer`` writes it with exactly
/// the parentheses its dialect's precedence table needs, so no text is ever inspected to decide
/// on them.
///
/// Values a user supplied are always ``parameter(_:)``s, bound; identifiers are only names from
/// the model, quoted by the dialect; ``literal(_:)`` and ``string(_:)`` hold only what the
/// compiler itself writes.
package indirect enum SQLExpression: Sendable {
    /// A column, qualified by a table alias or not:
    ///
    ///     "t0"."name"
    ///     "_pk"
    case column(table: String?, name: String)

    /// A bound value: `?1` in SQLite, `$1` in PostgreSQL, numbered when the statement is
    /// rendered, in order of first use (one parameter used twice has one number).
    case parameter(SQLParameter)

    /// `NULL`.
    case null

    /// A truth value the compiler writes: `1`/`0` in SQLite, `TRUE`/`FALSE` in PostgreSQL.
    case boolean(Bool)

    /// An integer the compiler writes (an option mask, `LIMIT 1`, a comparison with 0): `3`.
    case integer(Int64)

    /// A number token the compiler writes as it is: `9.0e18`.
    case literal(String)

    /// A text literal the compiler writes (never a user's value): `'e'`.
    case string(String)

    /// A prefix operator: `-x`, `+x`, `~x`.
    case unary(SQLUnaryOperator, SQLExpression)

    /// A binary operator: `a + b`, `a || b`, `a < b`, `a = b`, `a IS b`, `a IS NOT b`.
    case binary(SQLBinaryOperator, SQLExpression, SQLExpression)

    /// A conjunction: `a AND b AND c` (one element: the element; none: true).
    case and([SQLExpression])

    /// A disjunction: `a OR b OR c` (one element: the element; none: false).
    case or([SQLExpression])

    /// `NOT x`.
    case not(SQLExpression)

    /// `x IS NULL`, or with `negated` `x IS NOT NULL`.
    case isNull(SQLExpression, negated: Bool)

    /// `x IN (a, b, c)`.
    case `in`(SQLExpression, [SQLExpression])

    /// `x IN (SELECT …)`: membership in a subquery's one column.
    case inSubquery(SQLExpression, SQLSelect)

    /// `x BETWEEN low AND high`.
    case between(SQLExpression, SQLExpression, SQLExpression)

    /// A function call: one of SQL's own (a dialect may spell it otherwise, or not have it),
    /// or one a store provides: `coalesce(x, 0)`, `instr(x, ?1)`, `sift_call(?1, ?2, x)`.
    case function(SQLFunctionName, [SQLExpression])

    /// `count(*)`.
    case countAll

    /// An aggregate of the rows fed in an order: `sum(x ORDER BY "t1"."_pk")` (SQLite from 3.44,
    /// PostgreSQL).
    case orderedAggregate(SQLFunctionName, SQLExpression, orderBy: [SQLOrdering])

    /// Whether a text ends with `suffix` (a text of `characters` characters), compared exactly,
    /// byte by byte: `substr(CAST(x AS BLOB), -length(CAST(s AS BLOB))) = CAST(s AS BLOB)` in
    /// SQLite (whose `substr` and `length` of a text stop at its first NUL, those of a blob do
    /// not), `right(x, 3) = s` in PostgreSQL (whose text holds no NUL).
    case endsWith(SQLExpression, suffix: SQLExpression, characters: Int64)

    /// `CAST(x AS type)`, the type as the dialect names it (the compiler writes only `numeric`,
    /// `bigint` and `double precision`, for a dialect without Sift's functions).
    case cast(SQLExpression, String)

    /// `CASE WHEN c1 THEN v1 WHEN c2 THEN v2 ELSE e END` (no ELSE when `otherwise` is nil).
    case `case`([(when: SQLExpression, then: SQLExpression)], otherwise: SQLExpression?)

    /// `x COLLATE name`: the collation `name` (SQLite's `BINARY`, or one of Sift's).
    case collate(SQLExpression, String)

    /// Whether a value's storage class is one of `classes`, for a column whose values are of
    /// several kinds: `typeof(x) = 'text'`, `typeof(x) IN ('integer', 'real')`.
    case storageClassIn(SQLExpression, [String])

    /// A value's storage class, as text: `typeof(x)`.
    case storageClass(SQLExpression)

    /// `EXISTS (SELECT …)`.
    case exists(SQLSelect)

    /// A scalar subquery: `(SELECT …)`.
    case subquery(SQLSelect)

    /// The row's place in an order: `row_number() OVER (ORDER BY a, b DESC)`.
    case rowNumber(orderBy: [SQLOrdering])
}

/// A bound value of a ``SQLExpression``, identified so that one value used twice is bound
/// once (`x >= ?1 AND sift_beginswith(x, ?1, 0)`).
package struct SQLParameter: Sendable {
    /// Unique within a generation context (``SQLGenerationContext/bind(_:)``).
    package let id: Int
    package let value: SQLValue
}

/// Prefix operators.
package enum SQLUnaryOperator: Hashable, Sendable, CaseIterable {
    /// `-x`.
    case negate
    /// `+x`: the value itself, without a column's affinity, and no index use (SQLite).
    case plus
    /// `~x`.
    case bitwiseNot
}

/// Binary operators; the dialect decides how tightly each binds.
package enum SQLBinaryOperator: Hashable, Sendable, CaseIterable {
    case concatenate
    case multiply, divide, remainder
    case add, subtract
    case bitwiseAnd, bitwiseOr, leftShift, rightShift
    /// `#` in PostgreSQL (SQLite has none: unsupported; the evaluator's `bitwiseXor:with:` there).
    case bitwiseXor
    case lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual
    case equal, notEqual
    /// Nil-safe equality: `IS` in SQLite, `IS NOT DISTINCT FROM` in PostgreSQL.
    case `is`
    /// Nil-safe inequality: `IS NOT` in SQLite, `IS DISTINCT FROM` in PostgreSQL.
    case isNot
    /// A match of a POSIX regular expression: `~` in PostgreSQL (SQLite has none: unsupported).
    case regexMatch
}

/// A term of ORDER BY: `x`, `x DESC`.
package struct SQLOrdering: Sendable {
    package var expression: SQLExpression
    package var descending = false
    /// The term is never NULL (a row key): no dialect needs to say where NULL goes, which would
    /// keep PostgreSQL from reading an index in order.
    package var isNeverNull = false
}

extension SQLExpression {
    /// `"alias"."name"`.
    package static func column(_ alias: String, _ name: String) -> SQLExpression { .column(table: alias, name: name) }

    /// Whether this is the literal truth value `value`.
    package func isBoolean(_ value: Bool) -> Bool {
        if case .boolean(let b) = self { return b == value }
        return false
    }
}
