import SiftEvaluation
@testable import SiftPostgreSQLStore
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// Compiled fetches rendered in PostgreSQL's dialect: the trees GoldenSQLTests checks in SQLite,
/// spelled for a server (`$N`, `IS DISTINCT FROM`, `FALSE`, `COLLATE "C"`), and what it cannot
/// run (Sift's Swift functions and collations) reported rather than written.
@Suite struct PostgreSQLFetchSQLTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let statement: String
        let sql: String
        let bindings: [String]
        /// The predicate left to the evaluator, and why (or why the sort is).
        var residual: String? = nil
        var reason: String? = nil
        var testDescription: String { statement }
    }

    static let cases: [Case] = [
        Case(statement: "Book WHERE year != 1974",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" IS DISTINCT FROM $1 ORDER BY "t0"."_pk""#, bindings: ["1974"]),
        Case(statement: "Book WHERE NOT year > 1970",
             sql: #"FROM "Book" AS "t0" WHERE NOT coalesce("t0"."year" > $1, FALSE) ORDER BY "t0"."_pk""#, bindings: ["1970"]),
        Case(statement: "Book WHERE year IN {1974, 1996, nil} AND title BEGINSWITH 'Sta'",
             sql: #"FROM "Book" AS "t0" WHERE ("t0"."year" IN ($1, $2) OR "t0"."year" IS NULL) AND "t0"."title" >= $3 AND "t0"."title" < $4 ORDER BY "t0"."_pk""#,
             bindings: ["1974", "1996", "'Sta'", "'Stb'"]),
        Case(statement: "Book WHERE ALL tags.name != 'classic'",
             sql: #"FROM "Book" AS "t0" WHERE NOT EXISTS (SELECT 1 FROM "Book.tags" AS "t1" JOIN "Tag" AS "t2" ON "t2"."_pk" = "t1"."_target" WHERE "t1"."_owner" = "t0"."_pk" AND NOT "t2"."name" IS DISTINCT FROM $1) ORDER BY "t0"."_pk""#,
             bindings: ["'classic'"]),
        Case(statement: "Ebook WHERE format == 'epub' LIMIT 2 OFFSET 1",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."_entity" = $1 AND "t0"."format" = $2 ORDER BY "t0"."_pk" LIMIT $3 OFFSET $4"#,
             bindings: ["'Ebook'", "'epub'", "2", "1"]),
        // (Text columns are made COLLATE "C": code-point order, as in SQLite.)
        Case(statement: "Book SORT BY year DESC, title LIMIT 3",
             sql: #"FROM "Book" AS "t0" ORDER BY "t0"."year" DESC NULLS LAST, "t0"."title" NULLS FIRST, "t0"."_pk" LIMIT $1"#,
             bindings: ["3"]),
        // Sift's collations are Swift: the sort runs in memory, after the server's WHERE.
        Case(statement: "Book WHERE year > 1960 SORT BY title DESC USING caseInsensitiveCompare",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" > $1 ORDER BY "t0"."_pk""#,
             bindings: ["1960"], reason: "PostgreSQL has no sift_case_insensitive"),
        // A conjunct needing Sift's functions is the evaluator's, with every later one.
        Case(statement: "Author WHERE name != nil AND name LIKE[c] 'a*' AND name != 'x'",
             sql: #"FROM "Author" AS "t0" WHERE NOT "t0"."name" IS NULL ORDER BY "t0"."_pk""#,
             bindings: [], residual: "name LIKE[c] \"a*\" AND name != \"x\"", reason: "PostgreSQL has no sift_like"),
        // Sums of doubles in the collection's order, NaN (a sum of infinities) read as NULL.
        Case(statement: "Author WHERE books.@sum.price >= 9.5",
             sql: #"FROM "Author" AS "t0" WHERE nullif(coalesce((SELECT sum("t1"."price" ORDER BY "t1"."_pk") FROM "Book" AS "t1" WHERE "t1"."author" = "t0"."_pk"), 0), 'NaN') >= $1 ORDER BY "t0"."_pk""#,
             bindings: ["9.5"]),
        // Sums of integers while no partial sum can overflow (else the cast fails: in memory).
        Case(statement: "Author WHERE books.@avg.year > 1990",
             sql: #"FROM "Author" AS "t0" WHERE (SELECT CASE WHEN CAST(sum(abs(CAST("t1"."year" AS numeric))) AS bigint) IS NOT NULL THEN CAST(sum("t1"."year") AS double precision) / count("t1"."year") END FROM "Book" AS "t1" WHERE "t1"."author" = "t0"."_pk") > $1 ORDER BY "t0"."_pk""#,
             bindings: ["1990"]),
        // An integer against a double, exactly (PostgreSQL compares bigint with float8 as two
        // doubles): the constant becomes an integer bound, or the answer.
        Case(statement: "Book WHERE year > 9007199254740992.5 OR year <= -0.5",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" > $1 OR "t0"."year" <= $2 ORDER BY "t0"."_pk""#,
             bindings: ["9007199254740992", "-1"]),
        Case(statement: "Book WHERE year == 9223372036854775808 OR year < 1e300",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" IS NOT NULL ORDER BY "t0"."_pk""#,
             bindings: []),
        Case(statement: "Book WHERE price >= 9007199254740993 AND price < 9223372036854775807",
             sql: #"FROM "Book" AS "t0" WHERE nullif("t0"."price", 'NaN') >= $1 AND nullif("t0"."price", 'NaN') <= $2 ORDER BY "t0"."_pk""#,
             bindings: ["9.007199254740994e+15", "9.223372036854775e+18"]),
        // Two expressions: the double as the integer bound it stands for.
        Case(statement: "Book WHERE year > price",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" > CASE WHEN nullif("t0"."price", 'NaN') >= $1 THEN 9223372036854775808 WHEN nullif("t0"."price", 'NaN') < $2 THEN -9223372036854775809 ELSE CAST(floor(nullif("t0"."price", 'NaN')) AS bigint) END ORDER BY "t0"."_pk""#,
             bindings: ["9.223372036854776e+18", "-9.223372036854776e+18"]),
        Case(statement: "Book WHERE title CONTAINS 'ar' OR title ENDSWITH 'é'",
             sql: #"FROM "Book" AS "t0" WHERE strpos("t0"."title", $1) > 0 OR right("t0"."title", 1) = $2 ORDER BY "t0"."_pk""#,
             bindings: ["'ar'", "'é'"]),
    ]

    @Test(arguments: cases)
    func compilesForPostgreSQL(_ c: Case) throws {
        let store = try SQLTestModel.store()
        let typed = try SQLFetchExecutor(store: store).plan(try FetchRequest(statement: c.statement)).request
        let query = try DialectFetchQuery(typed, schema: store.schema, dialect: PostgreSQLDialect(), columns: [#""t0"."_pk""#])
        #expect(query.sql == #"SELECT "t0"."_pk" "# + c.sql)
        #expect(query.bindings.map(\.description) == c.bindings)
        #expect(query.residual.map { String(describing: $0) } == c.residual)
        #expect(query.reason == c.reason)
    }

    /// The column types of a PostgreSQL store are read in SQLite's form: booleans as integers,
    /// dates as seconds since 2001, UUIDs as their bytes, decimals as the numbers they are. (Doubles
    /// and decimals are read with NaN as NULL by the compiler.)


    @Test func readsColumnsInSQLiteForm() throws {
        let store = try SQLTestModel.store()
        let dialect = PostgreSQLDialect(columnTypes: ["Book": ["year": "boolean", "title": "timestamptz", "price": "double precision", "format": "uuid", "isbn": "numeric"]])
        let renderer = SQLRenderer(dialect)
        let from = SQLFrom(table: "Book", alias: "t0")
        let condition = SQLExpression.and(["year", "title", "price", "format", "isbn"].map { .isNull(.column("t0", $0), negated: false) })
        #expect(renderer.render(SQLSelect(columns: [.integer(1)], from: from, where: condition)) == #"SELECT 1 FROM "Book" AS "t0" WHERE ("t0"."year"::integer) IS NULL AND ((extract(epoch FROM "t0"."title") - 978307200)::float8) IS NULL AND "t0"."price" IS NULL AND uuid_send("t0"."format") IS NULL AND "t0"."isbn" IS NULL"#)
        #expect(renderer.unsupported.isEmpty)
        _ = store
    }

    /// A grouped dictionary fetch is one tree too: GROUP BY and the groups' order, in PostgreSQL.
    @Test func groupsForPostgreSQL() throws {
        let store = try SQLTestModel.store()
        let request = try FetchRequest(statement: "SELECT author.name AS name, count:(title) AS n FROM Book WHERE year != 1974 GROUP BY author.name LIMIT 2")
        let executor = SQLFetchExecutor(store: store)
        let plan = try executor.plan(request)
        let statement = try executor.dictionarySQL(plan, properties: DictionaryResults.properties(request, entity: plan.table.entity)).statement()
        let renderer = SQLRenderer(PostgreSQLDialect())
        #expect(renderer.render(statement) == #"SELECT "t1"."name", count("t0"."title") FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" WHERE "t0"."year" IS DISTINCT FROM $1 GROUP BY "t1"."name" ORDER BY min("t0"."_pk") NULLS FIRST LIMIT $2"#)
        #expect(renderer.bindings == [.integer(1974), .integer(2)])
        #expect(renderer.unsupported.isEmpty)
    }

    @Test func countsForPostgreSQL() throws {
        let store = try SQLTestModel.store()
        let typed = try SQLFetchExecutor(store: store).plan(try FetchRequest(statement: "Book WHERE year != 1974 LIMIT 2")).request
        let query = try DialectFetchQuery(typed, schema: store.schema, dialect: PostgreSQLDialect(), columns: [])
        #expect(query.countSQL == #"SELECT count(*) FROM (SELECT 1 FROM "Book" AS "t0" WHERE "t0"."year" IS DISTINCT FROM $1 ORDER BY "t0"."_pk" LIMIT $2) AS "_""#)
        #expect(query.countBindings == [.integer(1974), .integer(2)])
    }
}
