import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Synchronization
import Testing

/// How a SQLite fetch's objects are read: `map` and `for … in` stream them from one query, reading
/// by position reads a window of objects per query, and results that went through the evaluator
/// (a list of keys) read a batch of keys per query — never a query per object.
@Suite struct ObjectReadingTests {
    static let count = 700

    /// A store of `count` notes; every third mentions "star" (which the evaluator checks,
    /// since `uppercase:` of a string compared with `[n]` stays in memory).
    static func store() throws -> SQLiteStore {
        let model = try JSONModelFormat.read(Data(#"""
            {"name": "Notes", "entities": [{"name": "Note", "attributes": [
                {"name": "title", "type": "String"}, {"name": "rank", "type": "Integer 64"}]}]}
            """#.utf8))
        let store = try SQLiteStore.inMemory(model: model)
        for i in 0..<count {
            _ = try store.insert(entity: "Note", id: ObjectID("n\(i)"), attributes: ["title": .string(i % 3 == 0 ? "star \(i)" : "note \(i)"), "rank": .int(Int64(count - i))],
                                 relationships: [:])
        }
        try store.save()
        return store
    }

    /// The statements `body` runs.
    static func statements(_ store: SQLiteStore, _ body: () throws -> Void) rethrows -> [String] {
        let log = Mutex<[String]>([])
        store.database.setTrace { sql in log.withLock { $0.append(sql) } }
        defer { store.database.setTrace(nil) }
        try body()
        return log.withLock { $0 }
    }

    static func titles(_ objects: [ManagedObject]) -> [String] {
        objects.map { object in
            if case .string(let title)? = object[attribute: "title"] { return title }
            return "?"
        }
    }

    @Test func mapStreamsFromOneQuery() throws {
        let store = try Self.store()
        let objects = try store.fetch(try FetchRequest(statement: "Note SORT BY rank"))
        var mapped: [String] = []
        let statements = Self.statements(store) { mapped = objects.map(\.objectID.rawValue) }
        #expect(mapped == (0..<Self.count).reversed().map { "n\($0)" })
        #expect(statements.count == 1)
    }

    /// The title note `i` of ``store()`` has.
    static func title(_ i: Int) -> String { i % 3 == 0 ? "star \(i)" : "note \(i)" }

    /// Iteration reuses the cursor's buffers from batch to batch once a batch's objects are
    /// gone: objects kept from early batches (some kept, the others dropped) still read their
    /// own values after later batches, and after the result is read again.
    @Test(arguments: [1, 7, 100, 0], [false, true])
    func keptObjectsReadTheirValuesAfterLaterBatches(batchSize: Int, forEachObject: Bool) throws {
        let store = try Self.store()
        var request = try FetchRequest(statement: "Note SORT BY rank")
        request.fetchBatchSize = batchSize
        let objects = try store.fetch(request)
        var read: [String] = []
        var kept: [ManagedObject] = []
        func visit(_ object: ManagedObject) {
            if case .string(let title)? = object[attribute: "title"] { read.append(title) }
            if read.count % 97 == 3 { kept.append(object) }
        }
        if forEachObject {
            try objects.forEachObject(visit)
        } else {
            for object in objects { visit(object) }
        }
        // (Sorted by rank, which is count - i: position p is note count - 1 - p.)
        let notes = (0..<Self.count).reversed()
        #expect(read == notes.map(Self.title))
        var again = 0
        for object in objects where object[attribute: "title"] != nil { again += 1 }
        #expect(again == Self.count)
        let keptNotes = notes.enumerated().filter { ($0.offset + 1) % 97 == 3 }.map(\.element)
        #expect(kept.count == keptNotes.count)
        #expect(Self.titles(kept) == keptNotes.map(Self.title))
        let ranks = kept.map { object -> Int64 in
            if case .int(let rank)? = object[attribute: "rank"] { return rank }
            return -1
        }
        #expect(ranks == keptNotes.map { Int64(Self.count - $0) })
        #expect(kept.map(\.objectID.rawValue) == keptNotes.map { "n\($0)" })
    }

    @Test func readingByPositionReadsAWindowPerQuery() throws {
        let store = try Self.store()
        let objects = try store.fetch(try FetchRequest(statement: "Note SORT BY rank"))
        var read: [ManagedObject] = []
        let statements = Self.statements(store) {
            for index in objects.indices { read.append(objects[index]) }
        }
        #expect(Self.titles(read) == Self.titles(Array(objects)))
        // The keys once, then one query per window of positions.
        #expect(statements.count == 1 + (Self.count + SQLiteKeyListDriver.windowSize - 1) / SQLiteKeyListDriver.windowSize)
        // Going back reads the window again, and answers the same.
        #expect(Self.titles([objects[3]]) == Self.titles([read[3]]))
    }

    @Test func resultsFilteredInMemoryReadABatchOfKeysPerQuery() throws {
        let store = try Self.store()
        var request = try FetchRequest(statement: "Note WHERE uppercase:(title) BEGINSWITH[n] 'STAR' SORT BY rank")
        request.fetchBatchSize = 100
        #expect(try store.generatedSQL(for: request).inMemoryPredicate != nil)
        let objects = try store.fetch(request)
        var titles: [String] = []
        let iterated = Self.statements(store) { for object in objects { titles += Self.titles([object]) } }
        let expected = (0..<Self.count).reversed().filter { $0 % 3 == 0 }.map { "star \($0)" }
        #expect(titles == expected)
        #expect(iterated.count == (expected.count + 99) / 100)
        let byPosition = Self.statements(store) { #expect(Self.titles(objects.indices.map { objects[$0] }) == expected) }
        #expect(byPosition.count == (expected.count + SQLiteKeyListDriver.windowSize - 1) / SQLiteKeyListDriver.windowSize)
    }

    /// A row deleted after the fetch reads as an object without attributes, not a crash.
    @Test func aDeletedRowReadsAsAnEmptyObject() throws {
        let store = try Self.store()
        let objects = try store.fetch(try FetchRequest(statement: "Note WHERE rank <= 2 SORT BY rank"))
        _ = objects.objectIDs
        try store.delete(ObjectID("n\(Self.count - 1)"))
        try store.save()
        #expect(objects[0].objectID == ObjectID("n\(Self.count - 1)"))
        #expect(objects[0][attribute: "title"] == nil)
        #expect(Self.titles([objects[1]]) == ["note \(Self.count - 2)"])
    }
}
