import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// Searchable attributes (`"searchable": true`): the SQLite store keeps their `[cd]`- and
/// `[c]`-folded text in hidden, indexed columns, written with every write, and compiles `==`,
/// `!=`, `IN`, `BEGINSWITH`, `CONTAINS` and `ENDSWITH` with exactly those options against
/// constants to tests on them — with the evaluator's answers.
@Suite struct SearchableAttributeTests {
    static let json = #"""
    {"name": "People", "entities": [
      {"name": "Person",
       "attributes": [{"name": "name", "type": "String", "searchable": true}, {"name": "city", "type": "String"}],
       "relationships": [{"name": "pets", "destination": "Pet", "toMany": true, "inverse": "owner"}]},
      {"name": "Pet",
       "attributes": [{"name": "name", "type": "String", "optional": false, "searchable": true}],
       "relationships": [{"name": "owner", "destination": "Person", "inverse": "pets"}]}
    ]}
    """#

    static func model(searchable: Bool = true) throws -> DataModel {
        try JSONModelFormat.read(Data((searchable ? json : json.replacingOccurrences(of: #", "searchable": true"#, with: "")).utf8))
    }

    /// Names that fold in every tricky way: ß and its capital spelling, an umlaut, a ligature,
    /// a combining sequence and its precomposed twin, a mark that does not compose, the empty
    /// string and nil, emoji, and code points at the ends of the prefix range (U+10FFFF, the
    /// surrogate gap).
    static let names: [(id: ObjectID, name: String?)] = [
        ("s1", "Straße"), ("s2", "STRASSE"), ("a1", "Ärger"), ("a2", "arger"), ("f1", "\u{FB01}ne"), ("f2", "Fine"),
        ("e1", "e\u{301}clair"), ("e2", "Éclair"), ("z", ""), ("n", nil), ("j", "👍🏽 Thumbs"),
        ("m1", "\u{10FFFF}a"), ("m2", "\u{10FFFF}"), ("d", "e\u{323}\u{301}"), ("k1", "\u{D7FF}x"), ("k2", "\u{E000}"),
    ]

    static func fill(_ store: any PersistentStore) throws {
        for (id, name) in names {
            try store.insert("Person", id: id, name.map { ["name": .string($0)] } ?? [:])
        }
        try store.insert("Pet", id: "p1", ["name": .string("Rêx")], relationships: ["owner": ["s1"]])
        try store.insert("Pet", id: "p2", ["name": .string("Max")], relationships: ["owner": ["a1"]])
        try store.save()
    }

    static func store(searchable: Bool = true) throws -> SQLiteStore {
        let store = try SQLiteStore.inMemory(model: try model(searchable: searchable))
        try fill(store)
        return store
    }

    static let everyone: Set<ObjectID> = Set(names.map(\.id))

    struct Case: Sendable, CustomTestStringConvertible {
        let statement: String
        let arguments: [String]
        let expected: Set<ObjectID>
        /// Whether the SQL reads a hidden folded column.
        let folded: Bool
        init(_ statement: String, _ expected: Set<ObjectID>, arguments: [String] = [], folded: Bool = true) {
            self.statement = statement
            self.arguments = arguments
            self.expected = expected
            self.folded = folded
        }
        var testDescription: String { statement + (arguments.isEmpty ? "" : " \(arguments.map { $0.unicodeScalars.map { String($0.value, radix: 16) } })") }
    }

    static let cases: [Case] = [
        Case("Person WHERE name ==[cd] 'strasse'", ["s1", "s2"]),
        Case("Person WHERE name ==[c] 'STRAßE'", ["s1", "s2"]),
        Case("Person WHERE 'STRASSE' ==[c] name", ["s1", "s2"]),
        Case("Person WHERE name ==[cd] 'ARGER'", ["a1", "a2"]),
        Case("Person WHERE name ==[c] 'ARGER'", ["a2"]),
        Case("Person WHERE name ==[c] 'FINE'", ["f1", "f2"]),
        Case("Person WHERE name ==[c] %@", ["e1", "e2"], arguments: ["E\u{301}CLAIR"]),
        Case("Person WHERE name ==[cd] 'eclair'", ["e1", "e2"]),
        Case("Person WHERE name ==[cd] ''", ["z"]),
        Case("Person WHERE name ==[cd] 'e'", ["d"]),
        Case("Person WHERE name !=[cd] 'eclair'", everyone.subtracting(["e1", "e2"])),
        Case("Person WHERE NOT name ==[c] 'fine'", everyone.subtracting(["f1", "f2"])),
        Case("Person WHERE name IN[cd] {'strasse', 'ECLAIR', nil}", ["s1", "s2", "e1", "e2", "n"]),
        Case("Person WHERE name IN[c] {'arger', 5}", ["a2"]),
        Case("Person WHERE NOT name IN[cd] {'arger', 'fine'}", everyone.subtracting(["a1", "a2", "f1", "f2"])),
        Case("Person WHERE name BEGINSWITH[cd] 'AR'", ["a1", "a2"]),
        Case("Person WHERE name BEGINSWITH[c] 'ä'", ["a1"]),
        Case("Person WHERE name BEGINSWITH[cd] 'e'", ["e1", "e2", "d"]),
        Case("Person WHERE name BEGINSWITH[c] 'e'", []),
        Case("Person WHERE name BEGINSWITH[c] 'ss'", []),
        Case("Person WHERE name BEGINSWITH[c] %@", ["m1", "m2"], arguments: ["\u{10FFFF}"]),
        Case("Person WHERE name BEGINSWITH[c] %@", ["m1"], arguments: ["\u{10FFFF}a"]),
        Case("Person WHERE name BEGINSWITH[cd] %@", ["k1"], arguments: ["\u{D7FF}"]),
        Case("Person WHERE name BEGINSWITH[cd] '👍'", ["j"]),
        Case("Person WHERE name BEGINSWITH[cd] ''", [], folded: false),
        Case("Person WHERE NOT name BEGINSWITH[cd] 'ar'", everyone.subtracting(["a1", "a2"])),
        Case("Person WHERE name CONTAINS[cd] 'RAS'", ["s1", "s2"]),
        Case("Person WHERE name CONTAINS[c] 'ß'", ["s1", "s2"]),
        Case("Person WHERE name CONTAINS[cd] '🏽 t'", ["j"]),
        Case("Person WHERE 'ras' IN[cd] name", ["s1", "s2"]),
        Case("Person WHERE name ENDSWITH[cd] 'AIR'", ["e1", "e2"]),
        Case("Person WHERE name ENDSWITH[c] 'E'", ["s1", "s2", "f1", "f2"]),
        Case("Person WHERE name ENDSWITH[c] %@", ["d"], arguments: ["\u{301}"]),
        Case("Person WHERE name ENDSWITH[cd] %@", [], arguments: ["\u{301}"], folded: false),
        Case("Person WHERE name ENDSWITH[cd] 'strasse'", ["s1", "s2"]),
        Case("Person WHERE name ENDSWITH[cd] 'xstrasse'", []),
        Case("Person WHERE ANY pets.name ==[cd] 'REX'", ["s1"]),
        Case("Person WHERE name BEGINSWITH[d] 'E'", ["e2"], folded: false),
        Case("Person WHERE name LIKE[cd] 'ar*'", ["a1", "a2"], folded: false),
        // An empty pattern is no needle: it matches "" (the differential found it false).
        Case("Person WHERE name LIKE[c] ''", ["z"], folded: false),
        Case("Person WHERE name LIKE[cd] ''", ["z"], folded: false),
        Case("Person WHERE name MATCHES[cd] ''", ["z"], folded: false),
        Case("Person WHERE NOT name LIKE[c] ''", everyone.subtracting(["z"]), folded: false),
    ]

    /// Each answer is the expected one, on the store with the hidden columns, on the same
    /// store without them, and in memory.
    @Test(arguments: cases)
    func answersAreTheEvaluators(_ c: Case) throws {
        let request = try FetchRequest(statement: c.statement, arguments: c.arguments)
        let store = try Self.store()
        let generated = try store.generatedSQL(for: request)
        #expect(generated.inMemoryPredicate == nil)
        #expect(generated.sql.contains(#"."_cd_name""#) || generated.sql.contains(#"."_c_name""#) == c.folded, "\(generated.sql)")
        #expect(Set(try store.fetch(request).objectIDs) == c.expected)
        #expect(try store.count(request) == c.expected.count)
        #expect(Set(try Self.store(searchable: false).fetch(request).objectIDs) == c.expected)
        let memory = AtomicStore.inMemory(model: try Self.model())
        try Self.fill(memory)
        #expect(Set(try memory.fetch(request).objectIDs) == c.expected)
    }

    struct Golden: Sendable, CustomTestStringConvertible {
        let statement: String
        let condition: String
        let bindings: [String]
        var testDescription: String { statement }
    }

    static let golden: [Golden] = [
        Golden(statement: "Person WHERE name ==[cd] 'Straße'", condition: #""t0"."_cd_name" = ?1"#, bindings: ["'strasse'"]),
        Golden(statement: "Person WHERE name ==[c] 'Ärger'", condition: #""t0"."_c_name" = ?1"#, bindings: ["'ärger'"]),
        Golden(statement: "Person WHERE name !=[cd] 'Ärger'", condition: #""t0"."_cd_name" IS NOT ?1"#, bindings: ["'arger'"]),
        Golden(statement: "Person WHERE name IN[cd] {'Ab', 'É', nil}", condition: #""t0"."_cd_name" IN (?1, ?2) OR "t0"."_cd_name" IS NULL"#, bindings: ["'ab'", "'e'"]),
        Golden(statement: "Person WHERE name BEGINSWITH[cd] 'AB'", condition: #""t0"."_cd_name" >= ?1 AND "t0"."_cd_name" < ?2"#, bindings: ["'ab'", "'ac'"]),
        Golden(statement: "Person WHERE name CONTAINS[c] 'AB'", condition: #"instr("t0"."_c_name", ?1) > 0"#, bindings: ["'ab'"]),
        Golden(statement: "Person WHERE name ENDSWITH[cd] 'ÄB'", condition: #"substr(CAST("t0"."_cd_name" AS BLOB), -length(CAST(?1 AS BLOB))) = CAST(?1 AS BLOB)"#, bindings: ["'ab'"]),
        Golden(statement: "Person WHERE name <[c] 'Ab'", condition: #""t0"."_c_name" < ?1"#, bindings: ["'ab'"]),
        Golden(statement: "Person WHERE NOT name BEGINSWITH[c] 'a'", condition: #"NOT coalesce("t0"."_c_name" >= ?1 AND "t0"."_c_name" < ?2, 0)"#, bindings: ["'a'", "'b'"]),
        Golden(statement: "Pet WHERE owner.name ==[cd] 'x'", condition: #""t1"."_cd_name" = ?1"#, bindings: ["'x'"]),
        Golden(statement: "Person WHERE name BEGINSWITH[d] 'a'", condition: #"sift_beginswith("t0"."name", ?1, 2)"#, bindings: ["'a'"]),
    ]

    @Test(arguments: golden)
    func compilesTo(_ g: Golden) throws {
        let store = try Self.store()
        let generated = try store.generatedSQL(for: try FetchRequest(statement: g.statement))
        let condition = generated.sql.range(of: " WHERE ").flatMap { start in
            generated.sql.range(of: " ORDER BY ").map { String(generated.sql[start.upperBound..<$0.lowerBound]) }
        }
        #expect(condition == g.condition, "\(generated.sql)")
        #expect(generated.bindings.map(\.description) == g.bindings)
    }

    /// The prefix range's upper bound: the last scalar incremented, past the surrogates, after
    /// U+10FFFF carried; none for a prefix of U+10FFFFs only.
    @Test(arguments: [
        ("ab", "ac"), ("a\u{D7FF}", "a\u{E000}"), ("a\u{10FFFF}", "b"), ("ab\u{10FFFF}\u{10FFFF}", "ac"), ("\u{10FFFF}", nil), ("", nil),
    ] as [(String, String?)])
    func prefixSuccessor(_ prefix: String, _ successor: String?) {
        #expect(PredicateSQLCompiler.successor(of: prefix) == successor)
    }

    @Test(arguments: [
        "Person WHERE name BEGINSWITH[cd] 'ab'", "Person WHERE name ==[cd] 'x'", "Person WHERE name IN[cd] {'x', 'Y'}",
        "Person WHERE name BEGINSWITH[c] 'ab'", "Person WHERE name ==[c] 'x'", "Person WHERE name IN[c] {'x', 'Y', nil}",
    ])
    func foldedTestsSearchTheIndex(_ statement: String) throws {
        let plan = try Self.store().queryPlan(for: try FetchRequest(statement: statement))
        #expect(plan.contains { $0.contains("SEARCH t0 USING INDEX Person._c") }, "\(plan)")
        #expect(!plan.contains { $0.contains("SCAN t0") }, "\(plan)")
    }

    /// Updates and inserts (and an import's inserts) write the folded text with the attribute;
    /// it is never an attribute of the objects read back.
    @Test func everyWriteKeepsTheFoldedTextAndObjectsDoNotShowIt() throws {
        let store = try Self.store()
        try store.update("s1", ["name": .string("Ölçü")])
        try store.update("a2", ["name": .null])
        try store.batchUpdate(entity: "Person", predicate: PredicateNode(format: "name ==[c] 'fine'"), set: ["name": ExpressionNode(format: "uppercase:(name)")])
        try store.save()
        #expect(try store.rawRows(#"SELECT "_cd_name", "_c_name" FROM "Person" WHERE "_id" IN ('s1', 'a2', 'e1', 'f1') ORDER BY "_id""#)
                == [[.null, .null], [.text("eclair"), .text("éclair")], [.text("fine"), .text("fine")], [.text("olcu"), .text("ölçü")]])
        #expect(try store.rawRows(#"SELECT "name" FROM "Person" WHERE "_id" = 'f1'"#) == [[.text("FINE")]])
        #expect(try store.fetch(FetchRequest(statement: "Person WHERE name BEGINSWITH[cd] 'OLC'")).objectIDs == ["s1"])
        let object = try #require(store.object(with: "s1"))
        #expect(object.attributeValues.keys.sorted() == ["city", "name"])
        #expect(store.model.entity(named: "Person")?.attributes.map(\.name) == ["name", "city"])
    }

    /// A model may not name an attribute as a hidden column of the same table.
    @Test func anAttributeMayNotTakeAHiddenColumnsName() throws {
        let json = Self.json.replacingOccurrences(of: #"{"name": "city", "type": "String"}"#, with: #"{"name": "_cd_name", "type": "String"}"#)
        #expect(throws: StoreError.self) { try SQLiteStore.inMemory(model: try JSONModelFormat.read(Data(json.utf8))) }
    }

    /// A store whose stored model newly marks an attribute searchable (or one written before
    /// searchable attributes, layout version 3) reads without the hidden columns, and gains
    /// them — filled and indexed — in its first write transaction.
    @Test func anExistingStoreGainsTheColumnsAtItsFirstChange() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-searchable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("people.sqlite")
        do {
            let store = try SQLiteStore.create(at: url, model: try Self.model(searchable: false))
            try Self.fill(store)
            try store.database.run(#"UPDATE "sift.metadata" SET "value" = ?1 WHERE "key" = 'model'"#, [.text(JSONModelFormat.write(try Self.model()))])
            try store.database.execute(#"UPDATE "sift.metadata" SET "value" = 3 WHERE "key" = 'version'"#)
        }
        let request = try FetchRequest(statement: "Person WHERE name BEGINSWITH[cd] 'AR'")
        let before = try Data(contentsOf: url)
        let store = try SQLiteStore.open(at: url)
        #expect(store.model.entity(named: "Person")?.attributes.first?.isSearchable == true)
        #expect(try store.generatedSQL(for: request).sql.contains("sift_beginswith"))
        #expect(Set(try store.fetch(request).objectIDs) == ["a1", "a2"])
        #expect(try Data(contentsOf: url) == before)

        try store.insert("Person", id: "a3", ["name": .string("ÀRGH")])
        #expect(try store.generatedSQL(for: request).sql.contains(#""t0"."_cd_name" >= ?1"#))
        #expect(Set(try store.fetch(request).objectIDs) == ["a1", "a2", "a3"])
        try store.save()
        #expect(try store.rawRows(#"SELECT "value" FROM "sift.metadata" WHERE "key" = 'version'"#) == [[.integer(StoreLayoutMigration.currentVersion)]])
        #expect(try store.rawRows(#"SELECT "_cd_name", "_c_name" FROM "Person" WHERE "_id" IN ('a1', 'a3', 'n') ORDER BY "_id""#)
                == [[.text("arger"), .text("ärger")], [.text("argh"), .text("àrgh")], [.null, .null]])
        #expect(try store.rawRows(#"SELECT "_cd_name" FROM "Pet" ORDER BY "_pk""#) == [[.text("rex")], [.text("max")]])

        let reopened = try SQLiteStore.open(at: url)
        #expect(try reopened.queryPlan(for: request).contains { $0.contains("SEARCH t0 USING INDEX Person._cd_name") })
        #expect(Set(try reopened.fetch(request).objectIDs) == ["a1", "a2", "a3"])
    }

    /// A change rolled back takes the columns its migration added with it; fetches then read
    /// the attribute again, and the next change adds them once more.
    @Test func aRolledBackMigrationLeavesNoColumnsBehind() throws {
        let store = try SQLiteStore.inMemory(model: try Self.model(searchable: false))
        try Self.fill(store)
        try store.database.run(#"UPDATE "sift.metadata" SET "value" = ?1 WHERE "key" = 'model'"#, [.text(JSONModelFormat.write(try Self.model()))])
        let reread = try SQLiteStore(url: nil, database: store.database, schema: try SQLSchema.forModel(try Self.model()))
        reread.schema.searchColumns.isPresent = false
        try reread.insert("Person", id: "x", ["name": .string("Ärmel")])
        #expect(reread.schema.searchColumns.isPresent)
        reread.rollback()
        #expect(!reread.schema.searchColumns.isPresent)
        let request = try FetchRequest(statement: "Person WHERE name BEGINSWITH[cd] 'ar'")
        #expect(Set(try reread.fetch(request).objectIDs) == ["a1", "a2"])
        try reread.insert("Person", id: "x", ["name": .string("Ärmel")])
        #expect(Set(try reread.fetch(request).objectIDs) == ["a1", "a2", "x"])
        #expect(try reread.generatedSQL(for: request).sql.contains("_cd_name"))
    }
}
