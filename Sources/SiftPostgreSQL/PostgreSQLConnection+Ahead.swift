import CLibPQ

/// A statement sent ahead of need (``PostgreSQLConnection/sendAhead(_:_:)``): its result is
/// collected by ``PostgreSQLConnection/receive(_:)``, or by the connection itself when anything
/// else is run on it first (and kept here until received).
public final class PostgreSQLAheadStatement: @unchecked Sendable {
    let sql: String
    fileprivate var outcome: Result<PostgreSQLResult, PostgreSQLError>?

    fileprivate init(sql: String) {
        self.sql = sql
    }
}

extension PostgreSQLConnection {
    /// Sends one statement with `parameters` (prepared through the statement cache, rows in
    /// binary) without waiting for its result, so the server works on it while the caller does
    /// something else — the next `FETCH` of a cursor while the last batch is decoded. Call
    /// ``receive(_:)`` for the result. Anything else run on the connection meanwhile first
    /// collects the result (and keeps it for `receive`): the connection stays usable as before.
    public func sendAhead(_ sql: String, _ parameters: [PostgreSQLValue] = []) throws(PostgreSQLError) -> PostgreSQLAheadStatement {
        let (name, encoded) = try prepared(sql, parameters)
        let sent = encoded.withValuePointers { values in
            sift_PQsendQueryPrepared(handle, name, encoded.count, values, encoded.lengths, encoded.formats, 1)
        }
        guard sent == 1 else { throw PostgreSQLError.from(connection: handle, sql: sql) }
        let statement = PostgreSQLAheadStatement(sql: sql)
        aheadStatement = statement
        return statement
    }

    /// The result of a statement sent ahead, waiting for it if it has not come yet; its error if
    /// it failed.
    public func receive(_ statement: PostgreSQLAheadStatement) throws(PostgreSQLError) -> PostgreSQLResult {
        if statement === aheadStatement { settleAhead() }
        guard let outcome = statement.outcome else {
            throw PostgreSQLError(sqlState: "08000", message: "the statement sent ahead has no result", sql: statement.sql)
        }
        return try outcome.get()
    }

    /// Collects the result of the statement sent ahead, if one is on its way, into it: done
    /// before anything else uses the connection.
    func settleAhead() {
        guard let statement = aheadStatement else { return }
        aheadStatement = nil
        var outcome: Result<PostgreSQLResult, PostgreSQLError>?
        while let next = sift_PQgetResult(handle) {
            if outcome != nil {
                sift_PQclear(next)
                continue
            }
            do {
                outcome = .success(try checked(next, sql: statement.sql))
            } catch {
                outcome = .failure(error)
            }
        }
        statement.outcome = outcome ?? .failure(PostgreSQLError.from(connection: handle, sql: statement.sql))
    }
}
