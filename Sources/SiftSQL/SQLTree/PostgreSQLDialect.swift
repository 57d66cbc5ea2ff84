/// PostgreSQL's spelling of the tree, for a store on a server: `$N` placeholders, `TRUE`/`FALSE`,
/// `IS [NOT] DISTINCT FROM` for nil-safe equality, `<>`, and the functions PostgreSQL has with
/// exactly SQLite's meaning (`instr` is `strpos`). It has no storage classes (`typeof`) and none
/// of Sift's Swift functions (`sift_…`): a tree using them is reported unsupported
/// (``SQLRenderer/unsupported``), and a PostgreSQL store computes such values another way
/// (derived folded columns).
///
/// Precedence, from PostgreSQL's "Operator Precedence" (§4.1.6), tightest first:
///
///     + -  (prefix)      COLLATE      ^      * / %      + -      (any other operator: || & | << >> ~)
///     BETWEEN IN LIKE      < > = <= >= <>      IS ISNULL NOTNULL      NOT      AND      OR
///
/// Unlike SQLite's, `||` binds looser than `+` (`a || b + c` is `a || (b + c)`), a prefix `~` is
/// an "other" operator (`~a + b` is `~(a + b)`), and IS binds looser than `=`.
struct PostgreSQLDialect: SQLDialect {
    func placeholder(_ number: Int) -> String { "$\(number)" }

    func boolean(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    func spelling(of op: SQLBinaryOperator) -> String {
        switch op {
        case .notEqual: "<>"
        case .is: "IS NOT DISTINCT FROM"
        case .isNot: "IS DISTINCT FROM"
        default: SQLiteDialect().spelling(of: op)
        }
    }

    var precedence: SQLPrecedenceTable {
        SQLPrecedenceTable(
            unary: [.negate: 900, .plus: 900, .bitwiseNot: 550],
            collate: 850,
            binary: [
                .multiply: 700, .divide: 700, .remainder: 700,
                .add: 600, .subtract: 600,
                .concatenate: 550, .bitwiseAnd: 550, .bitwiseOr: 550, .leftShift: 550, .rightShift: 550,
                .lessThan: 400, .lessThanOrEqual: 400, .greaterThan: 400, .greaterThanOrEqual: 400,
                .equal: 400, .notEqual: 400,
                .is: 350, .isNot: 350,
            ],
            in: 450, between: 450, isNull: 350, storageClassTest: 0,
            not: 200, and: 100, or: 50)
    }

    /// SQLite's functions PostgreSQL has with the same meaning. `substr` is not among them: a
    /// negative start counts from the end in SQLite only.
    func functionName(_ name: String) -> String? {
        switch name {
        case "instr": "strpos"
        case "coalesce", "min", "max", "count", "abs", "row_number": name
        default: nil
        }
    }

    func storageClassTest(_ operand: String, _ classes: [String]) -> String? { nil }

    func storageClass(_ operand: String) -> String? { nil }

    /// SQLite's `BINARY` (byte order, which is code-point order in UTF-8) is PostgreSQL's
    /// `"C"`; Sift's collations are Swift functions registered in SQLite, which a server lacks.
    func collation(_ name: String) -> String? {
        name == "BINARY" ? quoted("C") : nil
    }
}
