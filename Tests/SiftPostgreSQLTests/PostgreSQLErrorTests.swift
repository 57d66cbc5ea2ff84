import SiftPostgreSQL
import Testing

@Suite struct PostgreSQLErrorTests {
    @Test func uniqueViolation() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        try connection.execute("CREATE TEMP TABLE t (x bigint CONSTRAINT t_x_unique UNIQUE)")
        try connection.run("INSERT INTO t VALUES ($1)", [.int64(1)])
        let error = PostgreSQLTestConnection.error { try connection.run("INSERT INTO t VALUES ($1)", [.int64(1)]) }
        #expect(error?.sqlState == "23505")
        #expect(error?.isConstraintViolation == true)
        #expect(error?.severity == "ERROR")
        #expect(error?.constraint == "t_x_unique")
        #expect(error?.table == "t")
        #expect(error?.detail == "Key (x)=(1) already exists.")
        #expect(error?.sql == "INSERT INTO t VALUES ($1)")
        #expect(error?.description.hasPrefix("ERROR 23505: duplicate key value violates unique constraint \"t_x_unique\"") == true)
        // The connection, and the cached statement, work afterwards.
        try connection.run("INSERT INTO t VALUES ($1)", [.int64(2)])
        #expect(try connection.scalar("SELECT count(*) FROM t") == .int64(2))
    }

    struct SyntaxError: Sendable {
        let sql: String
        /// 1-based, in characters.
        let position: Int
    }

    @Test(arguments: [
        SyntaxError(sql: "SELEC 1", position: 1),
        SyntaxError(sql: "SELECT 1 FROM WHERE", position: 15),
        // Characters, not bytes: "é" and "🦊" are one each.
        SyntaxError(sql: "SELECT 'é🦊' FROM FROM", position: 18),
    ])
    func syntaxErrorWithItsPosition(_ syntax: SyntaxError) async throws {
        let connection = try await PostgreSQLTestConnection.make()
        for run in [{ try connection.execute(syntax.sql) }, { _ = try connection.query(syntax.sql) }] {
            let error = PostgreSQLTestConnection.error(run)
            #expect(error?.sqlState == "42601")
            #expect(error?.position == syntax.position)
            #expect(error?.message.hasPrefix("syntax error at or near") == true)
            #expect(error?.description.contains("at character \(syntax.position) in: \(syntax.sql)") == true)
        }
    }

    @Test func undefinedTableWithAHint() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        let table = PostgreSQLTestConnection.error { _ = try connection.query("SELECT * FROM no_such_table") }
        #expect(table?.sqlState == "42P01")
        let function = PostgreSQLTestConnection.error { _ = try connection.query("SELECT no_such_function(1)") }
        #expect(function?.sqlState == "42883")
        #expect(function?.hint?.contains("No function matches") == true)
    }

    @Test func wrongNumberOfParameters() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        let error = PostgreSQLTestConnection.error { _ = try connection.query("SELECT $1::int8 + $2::int8", [.int64(1)]) }
        #expect(error?.sqlState.isEmpty == false)
        #expect(try connection.scalar("SELECT $1::int8 + $2::int8", [.int64(1), .int64(2)]) == .int64(3))
    }

    /// A connection the server ended (`pg_terminate_backend`) reports it, then a lost connection.
    @Test func aLostConnection() async throws {
        let connection = try await PostgreSQLTestConnection.make()
        let pid = try connection.scalar("SELECT pg_backend_pid()")
        let other = try await PostgreSQLTestConnection.make()
        #expect(try other.scalar("SELECT pg_terminate_backend($1::int4)", [pid]) == .bool(true))
        let first = PostgreSQLTestConnection.error { _ = try connection.query("SELECT 1") }
        // The server's own goodbye (57P01 admin shutdown) when libpq read it, else a lost connection.
        #expect(first?.sqlState == "57P01" || first?.isConnectionError == true, "\(String(describing: first))")
        let next = PostgreSQLTestConnection.error { _ = try connection.query("SELECT 2") }
        #expect(next?.isConnectionError == true, "\(String(describing: next))")
    }
}
