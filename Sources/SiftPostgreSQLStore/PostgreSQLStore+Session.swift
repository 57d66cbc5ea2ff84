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
}

extension PostgreSQLStore {
    /// For the tests only: seconds a save's checks begin with sleeping in the server
    /// (`SELECT pg_sleep(n)`), from the environment variable `SIFT_TEST_POSTGRES_CHECK_SLEEP`, so a
    /// test can kill a client while the server runs its check. Nil (no sleep) when unset.
    static let testCheckDelay: Double? = ProcessInfo.processInfo.environment["SIFT_TEST_POSTGRES_CHECK_SLEEP"].flatMap(Double.init)
}
