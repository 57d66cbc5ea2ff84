
/// How one database spells a ``SQLExpression``: its placeholders, identifiers, operators and
/// their precedence, truth values and functions. ``SQLRenderer`` asks the dialect and writes
/// the parentheses its precedence table calls for, no more.
///
/// What a dialect cannot spell (Sift's Swift functions on a server, SQLite's `typeof`) it
/// answers with nil; the renderer then records the construct in
/// ``SQLRenderer/unsupported`` and the caller must not run the text.
package protocol SQLDialect: Sendable {
    /// The database's name, for messages: `SQLite`, `PostgreSQL`.
    var name: String { get }

    /// The placeholder of the `number`th bound value (from 1): `?1`, `$1`.
    func placeholder(_ number: Int) -> String

    /// An identifier, quoted: `"name"`.
    func quoted(_ identifier: String) -> String

    /// A truth value the compiler writes.
    func boolean(_ value: Bool) -> String

    /// A text literal the compiler writes: `'e'`.
    func string(_ text: String) -> String

    /// The spelling of a binary operator.
    func spelling(of op: SQLBinaryOperator) -> String

    /// How tightly each construct binds.
    var precedence: SQLPrecedenceTable { get }

    /// The name of SQL's function `function` (named as SQLite names it) in the dialect: a
    /// function of exactly the same meaning, nil when the dialect has none. Dialects answer in
    /// an exhaustive switch, so a new function is decided for each.
    func functionName(_ function: SQLStandardFunction) -> String?

    /// Whether the database has `function`, one a store provides (Sift's functions registered
    /// in SQLite, the text and number functions a PostgreSQL store installs). Dialects answer
    /// in an exhaustive switch.
    func hasProvidedFunction(_ function: SQLProvidedFunction) -> Bool

    /// The test that a value's storage class is one of `classes` (`typeof(x) IN (…)`), given
    /// the value's text; nil when the dialect has no storage classes.
    func storageClassTest(_ operand: String, _ classes: [String]) -> String?

    /// A value's storage class as text (`typeof(x)`); nil when the dialect has none.
    func storageClass(_ operand: String) -> String?

    /// The collation SQLite calls `name` (`BINARY`, or one of Sift's, `sift_case_insensitive`),
    /// as the dialect writes it after COLLATE; nil when it has none of the same order.
    func collation(_ name: String) -> String?

    /// How a column of a table is read, given its quoted text (`"t0"."name"`): the text itself,
    /// or a conversion to the form the compiler's other dialect stores (a PostgreSQL `boolean`
    /// read as the integer SQLite holds). Nil when the dialect cannot read the column as the
    /// compiler means it. `table` is the table the alias names in the statement (nil when the
    /// column is of a subquery's result).
    func column(_ quoted: String, table: String?, name: String) -> String?

    /// The test that a text ends with `suffix`, a text of `characters` characters, given their
    /// texts: exactly (every byte, NUL characters too), as an equality (`… = …`).
    func endsWith(_ operand: String, _ suffix: String, characters: Int64) -> String

    /// Membership of `operand` in a long list of bound `values` (at least
    /// ``JSONValueList/minimumCount``), written with a few parameters however long the list is —
    /// each bound by `bind`, which returns its placeholder — and meaning exactly what
    /// `operand IN (?1, ?2, …)` with a parameter per value means, NULL rules included; nil when
    /// the dialect writes every value as its own parameter.
    func membership(_ operand: String, in values: [SQLValue], bind: (SQLValue) -> String) -> String?

    /// Whether the dialect has the binary operator with SQLite's meaning for every operand.
    func supports(_ op: SQLBinaryOperator) -> Bool

    /// What follows an ORDER BY term to put NULL first when ascending and last when descending,
    /// SQLite's order: nothing in SQLite, `NULLS FIRST`/`NULLS LAST` in PostgreSQL.
    func nullsOrder(descending: Bool) -> String

    /// Whether a subquery in FROM must be given an alias (PostgreSQL before 16).
    var requiresDerivedTableAlias: Bool { get }

    /// Whether a bound NULL is written `NULL` rather than bound (PostgreSQL: a parameter's type
    /// comes from its context, and `$1 IS NOT NULL` has none).
    var writesNullParametersAsNULL: Bool { get }

    /// Whether the dialect compares an integer with a double exactly (SQLite), rather than as two
    /// doubles (PostgreSQL: `bigint` against `float8`); the compiler then writes such comparisons
    /// exactly itself (``PredicateSQLCompiler/exactNumberComparison(_:_:_:)``).
    var comparesIntegersWithDoublesExactly: Bool { get }

    /// Whether the dialect's doubles hold NaN (PostgreSQL's do, and order it above every
    /// number; SQLite stores NULL). The compiler then leaves to the evaluator every computation
    /// that could make a NaN, and reads stored doubles with NaN as NULL.
    var holdsNaN: Bool { get }

    /// Whether Sift's Swift functions (`sift_…`) and collations are there (SQLite, where the
    /// store registers them); without them the compiler writes what it can in plain SQL.
    var hasSiftFunctions: Bool { get }

    /// Whether the database has the text functions a PostgreSQL store installs
    /// (``SQLTextFunctions``: the evaluator's folds and case mappings, tabulated), which
    /// the compiler then uses for string tests with options. Only a dialect without Sift's
    /// functions has them (with Sift's, the compiler calls those).
    var hasTextFunctions: Bool { get }

    /// Whether the dialect spells every construct of the tree (SQLite, the tree's own), so the
    /// compiler need not render a statement to find out what it cannot say.
    var spellsEveryConstruct: Bool { get }

    /// Whether an OFFSET needs a LIMIT before it (SQLite: `LIMIT -1 OFFSET n`).
    var offsetRequiresLimit: Bool { get }

    /// Whether the planner leaves an index alone for an ORDER BY term written `+x` (SQLite's
    /// planner; PostgreSQL chooses by its statistics), which the compiler writes where scanning
    /// an index in another order would be slower than sorting.
    var honoursUnaryPlusIndexHint: Bool { get }

    /// Whether a column's declared collation applies to every value a column holds, whatever its
    /// storage class (SQLite), rather than to text only; a section key is then compared
    /// `COLLATE BINARY` as it is stored.
    var appliesColumnCollationToEveryValue: Bool { get }

    /// Whether the database has the number functions a PostgreSQL store installs
    /// (``SQLNumberFunction``: Foundation's conversion of a decimal to a double), which
    /// the compiler then uses where a decimal meets a double. Only a dialect without Sift's
    /// functions has them.
    var hasNumberFunctions: Bool { get }
}

