/// The function a ``SQLExpression/function(_:_:)`` or ``SQLExpression/orderedAggregate(_:_:orderBy:)``
/// calls: one of SQL's own, which each dialect spells or lacks (``SQLDialect/functionName(_:)``),
/// or one a store provides by its name.
package enum SQLFunctionName: Hashable, Sendable {
    /// One of SQL's own functions.
    case standard(SQLStandardFunction)
    /// A function a store provides (``SQLProvidedFunction``): Sift's functions registered in
    /// SQLite, the text and number functions a PostgreSQL store installs.
    case provided(SQLProvidedFunction)

    /// The name as the tree writes it, SQLite's: `instr`, `sift_fold`.
    package var name: String {
        switch self {
        case .standard(let function): function.rawValue
        case .provided(let function): function.name
        }
    }
}

/// SQL's own functions the compiler calls, named as SQLite names them (the tree's spelling).
/// Each dialect says in an exhaustive switch how it spells each one, or that it has none of the
/// same meaning (``SQLDialect/functionName(_:)``): a new function is decided for every dialect.
package enum SQLStandardFunction: String, CaseIterable, Sendable {
    case abs, coalesce, count, instr, max, min, nullif, sum
    /// `row_number() OVER (…)` (``SQLExpression/rowNumber(orderBy:)``).
    case rowNumber = "row_number"
    /// The math functions: SQLite's with its math functions compiled in, PostgreSQL's; the
    /// compiler writes them where the dialect lacks Sift's (``SQLDialect/hasSiftFunctions``).
    case ceil, exp, floor, ln, log, power, sqrt, trunc
    /// PostgreSQL's text functions (not SQLite's), written only where the dialect lacks Sift's
    /// functions.
    case charLength = "char_length", right, startsWith = "starts_with"

    /// Whether a call may raise an error in a server that raises one where SQLite gives NULL
    /// or a double (``SQLExpression/mayRaise``): an overflow, the root or logarithm of a negative
    /// number, a result out of range.
    package var mayRaise: Bool {
        switch self {
        case .abs, .sqrt, .sum, .ln, .log, .exp, .power: true
        case .coalesce, .count, .instr, .max, .min, .nullif, .rowNumber, .ceil, .floor, .trunc, .charLength, .right, .startsWith: false
        }
    }
}
