import CLibPQ

/// An error from PostgreSQL or from libpq: its SQLSTATE code, severity and message, and what the
/// server added (detail, hint, the position in the statement, the table and constraint), with the
/// statement it came from.
///
/// Errors the client finds itself carry an SQLSTATE of the matching class: `08001` when no
/// connection could be made (and the server gave no code), `08006` when the connection was lost,
/// `22021` for SQL text or a parameter with a NUL character.
public struct PostgreSQLError: Error, CustomStringConvertible, Sendable {
    /// The five-character SQLSTATE (`23505` unique violation, `42601` syntax error, `57014`
    /// cancelled, `3D000` no such database, …).
    public let sqlState: String
    /// `ERROR`, `FATAL` or `PANIC` (not localized).
    public let severity: String
    /// The primary message.
    public let message: String
    /// The server's detail (which key was duplicated, …).
    public let detail: String?
    /// The server's hint.
    public let hint: String?
    /// Where in the statement the error is: a 1-based character (not byte) offset.
    public let position: Int?
    /// The schema, table, column and constraint the error is about, when the server names them.
    public let schema: String?
    public let table: String?
    public let column: String?
    public let constraint: String?
    /// The SQL statement that failed, when there is one.
    public let sql: String?

    public init(
        sqlState: String, severity: String = "ERROR", message: String, detail: String? = nil,
        hint: String? = nil, position: Int? = nil, schema: String? = nil, table: String? = nil,
        column: String? = nil, constraint: String? = nil, sql: String? = nil
    ) {
        self.sqlState = sqlState
        self.severity = severity
        self.message = message
        self.detail = detail
        self.hint = hint
        self.position = position
        self.schema = schema
        self.table = table
        self.column = column
        self.constraint = constraint
        self.sql = sql
    }

    /// The SQLSTATE's class: its first two characters (`23` integrity constraint violation).
    public var sqlStateClass: Substring { sqlState.prefix(2) }

    /// A constraint failed: unique, foreign key, not null, check, exclusion (class 23).
    public var isConstraintViolation: Bool { sqlStateClass == "23" }
    /// The statement was stopped by `PostgreSQLConnection.cancel()` (`57014`).
    public var isCancelled: Bool { sqlState == "57014" }
    /// No connection, or it was lost (class 08).
    public var isConnectionError: Bool { sqlStateClass == "08" }

    /// `ERROR 42601: message (detail; hint) at character N in: SQL`.
    public var description: String {
        var text = "\(severity) \(sqlState): \(message)"
        let notes = [detail, hint.map { "hint: \($0)" }].compactMap(\.self)
        if !notes.isEmpty { text += " (\(notes.joined(separator: "; ")))" }
        if let position { text += " at character \(position)" }
        if let sql { text += " in: \(sql)" }
        return text
    }

    /// The error `result` reports (`PQresultErrorField`), for `sql`. An error libpq made itself
    /// has no SQLSTATE: it is `08006` when `connection` is lost, `08000` otherwise.
    static func from(result: OpaquePointer, connection: OpaquePointer, sql: String?) -> PostgreSQLError {
        func field(_ code: Character) -> String? {
            guard let ascii = code.asciiValue, let text = sift_PQresultErrorField(result, Int32(ascii)) else { return nil }
            return String(cString: text)
        }
        let message = field("M") ?? sift_PQresultErrorMessage(result).map { String(cString: $0) }?.trimmedTrailingNewlines ?? "unknown error"
        return PostgreSQLError(
            sqlState: field("C") ?? (sift_PQstatus(connection) == CONNECTION_OK ? "08000" : "08006"),
            severity: field("V") ?? field("S") ?? "ERROR",
            message: message,
            detail: field("D"),
            hint: field("H"),
            position: field("P").flatMap { Int($0) },
            schema: field("s"),
            table: field("t"),
            column: field("c"),
            constraint: field("n"),
            sql: sql)
    }

    /// The error libpq reports on `connection` (`PQerrorMessage`) when it made no result: the
    /// connection was lost (`08006`) or a call failed on the client's side (`08000`).
    static func from(connection: OpaquePointer, sql: String?) -> PostgreSQLError {
        let message = sift_PQerrorMessage(connection).map { String(cString: $0) }?.trimmedTrailingNewlines ?? ""
        let lost = sift_PQstatus(connection) != CONNECTION_OK
        return PostgreSQLError(
            sqlState: lost ? "08006" : "08000", message: message.isEmpty ? "libpq reported an error" : message, sql: sql)
    }

    /// The error for SQL text or a parameter holding a NUL character, which libpq would cut short.
    static func nulCharacter(in what: String, sql: String?) -> PostgreSQLError {
        PostgreSQLError(sqlState: "22021", message: "\(what) contains a NUL character", sql: sql)
    }
}

extension String {
    /// The text without the newlines libpq ends its messages with.
    var trimmedTrailingNewlines: String {
        var text = Substring(self)
        while text.last?.isNewline == true { text = text.dropLast() }
        return String(text)
    }
}
