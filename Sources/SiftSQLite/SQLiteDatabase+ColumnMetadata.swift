import CSQLite

extension SQLiteDatabase {
    /// The collation a table's column was declared with (`"BINARY"` when none was), or nil when
    /// the column does not exist (`sqlite3_table_column_metadata`).
    public func declaredCollation(table: String, column: String) -> String? {
        var type: UnsafePointer<CChar>?
        var collation: UnsafePointer<CChar>?
        var notNull: Int32 = 0, primaryKey: Int32 = 0, autoincrement: Int32 = 0
        let code = sqlite3_table_column_metadata(handle, nil, table, column, &type, &collation, &notNull, &primaryKey, &autoincrement)
        guard code == SQLITE_OK else { return nil }
        return collation.map { String(cString: $0) } ?? "BINARY"
    }
}
