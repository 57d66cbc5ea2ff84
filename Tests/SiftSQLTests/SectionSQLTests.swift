import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// Sections on SQLite (FETCH.md §4): names, sizes and places from one GROUP BY query, each
/// section's objects queried when it is read — with the atomic store's answers.
@Suite struct SectionSQLTests {
    /// A store of books whose authors have names that section interestingly: a nil and an
    /// empty name (one section), case variants (two sections), and a second run of one name.
    static func populate(_ store: any PersistentStore) throws {
        let authors: [(String, Value)] = [("a1", .string("Le Guin")), ("a2", .string("Banks")), ("a3", .string("")),
                                          ("a4", .string("banks")), ("a5", .string("Banks"))]
        for (id, name) in authors { _ = try store.insert(entity: "Author", id: ObjectID(id), attributes: ["name": name], relationships: [:]) }
        let books: [(String, String, Int64, String?)] = [
            ("b1", "The Dispossessed", 1974, "a1"), ("b2", "Excession", 1996, "a2"), ("b3", "Star Maker", 1937, nil),
            ("b4", "Inversions", 1998, "a4"), ("b5", "Always Coming Home", 1985, "a1"), ("b6", "Matter", 2008, "a3"),
            ("b7", "The Lathe of Heaven", 1971, "a1"), ("b8", "Surface Detail", 2010, "a5"),
        ]
        for (id, title, year, author) in books {
            _ = try store.insert(entity: "Book", id: ObjectID(id), attributes: ["title": .string(title), "year": .int(year)],
                                 relationships: author.map { ["author": [ObjectID($0)]] } ?? [:])
        }
        try store.save()
    }

    static func stores() throws -> (memory: AtomicStore, sqlite: SQLiteStore) {
        let model = try SQLTestModel.model()
        let memory = AtomicStore.inMemory(model: model)
        let sqlite = try SQLiteStore.inMemory(model: model)
        try populate(memory)
        try populate(sqlite)
        return (memory, sqlite)
    }

    struct Observed: Equatable, CustomStringConvertible {
        let sections: [String]
        let titles: [String]
        let counts: [Int]
        let ids: [[ObjectID]]
        let warning: String?
        var description: String { zip(sections, ids).map { "\($0): \($1.map(\.rawValue))" }.joined(separator: "; ") + " \(warning ?? "")" }

        init(_ results: SectionedFetchResults) {
            sections = results.sections.map(\.name)
            titles = results.sectionIndexTitles
            counts = results.sections.map(\.numberOfObjects)
            ids = results.sections.map { $0.objects.map(\.objectID) }
            warning = results.warning
        }
    }

    static let statements = [
        "Book SORT BY author.name SECTION BY author.name",
        "Book SORT BY year SECTION BY author.name",
        "Book WHERE year > 1970 SORT BY author.name DESC, title SECTION BY author.name",
        "Book SORT BY author.name USING caseInsensitiveCompare SECTION BY author.name",
        "Book SORT BY author.name SECTION BY author.name LIMIT 4 OFFSET 2",
        "Book SORT BY year DESC SECTION BY author.name LIMIT 3 OFFSET 1",
        // Pages past SQLFetchExecutor.sectionQueryLimit: their sections are SQL's.
        "Book SORT BY author.name SECTION BY author.name LIMIT 5000 OFFSET 2",
        "Book SORT BY year DESC SECTION BY author.name LIMIT 5000 OFFSET 1",
        "Book SECTION BY year",
        "Book WHERE year > 3000 SECTION BY title",
        "Book SORT BY title SECTION BY title LIMIT 0 OFFSET 7",
        "Author SORT BY name SECTION BY name",
        // Sorted by the section key first: sections from runs of equal sort keys.
        "Author SORT BY name DESC SECTION BY name",
        "Book SORT BY author.name DESC SECTION BY author.name LIMIT 5 OFFSET 1",
        "Book SORT BY author.name DESC USING caseInsensitiveCompare SECTION BY author.name LIMIT 6",
        "Book SORT BY author.name USING localizedStandardCompare, year DESC SECTION BY author.name OFFSET 3",
        "Book SORT BY year DESC SECTION BY year LIMIT 3 OFFSET 2",
        "Book SORT BY title USING caseInsensitiveCompare SECTION BY title",
    ]

