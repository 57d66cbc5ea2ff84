import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftPostgreSQLStore
import SiftStore
import Testing

/// Relationships a fetch prefetches are read for each batch with one query per relationship and
/// answered from memory: the same destinations, in order, as reading them one object at a time.
@Suite struct PrefetchTests {
    @Test func prefetchedRelationshipsAnswerFromTheBatch() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "prefetch")
        defer { test.database.drop() }
        let store = test.store
        try store.insert("Tag", id: ObjectID("t1"), ["label": .string("a")])
        try store.insert("Tag", id: ObjectID("t2"), ["label": .string("b")])
        try store.insert("Folder", id: ObjectID("f1"), ["name": .string("Work")])
        for n in 1...5 {
            try store.insert(n % 2 == 0 ? "Memo" : "Note", id: ObjectID("n\(n)"), ["title": .string("note \(n)"), "rank": .int(Int64(n))],
                             relationships: ["folder": n == 5 ? [] : [ObjectID("f1")], "tags": n % 2 == 0 ? [ObjectID("t2"), ObjectID("t1")] : [ObjectID("t1")]])
        }
        try store.save()

        var request = try FetchRequest(statement: "Note SORT BY rank DESC")
        request.relationshipKeyPathsForPrefetching = ["folder", "tags", "folder.notes"]
        request.fetchBatchSize = 2
        let fetched = try store.fetch(request)
        var seen: [String] = []
        for object in fetched {
            seen.append("\(object.objectID.rawValue):\(object.destinationIDs(of: "folder").map(\.rawValue)):\(object.destinationIDs(of: "tags").map(\.rawValue))")
        }
        #expect(seen == [
            "n5:[]:[\"t1\"]", "n4:[\"f1\"]:[\"t2\", \"t1\"]", "n3:[\"f1\"]:[\"t1\"]", "n2:[\"f1\"]:[\"t2\", \"t1\"]", "n1:[\"f1\"]:[\"t1\"]",
        ])

        // Prefetched for the batch being read: a change another connection commits meanwhile is
        // not read again (the objects answer from memory), while an object read alone sees it.
        var iterator = fetched.makeIterator()
        let next = iterator.next()
        let first = try #require(next)
        let other = try test.connect()
        _ = try other.run(#"DELETE FROM "Note.tags""#)
        #expect(first.destinationIDs(of: "tags") == [ObjectID("t1")])
        #expect(store.object(with: ObjectID("n5"))?.destinationIDs(of: "tags") == [])

        // A dotted path's later step is prefetched too: the folder's notes, read from the
        // prefetched folder, answer from memory (the change is not seen).
        let before = try store.fetch(request)
        var notes = before.makeIterator()
        _ = notes.next()
        let second = notes.next()
        let n4 = try #require(second)
        #expect(n4.objectID == ObjectID("n4"))
        let folder = try #require(try n4.value(forKey: "folder").object)
        _ = try other.run(#"UPDATE "Note" SET "folder" = NULL"#)
        #expect(try folder.value(forKey: "notes").collectionElements?.count == 4)
        #expect(store.object(with: ObjectID("f1"))?.destinationIDs(of: "notes") == [])
    }
}
