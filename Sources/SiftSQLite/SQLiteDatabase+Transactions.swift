import CSQLite

extension SQLiteDatabase {
    /// How a transaction takes its locks (`BEGIN DEFERRED`, `BEGIN IMMEDIATE`, `BEGIN EXCLUSIVE`).
    public enum TransactionKind: Sendable {
        /// No lock until the first read or write.
        case deferred
        /// The write lock at once, so a writer never fails half-way with `SQLITE_BUSY`.
        case immediate
        /// The write lock at once; in rollback-journal mode, readers are kept out too.
        case exclusive

        var beginSQL: String {
            switch self {
            case .deferred: "BEGIN DEFERRED"
            case .immediate: "BEGIN IMMEDIATE"
            case .exclusive: "BEGIN EXCLUSIVE"
            }
        }
    }

    /// The savepoint name nested transactions use (savepoints of one name nest: each `RELEASE` or
    /// `ROLLBACK TO` names the innermost).
    static let savepointName = "sift_savepoint"

    /// Runs `body` in a transaction: `BEGIN … COMMIT`, or `ROLLBACK` and the error rethrown when
    /// `body` throws or the `COMMIT` fails. Inside a transaction already, `body` runs in a savepoint
    /// instead (`kind` is then ignored): released when it returns, rolled back to (and released)
    /// when it throws, leaving the outer transaction open either way.
    public func inTransaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        if isInTransaction { return try inSavepoint(body) }
        try run(kind.beginSQL)
        let result: T
        do {
            result = try body()
        } catch {
            rollbackQuietly()
            throw error
        }
        do {
            try run("COMMIT")
        } catch {
            rollbackQuietly()
            throw error
        }
        return result
    }

    private func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        try run("SAVEPOINT \(Self.savepointName)")
        let result: T
        do {
            result = try body()
        } catch {
            // An error that rolled the whole transaction back (SQLITE_FULL, an interrupt) left no
            // savepoint to return to.
            if isInTransaction {
                try? run("ROLLBACK TO \(Self.savepointName)")
                try? run("RELEASE \(Self.savepointName)")
            }
            throw error
        }
        try run("RELEASE \(Self.savepointName)")
        return result
    }

    /// `ROLLBACK` if a transaction is still open (SQLite rolls some failures back itself); its own
    /// error is dropped, the caller's is the one that matters.
    private func rollbackQuietly() {
        guard isInTransaction else { return }
        try? run("ROLLBACK")
    }
}
