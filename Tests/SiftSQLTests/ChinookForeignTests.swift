import ChinookSupport
import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
@testable import SiftStore
import Testing

/// The Chinook-shaped database (Tests/ChinookSupport) as a user asks it, against hand-written
/// SQL and the evaluator (issue 28 §4, §5): money (`NUMERIC(10,2)`, held as REAL) is Decimal, so
/// sums are exact and comparisons with the amounts a user writes are sqlite3's; text dates
/// compare as sqlite3 compares them; every answer is the evaluator's on the same rows.
@Suite(.serialized) struct ChinookForeignTests {
    /// One database for the suite (made once: 20,000 rows), removed when the tests end.
    static let url: URL = {
        do {
            let url = try ChinookDatabase.makeTemporary()
            atexit { try? FileManager.default.removeItem(at: ChinookForeignTests.url.deletingLastPathComponent()) }
            return url
        } catch {
            fatalError("cannot make the Chinook-shaped database: \(error)")
        }
    }()

    static func sqlite(_ sql: String) throws -> [[SQLiteValue]] {
        try SQLiteDatabase(path: url.path, options: [.readOnly]).rows(sql)
    }

    static func count(_ sql: String) throws -> Int {
        guard case .integer(let n)? = try sqlite(sql).first?.first else { return -1 }
        return Int(n)
    }

    /// A statement counted by Sift and by the SQL a sqlite3 user writes for it.
    struct Case: Sendable, CustomTestStringConvertible {
        let statement: String
        let sql: String
        var testDescription: String { statement }
    }

