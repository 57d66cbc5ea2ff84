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
    /// Inserts tags (ID → label) and folders (ID → name).
    static func insert(_ store: PostgreSQLStore, tags: KeyValuePairs<String, String>, folders: KeyValuePairs<String, String>) throws {
        for (id, label) in tags { try store.insert("Tag", id: ObjectID(id), ["label": .string(label)]) }
        for (id, name) in folders { try store.insert("Folder", id: ObjectID(id), ["name": .string(name)]) }
    }

    @Test func prefetchedRelationshipsAnswerFromTheBatch() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "prefetch")
        defer { test.database.drop() }
        let store = test.store
        try Self.insert(store, tags: ["t1": "a", "t2": "b"], folders: ["f1": "Work"])
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

    /// `relationshipCountsForPrefetching`: each batch's to-many counts are read with one grouped
    /// query per relationship (every relationship storage: an inverse column, a join table, a
    /// sub-entity's rows in a shared table), equal to the destinations counted one object at a
    /// time, and answered from memory while the batch is read.
    @Test func prefetchedCountsAnswerFromTheBatch() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "prefetchcounts")
        defer { test.database.drop() }
        let store = test.store
        try Self.insert(store, tags: ["t1": "a", "t2": "b", "t3": "c"], folders: ["f1": "Work", "f2": "Home", "f3": "Empty"])
        for n in 1...7 {
            try store.insert(n % 2 == 0 ? "Memo" : "Note", id: ObjectID("n\(n)"), ["title": .string("note \(n)"), "rank": .int(Int64(n))],
                             relationships: ["folder": [ObjectID(n < 5 ? "f1" : "f2")], "tags": n % 3 == 0 ? [] : n % 2 == 0 ? [ObjectID("t2"), ObjectID("t1")] : [ObjectID("t1")]])
        }
        try store.save()

        func counts(_ entity: String, _ names: [String], prefetching: Bool, counted: Bool) throws -> [String] {
            var request = try FetchRequest(statement: "\(entity) SORT BY \(entity == "Folder" ? "name" : "rank")")
            request.fetchBatchSize = 2
            if prefetching { request.relationshipCountsForPrefetching = names }
            var lines: [String] = []
            for object in try store.fetch(request) {
                lines.append("\(object.objectID.rawValue): " + names.map { "\($0)=\(counted ? object.destinationIDs(of: $0).count : object.destinationCount(of: $0))" }.joined(separator: " "))
            }
            return lines
        }
        for (entity, names) in [("Note", ["tags"]), ("Folder", ["notes"])] {
            let expected = try counts(entity, names, prefetching: false, counted: true)
            #expect(try counts(entity, names, prefetching: true, counted: false) == expected, "\(entity)")
            #expect(try counts(entity, names, prefetching: false, counted: false) == expected, "\(entity)")
            #expect(expected.contains { $0.hasSuffix("=0") }, "\(entity): \(expected)")
        }

        // Read with the batch: a change another connection commits meanwhile is not seen by the
        // batch's objects, while an object read alone sees it.
        var request = try FetchRequest(statement: "Folder SORT BY name")
        request.relationshipCountsForPrefetching = ["notes"]
        request.fetchBatchSize = 10
        var iterator = try store.fetch(request).makeIterator()
        let next = iterator.next()
        let empty = try #require(next)
        let following = iterator.next()
        let home = try #require(following)
        let other = try test.connect()
        _ = try other.run(#"UPDATE "Note" SET "folder" = NULL"#)
        #expect(empty.destinationCount(of: "notes") == 0)
        #expect(home.destinationCount(of: "notes") == 3)
        #expect(store.object(with: ObjectID("f2"))?.destinationCount(of: "notes") == 0)
    }
}
