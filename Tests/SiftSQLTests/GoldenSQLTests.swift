import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// The exact SQL representative fetches compile to (FETCH.md §5): constants bound, identifiers
/// quoted, nil rules without losing plain comparisons, to-one paths as joins, to-many paths as
/// correlated subqueries, sorting with collations and the row-key tie-break, paging.
@Suite struct GoldenSQLTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let statement: String
        let sql: String
        let bindings: [String]
        var testDescription: String { statement }
    }

    static let cases: [Case] = [
        Case(statement: "Book WHERE year == 1974",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" = ?1 ORDER BY +"t0"."_pk""#, bindings: ["1974"]),
        Case(statement: "Book WHERE year != 1974",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" IS NOT ?1 ORDER BY +"t0"."_pk""#, bindings: ["1974"]),
        Case(statement: "Book WHERE NOT year > 1970",
             sql: #"FROM "Book" AS "t0" WHERE NOT coalesce("t0"."year" > ?1, 0) ORDER BY +"t0"."_pk""#, bindings: ["1970"]),
        Case(statement: "Book WHERE NOT title == 'x'",
             sql: #"FROM "Book" AS "t0" WHERE NOT "t0"."title" = ?1 ORDER BY +"t0"."_pk""#, bindings: ["'x'"]),
        Case(statement: "Book WHERE year == nil",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" IS NULL ORDER BY +"t0"."_pk""#, bindings: []),
        Case(statement: "Book WHERE title BEGINSWITH 'Sta'",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."title" >= ?1 AND "t0"."title" < ?2 ORDER BY +"t0"."_pk""#, bindings: ["'Sta'", "'Stb'"]),
        // CONTAINS and ENDSWITH of a column on a constant: SQLite's own `instr` and `substr`
        // (both sides NFC), no Swift function called per row.
        Case(statement: "Book WHERE title CONTAINS 'ar' OR title ENDSWITH[n] 'e\u{301}'",
             sql: #"FROM "Book" AS "t0" WHERE instr("t0"."title", ?1) > 0 OR substr(CAST("t0"."title" AS BLOB), -length(CAST(?2 AS BLOB))) = CAST(?2 AS BLOB) ORDER BY "t0"."_pk""#, bindings: ["'ar'", "'e\u{301}'"]),
        Case(statement: "Book WHERE title BEGINSWITH[cd] 'sta'",
             sql: #"FROM "Book" AS "t0" WHERE sift_beginswith("t0"."title", ?1, 3) ORDER BY "t0"."_pk""#, bindings: ["'sta'"]),
        Case(statement: "Book WHERE title LIKE[c] '*star*' OR title MATCHES '^E.*'",
             sql: #"FROM "Book" AS "t0" WHERE sift_like("t0"."title", ?1, 1) OR sift_matches("t0"."title", ?2, 0) ORDER BY "t0"."_pk""#, bindings: ["'*star*'", "'^E.*'"]),
        Case(statement: "Book WHERE year IN {1974, 1996, nil}",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" IN (?1, ?2) OR "t0"."year" IS NULL ORDER BY +"t0"."_pk""#, bindings: ["1974", "1996"]),
        Case(statement: "Book WHERE year BETWEEN {1970, 1980}",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" BETWEEN ?1 AND ?2 ORDER BY +"t0"."_pk""#, bindings: ["1970", "1980"]),
        Case(statement: "Book WHERE author.name == 'Banks'",
             sql: #"FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" WHERE "t1"."name" = ?1 ORDER BY "t0"."_pk""#, bindings: ["'Banks'"]),
        Case(statement: "Book WHERE ANY tags.name == 'sci-fi'",
             sql: #"FROM "Book" AS "t0" WHERE EXISTS (SELECT 1 FROM "Book.tags" AS "t1" JOIN "Tag" AS "t2" ON "t2"."_pk" = "t1"."_target" WHERE "t1"."_owner" = "t0"."_pk" AND "t2"."name" = ?1) ORDER BY "t0"."_pk""#, bindings: ["'sci-fi'"]),
        Case(statement: "Book WHERE ALL tags.name != 'classic'",
             sql: #"FROM "Book" AS "t0" WHERE NOT EXISTS (SELECT 1 FROM "Book.tags" AS "t1" JOIN "Tag" AS "t2" ON "t2"."_pk" = "t1"."_target" WHERE "t1"."_owner" = "t0"."_pk" AND NOT "t2"."name" IS NOT ?1) ORDER BY "t0"."_pk""#, bindings: ["'classic'"]),
        Case(statement: "Author WHERE books.@count > 1",
             sql: #"FROM "Author" AS "t0" WHERE (SELECT count(*) FROM "Book" AS "t1" WHERE "t1"."author" = "t0"."_pk") > ?1 ORDER BY "t0"."_pk""#, bindings: ["1"]),
        Case(statement: "Author WHERE books.@sum.price >= 9.5",
             sql: #"FROM "Author" AS "t0" WHERE (SELECT sift_group_sum("t1"."price", "t1"."_pk") FROM "Book" AS "t1" WHERE "t1"."author" = "t0"."_pk") >= ?1 ORDER BY "t0"."_pk""#, bindings: ["9.5"]),
        Case(statement: "Book WHERE year + 1 > 1975",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" + ?1 > ?2 ORDER BY +"t0"."_pk""#, bindings: ["1", "1975"]),
        Case(statement: "Book WHERE author == %@",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."author" = (SELECT "_pk" FROM "Author" WHERE "_id" = ?1) ORDER BY "t0"."_pk""#, bindings: ["'a1'"]),
        Case(statement: "Book WHERE title == \"x'; DROP TABLE Book; --\"",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."title" = ?1 ORDER BY +"t0"."_pk""#, bindings: ["'x''; DROP TABLE Book; --'"]),
        Case(statement: "Book WHERE year > 1960 SORT BY title DESC USING caseInsensitiveCompare, author.name LIMIT 2 OFFSET 1",
             sql: #"FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" WHERE "t0"."year" > ?1 ORDER BY "t0"."title" COLLATE sift_case_insensitive DESC, "t1"."name", +"t0"."_pk" LIMIT ?2 OFFSET ?3"#, bindings: ["1960", "2", "1"]),
        Case(statement: "Ebook WHERE format == 'epub'",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."_entity" = ?1 AND "t0"."format" = ?2 ORDER BY "t0"."_pk""#, bindings: ["'Ebook'", "'epub'"]),
    ]

    /// Functions, CAST, `**`, `^` and `[FIRST]`/`[LAST]`/`[n]`: operators where a function is one,
    /// the evaluator's implementations (`sift_call`, `sift_cast`) otherwise, constants folded.
    static let functionCases: [Case] = [
        Case(statement: "Book WHERE uppercase:(title) BEGINSWITH 'STAR'",
             sql: #"FROM "Book" AS "t0" WHERE sift_beginswith(sift_call(?1, ?2, "t0"."title"), ?3, 0) ORDER BY "t0"."_pk""#, bindings: ["'uppercase:'", "'s'", "'STAR'"]),
        Case(statement: "Book WHERE canonical:(title) == 'star trek'",
             sql: #"FROM "Book" AS "t0" WHERE sift_call(?1, ?2, "t0"."title") = ?3 ORDER BY "t0"."_pk""#, bindings: ["'canonical:'", "'s'", "'star trek'"]),
        Case(statement: "Book WHERE abs:(year - 2000) < 30",
             sql: #"FROM "Book" AS "t0" WHERE sift_call(?1, ?2, "t0"."year" - ?3) < ?4 ORDER BY +"t0"."_pk""#, bindings: ["'abs:'", "'m'", "2000", "30"]),
        Case(statement: "Book WHERE floor:(price) == 9 OR sqrt:(abs:(price)) > 3",
             sql: #"FROM "Book" AS "t0" WHERE sift_call(?1, ?2, "t0"."price") = ?3 OR sift_call(?4, ?5, sift_call(?6, ?7, "t0"."price")) > ?8 ORDER BY "t0"."_pk""#, bindings: ["'floor:'", "'r'", "9", "'sqrt:'", "'r'", "'abs:'", "'r'", "3"]),
        Case(statement: "Book WHERE add:to:(year, 1) == 1975 AND noindex:(year) > 1900",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" + ?1 = ?2 AND "t0"."year" > ?3 ORDER BY +"t0"."_pk""#, bindings: ["1", "1975", "1900"]),
        Case(statement: "Book WHERE modulus:by:(year, 4) == 0",
             sql: #"FROM "Book" AS "t0" WHERE sift_call(?1, ?2, "t0"."year", ?3) = ?4 ORDER BY "t0"."_pk""#, bindings: ["'modulus:by:'", "'ii'", "4", "0"]),
        Case(statement: "Book WHERE FUNCTION(year, 'multiply:by:', 2) > 3900",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" * ?1 > ?2 ORDER BY +"t0"."_pk""#, bindings: ["2", "3900"]),
        Case(statement: "Book WHERE year ** 2 > 3900000 AND year ^ 1 == 1975",
             sql: #"FROM "Book" AS "t0" WHERE sift_call(?1, ?2, "t0"."year", ?3) > ?4 AND sift_call(?5, ?6, "t0"."year", ?7) = ?8 ORDER BY "t0"."_pk""#, bindings: ["'raise:toPower:'", "'ii'", "2", "3900000", "'bitwiseXor:with:'", "'ii'", "1", "1975"]),
        Case(statement: "Author WHERE sum:(books.price) > 5 AND count:(books) == 1",
             sql: #"FROM "Author" AS "t0" WHERE (SELECT sift_group_sum("t1"."price", "t1"."_pk") FROM "Book" AS "t1" WHERE "t1"."author" = "t0"."_pk") > ?1 AND (SELECT count(*) FROM "Book" AS "t2" WHERE "t2"."author" = "t0"."_pk") = ?2 ORDER BY "t0"."_pk""#, bindings: ["5", "1"]),
        Case(statement: "Book WHERE CAST(year, 'NSString') == '1974'",
             sql: #"FROM "Book" AS "t0" WHERE sift_cast("t0"."year", ?1, ?2) = ?3 ORDER BY "t0"."_pk""#, bindings: ["'i'", "'NSString'", "'1974'"]),
        Case(statement: "Book WHERE CAST(published, 'NSNumber') > 0 OR CAST(year, 'NSDate') < CAST(0, 'NSDate')",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."published" > ?1 OR sift_cast("t0"."year", ?2, ?3) < ?4 ORDER BY "t0"."_pk""#, bindings: ["0", "'i'", "'NSDate'", "0.0"]),
        Case(statement: "Book WHERE year == abs:(-1974) AND title != CAST(1974, 'NSString')",
             sql: #"FROM "Book" AS "t0" WHERE "t0"."year" = ?1 AND "t0"."title" IS NOT ?2 ORDER BY +"t0"."_pk""#, bindings: ["1974", "'1974'"]),
        Case(statement: "Book WHERE tags[FIRST].name == 'sci-fi'",
             sql: #"FROM "Book" AS "t0" WHERE (SELECT "t2"."name" FROM "Book.tags" AS "t1" JOIN "Tag" AS "t2" ON "t2"."_pk" = "t1"."_target" WHERE "t1"."_owner" = "t0"."_pk" ORDER BY "t1"."_position" LIMIT 1) = ?1 ORDER BY "t0"."_pk""#, bindings: ["'sci-fi'"]),
        Case(statement: "Book WHERE tags[LAST] == CAST('t2', 'NSManagedObjectID')",
             sql: #"FROM "Book" AS "t0" WHERE (SELECT "t2"."_pk" FROM "Book.tags" AS "t1" JOIN "Tag" AS "t2" ON "t2"."_pk" = "t1"."_target" WHERE "t1"."_owner" = "t0"."_pk" ORDER BY "t1"."_position" DESC LIMIT 1) = (SELECT "_pk" FROM "Tag" WHERE "_id" = ?1) ORDER BY "t0"."_pk""#, bindings: ["'t2'"]),
        Case(statement: "Author WHERE books[1].year > 1990",
             sql: #"FROM "Author" AS "t0" WHERE (SELECT "t1"."year" FROM "Book" AS "t1" WHERE "t1"."author" = "t0"."_pk" ORDER BY "t1"."_pk" LIMIT 1 OFFSET ?1) > ?2 ORDER BY "t0"."_pk""#, bindings: ["1", "1990"]),
    ]

    /// To-many key paths after a to-one step (nil where the to-one is, not empty), `[SIZE]`,
    /// `median:`/`mode:`/`stddev:`, and a qualified comparison with a to-many key path on the
    /// right (one value: the whole collection).
    static let collectionCases: [Case] = [
        Case(statement: "Book WHERE author.books.title == 'Excession'",
             sql: #"FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" WHERE EXISTS (SELECT 1 FROM "Book" AS "t2" WHERE "t2"."author" = "t1"."_pk" AND "t2"."title" = ?1) ORDER BY "t0"."_pk""#, bindings: ["'Excession'"]),
        Case(statement: "Book WHERE 1990 != author.books.year",
             sql: #"FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" WHERE EXISTS (SELECT 1 FROM "Book" AS "t2" WHERE "t2"."author" = "t1"."_pk" AND ?1 IS NOT "t2"."year") OR "t1"."_pk" IS NULL ORDER BY "t0"."_pk""#, bindings: ["1990"]),
        Case(statement: "Book WHERE author.books[SIZE] == 1 OR year[SIZE] == 0",
             sql: #"FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" WHERE (SELECT count(*) FROM "Book" AS "t2" WHERE "t2"."author" = "t1"."_pk") = ?1 OR CASE WHEN "t0"."year" IS NULL THEN 0 END = ?2 ORDER BY +"t0"."_pk""#, bindings: ["1", "0"]),
        Case(statement: "Author WHERE median:(books.year) > 1980 AND stddev:(books.price) < 1",
             sql: #"FROM "Author" AS "t0" WHERE (SELECT sift_group_median("t1"."year", "t1"."_pk") FROM "Book" AS "t1" WHERE "t1"."author" = "t0"."_pk") > ?1 AND (SELECT sift_group_stddev("t2"."price", "t2"."_pk") FROM "Book" AS "t2" WHERE "t2"."author" = "t0"."_pk") < ?2 ORDER BY "t0"."_pk""#, bindings: ["1980", "1"]),
        Case(statement: "Author WHERE mode:(books.year) == 1974",
             sql: #"FROM "Author" AS "t0" WHERE (SELECT sift_group_mode("t1"."year", "t1"."_pk") FROM "Book" AS "t1" WHERE "t1"."author" = "t0"."_pk") = ?1 ORDER BY "t0"."_pk""#, bindings: ["1974"]),
        Case(statement: "Book WHERE ANY tags.name IN author.books.title",
             sql: #"FROM "Book" AS "t0" LEFT JOIN "Author" AS "t3" ON "t3"."_pk" = "t0"."author" WHERE EXISTS (SELECT 1 FROM "Book.tags" AS "t1" JOIN "Tag" AS "t2" ON "t2"."_pk" = "t1"."_target" WHERE "t1"."_owner" = "t0"."_pk" AND EXISTS (SELECT 1 FROM "Book" AS "t4" WHERE "t4"."author" = "t3"."_pk" AND "t2"."name" IS "t4"."title")) ORDER BY "t0"."_pk""#, bindings: []),
        Case(statement: "Book WHERE ANY {nil, 1974} == author.books.year",
             sql: #"FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" WHERE "t1"."_pk" IS NULL ORDER BY "t0"."_pk""#, bindings: []),
        Case(statement: "Book WHERE tags['x'] != %@",
             sql: #"FROM "Book" AS "t0" ORDER BY "t0"."_pk""#, bindings: []),
    ]

    @Test(arguments: collectionCases)
    func collectionsCompileTo(_ c: Case) throws {
        try compilesTo(c)
        // The evaluator's answer, which these constructs are easy to get wrong about.
        let request = try FetchRequest(statement: c.statement, arguments: c.statement.contains("%@") ? [ObjectID("a1")] : [])
        let reference = try DictionarySQLTests.referenceStore()
        #expect(try SQLTestModel.store().fetch(request).objectIDs == reference.fetch(request).objectIDs)
    }

    @Test(arguments: functionCases)
    func functionsCompileTo(_ c: Case) throws {
        try compilesTo(c)
    }

    @Test(arguments: cases)
    func compilesTo(_ c: Case) throws {
        let store = try SQLTestModel.store()
        let request = try FetchRequest(statement: c.statement, arguments: c.statement.contains("%@") ? [ObjectID("a1")] : [])
        let generated = try store.generatedSQL(for: request)
        // The entity column is read only where the table holds more than one entity.
        let entityColumn = request.entityName == "Author" || request.entityName == "Tag" ? "" : #""t0"."_entity", "#
        #expect(generated.sql.hasPrefix(#"SELECT "t0"."_pk", "t0"."_id", "# + entityColumn))
        let from = generated.sql.range(of: " FROM ").map { String(generated.sql[generated.sql.index(after: $0.lowerBound)...]) }
        #expect(from == c.sql)
        #expect(generated.bindings.map(\.description) == c.bindings)
        #expect(generated.inMemoryPredicate == nil)
        // And it runs, with the evaluator's answer.
        _ = try store.fetch(request).objectIDs
    }

    /// What SQL cannot say runs in memory, after the conjuncts before it; paging follows it.
    @Test func unsupportedConjunctsRunInMemory() throws {
        let store = try SQLTestModel.store()
        let request = try FetchRequest(statement: "Book WHERE year == nil AND now() > CAST(0, 'NSDate') AND uppercase:(title) BEGINSWITH 'STAR' LIMIT 1")
        let generated = try store.generatedSQL(for: request)
        #expect(generated.sql.hasSuffix(#"FROM "Book" AS "t0" WHERE "t0"."year" IS NULL ORDER BY +"t0"."_pk""#))
        #expect(generated.inMemoryPredicate == #"now() > CAST(0.0, "NSDate") AND uppercase:(title) BEGINSWITH "STAR""#)
        #expect(try store.fetch(request).objectIDs == ["e1"])
        #expect(try store.count(request) == 1)
    }
}
