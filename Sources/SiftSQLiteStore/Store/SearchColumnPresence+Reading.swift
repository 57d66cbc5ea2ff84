import SiftSQL
import SiftSQLStore
import SiftSQLite

extension SearchColumnPresence {
    /// Whether every hidden column `schema` describes is in the database.
    static func check(_ schema: SQLSchema, in database: SQLiteDatabase) throws(SQLiteError) -> Bool {
        for (table, hidden) in schema.searchColumnsByTable {
            let existing = try columnNames(of: table, in: database)
            if hidden.contains(where: { !existing.contains($0.column) }) { return false }
        }
        return true
    }

    /// The names of a table's columns.
    static func columnNames(of table: String, in database: SQLiteDatabase) throws(SQLiteError) -> Set<String> {
        let statement = try database.prepare("SELECT name FROM pragma_table_info(?1)")
        try statement.bind([.text(table)])
        var names: Set<String> = []
        while try statement.step() { names.insert(statement.text(0)) }
        return names
    }
}
