import Foundation
import SiftPostgreSQL
import SiftSQL
import SiftStore

/// What a store's session sets so that a client that dies lets go of the store's write lock
/// within seconds (issue 30), and what a writer waiting for that lock is told.
///
/// - `client_connection_check_interval` (PostgreSQL 14 and later): the server looks for a
///   closed client connection every second while it runs a query, and ends the query (and the
///   transaction holding the lock) when the client is gone — without it, the server notices only
///   when it next writes to the client, after the query.
/// - TCP keepalives, both ways, for a client or a network that vanishes without closing the
///   connection (only meaningful over TCP; a Unix socket closes with its process): libpq's
///   (``connectionDefaults``) and the server's `tcp_keepalives_*`.
/// - `statement_timeout` for a save's checks (``PostgreSQLStore/checkTimeout``).
///
/// A setting the session already has (from the URL's `options`, or `ALTER ROLE … SET`) is kept.
extension PostgreSQLStore {
    /// libpq's keywords a store's connection gets unless its conninfo says otherwise: TCP
    /// keepalives after 30 s idle, every 10 s, 3 unanswered ones ending the connection, and
    /// `sift` as the session's `application_name` when the conninfo names none.
    static let connectionDefaults: [String: String] = [
        "keepalives": "1", "keepalives_idle": "30", "keepalives_interval": "10", "keepalives_count": "3",
        "fallback_application_name": "sift",
    ]

    /// The server's settings of the session (see above); those the server lacks, or refuses
    /// (a platform without `client_connection_check_interval`), are skipped.
    static func configureSession(_ connection: PostgreSQLConnection) throws(StoreError) {
        let current: [String?]
        do {
            current = try connection.query("""
                SELECT current_setting('client_connection_check_interval', true), current_setting('tcp_keepalives_idle', true),
                       current_setting('tcp_keepalives_interval', true), current_setting('tcp_keepalives_count', true)
                """).first.map { row in (0..<4).map { row[$0].stringValue } } ?? []
        } catch {
            throw storeError(error)
        }
        // (nil: the server has no such setting — `client_connection_check_interval` came in 14.)
        let wanted = [("client_connection_check_interval", "1s"), ("tcp_keepalives_idle", "30"), ("tcp_keepalives_interval", "10"),
                      ("tcp_keepalives_count", "3")]
        for (index, (name, value)) in wanted.enumerated() where index < current.count {
            guard let now = current[index], now == "0" else { continue }
            try? connection.execute("SET \(name) = '\(value)'")
        }
    }

    /// Whether the session has a `statement_timeout` of its own (then the checks keep it).
    private func sessionHasStatementTimeout() throws(StoreError) -> Bool {
        let value = try query("SELECT current_setting('statement_timeout')").first?[0].stringValue
        return value != nil && value != "0"
    }

    /// Runs a save's checks under ``checkTimeout`` (unless the session has a `statement_timeout`
    /// of its own): a check still running then is cancelled, with an error saying so. Run inside
    /// a savepoint, whose rollback undoes the setting when the checks fail.
    func withCheckTimeout<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        var timeout: Int64?
        if let checkTimeout, try !sessionHasStatementTimeout() {
            let (seconds, attoseconds) = checkTimeout.components
            timeout = max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        }
        do {
            if let timeout { try execute("SET LOCAL statement_timeout = \(timeout)") }
            let result = try body()
            if timeout != nil { try execute("SET LOCAL statement_timeout = 0") }
            return result
        } catch let error where error.code == .interrupted && error.message.contains("statement timeout") {
            let limit = timeout.map { "\(Double($0) / 1000) s" } ?? "the session's statement_timeout"
            throw StoreError(.interrupted, "the save's checks ran longer than \(limit) and were cancelled; nothing was saved (the changes are pending): "
                             + "set the store's checkTimeout, or give the session a statement_timeout of its own (options=-c statement_timeout=10min in the URL)")
        }
    }

    /// The error of a first change that waited `lockTimeout` for the store's write lock: the
    /// server's, with the session holding the lock (from `pg_locks` and `pg_stat_activity`) and
    /// what to do about it. Run after the failed transaction was rolled back.
    func lockTimeoutError(_ error: StoreError) -> StoreError {
        let sql = """
            SELECT a.pid::bigint, a.application_name, a.state, a.usename::text, to_char(a.query_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
                   floor(extract(epoch FROM now() - a.query_start))::bigint, left(a.query, 80)
            FROM pg_catalog.pg_locks AS l JOIN pg_catalog.pg_stat_activity AS a ON a.pid = l.pid
            WHERE l.locktype = 'relation' AND l.relation = to_regclass($1) AND l.database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database())
              AND l.granted AND l.pid <> pg_backend_pid()
            ORDER BY a.xact_start NULLS LAST LIMIT 1
            """
        guard let row = try? connection.query(sql, [.text(q(SQLSchema.metadataTable))]).first, let pid = row[0].int64Value else {
            return error.suffixed(": another writer holds the store's write lock (it had ended when it was looked for): try again")
        }
        var about: [String] = []
        if let name = row[1].stringValue, !name.isEmpty { about.append("application_name '\(name)'") }
        if let user = row[3].stringValue { about.append("user \(user)") }
        if let state = row[2].stringValue { about.append("state '\(state)'") }
        if let start = row[4].stringValue, let seconds = row[5].int64Value { about.append("its last query started \(start) UTC, \(seconds) s ago") }
        if let query = row[6].stringValue, !query.isEmpty, row[2].stringValue != nil {
            about.append("query: \(query.split(whereSeparator: \.isNewline).joined(separator: " "))")
        }
        return StoreError(.locked, error.message + ": the store's write lock is held by PostgreSQL session \(pid)"
                          + (about.isEmpty ? "" : " (\(about.joined(separator: "; ")))")
                          + "; wait for it to finish and try again, or end that session: SELECT pg_terminate_backend(\(pid))")
    }
}

extension PostgreSQLStore {
    /// For the tests: the seconds a save's checks begin with sleeping in the server (`SELECT
    /// pg_sleep(n)`), so a test can kill a client, or time out a check, while the server runs
    /// it; from the environment variable `SIFT_TEST_POSTGRES_CHECK_SLEEP`, for the tests that run
    /// the `sift` binary. Nil (no sleep) when unset.
    static let environmentCheckDelay: Double? = ProcessInfo.processInfo.environment["SIFT_TEST_POSTGRES_CHECK_SLEEP"].flatMap(Double.init)
}
