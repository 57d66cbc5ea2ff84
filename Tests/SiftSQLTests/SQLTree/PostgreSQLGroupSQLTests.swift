import SiftEvaluation
@testable import SiftPostgreSQLStore
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// Sections and dictionaries compiled in PostgreSQL's dialect (issue 17): the GROUP BY
/// queries the SQLite store runs, spelled for a server, and what stays in memory there (Sift's
/// aggregate functions, grouping by a value that may be NaN, sectioning by one).
@Suite struct PostgreSQLGroupSQLTests {
    static func typed(_ statement: String) throws -> (SQLiteStore, FetchRequest) {
        let store = try SQLTestModel.store()
        return (store, try SQLFetchExecutor(store: store).plan(try FetchRequest(statement: statement)).request)
    }

    static func sections(_ statement: String) throws -> DialectSectionQuery {
        let (store, request) = try typed(statement)
        let keyPath = try #require(request.sectionNameKeyPath)
        let entity = try #require(store.schema.model.entity(named: request.entityName))
        guard case .attribute(let attribute) = try ModelKeyPaths.checkSectionKeyPath(keyPath, entity: entity, model: store.schema.model) else {
            throw SQLUnsupported("not an attribute")
        }
        return try DialectSectionQuery(request, keys: keyPath.split(separator: ".").map(String.init), attribute: attribute,
                                       schema: store.schema, dialect: PostgreSQLDialect())
    }

    static func dictionaries(_ statement: String) throws -> DialectDictionaryQuery {
        let (store, request) = try typed(statement)
        let entity = try #require(store.schema.model.entity(named: request.entityName))
        return try DialectDictionaryQuery(request, properties: DictionaryResults.properties(request, entity: entity),
                                          schema: store.schema, dialect: PostgreSQLDialect())
    }

    @Test func sectionsByTheFirstSortKeyAreRunsOfIt() throws {
        let query = try Self.sections("Book WHERE year > 1960 SORT BY author.name DESC, year SECTION BY author.name")
        #expect(query.runs?.sql == #"SELECT min("t1"."name"), max("t1"."name"), count("t1"."name"), count(*) FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" WHERE "t0"."year" > $1 GROUP BY "t1"."name" ORDER BY "t1"."name" DESC NULLS LAST"#)
        #expect(query.runs?.bindings == [.integer(1960)])
    }

    @Test func otherSectionsAreNumberedRows() throws {
        let query = try Self.sections("Book WHERE year > 1960 SORT BY year SECTION BY author.name LIMIT 5")
        #expect(query.runs == nil)
        #expect(query.summary.sql == #"SELECT "s", count(*), min("n"), max("n") FROM (SELECT "t1"."name" AS "s", row_number() OVER (ORDER BY "t0"."year" NULLS FIRST, "t0"."_pk") AS "n" FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" WHERE "t0"."year" > $1 ORDER BY "t0"."year" NULLS FIRST, "t0"."_pk" LIMIT $2) AS "_" GROUP BY "s" COLLATE "C" ORDER BY min("n")"#)
        #expect(query.summary.bindings == [.integer(1960), .integer(5)])
        // (A number has no collation in PostgreSQL: grouped as it is.)
        let years = try Self.sections("Book SORT BY title SECTION BY year")
        #expect(years.summary.sql.hasSuffix(#"GROUP BY "s" ORDER BY min("n")"#), "\(years.summary.sql)")
    }

