import CSQLite

/// A prepared SQL statement (`sqlite3_stmt`): bind parameters, step through rows, read columns.
///
/// Use a statement from one thread at a time, like its database. It is finalized when the last
/// reference goes away; it keeps its connection open until then. Column readers are valid while
/// `step()` has just returned `true`.
public final class SQLiteStatement {
    /// The SQL text the statement was prepared from.
    public let sql: String
    @usableFromInline let handle: OpaquePointer
    let connection: SQLiteConnection

    init(handle: OpaquePointer, sql: String, connection: SQLiteConnection) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: - Bindings

    /// The number of parameters (`?`, `?NNN`, `:name`, …) the statement takes.
    public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    /// Resets the statement, clears every binding and binds `values` to parameters 1…n. Throws
    /// (`SQLITE_RANGE`) unless there is exactly one value per parameter.
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        try bind(count: values.count) { values[$0] }
    }

    /// Binds `count` values to parameters 1…count, the value of parameter `i + 1` being
    /// `value(i)`, as ``bind(_:)`` does: values of another type are bound as they are converted,
    /// without an array of SQLite's values made first.
    public func bind(count: Int, _ value: (Int) -> SQLiteValue) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let expected = Int(parameterCount)
        guard count == expected else {
            throw SQLiteError(
                code: SQLITE_RANGE,
                message: "the statement takes \(expected) binding\(expected == 1 ? "" : "s"), \(count) given",
                sql: sql)
        }
        for offset in 0..<count {
            try bind(value(offset), at: Int32(offset + 1))
        }
    }

    /// Binds `value` to parameter `index` (1-based). Text and blobs are copied (`SQLITE_TRANSIENT`);
    /// text may contain NUL characters, and an empty blob stays a blob (not NULL).
    public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let i):
            code = sqlite3_bind_int64(handle, index, i)
        case .real(let d):
            code = sqlite3_bind_double(handle, index, d)
        case .text(let s):
            code = SQLiteText.withUTF8(s) { bytes in
                sqlite3_bind_text64(handle, index, bytes.baseAddress, sqlite3_uint64(bytes.count),
                                    sift_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
        case .blob(let bytes):
            if bytes.isEmpty {
                // A NULL pointer would bind NULL; a zero-length zeroblob is an empty blob.
                code = sqlite3_bind_zeroblob(handle, index, 0)
            } else {
                code = bytes.withUnsafeBytes { raw in
                    sqlite3_bind_blob64(handle, index, raw.baseAddress, sqlite3_uint64(raw.count), sift_sqlite_transient())
                }
            }
        }
        guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
    }

    /// Binds the integer `value` to parameter `index` (1-based): ``bind(_:at:)`` of
    /// `.integer(value)` without making the enum (an import binds every column of every row).
    public func bind(integer value: Int64, at index: Int32) throws(SQLiteError) {
        let code = sqlite3_bind_int64(handle, index, value)
        guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
    }

    /// Binds the double `value` to parameter `index` (1-based), as ``bind(_:at:)`` binds `.real`.
    public func bind(real value: Double, at index: Int32) throws(SQLiteError) {
        let code = sqlite3_bind_double(handle, index, value)
        guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
    }

    /// Binds NULL to parameter `index` (1-based), as ``bind(_:at:)`` binds `.null`.
    public func bindNull(at index: Int32) throws(SQLiteError) {
        let code = sqlite3_bind_null(handle, index)
        guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
    }

    /// Binds the UTF-8 text `bytes` to parameter `index` without copying it
    /// (`SQLITE_STATIC`): the bytes must stay where they are, unchanged, until the statement has
    /// been stepped (and reset) with it — the way to bind many texts of one row from one buffer.
    public func bindText(borrowing bytes: UnsafeBufferPointer<UInt8>, at index: Int32) throws(SQLiteError) {
        // A nil pointer would bind NULL: an empty text still needs an address.
        let base = bytes.baseAddress ?? UnsafePointer(SQLiteStatement.emptyText)
        let code = sqlite3_bind_text64(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                       sqlite3_uint64(bytes.count), nil, UInt8(SQLITE_UTF8))
        guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
    }

    /// The address an empty text is bound at.
    nonisolated(unsafe) private static let emptyText: UnsafeMutablePointer<UInt8> = {
        let byte = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        byte.initialize(to: 0)
        return byte
    }()

    // MARK: - Stepping

    /// Runs the statement to its next row: `true` when a row is ready to read, `false` when the
    /// statement is done. On an error the statement is reset and the error carries the code,
    /// SQLite's message, this SQL and, when a registered function threw, the Swift error.
    public func step() throws(SQLiteError) -> Bool {
        connection.functionErrors.clear()
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            let error = connection.error(code, sql: sql)
            sqlite3_reset(handle)
            // The reset may run an aggregate's cleanup, which may report again: not this error's.
            connection.functionErrors.clear()
            throw error
        }
    }

    /// Puts the statement back at its start, keeping its bindings.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Clears every binding to NULL.
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    /// Whether the statement leaves the database unchanged (`sqlite3_stmt_readonly`).
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// The statement's SQL with the current bindings written in (`sqlite3_expanded_sql`).
    public var expandedSQL: String {
        guard let text = sqlite3_expanded_sql(handle) else { return sql }
        defer { sqlite3_free(text) }
        return String(cString: text)
    }

    // MARK: - Columns

    /// The number of columns in a result row (0 for statements that return none).
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name of column `index` (0-based): its `AS` name, or SQLite's own choice.
    public func columnName(_ index: Int32) -> String {
        guard let name = sqlite3_column_name(handle, index) else { return "" }
        return String(cString: name)
    }

    /// The storage class of column `index` in the current row.
    // (The column readers are inlinable: a fetch calls them for every column of every row.)
    @inlinable
    public func columnType(_ index: Int32) -> SQLiteStorageClass {
        SQLiteStorageClass(code: sqlite3_column_type(handle, index))
    }

    /// Whether column `index` of the current row is NULL.
    public func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` as an integer (SQLite's conversion for other classes; NULL is 0).
    @inlinable
    public func int64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Column `index` as a double (SQLite's conversion for other classes; NULL is 0).
    @inlinable
    public func double(_ index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// Column `index` as text, decoded from UTF-8 by its byte length (so NUL characters survive;
    /// invalid UTF-8 is repaired). NULL is "".
    @inlinable
    public func text(_ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Calls `body` with column `index`'s text as UTF-8 bytes, valid during the call only (no
    /// String is made). NULL is no bytes.
    @inlinable
    public func withUTF8<R>(_ index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard let bytes = sqlite3_column_text(handle, index) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, index))))
    }

    /// Column `index` as bytes. NULL and an empty blob are both `[]` (see `columnType`).
    public func blob(_ index: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Column `index` as the value of its own storage class.
    public func value(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(int64(index))
        case SQLITE_FLOAT: return .real(double(index))
        case SQLITE_TEXT: return .text(text(index))
        case SQLITE_BLOB: return .blob(blob(index))
        default: return .null
        }
    }

    /// The current row, every column as its own storage class.
    public func row() -> [SQLiteValue] {
        (0..<columnCount).map { value($0) }
    }
}
