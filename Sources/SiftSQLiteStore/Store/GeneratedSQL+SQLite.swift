import SiftSQL
import SiftSQLStore

extension GeneratedSQL {
    /// As ``description``, but each query with its bound values written in as SQLite literals
    /// (``SQLiteLiteralSQL``) and ending in `;`: text `sqlite3` runs as it is, unless the
    /// queries call Sift's own functions (``siftFunctions``). For SQLite's SQL (`?N`
    /// placeholders).
    public var inlinedDescription: String { text(writingQueries: { SQLiteLiteralSQL.inlining($0, $1) + ";" }) }

    /// The functions and collations Sift registers that the queries call (`sift_date`,
    /// `sift_equals`): `sqlite3` has none of them.
    public var siftFunctions: [String] {
        var names = SQLiteLiteralSQL.siftFunctions(in: sql)
        for name in SQLiteLiteralSQL.siftFunctions(in: sectionsSQL ?? "") where !names.contains(name) { names.append(name) }
        return names
    }
}
