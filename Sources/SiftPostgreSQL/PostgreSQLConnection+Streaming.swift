import CLibPQ

extension PostgreSQLConnection {
    /// Calls `body` with each row of one statement with `parameters` as it arrives, holding one
    /// row at a time: for results too large for memory.
    ///
    /// Single-row mode (`PQsetSingleRowMode`): the statement is sent once (through the statement
    /// cache), the server streams its rows, and libpq hands them over one by one. It needs no
    /// transaction and one round trip, unlike a cursor's `FETCH` per batch; but the connection is
    /// busy until the last row, so `body` must not use it. (To run other statements between
    /// batches, declare a cursor with `execute` and `FETCH` from it in a transaction.)
    ///
    /// When `body` throws, the rest of the rows are not read: outside a transaction the statement
    /// is cancelled; inside one they are read and dropped, since a cancel would fail the
    /// transaction. Then `body`'s error is rethrown.
    public func forEachRow(_ sql: String, _ parameters: [PostgreSQLValue] = [], _ body: (PostgreSQLRow) throws -> Void) throws {
        let (name, encoded) = try prepared(sql, parameters)
        // While the statement runs, the status is "active": whether a transaction is open is
        // known only before.
        let inTransaction = isInTransaction
        let sent = encoded.withValuePointers { values in
            sift_PQsendQueryPrepared(handle, name, encoded.count, values, encoded.lengths, encoded.formats, 1)
        }
        guard sent == 1 else { throw PostgreSQLError.from(connection: handle, sql: sql) }
        guard sift_PQsetSingleRowMode(handle) == 1 else {
            drainResults()
            throw PostgreSQLError(sqlState: "08000", message: "libpq refused single-row mode", sql: sql)
        }
        var failure: PostgreSQLError?
        while let next = sift_PQgetResult(handle) {
            let status = sift_PQresultStatus(next)
            guard status == PGRES_SINGLE_TUPLE else {
                if status != PGRES_TUPLES_OK, status != PGRES_COMMAND_OK, failure == nil {
                    failure = PostgreSQLError.from(result: next, connection: handle, sql: sql)
                }
                sift_PQclear(next)
                continue
            }
            let row = PostgreSQLResult(handle: next)[0]
            do {
                try body(row)
            } catch {
                if !inTransaction { cancel() }
                drainResults()
                throw error
            }
        }
        if let failure { throw failure }
    }

    /// Reads and frees every result still coming, so the connection can run the next statement.
    private func drainResults() {
        while let result = sift_PQgetResult(handle) { sift_PQclear(result) }
    }
}
