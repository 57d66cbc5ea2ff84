import SiftSQLite
import Testing

@Suite struct SQLiteTransactionTests {
    struct Failure: Error, Equatable {}

    static func database() throws -> SQLiteDatabase {
        let database = try SQLiteDatabase.inMemory()
        try database.execute("CREATE TABLE t(x)")
        return database
    }

    static func values(_ database: SQLiteDatabase) throws -> [Int64] {
        try database.rows("SELECT x FROM t ORDER BY x").compactMap {
            if case .integer(let i) = $0.first { return i }
            return nil
        }
    }

    @Test(arguments: [SQLiteDatabase.TransactionKind.deferred, .immediate, .exclusive])
    func commits(_ kind: SQLiteDatabase.TransactionKind) throws {
        let database = try Self.database()
        let result = try database.inTransaction(kind) { () throws -> Int in
            #expect(database.isInTransaction)
            try database.run("INSERT INTO t VALUES (1)")
            return 7
        }
        #expect(result == 7)
        #expect(!database.isInTransaction)
        #expect(try Self.values(database) == [1])
    }

    @Test func rollsBackAndRethrows() throws {
        let database = try Self.database()
        #expect(throws: Failure.self) {
            try database.inTransaction {
                try database.run("INSERT INTO t VALUES (1)")
                throw Failure()
            }
        }
        #expect(!database.isInTransaction)
        #expect(try Self.values(database) == [])
    }

    @Test func nestedTransactionsAreSavepoints() throws {
        let database = try Self.database()
        try database.inTransaction {
            try database.run("INSERT INTO t VALUES (1)")
            // A failing inner transaction undoes only its own work.
            #expect(throws: Failure.self) {
                try database.inTransaction {
                    try database.run("INSERT INTO t VALUES (2)")
                    try database.inTransaction { try database.run("INSERT INTO t VALUES (3)") }
                    throw Failure()
                }
            }
            #expect(database.isInTransaction)
            #expect(try Self.values(database) == [1])
            // A succeeding one keeps it, including its own failed nested savepoint's absence.
            try database.inTransaction {
                try database.run("INSERT INTO t VALUES (4)")
                try? database.inTransaction {
                    try database.run("INSERT INTO t VALUES (5)")
                    throw Failure()
                }
                try database.inTransaction { try database.run("INSERT INTO t VALUES (6)") }
            }
        }
        #expect(!database.isInTransaction)
        #expect(try Self.values(database) == [1, 4, 6])
    }

    @Test func outerRollbackUndoesReleasedSavepoints() throws {
        let database = try Self.database()
        #expect(throws: Failure.self) {
            try database.inTransaction {
                try database.inTransaction { try database.run("INSERT INTO t VALUES (1)") }
                throw Failure()
            }
        }
        #expect(try Self.values(database) == [])
    }

    @Test func failedCommitRollsBack() throws {
        let database = try Self.database()
        try database.execute("""
            PRAGMA foreign_keys = ON;
            CREATE TABLE parent(id INTEGER PRIMARY KEY);
            CREATE TABLE child(parent REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
            """)
        do {
            try database.inTransaction { try database.run("INSERT INTO child VALUES (99)") }
            Issue.record("COMMIT with a dangling deferred foreign key succeeded")
        } catch let error as SQLiteError {
            #expect(error.isConstraintViolation)
        }
        #expect(!database.isInTransaction)
        #expect(try database.scalar("SELECT count(*) FROM child") == .integer(0))
    }
}
