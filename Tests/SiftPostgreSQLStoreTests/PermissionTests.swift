import Foundation
import PostgreSQLTestSupport
import SiftLanguage
import SiftPostgreSQL
import SiftPostgreSQLStore
import SiftStore
import Testing

/// Roles the server refuses (issue 30 §5): the error says what the role lacks and what would do
/// — the GRANT, the owner to ask, the schema — keeping the SQLSTATE; reads go on as before.
@Suite struct PermissionTests {
    /// A role of the test's own (roles belong to the cluster, not to a database), dropped with
    /// what it was granted.
    struct Role {
        let name: String
        let database: PostgreSQLTestDatabase

        static func make(_ label: String, in database: PostgreSQLTestDatabase) throws -> Role {
            let name = "sift_\(label)_\(getpid())_\(UInt32.random(in: 0...UInt32.max))"
            try database.connect().execute("CREATE ROLE \(PostgreSQLIdentifier.quoted(name)) LOGIN")
            return Role(name: name, database: database)
        }

        func connect(_ settings: [String: String] = [:]) throws -> PostgreSQLConnection {
            try PostgreSQLConnection(database.serverConninfo, settings: ["dbname": database.name, "user": name].merging(settings) { $1 })
        }

        func drop() {
            guard let admin = try? database.connect() else { return }
            try? admin.execute("DROP OWNED BY \(PostgreSQLIdentifier.quoted(name)); DROP ROLE \(PostgreSQLIdentifier.quoted(name))")
        }
    }

    static func storeError(_ body: () throws -> Void) -> StoreError? {
        do {
            try body()
            Issue.record("no error thrown")
        } catch let error as StoreError {
            return error
        } catch {
            Issue.record("not a StoreError: \(error)")
        }
        return nil
    }

    @Test func aRoleThatMayOnlyReadIsToldWhatToGrant() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "perm")
        defer { test.database.drop() }
        try test.store.insert("Folder", id: ObjectID("f1"), ["name": .string("Inbox")])
        try test.store.save()
        let reader = try Role.make("reader", in: test.database)
        defer { reader.drop() }
        try test.connect().execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(PostgreSQLIdentifier.quoted(reader.name))")

        let store = try PostgreSQLStore.open(connection: try reader.connect())
        // Reads keep working.
        #expect(try store.fetch(FetchRequest(statement: "Folder")).objectIDs.map(\.rawValue) == ["f1"])
        let error = try #require(Self.storeError { try store.insert("Folder", ["name": .string("Drafts")]) })
        #expect(error.code == .readOnly)
        #expect(error.message.hasPrefix("PostgreSQL 42501: permission denied for table sift.metadata: "), "\(error.message)")
        #expect(error.message.contains("role \(reader.name) may read but not change the store's tables in schema public of database \(test.database.name)"),
                "\(error.message)")
        #expect(error.message.contains("GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(reader.name) (as postgres, the tables' owner), or connect as postgres, the owner"),
                "\(error.message)")
        // Still readable after the refusal; and once granted, the write goes through.
        #expect(try store.fetch(FetchRequest(statement: "Folder")).count == 1)
        try test.connect().execute("GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(PostgreSQLIdentifier.quoted(reader.name))")
        try store.insert("Folder", ["name": .string("Drafts")])
        try store.save()
        #expect(try test.reopened().fetch(FetchRequest(statement: "Folder")).count == 2)
    }

    @Test func aRoleThatMayNotReadIsToldToo() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "perm2")
        defer { test.database.drop() }
        let stranger = try Role.make("stranger", in: test.database)
        defer { stranger.drop() }
        let error = try #require(Self.storeError { _ = try PostgreSQLStore.open(connection: try stranger.connect()) })
        #expect(error.message.hasPrefix("PostgreSQL 42501: permission denied for table sift.metadata: "), "\(error.message)")
        #expect(error.message.contains("role \(stranger.name) may not read the store's tables in schema public"), "\(error.message)")
        #expect(error.message.contains("GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(stranger.name)"), "\(error.message)")
    }

    /// PostgreSQL 15 grants no CREATE on `public` but to the database's owner.
    @Test func aRoleThatMayNotCreateTablesIsToldWhereItMay() async throws {
        let database = try await PostgreSQLTestServer.makeDatabase("perm3")
        defer { database.drop() }
        let role = try Role.make("nocreate", in: database)
        defer { role.drop() }
        let admin = try database.connect()
        try admin.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        let error = try #require(Self.storeError { _ = try PostgreSQLStore.create(connection: try role.connect(), model: StoreTestModels.notes) })
        #expect(error.message.hasPrefix("PostgreSQL 42501: permission denied for schema public: "), "\(error.message)")
        #expect(error.message.contains("role \(role.name) may not create tables in schema public of database \(database.name) (role \(role.name) may create in no schema of database \(database.name)); GRANT CREATE ON SCHEMA public TO \(role.name)"),
                "\(error.message)")

        // With a schema of its own it may create in, the message names it.
        try admin.execute("CREATE SCHEMA \(PostgreSQLIdentifier.quoted(role.name)) AUTHORIZATION \(PostgreSQLIdentifier.quoted(role.name))")
        let named = try #require(Self.storeError {
            _ = try PostgreSQLStore.create(connection: try role.connect(["options": "-csearch_path=public"]), model: StoreTestModels.notes)
        })
        #expect(named.message.contains("(schemas role \(role.name) may create in: \(role.name))"), "\(named.message)")
        // And in it ("$user", first in the default search_path), the store is made.
        _ = try PostgreSQLStore.create(connection: try role.connect(), model: StoreTestModels.notes)
    }

    /// A search_path naming no schema that exists: `3F000`.
    @Test func noSchemaToCreateInIsToldInWords() async throws {
        let database = try await PostgreSQLTestServer.makeDatabase("perm4")
        defer { database.drop() }
        let connection = try PostgreSQLConnection(database.serverConninfo, settings: ["dbname": database.name, "options": "-csearch_path=nowhere"])
        let error = try #require(Self.storeError { _ = try PostgreSQLStore.create(connection: connection, model: StoreTestModels.notes) })
        #expect(error.message.hasPrefix("PostgreSQL 3F000: no schema has been selected to create in: the search_path (nowhere) names no schema of database \(database.name) that exists"),
                "\(error.message)")
        #expect(error.message.contains("set search_path to one (options=-csearch_path=NAME in the connection string)"), "\(error.message)")
        #expect(error.message.contains("schemas role postgres may create in: public"), "\(error.message)")
    }
}