extension SQLDialect {
    /// How the dialect calls `function`; nil when it has none.
    package func functionName(_ function: SQLFunctionName) -> String? {
        switch function {
        case .standard(let standard): functionName(standard)
        case .provided(let provided): hasProvidedFunction(provided) ? provided.name : nil
        }
    }

    /// `"name"`, with `"` doubled: the SQL standard's quoting, shared by SQLite and PostgreSQL.
    package func quoted(_ identifier: String) -> String { SQLIdentifier.quoted(identifier) }

    /// `'text'`, with `'` doubled.
    package func string(_ text: String) -> String { SQLStringLiteral.quoted(text) }

    package func column(_ quoted: String, table: String?, name: String) -> String? { quoted }

    package func supports(_ op: SQLBinaryOperator) -> Bool { true }

    package func nullsOrder(descending: Bool) -> String { "" }

    package var requiresDerivedTableAlias: Bool { false }

    package var holdsNaN: Bool { false }

    package var comparesIntegersWithDoublesExactly: Bool { true }

    package var writesNullParametersAsNULL: Bool { false }

    package var hasSiftFunctions: Bool { true }

    package var spellsEveryConstruct: Bool { false }

    package var offsetRequiresLimit: Bool { false }

    package var honoursUnaryPlusIndexHint: Bool { false }

    package var appliesColumnCollationToEveryValue: Bool { false }

    package var hasTextFunctions: Bool { false }

    package var hasNumberFunctions: Bool { false }
}

/// A dialect's precedence levels: larger binds tighter. Operands of the same level as a binary
/// operator are left-associative where ``isAssociative(_:)`` says so (`a - b - c` is
/// `(a - b) - c`), so a right operand of that level is parenthesised (`a - (b - c)`);
/// comparisons are written as non-associative (both operands bind tighter), as PostgreSQL
/// requires.
package struct SQLPrecedenceTable: Sendable {
    /// Columns, parameters, literals, function calls, CASE, subqueries, EXISTS, `(…)`.
    package static let atom = 1000

    package var unary: [SQLUnaryOperator: Int]
    package var collate: Int
    package var binary: [SQLBinaryOperator: Int]
    /// `x IN (…)`.
    package var `in`: Int
    /// `x BETWEEN a AND b`.
    package var between: Int
    /// `x IS NULL`, `x IS NOT NULL`.
    package var isNull: Int
    /// `typeof(x) = '…'` / `typeof(x) IN (…)`: as the equality or IN it is written with.
    package var storageClassTest: Int
    package var not: Int
    package var and: Int
    package var or: Int

    package init(unary: [SQLUnaryOperator: Int], collate: Int, binary: [SQLBinaryOperator: Int], in: Int, between: Int, isNull: Int,
                 storageClassTest: Int, not: Int, and: Int, or: Int) {
        (self.unary, self.collate, self.binary, self.in, self.between, self.isNull) = (unary, collate, binary, `in`, between, isNull)
        (self.storageClassTest, self.not, self.and, self.or) = (storageClassTest, not, and, or)
    }

    /// The level of a binary operator (comparisons and the rest).
    package func level(_ op: SQLBinaryOperator) -> Int { binary[op] ?? 0 }

    /// Whether `a op b op c` means `(a op b) op c`, so a left operand of the same level needs no
    /// parentheses. Comparisons are not: both their operands must bind tighter.
    package func isAssociative(_ op: SQLBinaryOperator) -> Bool {
        switch op {
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .equal, .notEqual, .is, .isNot: false
        case .concatenate, .multiply, .divide, .remainder, .add, .subtract, .bitwiseAnd, .bitwiseOr, .leftShift, .rightShift, .bitwiseXor,
             .regexMatch:
            true
        }
    }
}

extension SQLBinaryOperator {
    /// The operator as SQLite spells it, which most dialects share (`||`, `*`, `<=`, `IS`, …);
    /// a dialect's ``SQLDialect/spelling(of:)`` answers it where it spells the operator alike.
    package var commonSpelling: String {
        switch self {
        case .concatenate: "||"
        case .multiply: "*"
        case .divide: "/"
        case .remainder: "%"
        case .add: "+"
        case .subtract: "-"
        case .bitwiseAnd: "&"
        case .bitwiseOr: "|"
        case .leftShift: "<<"
        case .rightShift: ">>"
        case .bitwiseXor: "#"
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqual: ">="
        case .equal: "="
        case .notEqual: "!="
        case .is: "IS"
        case .isNot: "IS NOT"
        case .regexMatch: "REGEXP"
        }
    }
}
