import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// A store written by an earlier Sift (layout version 1: unordered join tables numbered 0, 1,
/// 2…, uniqueness constraints as UNIQUE indexes; version 2: decimals as REAL) reads as it did,
/// is left alone by reads, and is brought to the current version by its first change.
@Suite struct StoreLayoutMigrationTests {
    static let model = #"""
    {"name": "Library", "entities": [
      {"name": "Book", "attributes": [{"name": "title", "type": "String"}],
       "relationships": [{"name": "tags", "destination": "Tag", "toMany": true, "inverse": "books"}]},
      {"name": "Tag", "attributes": [{"name": "name", "type": "String"}],
       "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "tags"}],
       "uniquenessConstraints": [["name"]]}
    ]}
    """#

    /// A version-1 store: made now, then rewritten as the first Sift SQLite stores were.
    static func versionOneStore(at url: URL) throws {
        let store = try SQLiteStore.create(at: url, model: try JSONModelFormat.read(Data(model.utf8)))
        for (id, name) in [("t1", "alpha"), ("t2", "beta"), ("t3", "gamma")] { try store.insert("Tag", id: ObjectID(id), ["name": .string(name)]) }
        try store.insert("Book", id: "b1", ["title": .string("One")], relationships: ["tags": ["t3", "t1"]])
        try store.insert("Book", id: "b2", ["title": .string("Two")], relationships: ["tags": ["t2"]])
        try store.save()
        let database = store.database
        try database.execute("""
            UPDATE "Book.tags" SET "_position" = (SELECT count(*) FROM "Book.tags" AS "o" WHERE "o"."_owner" = "Book.tags"."_owner" AND "o"."_target" < "Book.tags"."_target") + 1000;
            UPDATE "Book.tags" SET "_position" = "_position" - 1000;
            UPDATE "Tag.books" SET "_position" = (SELECT count(*) FROM "Tag.books" AS "o" WHERE "o"."_owner" = "Tag.books"."_owner" AND "o"."_target" < "Tag.books"."_target") + 1000;
            UPDATE "Tag.books" SET "_position" = "_position" - 1000;
            DROP INDEX "Tag.unique1.name";
            CREATE UNIQUE INDEX "Tag.unique1.name" ON "Tag" ("name");
            UPDATE "sift.metadata" SET "value" = 1 WHERE "key" = 'version';
            """)
    }

    static func tags(_ store: SQLiteStore, _ book: ObjectID) -> [ObjectID]? {
        store.object(with: book)?.relationshipIDs.first { $0.name == "tags" }?.ids
    }

    @Test func aVersionOneStoreIsMigratedByItsFirstChangeOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("old.sqlite")
        try Self.versionOneStore(at: url)
        #expect(try SQLiteStore.open(at: url).rawRows(#"SELECT "_owner", "_target", "_position" FROM "Book.tags" ORDER BY 1, 3"#)
                == [[.integer(4), .integer(1), .integer(0)], [.integer(4), .integer(3), .integer(1)], [.integer(5), .integer(2), .integer(0)]])

        // Reading changes nothing.
        let before = try Data(contentsOf: url)
        do {
            let store = try SQLiteStore.open(at: url)
            #expect(Self.tags(store, "b1") == ["t1", "t3"])
            #expect(try store.count(FetchRequest(statement: "Book WHERE ANY tags.name == 'gamma'")) == 1)
        }
        #expect(try Data(contentsOf: url) == before)

        // The first change migrates, inside its transaction.
        let store = try SQLiteStore.open(at: url)
        try store.update("b2", attributes: [:], relationships: ["tags": ["t2", "t1"]])
        try store.insert("Tag", id: "t4", ["name": .string("alpha")])  // a duplicate, pending until save
        #expect(throws: StoreError.self) { try store.save() }
        try store.update("t4", ["name": .string("delta")])
        try store.save()
        #expect(try store.rawRows(#"SELECT "value" FROM "sift.metadata" WHERE "key" = 'version'"#) == [[.integer(StoreLayoutMigration.currentVersion)]])
        #expect(try store.rawRows(#"SELECT count(*) FROM "Book.tags" WHERE "_position" <> "_target""#) == [[.integer(0)]])
        #expect(try store.rawRows(#"SELECT "unique" FROM pragma_index_list('Tag') WHERE "name" = 'Tag.unique1.name'"#) == [[.integer(0)]])
        let reopened = try SQLiteStore.open(at: url)
        #expect(Self.tags(reopened, "b1") == ["t1", "t3"])
        #expect(Self.tags(reopened, "b2") == ["t1", "t2"])
        #expect(reopened.object(with: "t1")?.relationshipIDs.first { $0.name == "books" }?.ids == ["b1", "b2"])
    }

    @Test func aStoreOfANewerLayoutIsNotChanged() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("new.sqlite")
        do {
            let store = try SQLiteStore.create(at: url, model: try JSONModelFormat.read(Data(Self.model.utf8)))
            try store.database.execute(#"UPDATE "sift.metadata" SET "value" = \#(StoreLayoutMigration.currentVersion + 1) WHERE "key" = 'version'"#)
        }
        let store = try SQLiteStore.open(at: url)
        let error = #expect(throws: StoreError.self) { try store.insert("Tag", id: "t1", ["name": .string("x")]) }
        #expect(error?.message.contains("newer Sift") == true, "\(error?.message ?? "")")
        #expect(!store.hasChanges)
        #expect(try store.count(FetchRequest(entityName: "Tag")) == 0)
    }
}
