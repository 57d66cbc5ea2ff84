import CSQLite

extension SQLiteDatabase {
    /// Whether a statement of this connection has stepped and is neither done nor reset — a
    /// query whose rows are still being read. SQLite refuses to drop a table or an index
    /// meanwhile (`SQLITE_LOCKED`), and rolling back a schema change aborts such a query, so a
    /// caller about to change the schema asks first.
    public var hasStatementsInProgress: Bool {
        var statement = sqlite3_next_stmt(connection.handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { return true }
            statement = sqlite3_next_stmt(connection.handle, current)
        }
        return false
    }
}
