import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// A store of layout version 2, whose Decimal columns were declared REAL and held the double
/// nearest each decimal: it reads as it did (each REAL through its shortest text), exactly and
/// with its fetches in SQL, is left alone by reads, and its first change makes it version 3 —
/// the columns declared TEXT holding each decimal's text, the other values, keys and indexes as
/// they were. A change while a fetch's objects are still being read cannot migrate: it fails
/// before anything changed, and the reading goes on.
@Suite struct DecimalLayoutMigrationTests {
    /// `fee` is a Decimal of `Special` and a Double of its sibling `Plain`: version 2 declared the
    /// column REAL (both were REAL), version 3 declares no type, and only `Special` rows change.
    static let model = #"""
    {"name": "Ledger", "entities": [
      {"name": "Basket", "attributes": [{"name": "label", "type": "String"}],
       "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "basket"}]},
      {"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "price", "type": "Decimal"}],
       "relationships": [{"name": "basket", "destination": "Basket", "inverse": "items"}],
       "indexes": [["price"]], "uniquenessConstraints": [["name"]]},
      {"name": "Special", "parent": "Item", "attributes": [{"name": "fee", "type": "Decimal"}]},
      {"name": "Plain", "parent": "Item", "attributes": [{"name": "fee", "type": "Double"}]}
    ]}
    """#

    /// A version-2 store, written with the SQL version 2 wrote.
    static func versionTwoStore(at url: URL) throws {
        let modelJSON = JSONModelFormat.write(try JSONModelFormat.read(Data(model.utf8)))
        let database = try SQLiteDatabase(path: url.path, options: [.create])
        try database.execute("""
            CREATE TABLE "sift.metadata" ("key" TEXT PRIMARY KEY NOT NULL, "value");
            CREATE TABLE "Basket" ("_pk" INTEGER PRIMARY KEY, "_id" TEXT NOT NULL UNIQUE, "_entity" TEXT NOT NULL, "label" TEXT);
            CREATE TABLE "Item" ("_pk" INTEGER PRIMARY KEY, "_id" TEXT NOT NULL UNIQUE, "_entity" TEXT NOT NULL, "name" TEXT, "price" REAL, "basket" INTEGER, "fee" REAL);
            CREATE INDEX "Item._entity" ON "Item" ("_entity");
            CREATE INDEX "Item.basket" ON "Item" ("basket");
            CREATE INDEX "Item.index1.price" ON "Item" ("price");
            CREATE INDEX "Item.unique1.name" ON "Item" ("name");
            INSERT INTO "Basket" VALUES (1, 'k1', 'Basket', 'one');
            INSERT INTO "Item" VALUES (2, 'i1', 'Item', 'a', 12.552, 1, NULL), (3, 'i2', 'Special', 'b', 0.1, 1, 0.2),
                (4, 'i3', 'Plain', 'c', 1e20, 1, 0.1), (5, 'i4', 'Item', 'd', NULL, NULL, NULL), (6, 'i5', 'Special', 'e', 0.3, 1, NULL);
            """)
        try database.run(#"INSERT INTO "sift.metadata" VALUES ('format', 'sift'), ('version', 2), ('model', ?1)"#, [.text(modelJSON)])
    }

    static func withVersionTwoStore(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-decimal-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("old.sqlite")
        try versionTwoStore(at: url)
        try body(url)
    }

    static func decimal(_ text: String) -> Value { Decimal(string: text, locale: nil).map(Value.decimal) ?? .null }

    static func exact(_ value: Value?) -> String { value.map { $0.isNull ? "nil" : "\($0.kindName) \(ValueText.text($0))" } ?? "none" }

    static func ids(_ store: SQLiteStore, _ statement: String) throws -> [String] {
        try store.fetch(FetchRequest(statement: statement)).map(\.objectID.rawValue)
    }

    /// What every version reads alike: the values, exact, and fetches over them (in SQL).
    static func checkReads(_ store: SQLiteStore) throws {
        #expect(exact(store.object(with: "i1")?[attribute: "price"]) == "decimal 12.552")
        #expect(exact(store.object(with: "i2")?[attribute: "price"]) == "decimal 0.1")
        #expect(exact(store.object(with: "i2")?[attribute: "fee"]) == "decimal 0.2")
        #expect(exact(store.object(with: "i3")?[attribute: "price"]) == "decimal 100000000000000000000")
        #expect(exact(store.object(with: "i3")?[attribute: "fee"]) == "double 0.1")
        #expect(exact(store.object(with: "i4")?[attribute: "price"]) == "nil")
        #expect(try ids(store, "Item WHERE price > 12.5") == ["i1", "i3"])
        #expect(try ids(store, "Item WHERE price == CAST('12.552', 'NSDecimalNumber')") == ["i1"])
        #expect(try ids(store, "Item WHERE price + CAST('0.2', 'NSDecimalNumber') == CAST('0.3', 'NSDecimalNumber') OR price == 0.3") == ["i2", "i5"])
        #expect(try ids(store, "Item SORT BY price DESC") == ["i3", "i1", "i5", "i2", "i4"])
        #expect(try ids(store, "Special WHERE fee == CAST('0.2', 'NSDecimalNumber')") == ["i2"])
        #expect(try ids(store, "Basket WHERE items.@sum.price == CAST('100000000000000000012.952', 'NSDecimalNumber')") == ["k1"])
        #expect(try store.generatedSQL(for: FetchRequest(statement: "Basket WHERE items.@sum.price > 1 SORT BY label")).inMemoryPredicate == nil)
        guard case .dictionaries(let rows) = try store.execute(FetchRequest(statement: "SELECT basket, sum:(price) AS total, max:(price) AS top FROM Item WHERE basket != nil GROUP BY basket")) else {
            Issue.record("not dictionaries")
            return
        }
        #expect(rows.map { exact($0["total"]) + ", " + exact($0["top"]) } == ["decimal 100000000000000000012.952, decimal 100000000000000000000"])
    }

    @Test func aVersionTwoStoreReadsExactlyAndIsMigratedByItsFirstChange() throws {
        try Self.withVersionTwoStore { url in
            // Reading changes nothing.
            let before = try Data(contentsOf: url)
            do {
                let store = try SQLiteStore.open(at: url)
                try Self.checkReads(store)
                #expect(try store.rawRows(#"SELECT typeof("price") FROM "Item" WHERE "_id" = 'i1'"#) == [[.text("real")]])
            }
            #expect(try Data(contentsOf: url) == before)

            // The first change migrates, inside its transaction.
            let store = try SQLiteStore.open(at: url)
            try store.insert("Special", id: "i6", ["name": .string("f"), "price": Self.decimal("0.30000000000000000000000000001"), "fee": Self.decimal("12.495")],
                             relationships: ["basket": ["k1"]])
            try store.insert("Item", id: "i7", ["name": .string("a")])  // a duplicate name, pending until save
            #expect(throws: StoreError.self) { try store.save() }
            try store.update("i7", ["name": .string("g")])
            try store.save()
            #expect(try store.rawRows(#"SELECT "value" FROM "sift.metadata" WHERE "key" = 'version'"#) == [[.integer(StoreLayoutMigration.currentVersion)]])
            #expect(try store.rawRows(#"SELECT "name", "type" FROM pragma_table_info('Item') WHERE "name" IN ('price', 'fee') ORDER BY "cid""#)
                    == [[.text("price"), .text("TEXT")], [.text("fee"), .text("")]])
            #expect(try store.rawRows(#"SELECT "_pk", "_id", "price", typeof("price"), "fee", typeof("fee") FROM "Item" ORDER BY "_pk""#) == [
                [.integer(2), .text("i1"), .text("12.552"), .text("text"), .null, .text("null")],
                [.integer(3), .text("i2"), .text("0.1"), .text("text"), .text("0.2"), .text("text")],
                [.integer(4), .text("i3"), .text("100000000000000000000"), .text("text"), .real(0.1), .text("real")],
                [.integer(5), .text("i4"), .null, .text("null"), .null, .text("null")],
                [.integer(6), .text("i5"), .text("0.3"), .text("text"), .null, .text("null")],
                [.integer(7), .text("i6"), .text("0.30000000000000000000000000001"), .text("text"), .text("12.495"), .text("text")],
                [.integer(8), .text("i7"), .null, .text("null"), .null, .text("null")],
            ])
            #expect(try store.rawRows(#"SELECT "name" FROM pragma_index_list('Item') ORDER BY "name""#).map { $0.first ?? .null }
                    == ["Item._entity", "Item.basket", "Item.index1.price", "Item.unique1.name", "sqlite_autoindex_Item_1"].map { SQLiteValue.text($0) })
            #expect(try store.rawRows("PRAGMA integrity_check") == [[.text("ok")]])

            try store.delete("i6")
            try store.delete("i7")
            try store.save()
            let reopened = try SQLiteStore.open(at: url)
            try Self.checkReads(reopened)
            #expect(try Self.ids(reopened, "Basket WHERE ANY items.price == 0.1") == ["k1"])
        }
    }

    /// A change while a fetch's objects are being read (a statement of the connection still on
    /// a row) cannot drop the table it rebuilds: it fails before changing anything, the reading
    /// goes on, and the change works once it is done.
    @Test func aChangeWhileAFetchIsReadWaitsForItToEnd() throws {
        try Self.withVersionTwoStore { url in
            let store = try SQLiteStore.open(at: url)
            var request = try FetchRequest(statement: "Item SORT BY name")
            request.fetchBatchSize = 1
            var read: [String] = []
            for object in try store.fetch(request) {
                read.append(object.objectID.rawValue)
                if read.count == 2 {
                    let error = #expect(throws: StoreError.self) { try store.update("i1", ["price": Self.decimal("1.25")]) }
                    #expect(error?.code == .locked, "\(String(describing: error))")
                    #expect(error?.message.contains("finish reading") == true, "\(String(describing: error))")
                    #expect(!store.hasChanges)
                }
            }
            #expect(read == ["i1", "i2", "i3", "i4", "i5"])
            #expect(try store.rawRows(#"SELECT "value" FROM "sift.metadata" WHERE "key" = 'version'"#) == [[.integer(2)]])
            try store.update("i1", ["price": Self.decimal("1.25")])
            try store.save()
            #expect(try store.rawRows(#"SELECT "price" FROM "Item" WHERE "_id" = 'i1'"#) == [[.text("1.25")]])
            #expect(try store.rawRows(#"SELECT "value" FROM "sift.metadata" WHERE "key" = 'version'"#) == [[.integer(StoreLayoutMigration.currentVersion)]])
        }
    }
}
