import SiftSQLite
import Testing

@Suite struct SQLiteQueryPlanTests {
    static func database() throws -> SQLiteDatabase {
        let database = try SQLiteDatabase.inMemory()
        try database.execute("""
            CREATE TABLE Note(id INTEGER PRIMARY KEY, title TEXT, body TEXT);
            CREATE INDEX Note_title ON Note(title);
            """)
        return database
    }

    @Test func indexedLookupSearches() throws {
        let plan = try Self.database().explainQueryPlan("SELECT * FROM Note WHERE title = ?", [.text("x")])
        #expect(plan == ["SEARCH Note USING INDEX Note_title (title=?)"])
    }

    @Test func unindexedLookupScans() throws {
        let plan = try Self.database().explainQueryPlan("SELECT * FROM Note WHERE body = 'x'")
        #expect(plan == ["SCAN Note"])
    }

    @Test func nestedPlansAreIndented() throws {
        let plan = try Self.database().explainQueryPlan(
            "SELECT * FROM Note WHERE id IN (SELECT id FROM Note WHERE body = 'x') ORDER BY body")
        #expect(plan.first == "SEARCH Note USING INTEGER PRIMARY KEY (rowid=?)")
        #expect(plan.contains("  SCAN Note"))
        #expect(plan.contains("LIST SUBQUERY 1"))
        #expect(plan.contains("USE TEMP B-TREE FOR ORDER BY"))
    }
}
