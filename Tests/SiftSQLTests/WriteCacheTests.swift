import Foundation
import SiftEvaluation
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// A write transaction gets a larger page cache (``SQLiteStore/writeCacheKibibytes``: large
/// only where an index over text needs it), and the cache goes back to its size whenever the
/// transaction ends: saved, rolled back, or failed.
@Suite struct WriteCacheTests {
    static func cacheSize(_ store: SQLiteStore) throws -> Int64 {
        guard case .integer(let size) = try store.database.scalar("PRAGMA cache_size") else { return 0 }
        return size
    }

    @Test func raisedWhileChangesArePendingAndRestoredAfter() throws {
        let store = try SQLiteStore.inMemory(model: try SQLTestModel.model())
        let original = try Self.cacheSize(store)
        let raised = -Int64(store.writeCacheKibibytes)
        #expect(original != raised)

        try store.insert("Author", id: "a1", ["name": .string("Le Guin")])
        #expect(try Self.cacheSize(store) == raised)
        try store.save()
        #expect(try Self.cacheSize(store) == original)

        try store.insert("Author", id: "a2", ["name": .string("Banks")])
        store.rollback()
        #expect(try Self.cacheSize(store) == original)

        try store.performChanges {
            try store.insert("Author", id: "a3", ["name": .string("Tiptree")])
            #expect(try Self.cacheSize(store) == raised)
        }
        try store.save()
        #expect(try Self.cacheSize(store) == original)

        // A first change that fails leaves no transaction, and the cache as it was.
        #expect(throws: StoreError.self) { try store.insert("Author", id: "a1", ["name": .string("again")]) }
        #expect(!store.database.isInTransaction)
        #expect(try Self.cacheSize(store) == original)

        // A unit that throws with nothing pending before it rolls back.
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.performChanges { () throws -> Void in
                try store.insert("Author", id: "a4", ["name": .string("Banks")])
                throw Stop()
            }
        }
        #expect(try Self.cacheSize(store) == original)
    }

    /// Where rows land decides the cache: at the end of the table and in few places of an index
    /// of IDs or numbers (small, so an import's memory stays flat), anywhere in an index over
    /// text (large).
    @Test(arguments: [
        (#"{"name": "M", "entities": [{"name": "P", "indexes": [["age"]], "attributes": [{"name": "name", "type": "String"}, {"name": "age", "type": "Integer 64"}]}]}"#, false),
        (#"{"name": "M", "entities": [{"name": "P", "attributes": [{"name": "name", "type": "String", "searchable": true}]}]}"#, true),
        (#"{"name": "M", "entities": [{"name": "P", "indexes": [["age", "name"]], "attributes": [{"name": "name", "type": "String"}, {"name": "age", "type": "Integer 64"}]}]}"#, true),
        (#"{"name": "M", "entities": [{"name": "P", "uniquenessConstraints": [["email"]], "attributes": [{"name": "email", "type": "String"}]}]}"#, true),
        (#"{"name": "M", "entities": [{"name": "P", "uniquenessConstraints": [["number"]], "attributes": [{"name": "number", "type": "Integer 64"}]}]}"#, false),
    ])
    func largeOnlyWhereAnIndexHoldsText(_ modelJSON: String, _ large: Bool) throws {
        let model = try JSONModelFormat.read(Data(modelJSON.utf8))
        let store = try SQLiteStore.inMemory(model: model)
        #expect(store.writeCacheKibibytes == (large ? SQLiteStore.largeWriteCacheKibibytes : SQLiteStore.smallWriteCacheKibibytes))
        try store.insert(entity: "P", id: "p1", attributes: [:], relationships: [:])
        #expect(try Self.cacheSize(store) == -Int64(store.writeCacheKibibytes))
        store.rollback()
    }
}
