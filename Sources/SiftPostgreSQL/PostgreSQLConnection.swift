import CLibPQ

/// A connection to one PostgreSQL database through libpq: run SQL, prepared statements with
/// parameters (cached by SQL text), results decoded by type, streaming, transactions, cancel.
///
/// Use a connection from one thread at a time; only `cancel()` may be called from any thread. The
/// connection is closed when the object goes away. Text goes both ways as UTF-8 (the client
/// encoding is set so, whatever the database's encoding).
public final class PostgreSQLConnection: @unchecked Sendable {
    let handle: OpaquePointer
    /// What `cancel()` sends the cancel request with (`PQgetCancel`): usable from any thread.
    private let cancelHandle: OpaquePointer?
    var statementCache = PostgreSQLStatementCache(capacity: 100)
    /// The statement sent ahead whose result has not been collected (`sendAhead`).
    var aheadStatement: PostgreSQLAheadStatement?

    /// Opens a connection. `conninfo` is a libpq connection string, key/value
    /// (`host=/tmp/pg dbname=shop user=me`) or a URL (`postgres://me@db.example/shop`,
    /// `postgresql:///shop?host=/tmp/pg`); `settings` override its keywords (`["dbname": "other"]`),
    /// and `defaults` are libpq keywords taken only where it gives none (`["keepalives_idle": "30"]`).
    /// Throws, leaving nothing open, with the server's SQLSTATE when it refused (`3D000` no such
    /// database, `28P01` a wrong password) and `08001` when no server answered.
    public init(_ conninfo: String, settings: [String: String] = [:], defaults: [String: String] = [:]) throws(PostgreSQLError) {
        handle = try PostgreSQLConnector.connect(conninfo, settings: settings, defaults: defaults)
        cancelHandle = sift_PQgetCancel(handle)
    }

    deinit {
        if let cancelHandle { sift_PQfreeCancel(cancelHandle) }
        sift_PQfinish(handle)
    }

    /// The `PGconn*` handle, for calls this wrapper does not cover. Do not close it.
    public var connectionHandle: OpaquePointer { handle }

    // MARK: - Running SQL

    /// Runs `sql`, one or more statements separated by semicolons, without parameters (schema
    /// changes, settings, scripts), by the simple query protocol. Rows are ignored. Several
    /// statements run in one transaction unless they hold their own `BEGIN`/`COMMIT`; the first
    /// error stops them.
    public func execute(_ sql: String) throws(PostgreSQLError) {
        settleAhead()
        guard !sql.containsNUL else { throw .nulCharacter(in: "the SQL text", sql: sql) }
        _ = try checked(sift_PQexec(handle, sql), sql: sql)
    }

    /// Every row of one statement with `parameters` (`$1`, `$2`, …), prepared once and kept in
    /// the statement cache; the rows arrive in binary and decode by type. All rows are held in
    /// memory: use `forEachRow` for large results.
    public func query(_ sql: String, _ parameters: [PostgreSQLValue] = []) throws(PostgreSQLError) -> PostgreSQLResult {
        let (name, encoded) = try prepared(sql, parameters)
        let result = encoded.withValuePointers { values in
            sift_PQexecPrepared(handle, name, encoded.count, values, encoded.lengths, encoded.formats, 1)
        }
        return try checked(result, sql: sql)
    }

    /// Runs one statement with `parameters` (through the statement cache); returns the rows it
    /// inserted, updated or deleted (0 for statements that change none).
    @discardableResult
    public func run(_ sql: String, _ parameters: [PostgreSQLValue] = []) throws(PostgreSQLError) -> Int {
        try query(sql, parameters).affectedRowCount
    }

    /// The first column of the first row of one statement with `parameters`; `.null` when there
    /// is no row.
    public func scalar(_ sql: String, _ parameters: [PostgreSQLValue] = []) throws(PostgreSQLError) -> PostgreSQLValue {
        let result = try query(sql, parameters)
        guard let row = result.first, !row.isEmpty else { return .null }
        return row[0]
    }

    // MARK: - Prepared statements

    /// The most statements the cache keeps prepared (100 at first; at least 1). Those beyond it,
    /// least recently used first, are deallocated on the server.
    public var statementCacheCapacity: Int {
        get { statementCache.capacity }
        set {
            statementCache.capacity = max(1, newValue)
            deallocate(statementCache.trim(to: statementCache.capacity))
        }
    }

