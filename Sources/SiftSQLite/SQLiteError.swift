import CSQLite

/// An error from SQLite: its extended result code, its message, the statement it came from, and,
/// when a registered Swift function or aggregate threw, the Swift error itself.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_IOERR_READ`, …).
    public let code: Int32
    /// The primary result code (`SQLITE_CONSTRAINT`, `SQLITE_IOERR`, …): the low byte of `code`.
    public var primaryCode: Int32 { code & 0xFF }
    /// `sqlite3_errmsg`, or the message of the error a registered function reported.
    public let message: String
    /// The SQL statement that failed, when there is one.
    public let sql: String?
    /// The Swift error a registered function or aggregate threw, passed through unchanged.
    public let underlying: (any Error & Sendable)?

    public init(code: Int32, message: String, sql: String? = nil, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
        self.underlying = underlying
    }

    /// A constraint failed: UNIQUE, NOT NULL, CHECK, FOREIGN KEY, PRIMARY KEY.
    public var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }
    /// The statement was stopped by `SQLiteDatabase.interrupt()`.
    public var isInterrupted: Bool { primaryCode == SQLITE_INTERRUPT }
    /// The database file is locked by another connection (and the busy timeout, if any, expired).
    public var isBusy: Bool { primaryCode == SQLITE_BUSY }

    /// `message (code N) in: SQL`, or `message (code N)` without a statement.
    public var description: String {
        let base = "\(message) (code \(code))"
        guard let sql else { return base }
        return "\(base) in: \(sql)"
    }

    /// The error SQLite reports on `connection` for `code`.
    static func from(_ code: Int32, on connection: OpaquePointer?, sql: String? = nil, underlying: (any Error & Sendable)? = nil) -> SQLiteError {
        let message: String
        if let connection, let text = sqlite3_errmsg(connection) {
            message = String(cString: text)
        } else if let text = sqlite3_errstr(code) {
            message = String(cString: text)
        } else {
            message = "SQLite error \(code)"
        }
        return SQLiteError(code: code, message: message, sql: sql, underlying: underlying)
    }
}