    @Test func aSectionsObjectsAreItsRowsInOrder() throws {
        let query = try Self.sections("Book SORT BY year SECTION BY year")
        let span = SectionSpan(name: "1974", values: [.integer(1974)], count: 1, first: 2, last: 2)
        let objects = try query.objectsQuery([#""t0"."_pk""#, #""t0"."_id""#], span: span)
        #expect(objects.sql == #"SELECT "t0"."_pk", "t0"."_id" FROM "Book" AS "t0" WHERE "t0"."year" IS NOT DISTINCT FROM $1 ORDER BY "t0"."year" NULLS FIRST, "t0"."_pk""#)
        #expect(objects.bindings == [.integer(1974)])
    }

    @Test func doublesSectionAsStored() throws {
        // The dialect reads a double with NaN as NULL: the section value is read as stored (NaN
        // its own section, as in memory), and a NaN section's rows are matched by 'NaN', which
        // cannot be bound (a bound NaN is NULL).
        let query = try Self.sections("Book SORT BY price SECTION BY price")
        #expect(query.runs?.sql == #"SELECT min("t0"."price"), max("t0"."price"), count("t0"."price"), count(*) FROM "Book" AS "t0" GROUP BY nullif("t0"."price", 'NaN') ORDER BY nullif("t0"."price", 'NaN') NULLS FIRST"#)
        let span = SectionSpan(name: "nan", values: [.real(.nan), .real(1.5)], count: 2, first: 4, last: 5)
        let objects = try query.objectsQuery([#""t0"."_pk""#], span: span)
        #expect(objects.sql == #"SELECT "t0"."_pk" FROM "Book" AS "t0" WHERE "t0"."price" IS NOT DISTINCT FROM CAST('NaN' AS double precision) OR "t0"."price" IS NOT DISTINCT FROM $1 ORDER BY nullif("t0"."price", 'NaN') NULLS FIRST, "t0"."_pk""#)
        #expect(objects.bindings == [.real(1.5)])
    }

    @Test func groupedDictionaries() throws {
        let query = try Self.dictionaries("SELECT author.name AS name, count:(title) AS n, sum:(year) AS total, min:(published) AS earliest FROM Book WHERE year > 1900 GROUP BY author.name")
        #expect(query.sql == #"SELECT "t1"."name", count("t0"."title"), coalesce(CASE WHEN CAST(sum(abs(CAST("t0"."year" AS numeric))) AS bigint) IS NOT NULL THEN CAST(sum("t0"."year") AS bigint) END, 0), min("t0"."published") FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" WHERE "t0"."year" > $1 GROUP BY "t1"."name" ORDER BY min("t0"."_pk") NULLS FIRST"#)
        #expect(query.bindings == [.integer(1900)])
        #expect(query.pagesInSQL)
    }

    @Test func sumsOfDoublesInInsertionOrder() throws {
        let query = try Self.dictionaries("SELECT author, sum:(price) AS total, average:(price) AS mean FROM Book GROUP BY author")
        #expect(query.sql == #"SELECT (SELECT "_id" FROM "Author" WHERE "_pk" = "t0"."author"), sum("t0"."price" ORDER BY "t0"."_pk") + CAST(0 AS double precision), (sum("t0"."price" ORDER BY "t0"."_pk") + CAST(0 AS double precision)) / count("t0"."price") FROM "Book" AS "t0" GROUP BY "t0"."author" ORDER BY min("t0"."_pk") NULLS FIRST"#)
        // A sum of no values is the evaluator's integer 0.
        let whole = try Self.dictionaries("SELECT sum:(price) AS total FROM Book WHERE year == 0")
        if case .int(0)? = whole.row([.null])["total"] {} else { Issue.record("not the integer 0") }
        if case .double(-1.5)? = whole.row([.real(-1.5)])["total"] {} else { Issue.record("not the double -1.5") }
    }

    @Test func ungroupedDictionariesComeSortedAndPaged() throws {
        let query = try Self.dictionaries("SELECT title, price, author FROM Book SORT BY year DESC LIMIT 2")
        #expect(query.sql == #"SELECT "t0"."title", "t0"."price", (SELECT "_id" FROM "Author" WHERE "_pk" = "t0"."author") FROM "Book" AS "t0" ORDER BY "t0"."year" DESC NULLS LAST, "t0"."_pk" LIMIT $1"#)
    }

    @Test(arguments: ["SELECT price, count:(title) AS n FROM Book GROUP BY price",
                      "SELECT author, min:(price) AS low FROM Book GROUP BY author",
                      "SELECT max:(price) AS high FROM Book",
                      "SELECT title FROM Book WHERE title LIKE[c] 'a*'"])
    func inMemoryOnPostgreSQL(_ statement: String) throws {
        #expect(throws: SQLUnsupported.self) { try Self.dictionaries(statement) }
    }
}