    @Test(arguments: statements)
    func sectionsMatchTheAtomicStore(_ statement: String) throws {
        let (memory, sqlite) = try Self.stores()
        let request = try FetchRequest(statement: statement)
        // The whole fetch runs in SQL, so the sections come from the GROUP BY query — but for
        // a small page, grouped from its rows.
        #expect(try (sqlite.generatedSQL(for: request).sectionsSQL != nil) != PageSections.areGroupedFromRows(request))
        let expected = Observed(try memory.fetchSections(request))
        let actual = Observed(try sqlite.fetchSections(request))
        #expect(actual == expected)
    }

    @Test func nilAndEmptyShareASectionAndCaseVariantsDoNot() throws {
        let (_, sqlite) = try Self.stores()
        let results = try sqlite.fetchSections(try FetchRequest(statement: "Book SORT BY author.name SECTION BY author.name"))
        #expect(results.sections.map(\.name) == ["", "Banks", "Le Guin", "banks"])
        #expect(results.sections.map(\.numberOfObjects) == [2, 2, 3, 1])
        #expect(results.sections[0].objects.map(\.objectID) == ["b3", "b6"])
        #expect(results.sectionIndexTitles == ["", "B", "L", "B"])
        #expect(results.warning == nil)
    }

    @Test func sectionsOutOfSortOrderWarn() throws {
        let (_, sqlite) = try Self.stores()
        let results = try sqlite.fetchSections(try FetchRequest(statement: "Book SORT BY year SECTION BY author.name"))
        #expect(results.warning == SectionedResults.notContiguousWarning("author.name"))
        #expect(results.sections.first?.name == "")  // Star Maker, 1937, has no author
    }

    @Test func theSummaryIsOneGroupByQuery() throws {
        let (_, sqlite) = try Self.stores()
        let generated = try sqlite.generatedSQL(for: try FetchRequest(statement: "Book WHERE year > 1970 SORT BY year SECTION BY author.name LIMIT 5000"))
        #expect(generated.sectionsSQL == #"SELECT "s", count(*), min("n"), max("n") FROM (SELECT "t1"."name" AS "s", row_number() OVER (ORDER BY "t0"."year", "t0"."_pk") AS "n" FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" WHERE "t0"."year" > ?1 ORDER BY "t0"."year", +"t0"."_pk" LIMIT ?2) GROUP BY "s" COLLATE BINARY ORDER BY min("n")"#)
        #expect(generated.sectionsBindings.map(\.description) == ["1970", "5000"])
    }

    /// Sorted by the section key first, the sections are runs of equal sort keys: a plain
    /// GROUP BY in sort order, numbering no rows.
    @Test func sortingBySectionKeyGroupsBySortKey() throws {
        let (_, sqlite) = try Self.stores()
        let generated = try sqlite.generatedSQL(for: try FetchRequest(statement: "Book WHERE year > 1970 SORT BY author.name DESC SECTION BY author.name"))
        #expect(generated.sectionsSQL == #"SELECT min("t1"."name"), max("t1"."name"), count("t1"."name"), count(*) FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" WHERE "t0"."year" > ?1 GROUP BY "t1"."name" ORDER BY "t1"."name" DESC"#)
        #expect(generated.sectionsBindings.map(\.description) == ["1970"])
    }

    /// SQLite's plan for it is one scan and one GROUP BY sorter: no subquery of numbered rows.
    @Test func theGroupedSummaryPlanIsOneScan() throws {
        let (_, sqlite) = try Self.stores()
        let generated = try sqlite.generatedSQL(for: try FetchRequest(statement: "Author SORT BY name SECTION BY name"))
        let sql = try #require(generated.sectionsSQL)
        let plan = try sqlite.rawRows("EXPLAIN QUERY PLAN " + sql, generated.sectionsBindings.map(SQLiteValue.init)).map { $0.last?.description ?? "" }
        #expect(!plan.contains { $0.contains("CO-ROUTINE") }, "\(plan)")
        #expect(plan.contains { $0.contains("SCAN") }, "\(plan)")
    }

    /// Paged past ``SQLFetchExecutor/sectionQueryLimit`` rows, the runs are grouped from the
    /// page's rows in SQL; a comparator's collation groups them.
    @Test func aPagedSortBySectionKeyGroupsThePage() throws {
        let (_, sqlite) = try Self.stores()
        let generated = try sqlite.generatedSQL(for: try FetchRequest(statement: "Book SORT BY author.name USING caseInsensitiveCompare SECTION BY author.name LIMIT 5000 OFFSET 2"))
        #expect(generated.sectionsSQL == #"SELECT min("s"), max("s"), count("s"), count(*) FROM (SELECT "t1"."name" AS "s", "t1"."name" COLLATE sift_case_insensitive AS "k" FROM "Book" AS "t0" LEFT JOIN "Author" AS "t1" ON "t1"."_pk" = "t0"."author" ORDER BY "t1"."name" COLLATE sift_case_insensitive, "t0"."_pk" LIMIT ?1 OFFSET ?2) GROUP BY "k" ORDER BY "k""#)
        #expect(generated.sectionsBindings.map(\.description) == ["5000", "2"])
    }

