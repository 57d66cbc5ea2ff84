import SiftPostgreSQL
import Testing

/// `forEachRow` holds one row at a time: each row's result is gone when the next row arrives
/// (counted with a weak reference, not by timing or memory figures).
@Suite struct PostgreSQLStreamingTests {
    struct Stop: Error {}

    @Test func aHundredThousandRowsOneAtATime() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        weak var previous: PostgreSQLResult?
        var rows = 0
        var stillAlive = 0
        var sum: Int64 = 0
        try connection.forEachRow(
            "SELECT g, repeat('x', 100) FROM generate_series(1, $1::int8) AS g", [.int64(100_000)]
        ) { row in
            if previous != nil { stillAlive += 1 }
            previous = row.result
            #expect(row.result.count == 1)
            rows += 1
            sum += row[0].int64Value ?? 0
        }
        #expect(rows == 100_000)
        #expect(sum == 5_000_050_000)
        #expect(stillAlive == 0)
        #expect(try connection.scalar("SELECT 1") == .int64(1))
    }

    @Test func stoppingEarlyCancelsTheRest() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        var rows = 0
        #expect(throws: Stop.self) {
            // In the select list, generate_series yields row by row (in FROM, it would make all
            // its rows before the first).
            try connection.forEachRow("SELECT generate_series(1, 1000000000)") { _ in
                rows += 1
                if rows == 10 { throw Stop() }
            }
        }
        #expect(rows == 10)
        #expect(try connection.scalar("SELECT 2") == .int64(2))
    }

    /// Inside a transaction the rest is read, not cancelled: the transaction goes on.
    @Test func stoppingEarlyInATransactionKeepsIt() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        try connection.execute("CREATE TEMP TABLE t (x bigint)")
        try connection.transaction {
            try connection.run("INSERT INTO t VALUES (1)")
            #expect(throws: Stop.self) {
                try connection.forEachRow("SELECT g FROM generate_series(1, 1000) AS g") { _ in throw Stop() }
            }
            #expect(!connection.isInFailedTransaction)
            try connection.run("INSERT INTO t VALUES (2)")
        }
        #expect(try connection.scalar("SELECT count(*) FROM t") == .int64(2))
    }

    @Test func anErrorHalfWayThrough() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        var rows = 0
        let error = PostgreSQLTestConnection.error {
            try connection.forEachRow("SELECT 1 / (5000 - g) FROM generate_series(1, 10000) AS g") { _ in rows += 1 }
        }
        #expect(error?.sqlState == "22012")
        #expect(rows < 5000)
        #expect(try connection.scalar("SELECT 3") == .int64(3))
    }

    @Test func anEmptyResult() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        var rows = 0
        try connection.forEachRow("SELECT 1 WHERE false") { _ in rows += 1 }
        #expect(rows == 0)
    }
}
