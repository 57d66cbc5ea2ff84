// The SQLite fetch benchmarks' data and the two ways of reading it: a Sift fetch, and raw
// sqlite3 C calls running the equivalent hand-written SQL (the baseline; the target is Sift
// within 1.2× of it for a million-row fetch).
import CSQLite3Raw
import Foundation
import Sift

public enum SQLiteFetchFixture {
    /// One entity of four attributes.
    public static let modelJSON = #"""
    {"name": "Shop", "entities": [{"name": "Item", "attributes": [
        {"name": "name", "type": "String"}, {"name": "price", "type": "Double"},
        {"name": "quantity", "type": "Integer 64"}, {"name": "added", "type": "Date"}]}]}
    """#

    /// Half the items (prices are 0 ..< 100).
    public static let statement = "Item WHERE price >= 50"
    /// What the statement means, written by hand: every column of the matching rows, in
    /// insertion order.
    public static let handWrittenSQL = #"SELECT "_pk", "_id", "name", "price", "quantity", "added" FROM "Item" WHERE "price" >= ?1 ORDER BY "_pk""#

    public struct FixtureError: Error, CustomStringConvertible {
        public let description: String
    }

    /// A Sift SQLite store of `rows` items in the temporary directory, made on first use:
    /// created by Sift (schema and metadata), filled with raw inserts in one transaction.
    public static func storeURL(rows: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-bench-items-\(rows).sqlite")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let partial = url.deletingLastPathComponent().appendingPathComponent("sift-bench-items-\(rows)-\(getpid()).sqlite")
        try? FileManager.default.removeItem(at: partial)
        do {
            _ = try SQLiteStore.create(at: partial, model: try JSONModelFormat.read(Data(modelJSON.utf8)))
        }
        var db: OpaquePointer?
        guard sqlite3_open(partial.path, &db) == SQLITE_OK, let db else { throw FixtureError(description: "cannot open \(partial.path)") }
        defer { sqlite3_close(db) }
        func exec(_ sql: String) throws {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw FixtureError(description: String(cString: sqlite3_errmsg(db))) }
        }
        try exec("BEGIN")
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, #"INSERT INTO "Item" ("_pk", "_id", "_entity", "name", "price", "quantity", "added") VALUES (?, ?, 'Item', ?, ?, ?, ?)"#, -1, &statement, nil) == SQLITE_OK,
              let statement else { throw FixtureError(description: String(cString: sqlite3_errmsg(db))) }
        defer { sqlite3_finalize(statement) }
        var random = SystemRandomNumberGenerator()
        for row in 1...max(1, rows) {
            sqlite3_bind_int64(statement, 1, Int64(row))
            sqlite3_bind_text(statement, 2, "Item/\(row)", -1, sift_bench_transient())
            sqlite3_bind_text(statement, 3, "item number \(row)", -1, sift_bench_transient())
            sqlite3_bind_double(statement, 4, Double(Int.random(in: 0..<10_000, using: &random)) / 100)
            sqlite3_bind_int64(statement, 5, Int64.random(in: 0..<1_000, using: &random))
            sqlite3_bind_double(statement, 6, 700_000_000 + Double(row))
            guard sqlite3_step(statement) == SQLITE_DONE else { throw FixtureError(description: String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(statement)
        }
        try exec("COMMIT")
        try FileManager.default.moveItem(at: partial, to: url)
        return url
    }

    /// What reading the results adds up to, so neither way can skip work.
    public struct Checksum: Equatable, CustomStringConvertible {
        public var rows = 0
        public var characters = 0
        public var price = 0.0
        public var quantity: Int64 = 0
        public init() {}
        public var description: String { "\(rows) rows, \(characters) characters, price \(price), quantity \(quantity)" }
    }

    /// The baseline: the hand-written SQL stepped with sqlite3 calls, every column read into
    /// Swift values (strings included), as an application's own row decoding would.
    public static func fetchRaw(_ db: OpaquePointer) throws -> Checksum {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, handWrittenSQL, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw FixtureError(description: String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_double(statement, 1, 50)
        var sum = Checksum()
        while sqlite3_step(statement) == SQLITE_ROW {
            let key = sqlite3_column_int64(statement, 0)
            let id = text(statement, 1)
            let name = text(statement, 2)
            let price = sqlite3_column_double(statement, 3)
            let quantity = sqlite3_column_int64(statement, 4)
            let added = Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 5))
            sum.rows += 1
            sum.characters += id.utf8.count + "Item".utf8.count + name.utf8.count + (added.timeIntervalSinceReferenceDate > 0 ? 0 : 1) + Int(key & 0)
            sum.price += price
            sum.quantity &+= quantity
        }
        return sum
    }

    private static func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    public static func openRaw(_ url: URL) throws -> OpaquePointer {
        var db: OpaquePointer?
        guard sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else {
            throw FixtureError(description: "cannot open \(url.path)")
        }
        return db
    }

    /// The Sift fetch: the statement's objects, streamed in batches, each attribute read.
    public static func fetchSift(_ store: SQLiteStore, batchSize: Int = 1_000) throws -> Checksum {
        var request = try FetchRequest(statement: statement)
        request.fetchBatchSize = batchSize
        var sum = Checksum()
        for object in try store.fetch(request) {
            sum.rows += 1
            if case .string(let name)? = object[attribute: "name"] { sum.characters += name.utf8.count }
            sum.characters += object.objectID.rawValue.utf8.count + object.entityName.utf8.count
            if case .double(let price)? = object[attribute: "price"] { sum.price += price }
            if case .int(let quantity)? = object[attribute: "quantity"] { sum.quantity &+= quantity }
            if case .date(let added)? = object[attribute: "added"], added.timeIntervalSinceReferenceDate <= 0 { sum.characters += 1 }
        }
        return sum
    }

    /// The same rows read with `SQLiteStore.forEachRow`: no object per row, each attribute
    /// read by a handle named once (`RowAttribute`).
    public static func fetchRows(_ store: SQLiteStore) throws -> Checksum {
        let request = try FetchRequest(statement: statement)
        let attribute = { (name: String) in store.model.entity(named: "Item").map { RowAttribute(name, of: $0) } ?? RowAttribute(name) }
        let nameAttribute = attribute("name"), priceAttribute = attribute("price")
        let quantityAttribute = attribute("quantity"), addedAttribute = attribute("added")
        var sum = Checksum()
        try store.forEachRow(request) { row in
            sum.rows += 1
            if case .string(let name)? = row[attribute: nameAttribute] { sum.characters += name.utf8.count }
            sum.characters += row.objectID.rawValue.utf8.count + row.entityName.utf8.count
            if case .double(let price)? = row[attribute: priceAttribute] { sum.price += price }
            if case .int(let quantity)? = row[attribute: quantityAttribute] { sum.quantity &+= quantity }
            if case .date(let added)? = row[attribute: addedAttribute], added.timeIntervalSinceReferenceDate <= 0 { sum.characters += 1 }
        }
        return sum
    }
}
