import ChinookSupport
import Foundation
import SiftEvaluation
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
@testable import SiftStore
import Testing

/// LANGUAGE.md §3's typed rule wherever a comparison is written (issue 28 §1): the generated
/// differential (``TypedComparisonDifferential``) on the Chinook-shaped database Sift did not
/// create (text dates), on a Sift-made SQLite store and on an in-memory store holding the
/// same objects; and the issue's wrong answers, against hand-written SQL on the same file.
@Suite struct TypedComparisonDifferentialTests {
    /// The Chinook-shaped file, and its employees, customers, invoices and invoice lines in an
    /// in-memory store and a Sift-made SQLite store: made once for the suite's tests, which only
    /// read them (filling the in-memory store takes seconds); the directory is removed when the
    /// test process exits.
    struct Fixture: @unchecked Sendable {
        let foreign: SQLiteStore
        let memory: AtomicStore
        let sift: SQLiteStore
    }

    nonisolated(unsafe) static var fixtureDirectory: URL?

    static let fixture: Result<Fixture, any Error> = Result {
        let url = try ChinookDatabase.makeTemporary()
        fixtureDirectory = url.deletingLastPathComponent()
        atexit {
            if let directory = TypedComparisonDifferentialTests.fixtureDirectory { try? FileManager.default.removeItem(at: directory) }
        }
        let foreign = try SQLiteStore.open(at: url)
        let memory = AtomicStore.inMemory(model: foreign.model)
        try foreign.copyObjects(into: memory, entities: TypedComparisonDifferential.entities)
        let sift = try SQLiteStore.create(at: url.deletingLastPathComponent().appendingPathComponent("sift.sqlite"), model: foreign.model)
        try memory.copyObjects(into: sift)
        return Fixture(foreign: foreign, memory: memory, sift: sift)
    }

    static func stores() throws -> (foreign: SQLiteStore, memory: AtomicStore, sift: SQLiteStore) {
        let fixture = try Self.fixture.get()
        return (fixture.foreign, fixture.memory, fixture.sift)
    }

    @Test func everyConstructGivesTheTopLevelAnswerInEveryStore() throws {
        let (foreign, memory, sift) = try Self.stores()
        let (mismatches, checked) = try TypedComparisonDifferential.run(
            stores: [("memory", memory), ("Sift's SQLite", sift), ("the Chinook file", foreign)], memory: memory)
        #expect(checked > 1500)
        if !mismatches.isEmpty {
            Issue.record("\(mismatches.count) of \(checked) disagree:\n\(mismatches.prefix(20).joined(separator: "\n"))")
        }
    }

    /// The statements compile to SQL (no fallback to the evaluator hides a wrong SQL form):
    /// a date compared in a SUBQUERY, through a to-one from its variable, in an aggregate.
    @Test(arguments: [
        #"COUNT Customer WHERE SUBQUERY(invoices, $i, $i.InvoiceDate >= "2024-01-01").@count > 0"#,
        #"COUNT Customer WHERE SUBQUERY(invoices, $i, $i.InvoiceDate BETWEEN {"2021-01-01", "2021-01-31"}).@count > 0"#,
        #"COUNT Invoice WHERE SUBQUERY(invoicelines, $l, $l.Invoice.InvoiceDate < "2022-01-01").@count > 0"#,
        #"COUNT Customer WHERE invoices.@max.InvoiceDate >= "2025-10-01""#,
        #"COUNT Customer WHERE invoices.@min.InvoiceDate < "2021-03-01""#,
    ])
    func theRewrittenComparisonsRunInSQL(_ statement: String) throws {
        let (foreign, _, _) = try Self.stores()
        let generated = try foreign.generatedSQL(for: FetchRequest(statement: statement))
        #expect(generated.inMemoryPredicate == nil, "\(generated)")
        #expect(!generated.sql.contains(" 0)") && !generated.sql.hasSuffix("WHERE 0"), "\(generated.sql)")
    }

