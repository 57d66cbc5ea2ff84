import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// 10,000 conditions joined by AND or OR: SQLite's parser nests each operand one level deeper
/// and stopped at 1,000 ("Expression tree is too large", with a hint about another program
/// changing the file), where the JSON and PostgreSQL stores answered. Long lists are now written
/// as balanced trees, so every store answers as the evaluator does, also inside SUBQUERY.
@Suite struct LongConditionListTests {
    static let predicates: [(String, String)] = [
        ("Item", (0..<10_000).map { "name != \"x\($0)\"" }.joined(separator: " AND ")),
        ("Item", ((0..<10_000).map { "n == \($0 * 3 + 1)" } + ["name == \"é\""]).joined(separator: " OR ")),
        ("Box", "SUBQUERY(items, $i, " + (0..<10_000).map { "$i.n != \($0)" }.joined(separator: " AND ") + ").@count > 1"),
    ]

    @Test(arguments: predicates.indices)
    func answersAsTheEvaluator(_ index: Int) throws {
        let (entity, predicate) = Self.predicates[index]
        let stores = try LongInListTests.stores()
        let request = try FetchRequest(entityName: entity, predicate: predicate)
        let expected = try LongInListTests.ids(stores[0], request)
        #expect(try LongInListTests.ids(stores[1], request) == expected)
        #expect(!expected.isEmpty)
    }

    @Test func aLongListIsABalancedTree() throws {
        let sqlite = try #require(try LongInListTests.stores()[1] as? SQLiteStore)
        let sql = try sqlite.generatedSQL(for: FetchRequest(entityName: "Item", predicate: Self.predicates[0].1)).sql
        #expect(sql.contains(#"WHERE (((((((("t0"."name" IS NOT ?1 AND "#), "\(sql.prefix(200))")
        let short = try sqlite.generatedSQL(for: FetchRequest(entityName: "Item", predicate: "name != 'a' AND name != 'b'")).sql
        #expect(short.contains(#"WHERE "t0"."name" IS NOT ?1 AND "t0"."name" IS NOT ?2 ORDER BY"#), "\(short)")
    }
}
