import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// Key paths across several to-many steps compile to SQL and give the evaluator's answers
/// (``MultiHopFixture``), and the shapes the compiler chooses (golden SQL): a chain of
/// uncorrelated semi-joins for an existential test that reads only the last step, EXISTS over
/// the joins where a path may end in a nil element the test accepts, one correlated subquery
/// over the joins for an operator.
@Suite struct MultiHopKeyPathTests {
    static func stores() throws -> (memory: AtomicStore, sqlite: SQLiteStore) {
        let model = try MultiHopFixture.model()
        let memory = AtomicStore.inMemory(model: model)
        let sqlite = try SQLiteStore.inMemory(model: model)
        try MultiHopFixture.fill(memory)
        try MultiHopFixture.fill(sqlite)
        return (memory, sqlite)
    }

    @Test(arguments: MultiHopFixture.statements)
    func runsInSQLWithTheEvaluatorsAnswer(_ statement: String) throws {
        let (memory, sqlite) = try Self.stores()
        let request = try MultiHopFixture.request(statement)
        let generated = try sqlite.generatedSQL(for: request)
        #expect(generated.inMemoryPredicate == nil, "\(generated.inMemoryReason ?? "")")
        #expect(!generated.sortsInMemory)
        let expected = MultiHopFixture.text(try memory.execute(request))
        #expect(MultiHopFixture.text(try sqlite.execute(request)) == expected)
        #expect(try sqlite.count(request) == memory.count(request))
    }

    @Test(arguments: MultiHopFixture.selects)
    func propertiesRunInSQLWithTheEvaluatorsValues(_ statement: String) throws {
        let (memory, sqlite) = try Self.stores()
        let request = try MultiHopFixture.request(statement)
        #expect(try sqlite.generatedSQL(for: request).inMemoryReason == nil)
        #expect(MultiHopFixture.text(try sqlite.execute(request)) == MultiHopFixture.text(try memory.execute(request)))
    }

    /// Sections by a count across several to-many steps: SQL's GROUP BY names and counts them.
    @Test func sectionsByACountAcrossSeveralSteps() throws {
        let (memory, sqlite) = try Self.stores()
        let request = try MultiHopFixture.request("Tag SORT BY books.author.books.@count, name SECTION BY books.author.books.@count")
        #expect(try sqlite.generatedSQL(for: request).sectionsSQL != nil)
        func sections(_ store: any PersistentStore) throws -> [String] {
            try store.fetchSections(request).sections.map { "\($0.name): \($0.objects.map(\.objectID.rawValue).joined(separator: " "))" }
        }
        #expect(try sections(sqlite) == sections(memory))
        #expect(try sections(sqlite) == ["0: t3", "5: t2", "6: t0", "7: t1"])
    }

