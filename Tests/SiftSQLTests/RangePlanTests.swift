import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// A one-sided range on an indexed attribute (`age > 49`) with the rows in key order: the store
/// counts the range's matches from the index (up to a 40th of the table) and searches the index
/// only when they are few; otherwise SQLite scans the table in key order, which is faster from
/// about 2 % of the rows. The answers are the same either way.
@Suite struct RangePlanTests {
    static let rows = 30_000

    /// People aged `i % 100`, `i` from 0, in insertion (key) order.
    static func store() throws -> SQLiteStore {
        let model = try JSONModelFormat.read(Data(#"""
            {"entities": [{"name": "Person", "indexes": [["age"]], "attributes": [
              {"name": "age", "type": "Integer 64"}, {"name": "name", "type": "String"}]}]}
            """#.utf8))
        let store = try SQLiteStore.inMemory(model: model)
        try store.performChanges {
            for i in 0..<rows { try store.insert("Person", id: ObjectID("p\(i)"), ["age": .int(Int64(i % 100)), "name": .string("n\(i)")]) }
        }
        try store.save()
        return store
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let statement: String
        let matches: @Sendable (Int) -> Bool
        let searches: Bool
        var testDescription: String { statement }
    }

    static let cases: [Case] = [
        // Half the rows: scanned in key order, the tie-break written plain.
        Case(statement: "Person WHERE age > 49", matches: { $0 % 100 > 49 }, searches: false),
        Case(statement: "Person WHERE age <= 10", matches: { $0 % 100 <= 10 }, searches: false),
        // 3 % of the rows (900, above 750): scanned.
        Case(statement: "Person WHERE age >= 97", matches: { $0 % 100 >= 97 }, searches: false),
        // 1 % (300 rows): searched.
        Case(statement: "Person WHERE age > 98", matches: { $0 % 100 > 98 }, searches: true),
        Case(statement: "Person WHERE age < 1", matches: { $0 % 100 < 1 }, searches: true),
        // None.
        Case(statement: "Person WHERE age > 1000", matches: { _ in false }, searches: true),
        // Another condition beside the range: the range still decides.
        Case(statement: "Person WHERE age > 49 AND name ENDSWITH '7'", matches: { $0 % 100 > 49 && $0 % 10 == 7 }, searches: false),
    ]

    @Test(arguments: cases)
    func theRangeCountChoosesThePlan(_ test: Case) throws {
        let store = try Self.store()
        let request = try FetchRequest(statement: test.statement)
        let sql = try store.generatedSQL(for: request).sql
        let plan = try store.queryPlan(for: request)
        if test.searches {
            #expect(sql.hasSuffix(#"ORDER BY +"t0"."_pk""#), "\(sql)")
            #expect(plan.contains { $0.contains("SEARCH t0 USING INDEX") }, "\(plan)")
        } else {
            #expect(sql.hasSuffix(#"ORDER BY "t0"."_pk""#), "\(sql)")
            #expect(plan.contains { $0.contains("SCAN t0") } && !plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
        let expected = (0..<Self.rows).filter(test.matches).map { "p\($0)" }
        #expect(try store.fetch(request).map(\.objectID.rawValue) == expected)
        #expect(try store.count(request) == expected.count)
    }

    /// Equality, lists and two-sided ranges are searched whatever their size (SQLite does so on
    /// its own; no count is made), and so is any range on a small table.
    @Test func otherConditionsAndSmallTablesKeepTheSearch() throws {
        let store = try Self.store()
        for statement in ["Person WHERE age == 5", "Person WHERE age IN {1, 2, 3}", "Person WHERE age BETWEEN {10, 80}"] {
            let sql = try store.generatedSQL(for: try FetchRequest(statement: statement)).sql
            #expect(sql.hasSuffix(#"ORDER BY +"t0"."_pk""#), "\(sql)")
        }
        let small = try SQLTestModel.store()
        let sql = try small.generatedSQL(for: try FetchRequest(statement: "Book WHERE year > 1900")).sql
        #expect(sql.hasSuffix(#"ORDER BY +"t0"."_pk""#), "\(sql)")
    }
}
