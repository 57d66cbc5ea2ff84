import PostgreSQLTestSupport
import SiftPostgreSQL
import Testing

/// Connections for the tests: to the test server's own database, where each test keeps to
/// temporary tables (private to its connection), or to a database of its own.
enum PostgreSQLTestConnection {
    /// A new connection to the server's database, its session time zone UTC.
    static func make() async throws -> PostgreSQLConnection {
        let connection = try PostgreSQLConnection(await PostgreSQLTestServer.conninfo())
        try connection.execute("SET TimeZone = 'UTC'")
        return connection
    }

    /// The error `body` throws; records an issue when it throws none or another kind.
    static func error(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> PostgreSQLError? {
        do {
            try body()
            Issue.record("no error thrown", sourceLocation: sourceLocation)
        } catch let error as PostgreSQLError {
            return error
        } catch {
            Issue.record("not a PostgreSQLError: \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }
}
