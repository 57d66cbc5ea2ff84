import SiftEvaluation
import SiftStore
@testable import SiftSQL
import SiftSQLite
import Testing

/// Compiled fetches rendered in PostgreSQL's dialect: the trees GoldenSQLTests checks in SQLite,
/// spelled for a server (`$N`, `IS DISTINCT FROM`, `FALSE`, `COLLATE "C"`), and what it cannot
/// run (Sift's Swift functions and collations) reported rather than written.
@Suite struct PostgreSQLFetchSQLTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let statement: String
        let sql: String
        let bindings: [String]
        var unsupported: [String] = []
        var testDescription: String { statement }
    }

    static let cases: [Case] = [
        Case(statement: "Book WHERE year != 1974",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" IS DISTINCT FROM $1 ORDER BY +"t0"."_pk""#, bindings: ["1974"]),
        Case(statement: "Book WHERE NOT year > 1970",
             sql: #"FROM "Book" AS "t0" WHERE NOT coalesce("t0"."year" > $1, FALSE) ORDER BY +"t0"."_pk""#, bindings: ["1970"]),
        Case(statement: "Book WHERE year IN {1974, 1996, nil} AND title BEGINSWITH 'Sta'",
             sql: #"FROM "Book" AS "t0" WHERE ("t0"."year" IN ($1, $2) OR "t0"."year" IS NULL) AND "t0"."title" >= $3 AND "t0"."title" < $4 ORDER BY +"t0"."_pk""#,
             bindings: ["1974", "1996", "'Sta'", "'Stb'"]),
        Case(statement: "Book WHERE ALL tags.name != 'classic'",
             sql: #"FROM "Book" AS "t0" WHERE NOT EXISTS (SELECT 1 FROM "Book.tags" AS "t1" JOIN "Tag" AS "t2" ON "t2"."_pk" = "t1"."_target" WHERE "t1"."_owner" = "t0"."_pk" AND NOT "t2"."name" IS DISTINCT FROM $1) ORDER BY "t0"."_pk""#,
             bindings: ["'classic'"]),
        Case(statement: "Ebook WHERE format == 'epub' LIMIT 2 OFFSET 1",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."_entity" = $1 AND "t0"."format" = $2 ORDER BY "t0"."_pk" LIMIT $3 OFFSET $4"#,
             bindings: ["'Ebook'", "'epub'", "2", "1"]),
        Case(statement: "Book WHERE year > 1960 SORT BY title DESC USING caseInsensitiveCompare",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" > $1 ORDER BY "t0"."title" COLLATE sift_case_insensitive DESC, +"t0"."_pk""#,
             bindings: ["1960"], unsupported: ["sift_case_insensitive"]),
        Case(statement: "Author WHERE books.@sum.price >= 9.5",
             sql: #"FROM "Author" AS "t0" WHERE (SELECT sift_group_sum("t1"."price", "t1"."_pk") FROM "Book" AS "t1" WHERE "t1"."author" = "t0"."_pk") >= $1 ORDER BY "t0"."_pk""#,
             bindings: ["9.5"], unsupported: ["sift_group_sum"]),
    ]

    @Test(arguments: cases)
    func rendersForPostgreSQL(_ c: Case) throws {
        let store = try SQLTestModel.store()
        let plan = try SQLFetchExecutor(store: store).plan(try FetchRequest(statement: c.statement))
        let rendered = plan.select([.column("t0", "_pk")], in: PostgreSQLDialect())
        #expect(rendered.sql == #"SELECT "t0"."_pk" "# + c.sql)
        #expect(rendered.bindings.map(\.description) == c.bindings)
        #expect(rendered.unsupported == c.unsupported)
        // The same plan in SQLite: the same bindings, nothing unsupported.
        let sqlite = plan.select([.column("t0", "_pk")], in: SQLiteDialect())
        #expect(sqlite.bindings == rendered.bindings)
        #expect(sqlite.unsupported.isEmpty)
    }

    /// A grouped dictionary fetch is one tree too: GROUP BY and the groups' order, in PostgreSQL.
    @Test func groupsForPostgreSQL() throws {
        let store = try SQLTestModel.store()
        let request = try FetchRequest(statement: "SELECT author.name AS name, count:(title) AS n FROM Book WHERE year != 1974 GROUP BY author.name LIMIT 2")
        let executor = SQLFetchExecutor(store: store)
        let plan = try executor.plan(request)
        let statement = try executor.dictionarySQL(plan, properties: DictionaryResults.properties(request, entity: plan.table.entity)).statement()
        let renderer = SQLRenderer(PostgreSQLDialect())
        #expect(renderer.render(statement) == #"SELECT "t1"."name", count("t0"."title") FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" WHERE "t0"."year" IS DISTINCT FROM $1 GROUP BY "t1"."name" ORDER BY min("t0"."_pk") LIMIT $2"#)
        #expect(renderer.bindings == [.integer(1974), .integer(2)])
        #expect(renderer.unsupported.isEmpty)
    }

    @Test func countsForPostgreSQL() throws {
        let store = try SQLTestModel.store()
        let plan = try SQLFetchExecutor(store: store).plan(try FetchRequest(statement: "Book WHERE year != 1974 LIMIT 2"))
        let rendered = plan.countQuery(in: PostgreSQLDialect())
        #expect(rendered.sql == #"SELECT count(*) FROM (SELECT 1 FROM "Book" AS "t0" WHERE "t0"."year" IS DISTINCT FROM $1 ORDER BY +"t0"."_pk" LIMIT $2)"#)
        #expect(rendered.bindings == [.integer(1974), .integer(2)])
    }
}
