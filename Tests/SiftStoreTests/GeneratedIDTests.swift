import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
@testable import SiftStore
import Testing

/// Objects inserted without an ID get one (`o<n>`) that no object of the store has, whether
/// the store's IDs were given by hand to look like generated ones or not, in every store. (The
/// SQLite store looks the first 1,000 of a transaction up one by one, then finds with one scan
/// where they are all free, and notes the IDs rows are given since.)
@Suite struct GeneratedIDTests {
    static func model() throws -> DataModel {
        try DataModel(name: "M", entities: [
            EntityDescription(name: "Row", attributes: [AttributeDescription(name: "n", type: .integer64)]),
            EntityDescription(name: "Other", attributes: [AttributeDescription(name: "n", type: .integer64)]),
        ])
    }

    @Test(arguments: StoreKind.allCases)
    func generatedIDsAvoidEveryIDTheStoreHas(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try kind.make(try Self.model(), name: "rows", in: directory)
        // IDs given by hand where generated ones would go: in both tables (one each for the SQLite
        // store), before and past a batch of lookups.
        for n in [1, 2, 3, 5, 257, 258, 600, 1200] { try store.insert("Row", id: ObjectID("o\(n)"), ["n": .int(-1)]) }
        for n in [4, 259, 700, 1400] { try store.insert("Other", id: ObjectID("o\(n)"), ["n": .int(-1)]) }
        try store.save()
        // An import of rows without IDs, some rows with IDs the generator would give next.
        var csv = "@id,n\n"
        // IDs the generator will reach a few hundred rows later.
        for n in 0..<2000 { csv += (n % 100 == 7 ? "o\(300 + n)" : "") + ",\(n)\n" }
        try StoreImporter.importCSV(Data(csv.utf8), entity: "Row", into: store)
        let ids = try store.fetch(FetchRequest(entityName: "Row")).map(\.objectID.rawValue)
            + store.fetch(FetchRequest(entityName: "Other")).map(\.objectID.rawValue)
        #expect(ids.count == 8 + 4 + 2000)
        #expect(Set(ids).count == ids.count, "every ID once")
        // Inserted one at a time too, after a rolled-back unit.
        #expect(throws: StoreError.self) {
            try StoreImporter.importCSV(Data("@id,n\n,1\no2,2\n".utf8), entity: "Row", into: store)
        }
        let more = try (0..<5).map { _ in try store.insert("Row", ["n": .int(1)]) }
        try store.save()
        let all = try store.fetch(FetchRequest(entityName: "Row")).map(\.objectID.rawValue)
        #expect(Set(all).count == all.count && all.count == 8 + 2000 + 5)
        #expect(more.allSatisfy { all.contains($0.rawValue) })
    }
}
