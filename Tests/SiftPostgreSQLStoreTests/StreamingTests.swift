import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftPostgreSQLStore
import SiftStore
import Testing

/// A fetch with nothing to do in memory streams its objects from one server-side cursor as they
/// are read (PostgreSQLCursorSource): every row once, in order, whatever the batch size; a stream
/// abandoned half way, or interrupted by a change, leaves the store and its connection usable.
@Suite struct StreamingTests {
    /// A store holding `count` folders `f0`, `f1`, … named by their number, saved.
    static func folders(_ count: Int, label: String) async throws -> StoreTestDatabase {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: label)
        try test.store.performChanges {
            for n in 0..<count { try test.store.insert("Folder", id: ObjectID("f\(n)"), ["name": .string("\(n)")]) }
        }
        try test.store.save()
        return test
    }

    static func expected(_ range: Range<Int>) -> [String] { range.map { "f\($0)" } }

    @Test func streamsEveryRowInOrder() async throws {
        let test = try await Self.folders(2500, label: "stream")
        defer { test.database.drop() }
        let store = test.store
        // Batch sizes below, at and above a FETCH's rows, and everything at once (0).
        for batchSize in [1, 7, 1000, 2500, 0] {
            var request = FetchRequest(entityName: "Folder")
            request.fetchBatchSize = batchSize
            var ids: [String] = []
            var namesMatch = true
            try store.fetch(request).forEachObject { object in
                ids.append(object.objectID.rawValue)
                let name = try object.value(forKey: "name")
                if !same(name, .string(String(object.objectID.rawValue.dropFirst()))) { namesMatch = false }
            }
            #expect(ids == Self.expected(0..<2500), "batch size \(batchSize)")
            #expect(namesMatch)
        }
        // Paged by the server; the count and the IDs read the keys.
        var paged = try FetchRequest(statement: "Folder LIMIT 1500 OFFSET 700")
        paged.fetchBatchSize = 100
        let fetched = try store.fetch(paged)
        #expect(fetched.map(\.objectID.rawValue) == Self.expected(700..<2200))
        #expect(fetched.count == 1500)
        #expect(fetched.objectIDs.first == ObjectID("f700"))
        #expect(fetched[1499].objectID == ObjectID("f2199"))
        #expect(fetched.readError == nil)
    }

    /// A predicate left to the evaluator filters the stream; the offset and limit then apply to
    /// the matches, as the key list (count, IDs, by position) has them.
    @Test func streamsFilterAndPageInMemory() async throws {
        let test = try await Self.folders(2500, label: "streamfilter")
        defer { test.database.drop() }
        let store = test.store
        let matching = (0..<2500).filter { String($0).hasSuffix("7") }.map { "f\($0)" }
        for (statement, expected) in [
            ("Folder WHERE name ENDSWITH '7'", matching),
            ("Folder WHERE name ENDSWITH '7' LIMIT 30 OFFSET 5", Array(matching[5..<35])),
            ("Folder WHERE name ENDSWITH '7' OFFSET 240", Array(matching[240...])),
            ("Folder WHERE name ENDSWITH '7' LIMIT 1", Array(matching[..<1])),
            ("Folder WHERE name == 'none'", []),
        ] {
            for batchSize in [3, 100, 0] {
                var request = try FetchRequest(statement: statement)
                request.fetchBatchSize = batchSize
                let fetched = try store.fetch(request)
                #expect(fetched.map(\.objectID.rawValue) == expected, "\(statement), batch size \(batchSize)")
                #expect(fetched.objectIDs.map(\.rawValue) == expected)
                #expect(fetched.readError == nil)
            }
        }
        // The limit reached, the cursor is closed: a change goes through.
        var iterator = try store.fetch(try FetchRequest(statement: "Folder WHERE name ENDSWITH '7' LIMIT 2")).makeIterator()
        #expect(iterator.next()?.objectID == ObjectID("f7"))
        #expect(iterator.next()?.objectID == ObjectID("f17"))
        #expect(iterator.next() == nil)
        try store.insert("Folder", id: ObjectID("x"), ["name": .string("x")])
        try store.save()
    }

    @Test func abandonedStreamLeavesTheConnectionUsable() async throws {
        let test = try await Self.folders(2500, label: "abandon")
        defer { test.database.drop() }
        let store = test.store
        var request = FetchRequest(entityName: "Folder")
        request.fetchBatchSize = 10
        do {
            var iterator = try store.fetch(request).makeIterator()
            var seen: [String] = []
            for _ in 0..<15 { if let object = iterator.next() { seen.append(object.objectID.rawValue) } }
            #expect(seen == Self.expected(0..<15))
        }
        // The cursor and its read-only transaction are gone: changes and fetches go through.
        try store.insert("Folder", id: ObjectID("new"), ["name": .string("new")])
        try store.save()
        #expect(try test.reopened().count(FetchRequest(entityName: "Folder")) == 2501)
        #expect(try store.fetch(request).map(\.objectID.rawValue) == Self.expected(0..<2500) + ["new"])

        // Two streams at once share the transaction; the one begun first ending first leaves the
        // other streaming.
        var first = try store.fetch(request).makeIterator()
        var second = try store.fetch(request).makeIterator()
        #expect(first.next()?.objectID == ObjectID("f0"))
        #expect(second.next()?.objectID == ObjectID("f0"))
        first = try store.fetch(FetchRequest(entityName: "Tag")).makeIterator()
        #expect(first.next() == nil)
        var rest: [String] = []
        while let object = second.next() { rest.append(object.objectID.rawValue) }
        #expect(rest == Self.expected(1..<2500) + ["new"])
        try store.insert("Folder", id: ObjectID("newer"), ["name": .string("newer")])
        try store.save()
        #expect(try test.reopened().count(FetchRequest(entityName: "Folder")) == 2502)
    }

    /// A change made while a stream is open: the stream reads its rest first and goes on with the
    /// rows as they were; the change is pending and saves as any other.
    @Test func changeWhileStreaming() async throws {
        let test = try await Self.folders(2500, label: "streamchange")
        defer { test.database.drop() }
        let store = test.store
        var request = FetchRequest(entityName: "Folder")
        request.fetchBatchSize = 50
        var iterator = try store.fetch(request).makeIterator()
        var seen: [String] = []
        for _ in 0..<100 { if let object = iterator.next() { seen.append(object.objectID.rawValue) } }
        try store.insert("Folder", id: ObjectID("added"), ["name": .string("added")])
        try store.delete(ObjectID("f2000"))
        // Reading relationships between batches, inside the write transaction now.
        #expect(store.object(with: ObjectID("f5"))?.destinationIDs(of: "notes") == [])
        while let object = iterator.next() { seen.append(object.objectID.rawValue) }
        #expect(seen == Self.expected(0..<2500))
        #expect(store.hasChanges)
        try store.save()
        let ids = try test.reopened().fetch(FetchRequest(entityName: "Folder")).map(\.objectID.rawValue)
        #expect(ids == Self.expected(0..<2000) + Self.expected(2001..<2500) + ["added"])

        // A rollback with nothing pending leaves an open stream alone.
        var again = try store.fetch(request).makeIterator()
        #expect(again.next()?.objectID == ObjectID("f0"))
        store.rollback()
        var count = 1
        while again.next() != nil { count += 1 }
        #expect(count == 2500)
    }

    /// Inside the write transaction a fetch sees the pending changes; a fetch made before the
    /// transaction began and read inside it does too (it reads by key, holding no cursor).
    @Test func fetchInsideTheWriteTransaction() async throws {
        let test = try await Self.folders(1200, label: "streamwrite")
        defer { test.database.drop() }
        let store = test.store
        var request = FetchRequest(entityName: "Folder")
        request.fetchBatchSize = 100
        let before = try store.fetch(request)
        try store.insert("Folder", id: ObjectID("pending"), ["name": .string("pending")])
        try store.delete(ObjectID("f0"))
        let expected = Self.expected(1..<1200) + ["pending"]
        #expect(try store.fetch(request).map(\.objectID.rawValue) == expected)
        #expect(before.map(\.objectID.rawValue) == expected)
        #expect(before.readError == nil)
        store.rollback()
        #expect(try store.fetch(request).map(\.objectID.rawValue) == Self.expected(0..<1200))
    }

    /// Prefetched relationships are read for each streamed batch.
    @Test func streamedBatchesPrefetch() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "streamprefetch")
        defer { test.database.drop() }
        let store = test.store
        try store.insert("Folder", id: ObjectID("f1"), ["name": .string("Work")])
        for n in 1...5 {
            try store.insert("Note", id: ObjectID("n\(n)"), ["title": .string("note \(n)")], relationships: ["folder": n == 3 ? [] : [ObjectID("f1")]])
        }
        try store.save()
        var request = FetchRequest(entityName: "Note")
        request.relationshipKeyPathsForPrefetching = ["folder"]
        request.fetchBatchSize = 2
        var seen: [String] = []
        for object in try store.fetch(request) {
            seen.append("\(object.objectID.rawValue):\(object.destinationIDs(of: "folder").map(\.rawValue))")
        }
        #expect(seen == ["n1:[\"f1\"]", "n2:[\"f1\"]", "n3:[]", "n4:[\"f1\"]", "n5:[\"f1\"]"])
    }
}
