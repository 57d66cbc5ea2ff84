import SiftSQL

/// How a SQL store's database spells the statements that read and write its rows for the store
/// rules (``RowWriteSQL``, ``ObjectCheckSQL``): SQLite's for ``SQLiteStore``, PostgreSQL's for
/// the PostgreSQL store. Both stores have the same layout (``SQLSchema``), so everything else of
/// those statements (tables, columns, joins, conditions) is the same text for both.
///
/// Lists of row keys are the stores' own (SQLite binds each key, `IN (?1, ?2, …)`; PostgreSQL
/// binds one array, `= ANY($1)`): the statements that take one are given its test as text.
package enum RowWriteDialect: Sendable {
    case sqlite
    case postgreSQL

    /// The placeholder of the `number`th bound value (from 1): `?1`, `$1`, as ``SQLDialect`` has it.
    package func placeholder(_ number: Int) -> String {
        switch self {
        case .sqlite: "?\(number)"
        case .postgreSQL: "$\(number)"
        }
    }

    /// A bound row key where nothing around it gives it a type (a SELECT's output column):
    /// PostgreSQL must be told it is a `bigint` (`$1::bigint`); SQLite needs no type (`?1`).
    func keyPlaceholder(_ number: Int) -> String {
        switch self {
        case .sqlite: placeholder(number)
        case .postgreSQL: placeholder(number) + "::bigint"
        }
    }

    /// `INSERT <rest>` that inserts nothing, without error, when the row breaks a unique key:
    /// SQLite's `INSERT OR IGNORE <rest>`, PostgreSQL's `INSERT <rest> ON CONFLICT DO NOTHING`.
    func insertIgnoringConflicts(_ rest: String) -> String {
        switch self {
        case .sqlite: "INSERT OR IGNORE \(rest)"
        case .postgreSQL: "INSERT \(rest) ON CONFLICT DO NOTHING"
        }
    }

    /// One SELECT of a `UNION ALL` that an `ORDER BY` or `LIMIT` follows: PostgreSQL's in
    /// parentheses (so the clause is the union's beyond doubt); SQLite allows none.
    func unionMember(_ select: String) -> String {
        switch self {
        case .sqlite: select
        case .postgreSQL: "(\(select))"
        }
    }

    /// Whether a to-one column (`column`, qualified) holds a destination, as a count (0 or 1)
    /// of the same type as `count(*)`: SQLite's comparison is an integer already; PostgreSQL's
    /// is a boolean.
    func toOneCount(_ column: String) -> String {
        switch self {
        case .sqlite: "(\(column) IS NOT NULL)"
        case .postgreSQL: "(CASE WHEN \(column) IS NULL THEN 0 ELSE 1 END)::bigint"
        }
    }

    /// The hidden columns a searchable attribute has beside its own (``SearchFold``), which
    /// every write keeps up to date: the SQLite store's `[cd]` and `[c]` folds; the PostgreSQL
    /// store's also `localizedStandardCompare`'s sort key (its every text attribute is
    /// searchable: the server has no Sift functions to fold or collate with).
    var searchFolds: [SearchFold] {
        switch self {
        case .sqlite: SearchFold.predicateFolds
        case .postgreSQL: SearchFold.predicateFolds + [.standardSortKey]
        }
    }
}
