import SiftPostgreSQL

/// A database made for one test: connect to it, and drop it when done (with the throw-away
/// cluster it would go with the cluster anyway; on a server of `SIFT_TEST_POSTGRES` it would stay).
public struct PostgreSQLTestDatabase: Sendable {
    /// The conninfo of the server (its own database, not this one).
    public let serverConninfo: String
    /// The database's name.
    public let name: String

    /// A new connection to the database.
    public func connect() throws -> PostgreSQLConnection {
        try PostgreSQLConnection(serverConninfo, settings: ["dbname": name])
    }

    /// Drops the database, closing any connection still open to it; errors are ignored.
    public func drop() {
        guard let admin = try? PostgreSQLConnection(serverConninfo) else { return }
        try? admin.execute("DROP DATABASE IF EXISTS \(PostgreSQLIdentifier.quoted(name)) WITH (FORCE)")
    }
}
