import CLibPQ

extension PostgreSQLConnection {
    /// The savepoint name nested transactions use (savepoints of one name nest: each `RELEASE` or
    /// `ROLLBACK TO` names the innermost).
    static let savepointName = "sift_savepoint"

    /// Runs `body` in a transaction: `BEGIN … COMMIT`, or `ROLLBACK` and the error rethrown when
    /// `body` throws or the `COMMIT` fails. Inside a transaction already, `body` runs in a
    /// savepoint instead: released when it returns, rolled back to when it throws, leaving the
    /// outer transaction open either way.
    ///
    /// A statement that failed inside `body` fails the transaction even when `body` caught its
    /// error (PostgreSQL then refuses every statement); `body` returning from a failed transaction
    /// is an error too (`25P02`), never a silent rollback.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try inSavepoint(body) }
        try execute("BEGIN")
        let result: T
        do {
            result = try body()
            try throwIfFailed()
            try execute("COMMIT")
        } catch {
            rollbackQuietly()
            throw error
        }
        return result
    }

    private func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        let savepoint = PostgreSQLIdentifier.quoted(Self.savepointName)
        try execute("SAVEPOINT \(savepoint)")
        let result: T
        do {
            result = try body()
            try throwIfFailed()
        } catch {
            // Back to where the savepoint began, which also ends the failed state.
            try? execute("ROLLBACK TO SAVEPOINT \(savepoint)")
            try? execute("RELEASE SAVEPOINT \(savepoint)")
            throw error
        }
        try execute("RELEASE SAVEPOINT \(savepoint)")
        return result
    }

    /// Throws `25P02` when the open transaction has failed.
    private func throwIfFailed() throws(PostgreSQLError) {
        guard isInFailedTransaction else { return }
        throw PostgreSQLError(
            sqlState: "25P02",
            message: "a statement failed inside the transaction (its error was caught); the transaction is rolled back")
    }

    /// `ROLLBACK` if a transaction is open; its own error is dropped, the caller's is the one that
    /// matters.
    private func rollbackQuietly() {
        guard isInTransaction else { return }
        try? execute("ROLLBACK")
    }
}