    /// `sql` prepared for `parameters` (through the statement cache), and the parameters encoded,
    /// once any result sent ahead has been collected: what every statement run with parameters
    /// starts with.
    func prepared(_ sql: String, _ parameters: [PostgreSQLValue]) throws(PostgreSQLError) -> (name: String, encoded: PostgreSQLParameters) {
        settleAhead()
        let encoded = try PostgreSQLParameters(parameters, sql: sql)
        return (try preparedStatement(sql, parameterTypes: encoded.types), encoded)
    }

    /// The most values one statement binds (the protocol counts them in 16 bits).
    public static let parameterLimit = 65_535

    /// The name of the prepared statement for `sql` with `parameterTypes`, prepared
    /// (`PQprepare`) on a cache miss.
    func preparedStatement(_ sql: String, parameterTypes: [UInt32]) throws(PostgreSQLError) -> String {
        let key = PostgreSQLStatementCache.Key(sql: sql, parameterTypes: parameterTypes)
        if let name = statementCache.name(for: key) { return name }
        guard !sql.containsNUL else { throw .nulCharacter(in: "the SQL text", sql: sql) }
        // (libpq refuses more itself, in words that read as a failed connection.)
        guard parameterTypes.count <= Self.parameterLimit else {
            throw PostgreSQLError(sqlState: "54023", message: "the statement binds \(parameterTypes.count) values; PostgreSQL takes at most \(Self.parameterLimit) in one statement",
                                  sql: String(sql.prefix(200)))
        }
        let name = statementCache.newName()
        _ = try checked(sift_PQprepare(handle, name, sql, Int32(parameterTypes.count), parameterTypes), sql: sql)
        deallocate(statementCache.trim(to: statementCache.capacity - 1))
        statementCache.insert(name, for: key)
        return name
    }

    /// Deallocates the prepared statements `names` on the server. Errors are dropped: in a failed
    /// transaction, when the server refuses any statement but `ROLLBACK`, the statements stay
    /// prepared (unused, under names never given again) until the connection closes.
    private func deallocate(_ names: [String]) {
        settleAhead()
        guard sift_PQtransactionStatus(handle) != PQTRANS_INERROR else { return }
        for name in names {
            if let result = sift_PQexec(handle, "DEALLOCATE " + PostgreSQLIdentifier.quoted(name)) { sift_PQclear(result) }
        }
    }

    // MARK: - Results

    /// `result` as a `PostgreSQLResult` when the statement succeeded; the server's error otherwise
    /// (libpq's, when it made no result: out of memory, a lost connection).
    func checked(_ result: OpaquePointer?, sql: String?) throws(PostgreSQLError) -> PostgreSQLResult {
        guard let result else { throw PostgreSQLError.from(connection: handle, sql: sql) }
        switch sift_PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_SINGLE_TUPLE, PGRES_EMPTY_QUERY:
            return PostgreSQLResult(handle: result)
        default:
            let error = PostgreSQLError.from(result: result, connection: handle, sql: sql)
            sift_PQclear(result)
            throw error
        }
    }

    // MARK: - State

    /// Whether a transaction is open, failed or not (`PQtransactionStatus`).
    public var isInTransaction: Bool {
        settleAhead()
        let status = sift_PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Whether the open transaction has failed: the server refuses every statement until
    /// `ROLLBACK`.
    public var isInFailedTransaction: Bool {
        settleAhead()
        return sift_PQtransactionStatus(handle) == PQTRANS_INERROR
    }

    /// The database the connection is to (`PQdb`).
    public var database: String { string(sift_PQdb(handle)) }
    /// The user it connected as (`PQuser`).
    public var user: String { string(sift_PQuser(handle)) }
    /// The server's host name or address, or the directory of its Unix socket (`PQhost`).
    public var host: String { string(sift_PQhost(handle)) }
    /// The server's port (`PQport`).
    public var port: String { string(sift_PQport(handle)) }

    private func string(_ text: UnsafeMutablePointer<CChar>?) -> String {
        text.map { String(cString: $0) } ?? ""
    }

    /// The server's version as a number: 150004 for 15.4.
    public var serverVersion: Int { Int(sift_PQserverVersion(handle)) }

    /// Asks the server to stop the statement running on this connection; it then fails with
    /// SQLSTATE `57014` (`isCancelled`). Safe to call from any thread (`PQcancel`); a no-op when
    /// nothing runs. Returns whether the request was sent (not whether it stopped anything).
    @discardableResult
    public func cancel() -> Bool {
        guard let cancelHandle else { return false }
        var message = [CChar](repeating: 0, count: 256)
        return sift_PQcancel(cancelHandle, &message, Int32(message.count)) == 1
    }
}