    /// The answers these statements are about: a path counted twice, nil elements, empty
    /// collections — the evaluator's, which the SQL must give.
    @Test func theFlattenedCollectionIsOneElementPerPath() throws {
        let (memory, sqlite) = try Self.stores()
        for store in [memory as any PersistentStore, sqlite] {
            func ids(_ statement: String) throws -> String { MultiHopFixture.text(try store.execute(MultiHopFixture.request(statement))) }
            // a0's books' tags: t0 t1 (b0), t1 (b1): four paths, t1 twice.
            #expect(try ids("Author WHERE books.tags.@count == 3") == "a0")
            // b3 and b6 have no author: a nil element on each path through them (t1 and t2 via b6).
            #expect(try ids("Tag WHERE ANY books.author.books == nil") == "t1 t2")
            // t3 is on no book: ALL holds, ANY does not.
            #expect(try ids("Tag WHERE ALL books.author.books.year > 1965") == "t3")
            // b3 has no author: the whole value is nil, so the implicit ANY tests nil once.
            #expect(try ids("Book WHERE author.books.tags.name != 'Tag 0'").contains("b3"))
            #expect(try ids("Book WHERE author.books.tags.@count == 0") == "b3 b6")
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let statement: String
        let sql: String
        var testDescription: String { statement }
    }

    static let goldenCases: [Case] = [
        // An existential test on the last step's rows: semi-joins from the last step back.
        Case(statement: "Author WHERE ANY books.tags.name == 'Tag 2'",
             sql: #"FROM "Author" AS "t0" WHERE "t0"."_pk" IN (SELECT "t1"."author" FROM "Book" AS "t1" WHERE "t1"."author" IS NOT NULL AND "t1"."_pk" IN (SELECT "t2"."_owner" FROM "Book.tags" AS "t2" JOIN "Tag" AS "t3" ON "t3"."_pk" = "t2"."_target" WHERE "t2"."_owner" IS NOT NULL AND "t3"."name" = ?1)) ORDER BY "t0"."_pk""#),
        // ALL: none of the elements fails.
        Case(statement: "Author WHERE ALL books.tags.name != 'Tag 1'",
             sql: #"FROM "Author" AS "t0" WHERE NOT "t0"."_pk" IN (SELECT "t1"."author" FROM "Book" AS "t1" WHERE "t1"."author" IS NOT NULL AND "t1"."_pk" IN (SELECT "t2"."_owner" FROM "Book.tags" AS "t2" JOIN "Tag" AS "t3" ON "t3"."_pk" = "t2"."_target" WHERE "t2"."_owner" IS NOT NULL AND NOT "t3"."name" IS NOT ?1)) ORDER BY "t0"."_pk""#),
        // A to-one step between to-many steps, the test false on nil: the semi-joins still.
        Case(statement: "Tag WHERE books.author.books.title == 'Book 0'",
             sql: #"FROM "Tag" AS "t0" WHERE "t0"."_pk" IN (SELECT "t1"."_owner" FROM "Tag.books" AS "t1" JOIN "Book" AS "t2" ON "t2"."_pk" = "t1"."_target" LEFT JOIN "Author" AS "t3" ON "t3"."_pk" = "t2"."author" WHERE "t1"."_owner" IS NOT NULL AND "t3"."_pk" IN (SELECT "t4"."author" FROM "Book" AS "t4" WHERE "t4"."author" IS NOT NULL AND "t4"."title" = ?1)) ORDER BY "t0"."_pk""#),
        // … a test true on nil (`nil != 'Book 0'`): EXISTS over the joins, where a nil author is
        // one nil element and an author without books none.
        Case(statement: "Tag WHERE books.author.books.title != 'Book 0'",
             sql: #"FROM "Tag" AS "t0" WHERE EXISTS (SELECT 1 FROM "Tag.books" AS "t1" JOIN "Book" AS "t2" ON "t2"."_pk" = "t1"."_target" LEFT JOIN "Author" AS "t3" ON "t3"."_pk" = "t2"."author" LEFT JOIN "Book" AS "t4" ON "t4"."author" = "t3"."_pk" WHERE "t1"."_owner" = "t0"."_pk" AND ("t3"."_pk" IS NULL OR "t4"."_pk" IS NOT NULL) AND "t4"."title" IS NOT ?1) ORDER BY "t0"."_pk""#),
        // An operator: one correlated subquery over the joins, one row per path; the evaluator's
        // sum in the flattened collection's order (one key per to-many step).
        Case(statement: "Author WHERE books.tags.@count == 4",
             sql: #"FROM "Author" AS "t0" WHERE (SELECT count(*) FROM "Book" AS "t1" JOIN "Book.tags" AS "t2" ON "t2"."_owner" = "t1"."_pk" JOIN "Tag" AS "t3" ON "t3"."_pk" = "t2"."_target" WHERE "t1"."author" = "t0"."_pk") = ?1 ORDER BY "t0"."_pk""#),
        Case(statement: "Tag WHERE books.author.books.@avg.price > 1",
             sql: #"FROM "Tag" AS "t0" WHERE (SELECT sift_group_average("t4"."price", "t1"."_position", "t4"."_pk") FROM "Tag.books" AS "t1" JOIN "Book" AS "t2" ON "t2"."_pk" = "t1"."_target" LEFT JOIN "Author" AS "t3" ON "t3"."_pk" = "t2"."author" LEFT JOIN "Book" AS "t4" ON "t4"."author" = "t3"."_pk" WHERE "t1"."_owner" = "t0"."_pk" AND ("t3"."_pk" IS NULL OR "t4"."_pk" IS NOT NULL)) > ?1 ORDER BY "t0"."_pk""#),
        // An element by place: ordered by each step's order.
        Case(statement: "Author WHERE shelf.tags[LAST].name == 'Tag 2'",
             sql: #"FROM "Author" AS "t0" WHERE (SELECT "t4"."name" FROM "Author.shelf" AS "t1" JOIN "Book" AS "t2" ON "t2"."_pk" = "t1"."_target" JOIN "Book.tags" AS "t3" ON "t3"."_owner" = "t2"."_pk" JOIN "Tag" AS "t4" ON "t4"."_pk" = "t3"."_target" WHERE "t1"."_owner" = "t0"."_pk" ORDER BY "t1"."_position" DESC, "t3"."_position" DESC LIMIT 1) = ?1 ORDER BY "t0"."_pk""#),
        // SUBQUERY over several steps.
        Case(statement: "Author WHERE SUBQUERY(books.tags, $t, $t.name == 'Tag 1').@count >= 2",
             sql: #"FROM "Author" AS "t0" WHERE (SELECT count(*) FROM "Book" AS "t1" JOIN "Book.tags" AS "t2" ON "t2"."_owner" = "t1"."_pk" JOIN "Tag" AS "t3" ON "t3"."_pk" = "t2"."_target" WHERE "t1"."author" = "t0"."_pk" AND "t3"."name" = ?1) >= ?2 ORDER BY "t0"."_pk""#),
    ]

    @Test(arguments: goldenCases)
    func compilesTo(_ c: Case) throws {
        let (_, sqlite) = try Self.stores()
        let generated = try sqlite.generatedSQL(for: try MultiHopFixture.request(c.statement))
        let from = generated.sql.range(of: " FROM ").map { String(generated.sql[generated.sql.index(after: $0.lowerBound)...]) }
        #expect(from == c.sql)
        #expect(generated.inMemoryPredicate == nil)
    }
}
