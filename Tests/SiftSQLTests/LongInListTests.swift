import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// `key IN %@` with a list longer than SQLite's variable limit (250,000 here): the SQLite store
/// binds a long list of integers or texts as one JSON array (`json_each`), so it answers as
/// the evaluator does, at the top level, negated and inside SUBQUERY, with no limit but memory
/// and in time linear in the list; `IN[c]`/`IN[cd]` likewise, on the fold of each row's text. (Numbered parameters cost SQLite a search each: 80,000 took
/// 16 s, and 1,000,000 failed with "variable number must be between ?1 and ?250000".)
@Suite struct LongInListTests {
    static let modelJSON = #"""
    {"name": "Lists", "entities": [
      {"name": "Box", "attributes": [{"name": "label", "type": "String"}],
       "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "box"}]},
      {"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "n", "type": "Integer 64"},
                                      {"name": "flag", "type": "Boolean"}],
       "relationships": [{"name": "box", "destination": "Box", "inverse": "items"}]}]}
    """#

    static let names = ["plain", "with \"quotes\"", "back\\slash", "tab\there", "line\nbreak", "é", "日本", "🙂", "\u{1}", ""]

    static func stores() throws -> [any PersistentStore] {
        let model = try JSONModelFormat.read(Data(modelJSON.utf8))
        let stores: [any PersistentStore] = [AtomicStore.inMemory(model: model), try SQLiteStore.inMemory(model: model)]
        for store in stores {
            for b in 0..<4 { try store.insert("Box", id: ObjectID("b\(b)"), ["label": .string("box \(b)")]) }
            for (i, name) in names.enumerated() {
                try store.insert("Item", id: ObjectID("i\(i)"), ["name": .string(name), "n": .int(Int64(i) * 1_000_003 - 4),
                                                                 "flag": .bool(i % 2 == 0)],
                                 relationships: ["box": [ObjectID("b\(i % 3)")]])
            }
            try store.save()
        }
        return stores
    }

    static let count = 250_001

    /// Lists past the variable limit: most values match nothing; a few match some rows.
    static var lists: [(String, [Any?])] { [
        // ("PLAIN" and "É" match under [c] only; nil matches no name.)
        ("name", (0..<count).map { "missing \($0)" } + [names[1], names[2], names[3], names[6], names[8], names[9], "PLAIN", "É", nil]),
        ("n", (0..<Int64(count)).map { $0 * 7 + 1 } + [-4, 3_000_005, Int64.max, Int64.min]),
    ] }

    static func ids(_ store: any PersistentStore, _ request: FetchRequest) throws -> [String] {
        try store.fetch(request).checkedObjectIDs().map(\.rawValue).sorted()
    }

    @Test(arguments: 0..<2)
    func aListPastTheVariableLimitAnswersAsTheEvaluator(_ index: Int) throws {
        let (key, list) = Self.lists[index]
        let stores = try Self.stores()
        let predicates = [("Item", "\(key) IN %@"), ("Item", "NOT (\(key) IN %@)"),
                          ("Box", "SUBQUERY(items, $i, $i.\(key) IN %@).@count > 0")]
            // [c] and [cd] on a text that is not searchable: its fold against the folded list.
            + (key == "name" ? [("Item", "name IN[c] %@"), ("Item", "NOT (name IN[cd] %@)"),
                                ("Box", "SUBQUERY(items, $i, $i.name IN[cd] %@).@count > 0")] : [])
        for (entity, predicate) in predicates {
            let request = try FetchRequest(entityName: entity, predicate: predicate, arguments: [list])
            let expected = try Self.ids(stores[0], request)
            #expect(try Self.ids(stores[1], request) == expected, "\(predicate)")
            #expect(!expected.isEmpty, "\(predicate): a test that matches nothing proves little")
        }
    }

    /// The SQL binds the list once, as JSON, and a short list keeps one parameter per value.
    @Test func aLongListIsOneParameter() throws {
        let stores = try Self.stores()
        let sqlite = try #require(stores[1] as? SQLiteStore)
        let long = try sqlite.generatedSQL(for: FetchRequest(entityName: "Item", predicate: "name IN %@", arguments: [(0..<100).map { "v\($0)" }])).sql
        #expect(long.contains(#""name" IN (SELECT value FROM json_each(?1))"#), "\(long)")
        let folded = try sqlite.generatedSQL(for: FetchRequest(entityName: "Item", predicate: "name IN[cd] %@", arguments: [(0..<100).map { "v\($0)" }])).sql
        #expect(folded.contains(#"sift_fold("t0"."name", 3) IN (SELECT value FROM json_each(?1))"#), "\(folded)")
        let short = try sqlite.generatedSQL(for: FetchRequest(entityName: "Item", predicate: "name IN %@", arguments: [["a", "b"]])).sql
        #expect(short.contains(#""name" IN (?1, ?2)"#), "\(short)")
    }
}
