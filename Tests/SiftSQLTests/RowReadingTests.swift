import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// `SQLiteStore.forEachRow` reads the objects `fetch` returns, as rows: the same IDs, entities
/// and attribute values in the same order, for requests run wholly in SQL and for those partly
/// run in memory; the same errors.
@Suite struct RowReadingTests {
    /// What an object or a row says: ID, entity, and each attribute (by name; absent names
    /// read as nil).
    static func describe(id: ObjectID, entity: String, names: [String], value: (String) -> Value?) -> String {
        let values = (names + ["noSuchAttribute"]).map { name in "\(name)=\(value(name).map { String(describing: $0) } ?? "nil")" }
        return "\(id.rawValue) \(entity) " + values.joined(separator: " ")
    }

    static func fetched(_ store: SQLiteStore, _ request: FetchRequest) throws -> [String] {
        try store.fetch(request).map { object in
            describe(id: object.objectID, entity: object.entityName, names: object.attributeSlots.names.names) { object[attribute: $0] }
        }
    }

    /// The rows, read three ways: by name, by a handle made from the name, and by a handle made
    /// for the request's entity (all three must agree, or the row reads as a mismatch).
    static func rows(_ store: SQLiteStore, _ request: FetchRequest) throws -> [String] {
        var rows: [String] = []
        let entity = store.model.entity(named: request.entityName)
        try store.forEachRow(request) { row in
            let names = row.attributeNames
            var byName: [String: Value?] = [:]
            let description = describe(id: row.objectID, entity: row.entityName, names: names) { name in
                let value = row[attribute: name]
                byName[name] = value
                return value
            }
            for name in names + ["noSuchAttribute"] {
                let plain = row[attribute: RowAttribute(name)]
                let resolved = entity.map { row[attribute: RowAttribute(name, of: $0)] } ?? plain
                let expected = byName[name].flatMap { $0 }.map { String(describing: $0) }
                guard plain.map({ String(describing: $0) }) == expected, resolved.map({ String(describing: $0) }) == expected else {
                    rows.append("mismatch reading \(name) of \(row.objectID.rawValue)")
                    return
                }
            }
            #expect(row.attributeValues.keys == names)
            rows.append(description)
        }
        return rows
    }

    static let libraryRequests = [
        "Book", "Book SORT BY title", "Book WHERE year > 1970 SORT BY year DESC", "Ebook", "Author SORT BY name DESC",
        "Book WHERE title BEGINSWITH[cd] 'star'", "Book WHERE tags.name CONTAINS 'classic'", "Book WHERE price == nil SORT BY title",
        // In memory: `uppercase:` compared with [n].
        "Book WHERE uppercase:(title) BEGINSWITH[n] 'STAR' SORT BY title",
        "Book WHERE uppercase:(title) BEGINSWITH[n] 'S' OR year > 1990",
    ]

    @Test(arguments: libraryRequests)
    func rowsAreTheFetchedObjects(statement: String) throws {
        let store = try SQLTestModel.store()
        let request = try FetchRequest(statement: statement)
        // The `uppercase:` requests take the way of rows read by key.
        #expect(try (store.generatedSQL(for: request).inMemoryPredicate != nil) == statement.contains("uppercase:"))
        let fetched = try Self.fetched(store, request)
        #expect(!fetched.isEmpty)
        #expect(try Self.rows(store, request) == fetched)
    }

    @Test(arguments: [(0, 0), (1, 0), (0, 2), (2, 1), (5, 3), (3, 10)])
    func offsetsAndLimitsAsAFetch(offset: Int, limit: Int) throws {
        let store = try SQLTestModel.store()
        for statement in ["Book SORT BY title", "Book WHERE uppercase:(title) BEGINSWITH[n] 'S' OR year > 1970 SORT BY year"] {
            var request = try FetchRequest(statement: statement)
            request.fetchOffset = offset
            request.fetchLimit = limit
            #expect(try Self.rows(store, request) == Self.fetched(store, request), "\(statement) offset \(offset) limit \(limit)")
        }
    }

    /// More rows than a batch of keys (1,000), read partly in memory, and wholly in SQL.
    @Test func manyRows() throws {
        let store = try SQLiteStore.inMemory(model: try SQLTestModel.model())
        for i in 0..<2_500 {
            _ = try store.insert(entity: i % 7 == 0 ? "Ebook" : "Book", id: ObjectID("b\(i)"),
                                 attributes: ["title": .string(i % 3 == 0 ? "Star \(i)" : "Note \(i)"), "year": .int(Int64(1900 + i % 120)),
                                              "price": i % 5 == 0 ? .null : .double(Double(i) / 4),
                                              "published": .date(Date(timeIntervalSinceReferenceDate: Double(i) * 86_400))],
                                 relationships: [:])
        }
        try store.save()
        for statement in ["Book", "Book WHERE year >= 1950 SORT BY price DESC, title", "Ebook WHERE price > 10",
                          "Book WHERE uppercase:(title) BEGINSWITH[n] 'STAR' SORT BY year, title"] {
            let request = try FetchRequest(statement: statement)
            let fetched = try Self.fetched(store, request)
            #expect(fetched.count > 100, "\(statement)")
            #expect(try Self.rows(store, request) == fetched, "\(statement)")
        }
    }

    @Test func requestErrorsAreTheFetchsErrors() throws {
        let store = try SQLTestModel.store()
        for statement in ["Nothing", "Book WHERE nosuch == 1", "Book SORT BY nosuch"] {
            let request = try FetchRequest(statement: statement)
            let fetchError = #expect(throws: StoreError.self) { _ = try store.fetch(request) }
            let rowsError = #expect(throws: StoreError.self) { try store.forEachRow(request) { _ in } }
            #expect(rowsError?.description == fetchError?.description, "\(statement)")
        }
        var negative = try FetchRequest(statement: "Book")
        negative.fetchLimit = -1
        #expect(throws: StoreError.self) { try store.forEachRow(negative) { _ in } }
    }

    struct Stop: Error {}

    /// The closure's error ends the reading and comes out as it was thrown; the store can be
    /// used from the closure (its lock is re-entrant).
    @Test func theClosuresErrorEndsReading() throws {
        let store = try SQLTestModel.store()
        var seen = 0
        #expect(throws: Stop.self) {
            try store.forEachRow(try FetchRequest(statement: "Book SORT BY title")) { row in
                seen += 1
                #expect(try store.fetch(try FetchRequest(statement: "Author")).count == 2)
                if seen == 2 { throw Stop() }
            }
        }
        #expect(seen == 2)
        var all = 0
        try store.forEachRow(try FetchRequest(statement: "Book")) { _ in all += 1 }
        #expect(all == 4)
    }

    /// `interrupt()` during the reading (here from the closure itself, so without a race): the
    /// next step fails and `forEachRow` throws `StoreError.interrupted`; the store reads again
    /// afterwards.
    @Test func interruptStopsTheReading() throws {
        let store = try SQLiteStore.inMemory(model: try SQLTestModel.model())
        for i in 0..<100 {
            _ = try store.insert(entity: "Book", id: ObjectID("b\(i)"), attributes: ["title": .string("T\(i)"), "year": .int(Int64(i))],
                                 relationships: [:])
        }
        try store.save()
        var seen = 0
        #expect(throws: StoreError.interrupted) {
            try store.forEachRow(try FetchRequest(statement: "Book")) { _ in
                seen += 1
                if seen == 10 { store.interrupt() }
            }
        }
        #expect(seen == 10)
        var all = 0
        try store.forEachRow(try FetchRequest(statement: "Book")) { _ in all += 1 }
        #expect(all == 100)
    }
}
