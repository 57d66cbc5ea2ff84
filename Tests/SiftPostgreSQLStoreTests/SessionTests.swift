import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftPostgreSQLStore
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// What a store's session sets so that a dead client lets go of the write lock (issue 30), and
/// what a writer that waited for the lock in vain is told.
@Suite struct SessionTests {
    /// The server notices a closed client connection while it runs a query: each store's session
    /// checks every second, unless the session was given its own interval, which stays.
    @Test func theSessionChecksForADeadClient() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "session")
        defer { test.database.drop() }
        let connection = try test.connect()
        _ = try PostgreSQLStore.open(connection: connection)
        #expect(try connection.scalar("SHOW client_connection_check_interval").stringValue == "1s")
        let given = try PostgreSQLConnection(test.database.serverConninfo,
                                             settings: ["dbname": test.database.name, "options": "-c client_connection_check_interval=5000"])
        _ = try PostgreSQLStore.open(connection: given)
        #expect(try given.scalar("SHOW client_connection_check_interval").stringValue == "5s")
    }

    /// Connection defaults are libpq keywords the conninfo overrides.
    @Test func connectionDefaultsGiveWayToTheConninfo() async throws {
        let conninfo = try await PostgreSQLTestServer.conninfo()
        let defaulted = try PostgreSQLConnection(conninfo, defaults: ["application_name": "from_defaults"])
        #expect(try defaulted.scalar("SHOW application_name").stringValue == "from_defaults")
        let given = try PostgreSQLConnection(conninfo + " application_name=from_conninfo", defaults: ["application_name": "from_defaults"])
        #expect(try given.scalar("SHOW application_name").stringValue == "from_conninfo")
    }

    /// A save whose checks run longer than the store's `checkTimeout` fails, its changes
    /// pending, and saves once they are quicker; a session's own `statement_timeout` is kept.
    @Test func checksLongerThanTheCheckTimeoutAreCancelled() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "checktimeout")
        defer { test.database.drop() }
        let store = test.store
        store.checkTimeout = .milliseconds(200)
        store.testCheckDelay = 60
        try store.insert("Folder", id: ObjectID("f1"), ["name": .string("Work")])
        do {
            try store.save()
            Issue.record("the checks were not cancelled")
        } catch {
            #expect(error.code == .interrupted)
            #expect(error.message.hasPrefix("the save's checks ran longer than 0.2 s and were cancelled; nothing was saved (the changes are pending)"),
                    "\(error.message)")
        }
        #expect(store.hasChanges)
        store.testCheckDelay = nil
        try store.save()
        #expect(try WriteTests.ids(test.reopened(), "Folder") == ["f1"])

        let given = try PostgreSQLConnection(test.database.serverConninfo, settings: ["dbname": test.database.name, "options": "-c statement_timeout=300"])
        let other = try PostgreSQLStore.open(connection: given)
        other.testCheckDelay = 60
        try other.insert("Folder", id: ObjectID("f2"), ["name": .string("Home")])
        do {
            try other.save()
            Issue.record("the checks were not cancelled")
        } catch {
            #expect(error.message.hasPrefix("the save's checks ran longer than the session's statement_timeout"), "\(error.message)")
        }
        #expect(try given.scalar("SHOW statement_timeout").stringValue == "300ms")
    }

    /// A first change that waits longer than the lock timeout fails with `locked`, naming the
    /// session that holds the store's write lock and how to end it.
    @Test func aLockTimeoutNamesTheSessionHoldingTheLock() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "holder")
        defer { test.database.drop() }
        let holder = try test.connect()
        try holder.execute("SET application_name = 'lock_holder_test'")
        try holder.execute("BEGIN; LOCK TABLE \(PostgreSQLIdentifier.quoted(SQLSchema.metadataTable)) IN SHARE ROW EXCLUSIVE MODE")
        let pid = try #require(try holder.scalar("SELECT pg_backend_pid()::bigint").int64Value)
        let store = test.store
        store.lockTimeout = .milliseconds(200)
        do {
            try store.insert("Folder", id: ObjectID("f1"), ["name": .string("Work")])
            Issue.record("the change did not wait for the lock")
        } catch {
            #expect(error.code == .locked)
            #expect(error.message.hasPrefix("PostgreSQL 55P03: canceling statement due to lock timeout: the store's write lock is held by PostgreSQL session \(pid) ("),
                    "\(error.message)")
            #expect(error.message.contains("application_name 'lock_holder_test'"), "\(error.message)")
            #expect(error.message.contains("state 'idle in transaction'"), "\(error.message)")
            #expect(error.message.hasSuffix("; wait for it to finish and try again, or end that session: SELECT pg_terminate_backend(\(pid))"), "\(error.message)")
        }
        #expect(!store.hasChanges)
        try holder.execute("ROLLBACK")
        try store.insert("Folder", id: ObjectID("f1"), ["name": .string("Work")])
        try store.save()
    }
}
