import SiftSQL

/// PostgreSQL's spelling of the tree, for a store on a server: `$N` placeholders, `TRUE`/`FALSE`,
/// `IS [NOT] DISTINCT FROM` for nil-safe equality, `<>`, and the functions PostgreSQL has with
/// exactly SQLite's meaning (`instr` is `strpos`), and the text functions a store installs
/// (``PostgreSQLTextFunctions``). It has no storage classes (`typeof`) and none
/// of Sift's Swift functions (`sift_…`): a tree using them is reported unsupported
/// (`SQLRenderer.unsupported`), and a PostgreSQL store computes such values another way
/// (derived folded columns).
///
/// Precedence, from PostgreSQL's "Operator Precedence" (§4.1.6), tightest first:
///
///     + -  (prefix)      COLLATE      ^      * / %      + -      (any other operator: || & | << >> ~)
///     BETWEEN IN LIKE      < > = <= >= <>      IS ISNULL NOTNULL      NOT      AND      OR
///
/// Unlike SQLite's, `||` binds looser than `+` (`a || b + c` is `a || (b + c)`), a prefix `~` is
/// an "other" operator (`~a + b` is `~(a + b)`), and IS binds looser than `=`.
///
/// The compiler writes SQL for values as the SQLite store holds them; a PostgreSQL store's
/// columns have types of their own (``columnTypes``), read in SQLite's form where they differ:
///
/// | column type | read as |
/// |---|---|
/// | `boolean` | `("t0"."b"::integer)`: 0 or 1, a number like any other |
/// | `timestamptz` | `((extract(epoch FROM "t0"."d") - 978307200)::float8)`: seconds since 2001 (exact: microseconds are whole) |
/// | `uuid` | `uuid_send("t0"."u")`: its 16 bytes, as SQLite holds them |
/// | `numeric` | itself: compared exactly with decimals and integers (SQLite holds decimals as text, compared by Sift's functions) |
/// | `timestamp`, `date` (databases Sift did not create) | as `timestamptz`: seconds since 2001, the value taken to be UTC |
/// | ``readAsText`` (any other type of a database Sift did not create) | `("t0"."c"::text)`: its text |
/// | ``readInNFC``, ``readAsTextInNFC`` (text of such a database found not in NFC) | `normalize("t0"."c", NFC)`, the form the evaluator compares |
///
/// Text columns are made `COLLATE "C"`, so comparisons and `min`/`max` are in code-point order
/// as in SQLite. PostgreSQL shifts a `bigint` by an `integer`, masked as the C compiler's
/// shift does: the compiler writes a shift by a constant count only (`ExpressionSQLCompiler`'s
/// `serverShift`), with Swift's smart-shift rules.
package struct PostgreSQLDialect: SQLDialect {
    /// The types of the columns of each table (`"boolean"`, `"timestamptz"`, …), by table and
    /// column name; a column not listed is read as it is.
    package var columnTypes: [String: [String: String]]
    /// Whether the store installed ``PostgreSQLTextFunctions`` (a store made in a UTF-8 database).
    package var hasTextFunctions: Bool
    /// Whether the store installed ``PostgreSQLNumberFunctions``.
    package var hasNumberFunctions: Bool

    package init(columnTypes: [String: [String: String]] = [:], hasTextFunctions: Bool = false, hasNumberFunctions: Bool = false) {
        self.columnTypes = columnTypes
        self.hasTextFunctions = hasTextFunctions
        self.hasNumberFunctions = hasNumberFunctions
    }

    /// The column type of a column read as its text (`::text`): one of a database Sift did not
    /// create whose type holds no value the compiler reads in another way (`char(n)`, `json`).
    package static let readAsText = "::text"
    /// The column type of a text column of a database Sift did not create that holds text not
    /// in NFC: read in NFC (`normalize("t0"."c", NFC)`), the form the evaluator compares.
    package static let readInNFC = "text in NFC"
    /// A column read as its text (``readAsText``) that holds text not in NFC.
    package static let readAsTextInNFC = "::text in NFC"

    package var name: String { "PostgreSQL" }

    package func placeholder(_ number: Int) -> String { "$\(number)" }

    package func boolean(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    package func spelling(of op: SQLBinaryOperator) -> String {
        switch op {
        case .notEqual: "<>"
        case .is: "IS NOT DISTINCT FROM"
        case .isNot: "IS DISTINCT FROM"
        case .regexMatch: "~"
        case .concatenate, .multiply, .divide, .remainder, .add, .subtract, .bitwiseAnd, .bitwiseOr, .leftShift, .rightShift, .bitwiseXor,
             .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .equal:
            op.commonSpelling
        }
    }

    package var precedence: SQLPrecedenceTable {
        SQLPrecedenceTable(
            unary: [.negate: 900, .plus: 900, .bitwiseNot: 550],
            collate: 850,
            binary: [
                .multiply: 700, .divide: 700, .remainder: 700,
                .add: 600, .subtract: 600,
                .concatenate: 550, .bitwiseAnd: 550, .bitwiseOr: 550, .leftShift: 550, .rightShift: 550, .bitwiseXor: 550, .regexMatch: 550,
                .lessThan: 400, .lessThanOrEqual: 400, .greaterThan: 400, .greaterThanOrEqual: 400,
                .equal: 400, .notEqual: 400,
                .is: 350, .isNot: 350,
            ],
            in: 450, between: 450, isNull: 350, storageClassTest: 0,
            not: 200, and: 100, or: 50)
    }

    /// SQL's functions as PostgreSQL names them: SQLite's `instr` is `strpos`, the others are
    /// spelled alike. (The compiler never calls `substr`: a negative start counts from the end
    /// in SQLite only.)
    package func functionName(_ function: SQLStandardFunction) -> String? {
        switch function {
        case .instr: "strpos"
        case .coalesce, .min, .max, .count, .abs, .rowNumber, .sum, .nullif, .right, .floor, .ceil, .trunc, .sqrt, .startsWith, .charLength,
             .ln, .log, .exp, .power:
            function.rawValue
        }
    }

    /// The text and number functions the store installs; not Sift's SQLite functions.
    package func hasProvidedFunction(_ function: SQLProvidedFunction) -> Bool {
        switch function {
        case .registered, .keyedAggregate: false
        case .text: hasTextFunctions
        case .number: hasNumberFunctions
        }
    }

    /// PostgreSQL's text holds no NUL: `right` counts all of its characters.
    package func endsWith(_ operand: String, _ suffix: String, characters: Int64) -> String { "right(\(operand), \(characters)) = \(suffix)" }

    /// `x IN (SELECT unnest($1::bigint[]))`: the values as one array parameter per kind —
    /// `bigint[]` for integers, `float8[]` for doubles, `text[]`, `bytea[]` — each sent as its
    /// text (``PostgreSQLArrayLiteral``), each element the value its own parameter would be
    /// (a NULL or a NaN, which a parameter sends as NULL, as NULL). `unnest` of the array
    /// compares `x` with each element by the same operator as a parameter of the element's type,
    /// with the same NULL rules (`x IN (…)` is `x = a OR x = b …`, and so is the OR of the
    /// kinds' lists), and lets the server plan a hashed lookup, where `= ANY($1)` of a generic
    /// plan compares with every element in turn. The protocol's 65,535 parameters are no limit:
    /// a list of any length is one to four parameters.
    package func membership(_ operand: String, in values: [SQLValue], bind: (SQLValue) -> String) -> String? {
        let lists = PostgreSQLArrayLiteral.lists(values)
        let tests = lists.map { list in "\(operand) IN (SELECT unnest(\(bind(.text(list.literal)))::\(list.type)[]))" }
        return tests.count == 1 ? tests[0] : "(" + tests.joined(separator: " OR ") + ")"
    }

    package func storageClassTest(_ operand: String, _ classes: [String]) -> String? { nil }

    package func storageClass(_ operand: String) -> String? { nil }

    /// SQLite's `BINARY` (byte order, which is code-point order in UTF-8) is PostgreSQL's
    /// `"C"`; Sift's collations are Swift functions registered in SQLite, which a server lacks.
    package func collation(_ name: String) -> String? {
        name == "BINARY" ? quoted("C") : nil
    }

    package func column(_ quoted: String, table: String?, name: String) -> String? {
        guard let table, let type = columnTypes[table]?[name] else { return quoted }
        switch type {
        case "boolean": return "(\(quoted)::integer)"
        case "timestamptz", "timestamp", "date": return "((extract(epoch FROM \(quoted)) - 978307200)::float8)"
        case "uuid": return "uuid_send(\(quoted))"
        case Self.readAsText: return "(\(quoted)::text)"
        case Self.readInNFC: return "normalize(\(quoted), NFC)"
        case Self.readAsTextInNFC: return "normalize((\(quoted)::text), NFC)"
        default: return quoted
        }
    }

    package func nullsOrder(descending: Bool) -> String { descending ? " NULLS LAST" : " NULLS FIRST" }

    package var requiresDerivedTableAlias: Bool { true }

    package var holdsNaN: Bool { true }

    /// PostgreSQL converts a `bigint` compared with a `float8` (and a `numeric` compared with one)
    /// to `float8`.
    package var comparesIntegersWithDoublesExactly: Bool { false }

    package var writesNullParametersAsNULL: Bool { true }

    package var hasSiftFunctions: Bool { false }
}
