import SiftPostgreSQL
import Testing

@Suite struct PostgreSQLTransactionTests {
    struct Failure: Error {}

    static func table() async throws -> PostgreSQLConnection {
        let connection = try await PostgreSQLTestConnection.make()
        try connection.execute("CREATE TEMP TABLE t (x bigint PRIMARY KEY)")
        return connection
    }

    static func values(_ connection: PostgreSQLConnection) throws -> [PostgreSQLValue] {
        try connection.query("SELECT x FROM t ORDER BY x").map { $0[0] }
    }

    @Test func commits() async throws {
        let connection = try await Self.table()
        let returned = try connection.transaction {
            #expect(connection.isInTransaction)
            try connection.run("INSERT INTO t VALUES ($1), ($2)", [.int64(1), .int64(2)])
            return "done"
        }
        #expect(returned == "done")
        #expect(!connection.isInTransaction)
        #expect(try Self.values(connection) == [.int64(1), .int64(2)])
    }

    @Test func rollsBackWhenTheBodyThrows() async throws {
        let connection = try await Self.table()
        #expect(throws: Failure.self) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES ($1)", [.int64(1)])
                throw Failure()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try Self.values(connection) == [])
    }

    @Test func rollsBackWhenAStatementFails() async throws {
        let connection = try await Self.table()
        let error = PostgreSQLTestConnection.error {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES ($1)", [.int64(1)])
                try connection.run("INSERT INTO t VALUES ($1)", [.int64(1)])
            }
        }
        #expect(error?.sqlState == "23505")
        #expect(!connection.isInTransaction)
        #expect(try Self.values(connection) == [])
    }

    /// A failed statement whose error the body caught still fails the transaction: returning
    /// from it is an error, not a silent rollback reported as a commit.
    @Test func aCaughtFailureIsNotCommitted() async throws {
        let connection = try await Self.table()
        let error = PostgreSQLTestConnection.error {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES ($1)", [.int64(1)])
                _ = try? connection.run("INSERT INTO t VALUES ($1)", [.int64(1)])
                #expect(connection.isInFailedTransaction)
            }
        }
        #expect(error?.sqlState == "25P02")
        #expect(!connection.isInTransaction)
        #expect(try Self.values(connection) == [])
    }

    @Test func nestedTransactionsAreSavepoints() async throws {
        let connection = try await Self.table()
        try connection.transaction {
            try connection.run("INSERT INTO t VALUES ($1)", [.int64(1)])
            #expect(throws: Failure.self) {
                try connection.transaction {
                    try connection.run("INSERT INTO t VALUES ($1)", [.int64(2)])
                    throw Failure()
                }
            }
            // A failed statement in the inner one leaves the outer one usable too.
            _ = PostgreSQLTestConnection.error {
                try connection.transaction { _ = try connection.run("INSERT INTO t VALUES ($1)", [.int64(1)]) }
            }
            #expect(!connection.isInFailedTransaction)
            try connection.transaction { _ = try connection.run("INSERT INTO t VALUES ($1)", [.int64(3)]) }
        }
        #expect(try Self.values(connection) == [.int64(1), .int64(3)])
    }
}
