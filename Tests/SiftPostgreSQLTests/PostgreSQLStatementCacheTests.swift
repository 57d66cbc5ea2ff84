import SiftPostgreSQL
import Testing

/// The statement cache, seen from the server: `pg_prepared_statements` lists the session's
/// prepared statements.
@Suite struct PostgreSQLStatementCacheTests {
    static let listSQL = "SELECT statement FROM pg_prepared_statements ORDER BY statement"

    static func prepared(_ connection: PostgreSQLConnection) throws -> [String] {
        try connection.query(listSQL).compactMap { $0[0].stringValue }
    }

    @Test func aStatementIsPreparedOnce() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        for i in Int64(0)..<5 {
            #expect(try connection.scalar("SELECT $1::int8 * 2", [.int64(i)]) == .int64(i * 2))
        }
        #expect(try Self.prepared(connection) == ["SELECT $1::int8 * 2", Self.listSQL])
    }

    /// The same SQL with parameters of other types is another statement: a binary parameter
    /// must arrive as the type it was prepared with.
    @Test func parameterTypesAreInTheKey() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        #expect(try connection.scalar("SELECT $1", [.int64(7)]) == .int64(7))
        #expect(try connection.scalar("SELECT $1", [.text("seven")]) == .text("seven"))
        #expect(try connection.scalar("SELECT $1", [.double(7.5)]) == .double(7.5))
        #expect(try connection.scalar("SELECT $1", [.int64(8)]) == .int64(8))
        #expect(try Self.prepared(connection).count(where: { $0 == "SELECT $1" }) == 3)
    }

    @Test func theLeastRecentlyUsedIsDeallocated() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        connection.statementCacheCapacity = 2
        _ = try connection.scalar("SELECT 1")
        _ = try connection.scalar("SELECT 2")
        _ = try connection.scalar("SELECT 1")
        _ = try connection.scalar("SELECT 3")
        // "SELECT 2" went first, then "SELECT 1" for the list itself.
        #expect(try Self.prepared(connection) == ["SELECT 3", Self.listSQL])
        #expect(try connection.scalar("SELECT 2") == .int64(2))
    }

    /// PostgreSQL re-plans a prepared statement when its tables change, but refuses a different
    /// row type (`0A000`): `SELECT *` after a column was added. The wrapper reports it as it is.
    @Test func aChangedRowTypeIsReported() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        try connection.execute("CREATE TEMP TABLE t (a bigint); INSERT INTO t VALUES (1)")
        #expect(try connection.query("SELECT * FROM t").columnCount == 1)
        try connection.execute("ALTER TABLE t ADD COLUMN b text")
        let error = PostgreSQLTestConnection.error { _ = try connection.query("SELECT * FROM t") }
        #expect(error?.sqlState == "0A000")
        #expect(try connection.query("SELECT a, b FROM t").columnCount == 2)
    }
}