    static let cases: [Case] = [
        Case(statement: #"COUNT Invoice WHERE InvoiceDate >= "2024-01-01""#, sql: "SELECT count(*) FROM Invoice WHERE InvoiceDate >= '2024-01-01'"),
        Case(statement: #"COUNT Invoice WHERE InvoiceDate BETWEEN {"2021-01-01", "2021-01-31"}"#,
             // (Dates, not text: the 31st at midnight is within; sqlite3 compares text, so says it in full.)
             sql: "SELECT count(*) FROM Invoice WHERE InvoiceDate BETWEEN '2021-01-01 00:00:00' AND '2021-01-31 00:00:00'"),
        Case(statement: #"COUNT Invoice WHERE InvoiceDate < "2022-01-01" AND Total > 10"#,
             sql: "SELECT count(*) FROM Invoice WHERE InvoiceDate < '2022-01-01' AND Total > 10"),
        Case(statement: "COUNT Invoice WHERE Total < 1.99", sql: "SELECT count(*) FROM Invoice WHERE Total < 1.99"),
        Case(statement: "COUNT Invoice WHERE Total == 1.98", sql: "SELECT count(*) FROM Invoice WHERE Total = 1.98"),
        Case(statement: "COUNT Invoice WHERE Total > 1.98 AND Total < 1.99", sql: "SELECT count(*) FROM Invoice WHERE Total > 1.98 AND Total < 1.99"),
        Case(statement: "COUNT Invoice WHERE Total BETWEEN {1.98, 3.96}", sql: "SELECT count(*) FROM Invoice WHERE Total BETWEEN 1.98 AND 3.96"),
        Case(statement: "COUNT Invoice WHERE Total IN {0.99, 13.86}", sql: "SELECT count(*) FROM Invoice WHERE Total IN (0.99, 13.86)"),
        Case(statement: "COUNT Invoice WHERE Total != 0.99", sql: "SELECT count(*) FROM Invoice WHERE Total IS NOT 0.99"),
        Case(statement: "COUNT InvoiceLine WHERE UnitPrice == 1.99", sql: "SELECT count(*) FROM InvoiceLine WHERE UnitPrice = 1.99"),
        Case(statement: "COUNT Track WHERE UnitPrice > 0.99 AND Milliseconds > 300000",
             sql: "SELECT count(*) FROM Track WHERE UnitPrice > 0.99 AND Milliseconds > 300000"),
        Case(statement: "COUNT Customer WHERE ANY invoices.Total > 20",
             sql: "SELECT count(*) FROM Customer c WHERE EXISTS (SELECT 1 FROM Invoice i WHERE i.CustomerId = c.CustomerId AND i.Total > 20)"),
        Case(statement: #"COUNT Customer WHERE ANY invoices.InvoiceDate >= "2025-10-01""#,
             sql: "SELECT count(*) FROM Customer c WHERE EXISTS (SELECT 1 FROM Invoice i WHERE i.CustomerId = c.CustomerId AND i.InvoiceDate >= '2025-10-01')"),
        Case(statement: #"COUNT InvoiceLine WHERE Invoice.InvoiceDate < "2022-01-01" AND Track.UnitPrice > 0.99"#,
             sql: "SELECT count(*) FROM InvoiceLine l JOIN Invoice i ON i.InvoiceId = l.InvoiceId JOIN Track t ON t.TrackId = l.TrackId WHERE i.InvoiceDate < '2022-01-01' AND t.UnitPrice > 0.99"),
        Case(statement: #"COUNT Employee WHERE BirthDate < "1955-01-01""#, sql: "SELECT count(*) FROM Employee WHERE BirthDate < '1955-01-01'"),
        Case(statement: #"COUNT Track WHERE Album.Artist.Name BEGINSWITH "Love""#,
             sql: "SELECT count(*) FROM Track t JOIN Album a ON a.AlbumId = t.AlbumId JOIN Artist r ON r.ArtistId = a.ArtistId WHERE r.Name >= 'Love' AND r.Name < 'Lovf'"),
    ]

    @Test(arguments: cases)
    func countsAsSQLiteAndAsTheEvaluator(_ c: Case) throws {
        let store = try SQLiteStore.open(at: Self.url)
        let request = try FetchRequest(statement: c.statement)
        let expected = try Self.count(c.sql)
        #expect(try store.count(request) == expected)
        var objects = request
        objects.resultType = .objects
        #expect(try store.fetch(objects).objectIDs.map(\.rawValue) == (try ForeignDatabaseTests.evaluated(objects, on: store).get()))
        #expect(try store.generatedSQL(for: request).inMemoryPredicate == nil)
    }

    // MARK: Money

    /// Every Total as sqlite3 prints it (`15.86`), summed as decimals.
    static func exactSum(_ column: String, of table: String) throws -> Decimal {
        try sqlite("SELECT printf('%.2f', \(column)) FROM \(table)").reduce(Decimal(0)) { sum, row in
            guard case .text(let text) = row[0], let value = Decimal(string: text) else { return sum }
            return sum + value
        }
    }

    @Test func moneyIsDecimalAndSumsAreExact() throws {
        let store = try SQLiteStore.open(at: Self.url)
        let invoice = try #require(store.model.entity(named: "Invoice"))
        #expect(invoice.attribute(named: "Total")?.type == .decimal)
        #expect(store.model.entity(named: "Track")?.attribute(named: "UnitPrice")?.type == .decimal)
        #expect(store.columnTypeReasons["Invoice"]?["Total"] == "declared NUMERIC(10,2)")
        let total = try Self.exactSum("Total", of: "Invoice")
        guard case .dictionaries(let rows) = try store.execute(try FetchRequest(statement: "SELECT sum:(Total) AS s, min:(Total) AS lo, max:(Total) AS hi FROM Invoice")),
              case .decimal(let sum)? = rows.first?["s"] else {
            Issue.record("no decimal sum")
            return
        }
        #expect(sum == total)
        // Two decimals, as sqlite3 rounds its REAL sum to print it.
        #expect(try Self.sqlite("SELECT printf('%.2f', sum(Total)) FROM Invoice").first?.first == .text(sum.description))
        let ends = try Self.sqlite("SELECT printf('%.2f', min(Total)), printf('%.2f', max(Total)) FROM Invoice").first ?? []
        if case .decimal(let low)? = rows.first?["lo"], case .decimal(let high)? = rows.first?["hi"] {
            #expect([SQLiteValue.text(low.description), .text(high.description)] == ends)
        } else {
            Issue.record("min and max are not decimals")
        }
        // Each object reads its Total as the decimal sqlite3 prints.
        let object = try #require(try store.fetch(FetchRequest(statement: "Invoice WHERE InvoiceId == 4")).first)
        let printed = try Self.sqlite("SELECT printf('%.2f', Total) FROM Invoice WHERE InvoiceId = 4").first?.first
        guard case .decimal(let four)? = object[attribute: "Total"], case .text(let text)? = printed else {
            Issue.record("Total is not a decimal")
            return
        }
        #expect(four == Decimal(string: text))
    }

    /// Sums per customer and per country, in SQL and in the evaluator.
    @Test(arguments: [
        "SELECT BillingCountry, sum:(Total) AS total, average:(Total) AS mean, count:(Total) AS n FROM Invoice GROUP BY BillingCountry",
        "SELECT Customer.Country AS country, sum:(Total) AS total FROM Invoice GROUP BY Customer.Country",
        "SELECT InvoiceId, sum:(UnitPrice) AS total FROM InvoiceLine GROUP BY InvoiceId",
    ])
    func groupedSumsAreTheEvaluators(_ statement: String) throws {
        let store = try SQLiteStore.open(at: Self.url)
        let request = try FetchRequest(statement: statement)
        let fetched = try ForeignGroupingTests.fetched(request, on: store)
        #expect(ForeignGroupingTests.text(fetched) == ForeignGroupingTests.text(try ForeignGroupingTests.inMemory(request, on: store)))
        #expect(fetched.allSatisfy { row in if case .decimal? = row["total"] { return true } else { return false } })
    }

    @Test func collectionSumsAndSortsAreTheEvaluators() throws {
        let store = try SQLiteStore.open(at: Self.url)
        for format in ["invoices.@sum.Total > 40", "invoices.@avg.Total < 6.5", "invoices.@max.Total == 15.86", "invoices.@min.Total >= 1.98"] {
            let request = try FetchRequest(entityName: "Customer", predicate: format)
            #expect(try store.fetch(request).objectIDs.map(\.rawValue) == (try ForeignDatabaseTests.evaluated(request, on: store).get()), "\(format)")
        }
        let sorted = try store.fetch(FetchRequest(statement: "Invoice SORT BY Total DESC, InvoiceId")).map(\.objectID.rawValue)
        let expected = try Self.sqlite("SELECT InvoiceId FROM Invoice ORDER BY Total DESC, InvoiceId").map { row -> String in
            guard case .integer(let id) = row[0] else { return "?" }
            return "Invoice/\(id)"
        }
        #expect(sorted == expected)
    }

    /// A comparison with an amount is SQLite's on the stored number (an index would serve it).
    @Test func amountsCompareAsStoredNumbers() throws {
        let store = try SQLiteStore.open(at: Self.url)
        let sql = try store.generatedSQL(for: try FetchRequest(statement: "COUNT Invoice WHERE Total > 1.98 AND Total <= 25"))
        #expect(sql.sql == #"SELECT count(*) FROM "Invoice" AS "t0" WHERE "t0"."Total" > ?1 AND "t0"."Total" <= ?2"#)
        #expect(sql.bindings == [.real(1.98), .integer(25)])
        // An amount no double spells exactly is the evaluator's, through sift_order.
        let precise = try store.generatedSQL(for: try FetchRequest(statement: #"COUNT Invoice WHERE Total > CAST("1.980000000000000000001", "NSDecimalNumber")"#))
        #expect(precise.sql.contains("sift_order"))
        #expect(try store.count(try FetchRequest(statement: #"COUNT Invoice WHERE Total > CAST("1.980000000000000000001", "NSDecimalNumber")"#))
                == Self.count("SELECT count(*) FROM Invoice WHERE Total > 1.98"))
    }
}
