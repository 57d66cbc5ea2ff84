import CoreDataFixtures
import Foundation
import PostgreSQLTestSupport
import SeedAppSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// ``StoreCopy`` into and out of PostgreSQL (`sift import --store postgres://… --from …`): a
/// store of every kind of relationship, and a Core Data store, moved to the server and back,
/// compared through fetches (counts, attributes, destinations in order where ordered).
@Suite struct StoreCopyTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-pg-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func expectSame(_ source: any PersistentStore, _ target: any PersistentStore, model: DataModel) throws {
        let expected = try StoreContents.lines(of: source, model: model)
        let copied = try StoreContents.lines(of: target, model: model)
        #expect(StoreContents.firstDifference(copied, expected) == nil)
    }

    @Test func sqliteToPostgreSQLAndBackToJSON() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlite = directory.appendingPathComponent("library.sqlite")
        try LibraryFixture.fill(try SQLiteStore.create(at: sqlite, model: LibraryFixture.model))
        let source = try SQLiteStore.open(at: sqlite, readOnly: true)

        let test = try await StoreTestDatabase.make(StoreCopy.model(of: source), label: "copy")
        defer { test.database.drop() }
        var copy = StoreCopy(from: source, into: test.store)
        copy.batchSize = 9
        let summary = try copy.run()
        #expect(summary.total == 48)
        #expect(summary.keptObjectIDs)
        let postgres = try test.reopened()
        try Self.expectSame(source, postgres, model: LibraryFixture.model)
        #expect(try StoreContents.destinationCount(of: postgres) > 100)

        let json = directory.appendingPathComponent("back.json")
        try StoreCopy(from: postgres, into: try AtomicStore.create(at: json, model: StoreCopy.model(of: postgres))).run()
        try Self.expectSame(source, try AtomicStore.open(at: json), model: LibraryFixture.model)
    }

    /// A Core Data store (many-to-many join tables, `x-coredata://` IDs) moved to a server.
    @Test func coreDataStoreToPostgreSQL() async throws {
        let source = try SQLiteStore.open(at: CoreDataFixtures.url("Accounts3.sqlite"))
        let model = StoreCopy.model(of: source)
        let test = try await StoreTestDatabase.make(model, label: "coredata")
        defer { test.database.drop() }
        let summary = try StoreCopy(from: source, into: test.store).run()
        #expect(summary.total > 0)
        try Self.expectSame(source, try test.reopened(), model: model)
        #expect(try StoreContents.destinationCount(of: source) > 0)
    }
}
