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

/// `relationshipCountsForPrefetching`: a batch's to-many counts are read with one grouped query
/// per relationship, and equal the destinations counted (on SQLite with and without
/// prefetching, and on the atomic store).
@Suite struct PrefetchCountTests {
    static func request(_ entity: String, counts: [String], batchSize: Int, predicate: String? = nil) throws -> FetchRequest {
        var request = PrefetchTests.request(entity, prefetching: [], batchSize: batchSize)
        if let predicate { request.predicate = try PredicateNode(format: predicate) }
        request.relationshipCountsForPrefetching = counts
        return request
    }

    /// `ID: name=count …` for each object, iterated (for-in), so batches are prefetched.
    static func counts(_ objects: FetchedObjects, _ names: [String]) -> [String] {
        var lines: [String] = []
        for object in objects {
            lines.append("\(object.objectID.rawValue): " + names.map { "\($0)=\(object.destinationCount(of: $0))" }.joined(separator: " "))
        }
        return lines
    }

    /// The same, counted from the destinations' IDs.
    static func counted(_ objects: FetchedObjects, _ names: [String]) -> [String] {
        var lines: [String] = []
        for object in objects {
            lines.append("\(object.objectID.rawValue): " + names.map { "\($0)=\(object.destinationIDs(of: $0).count)" }.joined(separator: " "))
        }
        return lines
    }

    @Test(arguments: [("Book", ["tags", "shelvedBy"]), ("Author", ["books", "shelf"]), ("Tag", ["books"])])
    func prefetchedCountsEqualTheDestinationsCounted(_ entity: String, _ names: [String]) throws {
        let (memory, sqlite) = try PrefetchTests.stores()
        let expected = Self.counted(try sqlite.fetch(Self.request(entity, counts: [], batchSize: 7)), names)
        #expect(Self.counts(try sqlite.fetch(Self.request(entity, counts: names, batchSize: 7)), names) == expected)
        #expect(Self.counts(try sqlite.fetch(Self.request(entity, counts: [], batchSize: 7)), names) == expected)
        #expect(Self.counts(try memory.fetch(Self.request(entity, counts: names, batchSize: 7)), names) == expected)
        // Empty ones are there (a5 wrote no books, a4's shelf is empty, some books have no tags).
        if entity != "Tag" { #expect(expected.contains { $0.contains("=0") }) }
    }

    /// Statements run while iterating the results and reading each object's counts.
    static func statements(_ store: SQLiteStore, _ request: FetchRequest, read names: [String]) throws -> [String] {
        let log = Mutex<[String]>([])
        store.database.setTrace { sql in log.withLock { $0.append(sql) } }
        defer { store.database.setTrace(nil) }
        _ = counts(try store.fetch(request), names)
        return log.withLock { $0 }
    }

    @Test func countsRunAQueryPerBatchNotPerObject() throws {
        let (_, sqlite) = try PrefetchTests.stores()
        let batchSize = 10
        let batches = (PrefetchTests.bookCount + batchSize - 1) / batchSize
        let names = ["tags", "shelvedBy"]
        let prefetched = try Self.statements(sqlite, Self.request("Book", counts: names, batchSize: batchSize), read: names)
        // The fetch's own query, then one grouped query per relationship per batch.
        #expect(prefetched.count == 1 + batches * names.count, "\(prefetched.joined(separator: "\n"))")
        #expect(prefetched.dropFirst().allSatisfy { $0.contains("count(*)") && $0.contains("GROUP BY") })
        // Without prefetching, each object reads each relationship.
        let plain = try Self.statements(sqlite, Self.request("Book", counts: [], batchSize: batchSize), read: names)
        #expect(plain.count == 1 + PrefetchTests.bookCount * names.count)
    }

    /// A fetch part of which runs in memory (`[n]` on a case mapping) reads its objects by key, a
    /// batch at a time, and prefetches each batch's counts too.
    @Test func objectsReadByKeyArePrefetchedToo() throws {
        let (_, sqlite) = try PrefetchTests.stores()
        let predicate = "uppercase:(title) BEGINSWITH[n] 'BOOK'"
        let names = ["tags"]
        let request = try Self.request("Book", counts: names, batchSize: 10, predicate: predicate)
        let expected = Self.counted(try sqlite.fetch(Self.request("Book", counts: [], batchSize: 10, predicate: predicate)), names)
        #expect(Self.counts(try sqlite.fetch(request), names) == expected)
        let batches = (expected.count + 9) / 10
        #expect(batches > 1)
        // Reading the counts adds one query per batch to what the fetch itself runs.
        let fetching = try Self.statements(sqlite, Self.request("Book", counts: [], batchSize: 10, predicate: predicate), read: [])
        let reading = try Self.statements(sqlite, request, read: names)
        #expect(reading.count == fetching.count + batches, "\(reading.joined(separator: "\n"))")
    }

    @Test func onlyToManyRelationshipsOfTheEntityAreCounted() throws {
        let (memory, sqlite) = try PrefetchTests.stores()
        for store in [memory as any PersistentStore, sqlite] {
            for (name, message) in [("author", "it is a to-one relationship"), ("title", "not a relationship"), ("tag", "did you mean 'tags'?")] {
                #expect { _ = try store.fetch(Self.request("Book", counts: [name], batchSize: 0)) } throws: { error in
                    (error as? StoreError)?.message.contains(message) == true
                }
            }
        }
    }
}

/// A predicate part of which runs in memory reads the relationships it follows a batch of rows
/// at a time (one query per step of each path for the batch), not a query per object and step.
@Suite struct ResidualPrefetchTests {
    @Test(arguments: [
        "ANY tags.books.title BEGINSWITH[n] uppercase:(title)",
        "ANY author.books.tags.name ==[n] uppercase:(title) OR tags.books.@count > 20",
        "SUBQUERY(tags, $t, ANY $t.books.author.name ENDSWITH[n] uppercase:($t.name)).@count == 0",
    ])
    func relationshipsAreReadABatchAtATime(_ predicate: String) throws {
        let (memory, sqlite) = try PrefetchTests.stores()
        var request = FetchRequest(entityName: "Book")
        request.predicate = try PredicateNode(format: predicate)
        #expect(try sqlite.generatedSQL(for: request).inMemoryPredicate != nil)
        #expect(try sqlite.fetch(request).objectIDs == (try memory.fetch(request).objectIDs))
        let log = Mutex<[String]>([])
        sqlite.database.setTrace { sql in log.withLock { $0.append(sql) } }
        defer { sqlite.database.setTrace(nil) }
        _ = try sqlite.count(request)
        // The fetch's query, then a few per step of each path: far fewer than the books.
        let statements = log.withLock { $0 }
        #expect(statements.count <= 8, "\(statements.joined(separator: "\n"))")
    }
}
