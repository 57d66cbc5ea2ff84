/// Why the tests have no PostgreSQL server.
public struct PostgreSQLTestServerError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ reason: String) {
        description = "The PostgreSQL tests need a server. \(reason)\nInstall PostgreSQL (bash scripts/ensure-packages) or set SIFT_TEST_POSTGRES to a server's conninfo or URL."
    }
}
