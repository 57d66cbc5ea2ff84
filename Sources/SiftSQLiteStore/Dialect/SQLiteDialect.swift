import SiftSQL
import SiftSQLStore
import SiftSQLite

/// SQLite's spelling of the tree: `?N` placeholders, `1`/`0` for truth values, every function
/// by its own name (Sift's Swift functions are registered in each connection), `typeof()`.
///
/// Precedence, from <https://www.sqlite.org/lang_expr.html> ("Operators, and Parse-Affecting
/// Attributes"), tightest first:
///
///     ~ + -  (prefix)      COLLATE      ||      * / %      + -      & | << >>
///     < <= > >=      = == != <> IS IS NOT BETWEEN IN ISNULL NOTNULL      NOT      AND      OR
///
/// A prefix operator's operand and COLLATE's are always atoms here (`-(a + b)`, `(-x) COLLATE
/// BINARY`): SQLite's COLLATE binds tighter than `-` yet looser than `~`, and `- -1` must never
/// become the comment `--1`, so the renderer does not rely on either.
struct SQLiteDialect: SQLDialect {
    var name: String { "SQLite" }

    func placeholder(_ number: Int) -> String { "?\(number)" }

    func boolean(_ value: Bool) -> String { value ? "1" : "0" }

    func spelling(of op: SQLBinaryOperator) -> String { op.commonSpelling }

    /// SQLite's REGEXP calls a `regexp` function no store registers; it has no exclusive or.
    func supports(_ op: SQLBinaryOperator) -> Bool { op != .regexMatch && op != .bitwiseXor }

    var precedence: SQLPrecedenceTable {
        SQLPrecedenceTable(
            unary: [.negate: 900, .plus: 900, .bitwiseNot: 900],
            collate: 950,
            binary: [
                .concatenate: 800,
                .multiply: 700, .divide: 700, .remainder: 700,
                .add: 600, .subtract: 600,
                .bitwiseAnd: 500, .bitwiseOr: 500, .leftShift: 500, .rightShift: 500, .bitwiseXor: 500,
                .lessThan: 400, .lessThanOrEqual: 400, .greaterThan: 400, .greaterThanOrEqual: 400,
                .equal: 300, .notEqual: 300, .is: 300, .isNot: 300, .regexMatch: 300,
            ],
            in: 300, between: 300, isNull: 300, storageClassTest: 300,
            not: 200, and: 100, or: 50)
    }

    /// The tree names SQL's functions as SQLite does. The math functions are SQLite's when its
    /// math functions are compiled in; `char_length`, `right` and `starts_with` are not SQLite's,
    /// and the compiler writes them (and the math functions) only for a dialect without Sift's
    /// functions.
    func functionName(_ function: SQLStandardFunction) -> String? {
        switch function {
        case .abs, .coalesce, .count, .instr, .max, .min, .nullif, .sum, .rowNumber: function.rawValue
        case .ceil, .exp, .floor, .ln, .log, .power, .sqrt, .trunc: function.rawValue
        case .charLength, .right, .startsWith: function.rawValue
        }
    }

    /// Sift's functions are registered on every connection the store opens; the text and
    /// number functions are PostgreSQL's (SQLite's connections run Sift's own instead).
    func hasProvidedFunction(_ function: SQLProvidedFunction) -> Bool {
        switch function {
        case .registered, .keyedAggregate: true
        case .text, .number: false
        }
    }

    /// On the text's bytes: `substr` and `length` count a text's characters only up to its first
    /// NUL, a blob's bytes all; a text cast to a blob is its bytes in the database's encoding
    /// (UTF-8 or UTF-16), the suffix's alike, and a valid suffix matches only at a character's start.
    func endsWith(_ operand: String, _ suffix: String, characters: Int64) -> String {
        "substr(CAST(\(operand) AS BLOB), -length(CAST(\(suffix) AS BLOB))) = CAST(\(suffix) AS BLOB)"
    }

    /// `x IN (SELECT value FROM json_each(?N))`: `json_each` gives each integer as an INTEGER
    /// and each string as TEXT, as their own parameters would be, and SQLite reads the array
    /// once, where numbered parameters cost it a search each (quadratic) and stop at its
    /// variable limit.
    func membership(_ operand: String, in values: [SQLValue], bind: (SQLValue) -> String) -> String? {
        guard let list = JSONValueList(values) else { return nil }
        return "\(operand) IN (SELECT value FROM json_each(\(bind(.text(list.json)))))"
    }

    func storageClassTest(_ operand: String, _ classes: [String]) -> String? {
        let list = classes.map { string($0) }
        return list.count == 1 ? "typeof(\(operand)) = \(list[0])" : "typeof(\(operand)) IN (\(list.joined(separator: ", ")))"
    }

    func storageClass(_ operand: String) -> String? { "typeof(\(operand))" }

    func collation(_ name: String) -> String? { name }

    var spellsEveryConstruct: Bool { true }

    var offsetRequiresLimit: Bool { true }

    var honoursUnaryPlusIndexHint: Bool { true }

    var appliesColumnCollationToEveryValue: Bool { true }
}
