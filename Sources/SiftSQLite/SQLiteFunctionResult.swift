import CSQLite

/// Setting a registered function's result on its `sqlite3_context`.
enum SQLiteFunctionResult {
    /// Returns `value` from the function.
    static func set(_ value: SQLiteValue, on context: OpaquePointer) {
        switch value {
        case .null:
            sqlite3_result_null(context)
        case .integer(let i):
            sqlite3_result_int64(context, i)
        case .real(let d):
            sqlite3_result_double(context, d)
        case .text(let s):
            SQLiteText.withUTF8(s) { bytes in
                sqlite3_result_text64(context, bytes.baseAddress, sqlite3_uint64(bytes.count),
                                      sift_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
        case .blob(let bytes):
            if bytes.isEmpty {
                sqlite3_result_zeroblob(context, 0)
            } else {
                bytes.withUnsafeBytes { raw in
                    sqlite3_result_blob64(context, raw.baseAddress, sqlite3_uint64(raw.count), sift_sqlite_transient())
                }
            }
        }
    }

    /// Fails the function with `error`: its description becomes SQLite's message, and the error
    /// itself waits in `slot` for the failing step's `SQLiteError.underlying`. An `SQLiteError`
    /// (from a nested statement) keeps its code.
    static func fail(_ error: any Error, on context: OpaquePointer, slot: FunctionErrorSlot) {
        slot.record(error)
        SQLiteText.withUTF8(String(describing: error)) { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_result_error(context, chars.baseAddress, Int32(clamping: chars.count))
            }
        }
        if let sqliteError = error as? SQLiteError, sqliteError.code != SQLITE_OK {
            sqlite3_result_error_code(context, sqliteError.code)
        }
    }
}