    /// A small page (the first page of a sectioned list) runs one query, the page's: its
    /// sections are grouped from the rows it fetched, as the evaluator groups them.
    @Test(arguments: ["Book SORT BY year SECTION BY author.name LIMIT 3",
                      "Book SORT BY author.name USING caseInsensitiveCompare SECTION BY author.name LIMIT 4 OFFSET 1",
                      "Book WHERE year > 1900 SORT BY author.name DESC, year SECTION BY author.name LIMIT 1000"])
    func aSmallPageIsGroupedFromItsRows(_ statement: String) throws {
        let (memory, sqlite) = try Self.stores()
        let request = try FetchRequest(statement: statement)
        let generated = try sqlite.generatedSQL(for: request)
        #expect(generated.sectionsSQL == nil)
        #expect(generated.description.contains("sections grouped from the page's rows"), "\(generated)")
        let expected = Observed(try memory.fetchSections(request))
        #expect(Observed(try sqlite.fetchSections(request)) == expected)
        #expect(!expected.sections.isEmpty)
    }

    /// A case-insensitive sort puts "Banks", "banks", "Banks" in one run of equal keys: the
    /// run does not say where each section starts, so the rows are numbered as before, and
    /// the sections are the evaluator's (not contiguous).
    @Test func aRunOfSeveralValuesNumbersTheRows() throws {
        let (memory, sqlite) = try Self.stores()
        let request = try FetchRequest(statement: "Book SORT BY author.name USING caseInsensitiveCompare SECTION BY author.name")
        let results = try sqlite.fetchSections(request)
        #expect(Observed(results) == Observed(try memory.fetchSections(request)))
        #expect(results.sections.map(\.name) == ["", "Banks", "banks", "Le Guin"])
        #expect(results.warning == SectionedResults.notContiguousWarning("author.name"))
    }

    /// Nil and "" are runs of their own that make one section, whichever way the sort goes.
    @Test func nilAndEmptyRunsMakeOneSection() throws {
        let (memory, sqlite) = try Self.stores()
        for statement in ["Book SORT BY author.name SECTION BY author.name", "Book SORT BY author.name DESC SECTION BY author.name"] {
            let request = try FetchRequest(statement: statement)
            let results = try sqlite.fetchSections(request)
            #expect(Observed(results) == Observed(try memory.fetchSections(request)))
            #expect(results.sections.filter { $0.name.isEmpty }.map(\.numberOfObjects) == [2])
            #expect(results.warning == nil)
        }
    }

    /// What SQL cannot say runs in memory, and the sections are then made in Swift.
    @Test func aResidualPredicateSectionsInMemory() throws {
        let (memory, sqlite) = try Self.stores()
        let request = try FetchRequest(statement: "Book WHERE uppercase:(title) CONTAINS 'E' SORT BY author.name SECTION BY author.name LIMIT 4")
        let generated = try sqlite.generatedSQL(for: request)
        if generated.inMemoryPredicate != nil { #expect(generated.sectionsSQL == nil) }
        #expect(Observed(try sqlite.fetchSections(request)) == Observed(try memory.fetchSections(request)))
    }

    /// A column declared `COLLATE NOCASE` in a database Sift did not create still sections
    /// as the evaluator compares: "Banks" and "banks" are two sections.
    @Test func declaredCollationsDoNotMergeSections() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-sections-\(UUID().uuidString).db")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let database = try SQLiteDatabase(path: url.path, options: [.create])
            try database.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE)")
            try database.execute("INSERT INTO people (name) VALUES ('Banks'), ('banks'), ('BANKS'), ('Banks'), (NULL), ('')")
        }
        let store = try SQLiteStore.open(at: url)
        let request = try FetchRequest(statement: "people SORT BY id SECTION BY name")
        #expect(try store.generatedSQL(for: request).sectionsSQL != nil)
        let results = try store.fetchSections(request)
        #expect(results.sections.map(\.name) == ["Banks", "banks", "BANKS", ""])
        #expect(results.sections.map(\.numberOfObjects) == [2, 1, 1, 2])
        #expect(results.sections[0].objects.map(\.objectID) == ["people/1", "people/4"])
        #expect(results.warning == SectionedResults.notContiguousWarning("name"))
    }
}
