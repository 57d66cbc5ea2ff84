import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
@testable import SiftPostgreSQLStore
import SiftStore
import Testing

/// Store layouts: a new store's String attributes keep their folds and sort key, written with
/// every change, and its model is the one it was given; a store of layout 1 (before them) still
/// opens, reads and writes, its fetches run in memory.
@Suite struct LayoutVersionTests {
    @Test func foldsAreWrittenAndTheModelStaysAsGiven() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "folds")
        defer { test.database.drop() }
        let store = test.store
        #expect(store.model.entities.flatMap(\.attributes).allSatisfy { !$0.isSearchable })
        try store.insert("Note", id: ObjectID("n1"), ["title": .string("Café 10"), "rank": .int(1)])
        try store.save()
        try store.update(ObjectID("n1"), ["title": .string("Éclair 9")])
        try store.save()
        let row = try test.connect().query(#"SELECT "_cd_title", "_c_title", "_s_title" FROM "Note""#)
        #expect(row.first.map { [$0[0].stringValue, $0[1].stringValue, $0[2].stringValue] } == ["eclair 9", "éclair 9", "eclair 19"])
        // A [cd] test and a localizedStandardCompare sort run in the server.
        let request = try FetchRequest(statement: "Note WHERE title BEGINSWITH[cd] 'ECL' SORT BY title USING localizedStandardCompare")
        #expect(try store.fetch(request).objectIDs == [ObjectID("n1")])
        let generated = try store.generatedSQL(for: request)
        #expect(generated.inMemoryPredicate == nil && !generated.sortsInMemory, "\(generated)")
        #expect(generated.sql.contains(#""t0"."_cd_title" >= $1 AND "t0"."_cd_title" < $2 ORDER BY "t0"."_s_title" NULLS FIRST"#), "\(generated.sql)")
    }

    @Test func aStoreOfLayoutOneRunsFetchesInMemory() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "layout1")
        defer { test.database.drop() }
        try test.store.insert("Note", id: ObjectID("n1"), ["title": .string("b"), "rank": .int(2)])
        try test.store.insert("Note", id: ObjectID("n2"), ["title": .string("a"), "rank": .int(1)])
        try test.store.save()
        _ = try test.connect().run(#"UPDATE "sift.metadata" SET "value" = '1' WHERE "key" = 'version'"#, [])
        let old = try test.reopened()
        #expect(try old.fetch(FetchRequest(statement: "Note WHERE rank > 0 SORT BY title")).objectIDs == [ObjectID("n2"), ObjectID("n1")])
        try old.insert("Note", id: ObjectID("n3"), ["title": .string("c"), "rank": .int(3)])
        try old.save()
        #expect(try old.count(FetchRequest(statement: "COUNT Note WHERE title >[c] 'B'")) == 1)
        let generated = try old.generatedSQL(for: FetchRequest(statement: "Note WHERE rank > 0"))
        #expect(generated.inMemoryPredicate == "rank > 0" && generated.inMemoryReason == "a store of layout 1 runs fetches in memory", "\(generated)")
    }
}
