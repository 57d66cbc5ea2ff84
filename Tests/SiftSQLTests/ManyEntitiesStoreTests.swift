import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// A SQLite store of more entities than SQLite takes members in one compound SELECT (500):
/// an object's ID is looked up over every table in statements of at most 200 tables, so the
/// store is made, filled and read (it failed with "too many terms in compound SELECT"; 10,000
/// entities also took 1.17 GB and over 20 s, building a lookup for every table at once).
@Suite struct ManyEntitiesStoreTests {
    @Test func aStoreOfSixHundredEntitiesTakesObjectsInEveryTable() throws {
        let count = 600
        let model = try DataModel(entities: (0..<count).map {
            EntityDescription(name: "T\($0)", attributes: [AttributeDescription(name: "n", type: .integer64)])
        })
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-many-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore.create(at: directory.appendingPathComponent("many.sqlite"), model: model)
        for i in [0, 1, 250, 599] { try store.insert("T\(i)", id: ObjectID("o\(i)"), ["n": .int(Int64(i))]) }
        try store.save()
        // The same ID in another table is refused, wherever the first one is.
        #expect(throws: StoreError.self) { try store.insert("T599", id: ObjectID("o0"), ["n": .int(1)]) }
        #expect(throws: StoreError.self) { try store.insert("T1", id: ObjectID("o250"), ["n": .int(1)]) }
        store.rollback()
        for i in [0, 1, 250, 599] {
            let objects = try store.fetch(FetchRequest(statement: "T\(i)")).checkedObjectIDs()
            #expect(objects == [ObjectID("o\(i)")])
        }
    }
}
