import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// Dictionary fetches run in SQLite: the exact SQL they compile to (only the properties'
/// columns; GROUP BY with aggregates, groups in order of their first object), that it runs
/// with the in-memory store's answer, and what falls back to the evaluator.
@Suite struct DictionarySQLTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let statement: String
        let sql: String
        let bindings: [String]
        var testDescription: String { statement }
    }

    static let cases: [Case] = [
        Case(statement: "SELECT title, year FROM Book WHERE year > 1970 SORT BY year DESC LIMIT 2",
             sql: #"SELECT "t0"."title", "t0"."year" FROM "Book" AS "t0" WHERE "t0"."year" > ?1 ORDER BY "t0"."year" DESC, +"t0"."_pk" LIMIT ?2"#,
             bindings: ["1970", "2"]),
        Case(statement: "SELECT DISTINCT author.name AS name, author FROM Book LIMIT 1 OFFSET 1",
             sql: #"SELECT "t1"."name", (SELECT "_id" FROM "Author" WHERE "_pk" = "t0"."author") FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" ORDER BY "t0"."_pk""#,
             bindings: []),
        Case(statement: "SELECT name, books.@count AS n, books.@max.year AS latest FROM Author",
             sql: #"SELECT "t0"."name", (SELECT count(*) FROM "Book" AS "t1" WHERE "t1"."author" = "t0"."_pk"), (SELECT max("t2"."year") FROM "Book" AS "t2" WHERE "t2"."author" = "t0"."_pk") FROM "Author" AS "t0" ORDER BY "t0"."_pk""#,
             bindings: []),
        Case(statement: "SELECT author.name AS name, count:(title) AS n, sum:(price) AS total, average:(year) AS mean, min:(published) AS earliest FROM Book GROUP BY author.name",
             sql: #"SELECT "t1"."name", count("t0"."title"), sift_group_sum("t0"."price", "t0"."_pk"), sift_group_average("t0"."year", "t0"."_pk"), sift_group_min("t0"."published", "t0"."_pk") FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" GROUP BY "t1"."name" ORDER BY min("t0"."_pk")"#,
             bindings: []),
        Case(statement: "SELECT author, count:(author.name) AS n FROM Book WHERE title != 'x' GROUP BY author LIMIT 2 OFFSET 1",
             sql: #"SELECT (SELECT "_id" FROM "Author" WHERE "_pk" = "t0"."author"), count("t0"."author") FROM "Book" AS "t0" WHERE "t0"."title" IS NOT ?1 GROUP BY "t0"."author" ORDER BY min("t0"."_pk") LIMIT ?2 OFFSET ?3"#,
             bindings: ["'x'", "2", "1"]),
        // Aggregates without grouping: one row for the whole result, nothing to order.
        Case(statement: "SELECT count:(title) AS n, sum:(price) AS total, average:(year) AS mean, min:(published) AS earliest, max:(author.name) AS latest FROM Book WHERE year > 1970",
             sql: #"SELECT count("t0"."title"), sift_group_sum("t0"."price", "t0"."_pk"), sift_group_average("t0"."year", "t0"."_pk"), sift_group_min("t0"."published", "t0"."_pk"), sift_group_max("t1"."name", "t0"."_pk") FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" WHERE "t0"."year" > ?1"#,
             bindings: ["1970"]),
        Case(statement: "SELECT sum:(year) AS total, count:(author) AS n FROM Book WHERE year > 3000 SORT BY title DESC LIMIT 1",
             sql: #"SELECT sift_group_sum("t0"."year", "t0"."_pk"), count("t0"."author") FROM "Book" AS "t0" WHERE "t0"."year" > ?1 LIMIT ?2"#,
             bindings: ["3000", "1"]),
        Case(statement: "SELECT max:(title) AS latest FROM Ebook",
             sql: #"SELECT sift_group_max("t0"."title", "t0"."_pk") FROM "Book" AS "t0" WHERE "t0"."_entity" = ?1"#,
             bindings: ["'Ebook'"]),
        Case(statement: "SELECT year, max:(title) AS latest FROM Ebook GROUP BY year HAVING latest != nil SORT BY year LIMIT 1",
             sql: #"SELECT "t0"."year", sift_group_max("t0"."title", "t0"."_pk") FROM "Book" AS "t0" WHERE "t0"."_entity" = ?1 GROUP BY "t0"."year" ORDER BY min("t0"."_pk")"#,
             bindings: ["'Ebook'"]),
    ]

    @Test(arguments: cases)
    func compilesTo(_ c: Case) throws {
        let store = try SQLTestModel.store()
        let request = try FetchRequest(statement: c.statement)
        let generated = try store.generatedSQL(for: request)
        #expect(generated.sql == c.sql)
        #expect(generated.bindings.map(\.description) == c.bindings)
        #expect(generated.inMemoryPredicate == nil)
        // And it runs, with the evaluator's answer.
        let reference = try Self.referenceStore()
        #expect(Self.text(try store.execute(request)) == Self.text(try reference.execute(request)))
    }

    /// The SQL path is taken: the grouped fetch's rows come from GROUP BY, values decoded by type.
    @Test func groupedFetchRunsInSQLite() throws {
        let store = try SQLTestModel.store()
        let request = try FetchRequest(statement: "SELECT author.name AS name, count:(title) AS n, min:(published) AS earliest, max:(price) AS top FROM Book GROUP BY author.name SORT BY name")
        let generated = try store.generatedSQL(for: request)
        #expect(generated.sql.contains(" GROUP BY \"t1\".\"name\" ORDER BY min(\"t0\".\"_pk\")"))
        #expect(!generated.sql.contains("\"t0\".\"_id\""))
        #expect(generated.sortsInMemory)
        guard case .dictionaries(let rows) = try store.execute(request) else { Issue.record("not dictionaries"); return }
        #expect(rows.map { ValueText.text($0["name"] ?? .null) } == ["", "Banks", "Le Guin"])
        #expect(rows.map { ValueText.text($0["n"] ?? .null) } == ["2", "1", "1"])
        #expect(rows.map { ValueText.text($0["top"] ?? .null) } == ["", "", "9.5"])
    }

    /// What SQL cannot compute exactly runs in memory, with the same answer.
    @Test(arguments: [
        "SELECT uppercase:(title) AS t FROM Book",                       // a function per row
        "SELECT title FROM Book WHERE uppercase:(title) BEGINSWITH[n] 'S'", // a residual predicate ([n] on a case mapping)
        "SELECT title, 1 AS one FROM Book SORT BY title",                 // a constant
        "SELECT year, sum:(tags.@count) AS n FROM Book GROUP BY year",    // an aggregate of a to-many
        "SELECT year, title FROM Book GROUP BY year",                     // neither grouped nor an aggregate (an error)
        "SELECT tags FROM Book",                                          // a to-many value
        "SELECT 'all' AS label, sum:(price) AS total FROM Book SORT BY year",  // a constant with an aggregate
        "SELECT sum:(price) / count:(price) AS mean FROM Book",           // arithmetic on aggregates
        "SELECT count:(tags) AS n FROM Book",                             // an aggregate of a to-many, whole
    ])
    func fallsBackToTheEvaluator(_ statement: String) throws {
        let store = try SQLTestModel.store()
        let request = try FetchRequest(statement: statement)
        let generated = try store.generatedSQL(for: request)
        #expect(generated.sql.hasPrefix(#"SELECT "t0"."_pk", "t0"."_id", "t0"."_entity", "#))
        let reference = try Self.referenceStore()
        #expect(Self.text(try? store.execute(request)) == Self.text(try? reference.execute(request)))
    }

    /// The group aggregates are the evaluator's arithmetic on the values in row-key order,
    /// whatever order SQLite steps them in: an integer sum overflows (to a double) only where
    /// the evaluator's does, and values with no order keep the first.
    @Test func groupAggregatesFollowTheRowKey() throws {
        let store = try SQLTestModel.store()
        let values = "(VALUES (9223372036854775807, 1), (1, 3), (-1, 2))"
        #expect(try store.rawRows("SELECT sift_group_sum(column1, column2) FROM \(values)") == [[.integer(Int64.max)]])
        #expect(try store.rawRows("SELECT sift_group_average(column1, column2) FROM \(values)") == [[.real(Double(Int64.max) / 3)]])
        let blobs = "(VALUES (x'01', 2), (x'02', 1), (NULL, 0))"
        #expect(try store.rawRows("SELECT sift_group_min(column1, column2), sift_group_max(column1, column2) FROM \(blobs)") == [[.blob([2]), .blob([2])]])
        let texts = "(VALUES ('b', 2), ('a', 3), ('c', 1))"
        #expect(try store.rawRows("SELECT sift_group_min(column1, column2), sift_group_max(column1, column2), sift_group_sum(column1, column2) FROM \(texts)")
                == [[.text("a"), .text("c"), .integer(0)]])
        #expect(try store.rawRows("SELECT sift_group_average(column1, column2), sift_group_min(column1, column2) FROM \(texts) WHERE 0") == [[.null, .null]])
    }

    /// `median:`, `mode:` and `stddev:` of a collection are the evaluator's, over the values in
    /// the order of the key (the first of equally frequent values is the mode).
    @Test func keyedStatisticsFollowTheKeysOrder() throws {
        let store = try SQLTestModel.store()
        let values = "(VALUES (3, 2), (1, 3), (3, 1), (1, 0), (NULL, 4))"
        #expect(try store.rawRows("SELECT sift_group_median(column1, column2), sift_group_mode(column1, column2), sift_group_stddev(column1, column2) FROM \(values)")
                == [[.real(2), .integer(1), .real(1)]])
        #expect(try store.rawRows("SELECT sift_group_median(column1, column2), sift_group_mode(column1, column2), sift_group_stddev(column1, column2) FROM \(values) WHERE 0")
                == [[.null, .null, .null]])
    }

    // MARK: Support

    /// The same data in the in-memory store.
    static func referenceStore() throws -> AtomicStore {
        let store = AtomicStore.inMemory(model: try SQLTestModel.model())
        try SQLTestModel.fill(store)
        return store
    }

    static func text(_ result: FetchResult?) -> String {
        guard case .dictionaries(let rows)? = result else { return "\(String(describing: result))" }
        return rows.map { row in row.pairs.map { "\($0.0)=\(ValueText.text($0.1))" }.joined(separator: " ") }.joined(separator: "\n")
    }
}
