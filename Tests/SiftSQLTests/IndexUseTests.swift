import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// Plain comparisons, IN, BETWEEN and a case-sensitive BEGINSWITH on an indexed attribute use
/// the index (FETCH.md §5): SQLite's plan says SEARCH, not SCAN.
@Suite struct IndexUseTests {
    @Test(arguments: [
        "Book WHERE title == 'Excession'",
        "Book WHERE year < 1970", "Book WHERE year <= 1970", "Book WHERE year > 1970", "Book WHERE year >= 1970",
        "Book WHERE year IN {1966, 1974}",
        "Book WHERE year BETWEEN {1960, 1980}",
        "Book WHERE title BEGINSWITH 'Sta'",
        "Book WHERE year == 1974 AND NOT price > 5",
        "Book WHERE author.name == 'Banks' AND year == 1996",
    ])
    func indexedComparisonsSearch(_ statement: String) throws {
        let store = try SQLTestModel.store()
        let plan = try store.queryPlan(for: try FetchRequest(statement: statement))
        #expect(plan.contains { $0.contains("SEARCH t0 USING INDEX") }, "\(plan)")
        #expect(!plan.contains { $0.contains("SCAN t0") }, "\(plan)")
    }

    @Test(arguments: ["Book WHERE price > 5", "Book WHERE title BEGINSWITH[c] 'sta'", "Book WHERE year != 1974"])
    func otherComparisonsScan(_ statement: String) throws {
        let store = try SQLTestModel.store()
        let plan = try store.queryPlan(for: try FetchRequest(statement: statement))
        #expect(plan.contains { $0.contains("SCAN t0") }, "\(plan)")
    }

    /// A sort on an indexed attribute reads the index in order (no temporary B-tree for ORDER BY).
    @Test func sortingByAnIndexedAttributeNeedsNoSorter() throws {
        let store = try SQLTestModel.store()
        var request = try FetchRequest(statement: "Book WHERE year > 1900 SORT BY year")
        request.fetchLimit = 2
        let plan = try store.queryPlan(for: request)
        #expect(plan.contains { $0.contains("SEARCH t0 USING INDEX") }, "\(plan)")
    }
}
