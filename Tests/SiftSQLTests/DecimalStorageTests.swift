import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// Decimals on SQLite (layout version 3): stored as their canonical text, they read back
/// exactly, and every fetch over them — comparisons with numbers of every kind, arithmetic,
/// to-many aggregates, sorting, sections, grouped and whole-result aggregates, CAST — gives the
/// JSON store's answer, computed in SQL with the evaluator's decimal arithmetic (not left to
/// the evaluator on the rows). Values are chosen where doubles go wrong: 0.1 + 0.2, 12.552
/// (whose double prints as 12.552000000000001 through NSDecimalNumber), 10^20 + 0.5, and a
/// hundred times 124.95 (12495 exactly; 12495.000000000016 as doubles).
@Suite struct DecimalStorageTests {
    static let modelJSON = #"""
    {"name": "Shop", "entities": [
      {"name": "Basket", "attributes": [{"name": "label", "type": "String"}],
       "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "basket"}]},
      {"name": "Item", "attributes": [
         {"name": "name", "type": "String"}, {"name": "kind", "type": "String"},
         {"name": "price", "type": "Decimal"}, {"name": "cost", "type": "Decimal"},
         {"name": "qty", "type": "Integer 64"}, {"name": "weight", "type": "Double"}],
       "relationships": [{"name": "basket", "destination": "Basket", "inverse": "items"}],
       "indexes": [["price"]]}
    ]}
    """#

    static func decimal(_ text: String) -> Value {
        Decimal(string: text, locale: nil).map(Value.decimal) ?? .null
    }

    /// Items: (name, kind, price, cost, qty, weight, basket).
    static let items: [(String, String, String?, String?, Int64, Double, String)] = [
        ("a", "small", "0.1", "0.2", 1, 0.1, "b1"),
        ("b", "small", "0.2", "0.1", 2, 0.3, "b1"),
        ("c", "small", "0.3", "0.3", 3, 0.3, "b1"),
        ("d", "odd", "12.552", nil, 12, 12.552, "b2"),
        ("e", "big", "100000000000000000000.5", "100000000000000000000", 5, 1e20, "b2"),
        ("f", "big", "100000000000000000000", "100000000000000000000.5", 5, 1e20, "b2"),
        ("g", "odd", nil, nil, 0, 0, "b2"),
        ("h", "odd", "-0.1", "-0.1", -1, -0.1, "b3"),
        ("i", "odd", "1.5", "1.50", 1, 1.5, "b3"),
        ("j", "odd", "12.5", "12.5", 12, 12.5, "b3"),
    ]

    /// The stores, filled alike and saved: a JSON file store and a SQLite one, each reopened.
    static func stores(in directory: URL) throws -> (json: any PersistentStore, sqlite: SQLiteStore) {
        let model = try JSONModelFormat.read(Data(modelJSON.utf8))
        let jsonURL = directory.appendingPathComponent("shop.json"), sqliteURL = directory.appendingPathComponent("shop.sqlite")
        for store in [try AtomicStore.create(at: jsonURL, model: model), try SQLiteStore.create(at: sqliteURL, model: model)] as [any PersistentStore] {
            for basket in ["b1", "b2", "b3", "b4", "bulk"] { try store.insert("Basket", id: ObjectID(basket), ["label": .string(basket)]) }
            for item in items {
                try store.insert("Item", id: ObjectID(item.0), [
                    "name": .string(item.0), "kind": .string(item.1), "price": item.2.map(decimal) ?? .null, "cost": item.3.map(decimal) ?? .null,
                    "qty": .int(item.4), "weight": .double(item.5),
                ], relationships: ["basket": [ObjectID(item.6)]])
            }
            // 124.95 a hundred times: 12495 as decimals, 12495.000000000016 as doubles; 0.01 a
            // hundred times is 1, 1.0000000000000007 as doubles.
            for n in 0..<100 {
                try store.insert("Item", id: ObjectID("bulk\(n)"), ["name": .string("bulk\(n)"), "kind": .string("bulk"), "price": decimal("124.95"),
                                                                 "cost": decimal("0.01"), "qty": .int(1), "weight": .double(124.95)],
                                 relationships: ["basket": ["bulk"]])
            }
            try store.save()
        }
        return (try AtomicStore.open(at: jsonURL), try SQLiteStore.open(at: sqliteURL))
    }

    static func withStores(_ body: (any PersistentStore, SQLiteStore) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-decimals-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (json, sqlite) = try stores(in: directory)
        try body(json, sqlite)
    }

    /// A value with its kind, exactly: a decimal is not the double that prints the same.
    static func exact(_ value: Value) -> String {
        switch value {
        case .object(let object): "object \((object as? ObjectReference)?.id.rawValue ?? ValueText.text(value))"
        default: "\(value.kindName) \(ValueText.text(value))"
        }
    }

    static func observed(_ result: FetchResult) -> String {
        switch result {
        case .objects(let objects): objects.map(\.objectID.rawValue).joined(separator: " ")
        case .objectIDs(let ids): ids.map(\.rawValue).joined(separator: " ")
        case .count(let n): "\(n)"
        case .dictionaries(let rows): rows.map { "{" + $0.pairs.map { "\($0.0)=\(exact($0.1))" }.joined(separator: ", ") + "}" }.joined(separator: " ")
        }
    }

    static let predicates = [
        "Item WHERE price > 12.5",
        "Item WHERE price >= 12.5",
        "Item WHERE price < 0.2",
        "Item WHERE price == 0.1",
        "Item WHERE price == 12.552",
        "Item WHERE price != 0.1",
        "Item WHERE price == 12.5",
        "Item WHERE price == 12",
        "Item WHERE price == CAST('12.552', 'NSDecimalNumber')",
        "Item WHERE price > CAST('100000000000000000000', 'NSDecimalNumber')",
        "Item WHERE price > 99999999999999999999",
        "Item WHERE price == cost",
        "Item WHERE price != cost",
        "Item WHERE price > cost",
        "Item WHERE price < qty",
        "Item WHERE price == weight",
        "Item WHERE price + cost == CAST('0.3', 'NSDecimalNumber')",
        "Item WHERE price + cost == 0.3",
        "Item WHERE price * 2 > 3",
        "Item WHERE price * 2 == CAST('25.104', 'NSDecimalNumber')",
        "Item WHERE price - cost == 0.5",
        "Item WHERE price / 3 > CAST('0.1', 'NSDecimalNumber')",
        "Item WHERE price * 1.5 > 18",
        "Item WHERE price + qty > 13",
        "Item WHERE price BETWEEN {0.1, 12.552}",
        "Item WHERE price BETWEEN {CAST('0.2', 'NSDecimalNumber'), 12}",
        "Item WHERE price IN {0.1, 0.3, 12.552, 1.5}",
        "Item WHERE price IN {CAST('0.3', 'NSDecimalNumber'), nil}",
        "Item WHERE NOT price IN {0.1, 12.5}",
        "Item WHERE price == nil",
        "Item WHERE CAST(price, 'NSString') == '12.552'",
        "Item WHERE CAST(price, 'NSNumber') > 1",
        "Item WHERE CAST(qty, 'NSDecimalNumber') == 12",
        "Item WHERE TERNARY(qty > 2, price, cost) > 1",
        "Item WHERE basket.items.@sum.price > 100",
        "Basket WHERE items.@sum.price == 12495",
        "Basket WHERE items.@sum.price == CAST('200000000000000000000.5', 'NSDecimalNumber')",
        "Basket WHERE items.@sum.price > 0.5",
        "Basket WHERE items.@sum.price == 0",
        "Basket WHERE items.@avg.price == 0.2",
        "Basket WHERE items.@avg.price > 4",
        "Basket WHERE items.@max.price > 12.5",
        "Basket WHERE items.@min.price < 0",
        "Basket WHERE sum:(items.price) > 0.55",
        "Basket WHERE ANY items.price > 1",
        "Basket WHERE ANY items.price == 0.1",
        "Basket WHERE ALL items.price > 0.05",
        "Basket WHERE NONE items.price > 1",
        "Basket WHERE 0.3 IN items.price",
        "Basket WHERE SUBQUERY(items, $i, $i.price > $i.cost).@count > 0",
        "Basket WHERE items.@sum.cost == 1",
        "Basket WHERE items.@sum.weight == 12495",
    ]

    /// Every predicate: the JSON store's objects, in the same order, and all of it in SQL.
    @Test func predicatesAgreeAndRunInSQL() throws {
        try Self.withStores { json, sqlite in
            for statement in Self.predicates {
                for suffix in ["", statement.hasPrefix("Basket") ? " SORT BY label DESC" : " SORT BY name DESC"] {
                    let request = try FetchRequest(statement: statement + suffix)
                    let expected = Self.observed(try json.execute(request)), actual = Self.observed(try sqlite.execute(request))
                    #expect(actual == expected, "\(statement)\(suffix): SQLite \(actual), JSON \(expected)")
                }
                let generated = try sqlite.generatedSQL(for: FetchRequest(statement: statement))
                #expect(generated.inMemoryPredicate == nil, "\(statement) left \(generated.inMemoryPredicate ?? "") to the evaluator: \(generated.inMemoryReason ?? "")")
            }
        }
    }

    /// Sorting by a decimal (ties by insertion order, nil first ascending) and sections by one,
    /// in SQL.
    @Test(arguments: ["Item WHERE kind != 'bulk' SORT BY price", "Item WHERE kind != 'bulk' SORT BY price DESC",
                      "Item SORT BY cost DESC, price LIMIT 12", "Item WHERE kind != 'bulk' SORT BY basket.label, price DESC",
                      "Item SORT BY price LIMIT 3 OFFSET 8"])
    func sortingAgreesAndRunsInSQL(_ statement: String) throws {
        try Self.withStores { json, sqlite in
            let request = try FetchRequest(statement: statement)
            #expect(Self.observed(try sqlite.execute(request)) == Self.observed(try json.execute(request)))
            #expect(try !sqlite.generatedSQL(for: request).sortsInMemory)
        }
    }

    @Test(arguments: ["Item WHERE kind != 'bulk' SORT BY price SECTION BY price", "Item SORT BY price DESC SECTION BY price",
                      "Item WHERE kind != 'bulk' SORT BY name SECTION BY cost"])
    func sectionsAgreeAndRunInSQL(_ statement: String) throws {
        try Self.withStores { json, sqlite in
            let request = try FetchRequest(statement: statement)
            let expected = try json.fetchSections(request).sections.map { "\($0.name): \($0.objects.map(\.objectID.rawValue).joined(separator: " "))" }
            let actual = try sqlite.fetchSections(request).sections.map { "\($0.name): \($0.objects.map(\.objectID.rawValue).joined(separator: " "))" }
            #expect(actual == expected)
            #expect(try sqlite.generatedSQL(for: request).sectionsSQL != nil)
        }
    }

    /// Dictionary fetches: grouped by a decimal, and sums, means, extremes of decimals grouped
    /// and over the whole result — the decimals the JSON store computes, in SQL.
    @Test(arguments: [
        "SELECT kind, sum:(price) AS total, average:(price) AS mean, min:(price) AS lo, max:(price) AS hi, count:(price) AS n FROM Item GROUP BY kind",
        "SELECT kind, sum:(price) AS total FROM Item WHERE price == nil GROUP BY kind",
        "SELECT price, count:(name) AS n FROM Item GROUP BY price",
        "SELECT cost, sum:(price) AS total FROM Item GROUP BY cost SORT BY total",
        "SELECT sum:(price) AS total, sum:(cost) AS costs, average:(cost) AS mean FROM Item",
        "SELECT sum:(price) AS total FROM Item WHERE kind == 'bulk'",
        "SELECT name, price, cost FROM Item WHERE kind != 'bulk' SORT BY price",
        "SELECT label, items.@max.price AS top, items.@min.price AS bottom FROM Basket",
    ])
    func dictionariesAgreeAndRunInSQL(_ statement: String) throws {
        try Self.withStores { json, sqlite in
            let request = try FetchRequest(statement: statement)
            #expect(Self.observed(try sqlite.execute(request)) == Self.observed(try json.execute(request)))
            let generated = try sqlite.generatedSQL(for: request)
            #expect(!generated.sql.contains(#""t0"."_id""#), "\(generated)")
        }
    }

    /// The sum the issue reported: 12495 on both, a decimal.
    @Test func aHundredTimes124_95Is12495() throws {
        try Self.withStores { _, sqlite in
            guard case .dictionaries(let rows) = try sqlite.execute(FetchRequest(statement: "SELECT kind, sum:(price) AS total FROM Item WHERE kind == 'bulk' GROUP BY kind")) else {
                Issue.record("not dictionaries")
                return
            }
            #expect(rows.map { Self.exact($0["total"] ?? .null) } == ["decimal 12495"])
        }
    }

    /// What the file holds: canonical text in a TEXT column, and exactly the decimals written
    /// when read back.
    @Test func decimalsAreStoredAsTheirTextAndReadBackExactly() throws {
        try Self.withStores { _, sqlite in
            #expect(try sqlite.rawRows(#"SELECT "type" FROM pragma_table_info('Item') WHERE "name" = 'price'"#) == [[.text("TEXT")]])
            #expect(try sqlite.rawRows(#"SELECT DISTINCT typeof("price") FROM "Item" WHERE "price" IS NOT NULL"#) == [[.text("text")]])
            #expect(try sqlite.rawRows(#"SELECT "price", "cost" FROM "Item" WHERE "_id" IN ('d', 'e', 'i') ORDER BY "_id""#)
                    == [[.text("12.552"), .null], [.text("100000000000000000000.5"), .text("100000000000000000000")], [.text("1.5"), .text("1.5")]])
            for item in Self.items {
                let object = try #require(sqlite.object(with: ObjectID(item.0)))
                #expect(Self.exact(object[attribute: "price"] ?? .null) == Self.exact(item.2.map(Self.decimal) ?? .null))
            }
        }
    }

    /// The SQL functions are the evaluator's comparison and the store's reading: a decimal
    /// against a double compares as two doubles (12.552's is 12.552000000000001), against a
    /// decimal or an integer exactly; a layout-2 REAL reads through its shortest text.
    @Test func theFunctionsCompareAsTheEvaluator() throws {
        let store = try SQLiteStore.inMemory(model: try JSONModelFormat.read(Data(Self.modelJSON.utf8)))
        #expect(try store.rawRows("SELECT sift_order('12.552', 12.552, 'er'), sift_order('12.552', '12.552', 'ee'), sift_order('12.5', 12.5, 'er')")
                == [[.integer(1), .integer(0), .integer(0)]])
        #expect(try store.rawRows("SELECT sift_order('100000000000000000000.5', 100000000000000000000, 'er'), sift_order('100000000000000000000.5', '100000000000000000000', 'ee')")
                == [[.integer(0), .integer(1)]])
        #expect(try store.rawRows("SELECT sift_order('0.1', 1, 'eb'), sift_order('2', 2, 'ei'), sift_order(NULL, 2, 'ei'), sift_order('1', 'x', 'es')")
                == [[.integer(-1), .integer(0), .null, .null]])
        #expect(try store.rawRows("SELECT sift_decimal_text(12.552), sift_decimal_text('1.50'), sift_decimal_text(NULL), sift_decimal_text(3)")
                == [[.text("12.552"), .text("1.5"), .null, .text("3")]])
        #expect(try store.rawRows("SELECT sift_decimal_key('-1') < sift_decimal_key('0.5'), sift_decimal_key(NULL)") == [[.integer(1), .null]])
        #expect(throws: (any Error).self) { try store.rawRows("SELECT sift_order('1', 1, 'q')") }
    }

    /// The sort key orders as the decimals do, signs, exponents and digit counts mixed.
    @Test func theSortKeyOrdersAsTheDecimals() throws {
        let texts = ["0", "-0.5", "0.5", "1", "-1", "10", "-10", "9.99", "-9.99", "1.5", "1.51", "-1.5", "-1.51", "0.001", "-0.001",
                     "100000000000000000000.5", "100000000000000000000", "-100000000000000000000.5", "123456789012345678901234567890.12345678",
                     "0.0000000000000000000001", "2", "19", "0.19", "0.2"]
        let decimals = texts.compactMap { Decimal(string: $0, locale: nil) }
        #expect(decimals.count == texts.count)
        for a in decimals {
            for b in decimals {
                let (x, y) = (DecimalText.sortKey(a), DecimalText.sortKey(b))
                let keyOrder = x.lexicographicallyPrecedes(y) ? -1 : (x == y ? 0 : 1)
                #expect(keyOrder == (a < b ? -1 : (a == b ? 0 : 1)), "\(a) and \(b)")
            }
            #expect(DecimalText.decimal(DecimalText.text(a)) == a)
        }
    }

    /// Changes write decimals as text too: an update, and a batch update through the store rules.
    @Test func updatesWriteTheText() throws {
        try Self.withStores { json, sqlite in
            for store in [json, sqlite] as [any PersistentStore] {
                try store.update("a", ["price": Self.decimal("0.30000000000000000000000000000000000001")])
                try store.save()
            }
            #expect(try sqlite.rawRows(#"SELECT "price" FROM "Item" WHERE "_id" = 'a'"#) == [[.text("0.30000000000000000000000000000000000001")]])
            let request = try FetchRequest(statement: "Item WHERE price > CAST('0.3', 'NSDecimalNumber') AND price < 1")
            #expect(Self.observed(try sqlite.execute(request)) == "a")
            #expect(Self.observed(try sqlite.execute(request)) == Self.observed(try json.execute(request)))
        }
    }
}

/// A decimal written into a REAL column (a database Sift did not create) is the double nearest
/// it, so reading the column back as a decimal gives the decimal written.
@Suite struct DecimalIntoRealColumnTests {
    @Test(arguments: ["5.94", "0.1", "12.552", "124.95", "-0.3", "1e-7", "123456789.123456", "0"])
    func aDecimalReadsBackFromItsReal(_ text: String) throws {
        let decimal = try #require(Decimal(string: text, locale: nil))
        let stored = DecimalText.nearestDouble(decimal)
        #expect(stored == Double(text))
        let read: Value = ColumnCodec.decode(SQLValue.real(stored), as: .decimal)
        guard case .decimal(let back) = read else { Issue.record("read \(read), not a decimal"); return }
        #expect(back == decimal)
    }

    @Test func aNaNIsANaN() {
        #expect(DecimalText.nearestDouble(.nan).isNaN)
    }
}