    /// The issue's wrong answers (0, or no groups) against sqlite3's hand-written SQL on the
    /// same file; the counts are the Chinook-shaped database's, not real Chinook's.
    @Test(arguments: [
        (#"COUNT Customer WHERE SUBQUERY(invoices, $i, $i.InvoiceDate >= "2024-01-01").@count > 0"#,
         "SELECT count(*) FROM Customer c WHERE EXISTS (SELECT 1 FROM Invoice i WHERE i.CustomerId = c.CustomerId AND i.InvoiceDate >= '2024-01-01')"),
        (#"COUNT Customer WHERE SUBQUERY(invoices, $i, $i.InvoiceDate BETWEEN {"2021-01-01", "2021-01-31"}).@count > 0"#,
         "SELECT count(*) FROM Customer c WHERE EXISTS (SELECT 1 FROM Invoice i WHERE i.CustomerId = c.CustomerId AND i.InvoiceDate BETWEEN '2021-01-01 00:00:00' AND '2021-01-31 00:00:00')"),
        (#"COUNT InvoiceLine WHERE SUBQUERY(Invoice.invoicelines, $l, $l.Invoice.InvoiceDate < "2022-01-01").@count > 0"#,
         "SELECT count(*) FROM InvoiceLine l JOIN Invoice i ON i.InvoiceId = l.InvoiceId WHERE i.InvoiceDate < '2022-01-01'"),
        (#"COUNT Invoice WHERE SUBQUERY(invoicelines, $l, $l.Invoice.InvoiceDate < "2022-01-01").@count > 0"#,
         "SELECT count(*) FROM Invoice i WHERE i.InvoiceDate < '2022-01-01' AND EXISTS (SELECT 1 FROM InvoiceLine l WHERE l.InvoiceId = i.InvoiceId)"),
        (#"COUNT Customer WHERE invoices.@max.InvoiceDate >= "2025-10-01""#,
         "SELECT count(*) FROM Customer c WHERE (SELECT max(InvoiceDate) FROM Invoice i WHERE i.CustomerId = c.CustomerId) >= '2025-10-01'"),
        (#"COUNT Customer WHERE invoices.@min.InvoiceDate < "2021-03-01""#,
         "SELECT count(*) FROM Customer c WHERE (SELECT min(InvoiceDate) FROM Invoice i WHERE i.CustomerId = c.CustomerId) < '2021-03-01'"),
        (#"COUNT Employee WHERE SUBQUERY(customers, $c, SUBQUERY($c.invoices, $i, $i.InvoiceDate >= "2025-01-01").@count > 1).@count > 0"#,
         """
         SELECT count(*) FROM Employee e WHERE EXISTS (SELECT 1 FROM Customer c WHERE c.SupportRepId = e.EmployeeId
             AND (SELECT count(*) FROM Invoice i WHERE i.CustomerId = c.CustomerId AND i.InvoiceDate >= '2025-01-01') > 1)
         """),
    ])
    func theIssuesCountsAreSQLite3s(_ statement: String, _ handWritten: String) throws {
        let (foreign, memory, _) = try Self.stores()
        let database = try SQLiteDatabase(path: try #require(foreign.url).path, options: [.readOnly])
        guard case .integer(let expected) = try database.scalar(handWritten) else {
            Issue.record("no count from \(handWritten)")
            return
        }
        #expect(expected > 0)
        let request = try FetchRequest(statement: statement)
        #expect(try foreign.count(request) == Int(expected), "\(statement)")
        #expect(try memory.count(request) == Int(expected), "\(statement)")
    }

    /// HAVING on an aggregate alias compares it as a date: the groups sqlite3 finds.
    @Test func havingOnADateAliasFindsSQLite3sGroups() throws {
        let (foreign, memory, _) = try Self.stores()
        let database = try SQLiteDatabase(path: try #require(foreign.url).path, options: [.readOnly])
        let expected = try database.rows("""
            SELECT BillingCountry FROM Invoice GROUP BY BillingCountry HAVING max(InvoiceDate) >= '2025-12-01' ORDER BY max(InvoiceDate) DESC
            """).map { row -> String in
            if case .text(let text) = row[0] { return text }
            return "?"
        }
        #expect(expected.count > 1)
        let request = try FetchRequest(statement: #"""
            SELECT BillingCountry AS c, max:(InvoiceDate) AS lastDate FROM Invoice GROUP BY BillingCountry
                HAVING lastDate >= "2025-12-01" SORT BY lastDate DESC
            """#)
        for store in [foreign, memory] as [any PersistentStore] {
            guard case .dictionaries(let rows) = try store.execute(request) else { Issue.record("no rows"); continue }
            #expect(rows.map { row -> String in
                if case .string(let text)? = row["c"] { return text }
                return "?"
            } == expected)
        }
    }

    /// Lahman's `People.debut` (a DATE column) read through a SUBQUERY variable's to-one path.
    @Test func aDateThroughAToOneFromASubqueryVariable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-typed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("lahman.sqlite")
        let database = try SQLiteDatabase(path: url.path, options: [.create])
        try database.execute("""
            CREATE TABLE People (playerID TEXT PRIMARY KEY, nameLast TEXT, debut DATE);
            CREATE TABLE Batting (playerID TEXT REFERENCES People (playerID), yearID INTEGER, HR INTEGER);
            INSERT INTO People VALUES ('ansonca01', 'Anson', '1871-05-06'), ('ruthba01', 'Ruth', '1914-07-11'),
                ('wrighge01', 'Wright', '1871-05-05'), ('troutmi01', 'Trout', '2011-07-08');
            INSERT INTO Batting VALUES ('ansonca01', 1871, 0), ('ansonca01', 1872, 1), ('ruthba01', 1927, 60),
                ('wrighge01', 1871, 0), ('troutmi01', 2019, 45);
            """)
        let store = try SQLiteStore.open(at: url)
        let statement = #"COUNT People WHERE SUBQUERY(battings, $b, $b.player.debut < "1900-01-01").@count > 0"#
        #expect(try store.count(FetchRequest(statement: statement)) == 2)
        let handWritten = try database.scalar("""
            SELECT count(*) FROM People p WHERE EXISTS (SELECT 1 FROM Batting b JOIN People q ON q.playerID = b.playerID
                WHERE b.playerID = p.playerID AND q.debut < '1900-01-01')
            """)
        #expect(handWritten == .integer(2))
    }

    /// A misspelt key in a SUBQUERY's predicate is an error naming it, as at the top level.
    @Test(arguments: [
        (#"Customer WHERE SUBQUERY(invoices, $i, $i.InvoiceDat >= "2024-01-01").@count > 0"#, "unknown key 'InvoiceDat' on Invoice; did you mean 'InvoiceDate'?"),
        (#"Customer WHERE SUBQUERY(invoices, $i, Totl > 5).@count > 0"#, "unknown key 'Totl' on Invoice; did you mean 'Total'?"),
        (#"Customer WHERE SUBQUERY(invoices, $i, $i.Customer.Countr == "USA").@count > 0"#, "unknown key 'Countr' on Customer; did you mean 'Country'?"),
        (#"SELECT BillingCountry AS c, max:(InvoiceDate) AS lastDate FROM Invoice GROUP BY BillingCountry HAVING lastdate > "2025-01-01""#,
         "unknown key 'lastdate' in HAVING: it reads the result's properties (c, lastDate); did you mean 'lastDate'?"),
        (#"Customer WHERE SUBQUERY(invoices, $i, $i.InvoiceDate >= "soon").@count > 0"#,
         #""soon" is not an ISO 8601 date; $i.InvoiceDate is a Date attribute of Invoice (write a date such as "2017-07-08T00:00:00Z")"#),
        (#"Customer WHERE SUBQUERY(invoices, $i, $i.Total < "cheap").@count > 0"#,
         #"'<' cannot order $i.Total, a Decimal attribute of Invoice, and the string "cheap""#),
    ])
    func nestedKeysAndConstantsAreCheckedAsAtTheTopLevel(_ statement: String, _ message: String) throws {
        let (foreign, memory, _) = try Self.stores()
        for store in [foreign, memory] as [any PersistentStore] {
            #expect { try store.execute(FetchRequest(statement: statement)) } throws: { error in
                (error as? StoreError)?.message == message
            }
        }
    }
}
