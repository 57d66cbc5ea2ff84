import CSQLite

/// A connection to one SQLite database: run SQL, prepare and cache statements, transactions, and
/// Swift functions, aggregates and collations registered into SQL.
///
/// Use a database from one thread at a time (it is opened `SQLITE_OPEN_NOMUTEX`); only
/// `interrupt()` may be called from any thread. The connection is closed when the database and
/// every statement it prepared are gone (cached statements are finalized with the database).
/// Extended result codes are on, so `SQLiteError.code` is e.g. `SQLITE_CONSTRAINT_UNIQUE`.
public final class SQLiteDatabase: @unchecked Sendable {
    /// How to open a database file.
    public struct OpenOptions: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Open for reading only (`create` is then ignored: the file must exist).
        public static let readOnly = OpenOptions(rawValue: 1 << 0)
        /// Create the file if it does not exist.
        public static let create = OpenOptions(rawValue: 1 << 1)
        /// Read the file as a file no one changes while it is open (SQLite's `immutable=1`,
        /// implying `readOnly`): no lock is taken and no file is made beside it (no `-shm`, no
        /// `-wal`). Only for a file nothing writes: a write-ahead log beside it is not read.
        public static let immutable = OpenOptions(rawValue: 1 << 2)
    }

    /// The file path the database was opened with; nil for an in-memory database.
    public let path: String?
    let connection: SQLiteConnection
    var statementCache = SQLiteStatementCache(capacity: 100)
    /// The current `busyTimeout`.
    private var busyTimeoutMilliseconds: Int32 = 0

    /// Opens (or with `.create`, creates) the database at `path` for reading and writing, or with
    /// `.readOnly` for reading. `":memory:"` opens a new in-memory database. Throws, and leaves
    /// nothing open, when SQLite cannot open it.
    public init(path: String, options: OpenOptions = [.create]) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var opening = path
        if options.contains(.immutable) {
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            opening = "file:" + Self.uriPath(path) + "?immutable=1"
        } else if options.contains(.readOnly) {
            flags |= SQLITE_OPEN_READONLY
        } else {
            flags |= SQLITE_OPEN_READWRITE
            if options.contains(.create) { flags |= SQLITE_OPEN_CREATE }
        }
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(opening, &opened, flags, nil)
        guard code == SQLITE_OK, let handle = opened else {
            let error = SQLiteError.from(opened.map { sqlite3_extended_errcode($0) } ?? code, on: opened)
            let described = SQLiteError(code: error.code, message: "cannot open '\(path)': \(error.message)")
            if let opened { sqlite3_close_v2(opened) }
            throw described
        }
        connection = SQLiteConnection(handle: handle)
        self.path = path == ":memory:" || path.isEmpty ? nil : path
    }

    /// `path` as the path of a `file:` URI: `%`, `?` and `#` escaped (SQLite reads the rest as
    /// it is).
    static func uriPath(_ path: String) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A new, empty, private in-memory database.
    public static func inMemory() throws(SQLiteError) -> SQLiteDatabase {
        try SQLiteDatabase(path: ":memory:")
    }

    deinit {
        // Finalize the cached statements first; the connection closes once the last statement
        // anyone still holds is gone.
        statementCache.removeAll()
    }

    /// The `sqlite3*` handle, for calls this wrapper does not cover. Do not close it.
    public var handle: OpaquePointer { connection.handle }

    // MARK: - Running SQL

    /// Runs `sql`, one or more statements separated by semicolons, without bindings (schema
    /// changes, pragmas, scripts). Rows that statements return are ignored. Stops at the first
    /// error, which names the statement that failed.
    public func execute(_ sql: String) throws(SQLiteError) {
        var remaining = Substring(sql)
        while true {
            // Leading spaces would otherwise start the statement's text (and its errors).
            guard let (statement, rest) = try prepareFirst(of: remaining.drop(while: \.isWhitespace), persistent: false) else { return }
            while try statement.step() {}
            remaining = rest
        }
    }

    /// A newly prepared statement for `sql`, which must be exactly one statement (a trailing
    /// semicolon, spaces and comments are fine).
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try prepareOne(sql, persistent: false)
    }

    /// The statement for `sql` from the cache (up to `statementCacheCapacity` statements, the least
    /// recently used dropped first), prepared on a miss. It comes back reset with its bindings
    /// cleared, even if it was in the middle of its rows: a cached statement is valid until the next
    /// `cachedStatement` call with the same SQL (which `run`, `rows` and `scalar` make too).
    public func cachedStatement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = statementCache.statement(for: sql) {
            statement.reset()
            statement.clearBindings()
            return statement
        }
        let statement = try prepareOne(sql, persistent: true)
        statementCache.insert(statement, for: sql)
        return statement
    }

    /// The most statements `cachedStatement` keeps (100 at first; at least 1).
    public var statementCacheCapacity: Int {
        get { statementCache.capacity }
        set { statementCache.capacity = newValue }
    }

    /// Runs one statement with `bindings` to its end (through the statement cache), ignoring any rows.
    public func run(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) {
        let statement = try cachedStatement(sql)
        try statement.bind(bindings)
        while try statement.step() {}
        statement.reset()
    }

    /// Every row of one statement with `bindings` (through the statement cache): for small results.
    public func rows(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let statement = try cachedStatement(sql)
        try statement.bind(bindings)
        var rows: [[SQLiteValue]] = []
        while try statement.step() { rows.append(statement.row()) }
        statement.reset()
        return rows
    }

    /// The first column of the first row of one statement with `bindings`; `.null` when there is
    /// no row.
    public func scalar(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue {
        let statement = try cachedStatement(sql)
        try statement.bind(bindings)
        defer { statement.reset() }
        guard try statement.step(), statement.columnCount > 0 else { return .null }
        return statement.value(0)
    }

    // MARK: - Preparing

    /// Prepares `sql`, refusing text with a second statement after the first.
    private func prepareOne(_ sql: String, persistent: Bool) throws(SQLiteError) -> SQLiteStatement {
        guard let (statement, rest) = try prepareFirst(of: Substring(sql), persistent: persistent) else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "no SQL statement to prepare", sql: sql)
        }
        if !rest.allSatisfy(\.isWhitespace), try prepareFirst(of: rest, persistent: false) != nil {
            throw SQLiteError(code: SQLITE_MISUSE, message: "prepare takes one statement; more SQL follows the first", sql: sql)
        }
        return statement
    }

    /// The first statement of `sql` and the text after it; nil when `sql` holds only spaces and
    /// comments.
    private func prepareFirst(of sql: Substring, persistent: Bool) throws(SQLiteError) -> (SQLiteStatement, Substring)? {
        var sql = sql
        let flags = UInt32(persistent ? SQLITE_PREPARE_PERSISTENT : 0)
        var prepared: OpaquePointer?
        var consumed = 0
        let code = sql.withUTF8 { bytes -> Int32 in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                var tail: UnsafePointer<CChar>?
                let code = withUnsafeBytes(of: CChar(0)) { empty in
                    let base = chars.baseAddress ?? empty.bindMemory(to: CChar.self).baseAddress
                    let code = sqlite3_prepare_v3(connection.handle, base, Int32(clamping: chars.count), flags, &prepared, &tail)
                    if let tail, let base { consumed = tail - base }
                    return code
                }
                return code
            }
        }
        guard code == SQLITE_OK else {
            throw connection.error(code, sql: String(sql))
        }
        let rest = Substring(sql.utf8.dropFirst(consumed))
        guard let prepared else { return nil }
        let text = sqlite3_sql(prepared).map { String(cString: $0) } ?? String(sql)
        return (SQLiteStatement(handle: prepared, sql: text, connection: connection), rest)
    }

    // MARK: - State

    /// Whether a transaction is open (`!sqlite3_get_autocommit`).
    public var isInTransaction: Bool { sqlite3_get_autocommit(connection.handle) == 0 }

    /// Stops the statement running on this connection as soon as possible; it fails with an error
    /// whose `isInterrupted` is true. Safe to call from any thread; a no-op when nothing runs.
    public func interrupt() {
        sqlite3_interrupt(connection.handle)
    }

    /// How long (milliseconds) a statement waits for another connection's lock before failing with
    /// `SQLITE_BUSY`; 0 fails at once.
    public var busyTimeout: Int32 {
        get { busyTimeoutMilliseconds }
        set {
            busyTimeoutMilliseconds = max(0, newValue)
            sqlite3_busy_timeout(connection.handle, busyTimeoutMilliseconds)
        }
    }

    /// The rowid of the most recent successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(connection.handle) }

    /// The rows the most recent INSERT, UPDATE or DELETE changed (not counting triggers).
    public var changes: Int { Int(sqlite3_changes64(connection.handle)) }
}
