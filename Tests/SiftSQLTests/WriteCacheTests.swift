import Foundation
import SiftEvaluation
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// A write transaction gets a larger page cache (``SQLiteStore/writeCacheKibibytes``), and
/// the cache goes back to its size whenever the transaction ends: saved, rolled back, or
/// failed.
@Suite struct WriteCacheTests {
    static func cacheSize(_ store: SQLiteStore) throws -> Int64 {
        guard case .integer(let size) = try store.database.scalar("PRAGMA cache_size") else { return 0 }
        return size
    }

    @Test func raisedWhileChangesArePendingAndRestoredAfter() throws {
        let store = try SQLiteStore.inMemory(model: try SQLTestModel.model())
        let original = try Self.cacheSize(store)
        #expect(original != -Int64(SQLiteStore.writeCacheKibibytes))

        try store.insert("Author", id: "a1", ["name": .string("Le Guin")])
        #expect(try Self.cacheSize(store) == -Int64(SQLiteStore.writeCacheKibibytes))
        try store.save()
        #expect(try Self.cacheSize(store) == original)

        try store.insert("Author", id: "a2", ["name": .string("Banks")])
        store.rollback()
        #expect(try Self.cacheSize(store) == original)

        try store.performChanges {
            try store.insert("Author", id: "a3", ["name": .string("Tiptree")])
            #expect(try Self.cacheSize(store) == -Int64(SQLiteStore.writeCacheKibibytes))
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
}
