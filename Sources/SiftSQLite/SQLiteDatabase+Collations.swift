import CSQLite

extension SQLiteDatabase {
    /// Registers (or replaces) the collation `name` (`ORDER BY x COLLATE name`, `UNIQUE` columns
    /// declared with it, …). `compare` gets the two strings' UTF-8 bytes and returns a negative
    /// number, 0 or a positive number; it must be a consistent total order.
    public func createCollation(
        _ name: String,
        _ compare: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int32
    ) throws(SQLiteError) {
        let box = CollationBox(compare: compare)
        let code = sqlite3_create_collation_v2(
            connection.handle, name, SQLITE_UTF8, Unmanaged.passRetained(box).toOpaque(),
            { data, leftCount, left, rightCount, right in
                guard let data else { return 0 }
                let box = Unmanaged<CollationBox>.fromOpaque(data).takeUnretainedValue()
                return box.compare(
                    UnsafeRawBufferPointer(start: left, count: Int(max(0, leftCount))),
                    UnsafeRawBufferPointer(start: right, count: Int(max(0, rightCount))))
            },
            { data in
                guard let data else { return }
                Unmanaged<CollationBox>.fromOpaque(data).release()
            })
        guard code == SQLITE_OK else {
            // Unlike sqlite3_create_function_v2, a failed sqlite3_create_collation_v2 does not call
            // the destructor.
            Unmanaged.passUnretained(box).release()
            throw connection.error(code, sql: nil)
        }
    }
}
