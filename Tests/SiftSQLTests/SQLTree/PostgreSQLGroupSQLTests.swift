import SiftEvaluation
import SiftStore
@testable import SiftSQL
import SiftSQLite
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

    @Test func doublesSectionInMemory() throws {
        // The dialect reads a double with NaN as NULL: a NaN section would be named "".
        #expect(throws: SQLUnsupported.self) { try Self.sections("Book SORT BY price SECTION BY price") }
    }

    @Test func groupedDictionaries() throws {
        let query = try Self.dictionaries("SELECT author.name AS name, count:(title) AS n, sum:(year) AS total, min:(published) AS earliest FROM Book WHERE year > 1900 GROUP BY author.name")
        #expect(query.sql == #"SELECT "t1"."name", count("t0"."title"), coalesce(CASE WHEN CAST(sum(abs(CAST("t0"."year" AS numeric))) AS bigint) IS NOT NULL THEN CAST(sum("t0"."year") AS bigint) END, 0), min("t0"."published") FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" WHERE "t0"."year" > $1 GROUP BY "t1"."name" ORDER BY min("t0"."_pk") NULLS FIRST"#)
        #expect(query.bindings == [.integer(1900)])
        #expect(query.pagesInSQL)
    }

    @Test func ungroupedDictionariesComeSortedAndPaged() throws {
        let query = try Self.dictionaries("SELECT title, price, author FROM Book SORT BY year DESC LIMIT 2")
        #expect(query.sql == #"SELECT "t0"."title", "t0"."price", (SELECT "_id" FROM "Author" WHERE "_pk" = "t0"."author") FROM "Book" AS "t0" ORDER BY "t0"."year" DESC NULLS LAST, "t0"."_pk" LIMIT $1"#)
    }

    @Test(arguments: ["SELECT price, count:(title) AS n FROM Book GROUP BY price",
                      "SELECT author, sum:(price) AS total FROM Book GROUP BY author",
                      "SELECT sum:(price) AS total FROM Book",
                      "SELECT title FROM Book WHERE title LIKE[c] 'a*'"])
    func inMemoryOnPostgreSQL(_ statement: String) throws {
        #expect(throws: SQLUnsupported.self) { try Self.dictionaries(statement) }
    }
}
