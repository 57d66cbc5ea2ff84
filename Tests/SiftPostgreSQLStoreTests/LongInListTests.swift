import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
@testable import SiftPostgreSQLStore
import SiftStore
import Testing

/// `key IN %@` with more values than the protocol's 65,535 parameters (issue 30 §4): the
/// PostgreSQL store binds a long list as one array per kind of value (`x IN (SELECT
/// unnest($1::bigint[]))`), so it answers as the evaluator does — integers, texts (with and
/// without `[c]`/`[cd]`), dates, doubles, negated and inside SUBQUERY — in the server; a
/// statement still binding more than 65,535 values (70,000 `%@` arguments, or `IN[d]`, an
/// equality per value) runs in memory and answers too.
@Suite struct LongInListTests {
    static let modelJSON = #"""
    {"name": "Lists", "entities": [
      {"name": "Box", "attributes": [{"name": "label", "type": "String"}],
       "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "box"}]},
      {"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "n", "type": "Integer 64"},
                                      {"name": "day", "type": "Date"}, {"name": "score", "type": "Double"}],
       "relationships": [{"name": "box", "destination": "Box", "inverse": "items"}]}]}
    """#

    /// Texts an array literal must carry as they are: quotes, backslashes, braces, commas,
    /// spaces, the word NULL, the empty text, cases and accents for `[c]`/`[cd]`.
    static let names = ["plain", "with \"quotes\"", "back\\slash", "{braces}", "a,b", " spaced ", "NULL", "", "tab\there",
                        "line\nbreak", "Émile", "emile", "日本", "🙂", "\u{1}"]

    static let count = 70_000

    static func day(_ index: Int) -> Date { Date(timeIntervalSinceReferenceDate: Double(index) * 86_400 + 3_600) }

    static func fill(_ store: any PersistentStore) throws {
        for b in 0..<4 { try store.insert("Box", id: ObjectID("b\(b)"), ["label": .string("box \(b)")]) }
        for (i, name) in names.enumerated() {
            var values: [String: Value] = ["name": .string(name), "n": .int(Int64(i) * 1_000_003 - 4),
                                           "day": .date(day(i * 37)), "score": .double(Double(i) / 8)]
            if i == 3 { values["n"] = nil; values["day"] = nil; values["score"] = nil }
            try store.insert("Item", id: ObjectID("i\(i)"), values, relationships: ["box": [ObjectID("b\(i % 3)")]])
        }
        try store.save()
    }

    /// Lists past the protocol's limit: most values match nothing, a few match some rows.
    static var lists: [(key: String, values: [Any])] { [
        ("name", (0..<count).map { "missing \($0)" } + ["with \"quotes\"", "back\\slash", "{braces}", "a,b", " spaced ", "NULL", "",
                                                        "EMILE", "日本", "\u{1}"]),
        ("n", (0..<Int64(count)).map { $0 * 7 + 1 } + [-4, 3_000_005, Int64.max, Int64.min]),
        ("day", (0..<count).map { day(-$0 - 1) } + [day(0), day(37 * 5), day(37 * 11)]),
        ("score", (0..<count).map { Double($0) + 0.3 } + [0.125, 0.25, 1.0, -0.0, .infinity, Double.leastNonzeroMagnitude]),
    ] }

    static func ids(_ store: any PersistentStore, _ request: FetchRequest) throws -> [String] {
        try store.fetch(request).checkedObjectIDs().map(\.rawValue).sorted()
    }

    @Test(arguments: 0..<4)
    func aListPastTheParameterLimitAnswersAsTheEvaluator(_ index: Int) async throws {
        let model = try JSONModelFormat.read(Data(Self.modelJSON.utf8))
        let test = try await StoreTestDatabase.make(model, label: "longin\(index)")
        defer { test.database.drop() }
        try Self.fill(test.store)
        let store = try test.reopened()
        let memory = AtomicStore.inMemory(model: model)
        try Self.fill(memory)
        let (key, list) = Self.lists[index]
        // (Each costs seconds in a debug build, mostly compiling the 70,000 constants: the
        // nested and folded forms are tried on one numeric and one text attribute.)
        var predicates = [("Item", "\(key) IN %@"), ("Item", "NOT (\(key) IN %@)")]
        if key == "n" || key == "name" { predicates.append(("Box", "SUBQUERY(items, $i, $i.\(key) IN %@).@count > 0")) }
        if key == "name" { predicates += [("Item", "name IN[c] %@"), ("Item", "NOT (name IN[cd] %@)")] }
        for (entity, predicate) in predicates {
            let request = try FetchRequest(entityName: entity, predicate: predicate, arguments: [list])
            let expected = try Self.ids(memory, request)
            #expect(try Self.ids(store, request) == expected, "\(predicate)")
            #expect(!expected.isEmpty, "\(predicate): a test that matches nothing proves little")
            let sql = try store.generatedSQL(for: request)
            let inServer = sql.inMemoryPredicate == nil, unnests = sql.sql.contains("unnest($")
            #expect(inServer, "\(predicate): \(sql.inMemoryReason ?? "")")
            #expect(unnests, "\(predicate): \(sql.sql.prefix(300))")
        }
    }

    /// 70,000 `%@` arguments, each its own parameter: more than one statement may bind, so the
    /// fetch runs in memory (the server never sees it) and answers all the same.
    @Test func moreArgumentsThanTheLimitAnswerInMemory() async throws {
        let model = try JSONModelFormat.read(Data(Self.modelJSON.utf8))
        let test = try await StoreTestDatabase.make(model, label: "longargs")
        defer { test.database.drop() }
        try Self.fill(test.store)
        let memory = AtomicStore.inMemory(model: model)
        try Self.fill(memory)
        let values: [Any] = (0..<Int64(Self.count)).map { $0 * 7 + 1 } + [-4]
        let format = Array(repeating: "n == %@", count: values.count).joined(separator: " OR ")
        let request = try FetchRequest(entityName: "Item", predicate: format, arguments: values)
        let expected = try Self.ids(memory, request)
        #expect(expected == ["i0"])
        #expect(try Self.ids(test.store, request) == expected)
        #expect(try test.store.count(request) == expected.count)
        #expect(try test.store.generatedSQL(for: request).inMemoryReason == PostgreSQLFetchPlan.parameterLimitReason)
    }
}
