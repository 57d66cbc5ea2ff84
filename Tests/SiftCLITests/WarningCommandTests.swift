import ChinookSupport
import Foundation
import SiftSQLite
import Testing

/// "Never a silent zero" at the command line (issue 28 §1): `sift query`, `sql`, `explain`,
/// `update`, `delete`, `run` and the REPL print a comparison the types decide as `warning:` on
/// standard error — the statement, a caret under the comparison, what it does and what was
/// meant — with the same results and exit status as without it; and the wrong answers the
/// issue found are sqlite3's answers on a Chinook-shaped database.
@Suite struct WarningCommandTests {
    static func chinook() throws -> URL { try ChinookDatabase.makeTemporary() }

    static func remove(_ url: URL) { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }

    @Test(arguments: [
        ("COUNT Album WHERE Artist == 3", 19, "did you mean Artist.ArtistId == 3?"),
        (#"COUNT Track WHERE Milliseconds == "343719""#, 19, "did you mean Milliseconds == 343719?"),
        (#"COUNT Track WHERE Name LIKE "%Love%""#, 19, #"LIKE's wildcards are * (any characters) and ? (one character); did you mean Name LIKE "*Love*"?"#),
        (#"COUNT Customer WHERE SUBQUERY(invoices, $i, $i.Total == "3.96").@count > 0"#, 45, "did you mean $i.Total == 3.96?"),
    ])
    func queryWarnsWithACaretAndAnswersAsBefore(_ statement: String, _ column: Int, _ ending: String) throws {
        let url = try Self.chinook()
        defer { Self.remove(url) }
        let result = try SiftBinary.run("query", "--store", url.path, statement)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "{\"count\": 0}\n")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 4, "\(result.stderr)")
        #expect(lines.first == statement)
        #expect(lines.dropFirst().first == String(repeating: " ", count: column - 1) + "^")
        #expect(lines.dropFirst(2).first?.hasPrefix("warning: column \(column): ") == true, "\(result.stderr)")
        #expect(lines.dropFirst(2).first?.hasSuffix(ending) == true, "\(result.stderr)")
    }

    /// The same comparison written as meant prints no warning.
    @Test func theMeantFormHasNoWarning() throws {
        let url = try Self.chinook()
        defer { Self.remove(url) }
        for statement in ["COUNT Album WHERE Artist.ArtistId == 3", "COUNT Track WHERE Milliseconds == 343719", #"COUNT Track WHERE Name LIKE "*Love*""#] {
            let result = try SiftBinary.run("query", "--store", url.path, statement)
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "\(statement): \(result.stderr)")
        }
    }

    @Test func sqlExplainUpdateDeleteAndRunWarnToo() throws {
        let url = try Self.chinook()
        defer { Self.remove(url) }
        let sql = try SiftBinary.run("sql", "--store", url.path, "Album WHERE Artist == 3")
        #expect(sql.status == 0)
        #expect(sql.stdout.contains("WHERE 0"))
        #expect(sql.stderr.contains("warning: column 13: Artist == 3 is always false"), "\(sql.stderr)")
        let explain = try SiftBinary.run("explain", "--store", url.path, "Album WHERE Artist == 3")
        #expect(explain.status == 0)
        #expect(explain.stderr.contains("warning: column 13: Artist == 3 is always false"), "\(explain.stderr)")

        let update = try SiftBinary.run("update", "--store", url.path, #"UPDATE Track SET Composer = "x" WHERE Milliseconds == "1""#)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout == "updated 0 objects\n")
        #expect(update.stderr.contains("warning: column 39: Milliseconds == \"1\" is always false"), "\(update.stderr)")
        let delete = try SiftBinary.run("delete", "--store", url.path, "DELETE Album WHERE Artist == 3")
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect(delete.stdout == "deleted 0 objects\n")
        #expect(delete.stderr.contains("did you mean Artist.ArtistId == 3?"), "\(delete.stderr)")

        let script = url.deletingLastPathComponent().appendingPathComponent("report.sift")
        try "COUNT Track\n  WHERE Milliseconds == \"343719\"\n".write(to: script, atomically: true, encoding: .utf8)
        let run = try SiftBinary.run("run", script.path, "--store", url.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("\(script.path):2:9: warning: Milliseconds == \"343719\" is always false"), "\(run.stderr)")
        #expect(run.stderr.contains("\n  WHERE Milliseconds == \"343719\"\n        ^"), "\(run.stderr)")
    }

    @Test func theREPLWarnsAndCountsNoFailure() throws {
        let url = try Self.chinook()
        defer { Self.remove(url) }
        let result = try SiftBinary.run(url.path, "COUNT Album WHERE Artist == 3")
        #expect(result.status == 0)
        #expect(result.stdout.contains("    0"))
        #expect(result.stderr == """
            COUNT Album WHERE Artist == 3
                              ^
            warning: column 19: Artist == 3 is always false: Artist is a to-one relationship of Album to Artist, and an object never equals a number; did you mean Artist.ArtistId == 3?

            """)
        let piped = try SiftBinary.run(url.path, stdin: ".use Track\nName LIKE \"%Love%\"\n")
        #expect(piped.status == 0)
        #expect(piped.stderr.contains("<stdin>:2:1: warning: Name LIKE \"%Love%\" reads '%' as itself"), "\(piped.stderr)")
    }

    /// The issue's silent zeros, now sqlite3's answers, through the binary.
    @Test(arguments: [
        (#"COUNT Customer WHERE SUBQUERY(invoices, $i, $i.InvoiceDate >= "2024-01-01").@count > 0"#,
         "SELECT count(*) FROM Customer c WHERE EXISTS (SELECT 1 FROM Invoice i WHERE i.CustomerId = c.CustomerId AND i.InvoiceDate >= '2024-01-01')"),
        (#"COUNT Customer WHERE invoices.@max.InvoiceDate >= "2025-10-01""#,
         "SELECT count(*) FROM Customer c WHERE (SELECT max(InvoiceDate) FROM Invoice i WHERE i.CustomerId = c.CustomerId) >= '2025-10-01'"),
        (#"SELECT BillingCountry AS c, max:(InvoiceDate) AS lastDate FROM Invoice GROUP BY BillingCountry HAVING lastDate >= "2025-12-01""#,
         "SELECT count(*) FROM (SELECT BillingCountry FROM Invoice GROUP BY BillingCountry HAVING max(InvoiceDate) >= '2025-12-01')"),
    ])
    func theIssuesQuestionsGiveSQLite3sAnswers(_ statement: String, _ handWritten: String) throws {
        let url = try Self.chinook()
        defer { Self.remove(url) }
        let database = try SQLiteDatabase(path: url.path, options: [.readOnly])
        guard case .integer(let count) = try database.scalar(handWritten) else {
            Issue.record("no count from \(handWritten)")
            return
        }
        let expected = String(count)
        #expect(count > 0)
        let result = try SiftBinary.run("query", "--store", url.path, statement, "--output", "jsonl")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let rows = result.stdout.split(separator: "\n")
        if statement.hasPrefix("COUNT") {
            #expect(result.stdout == "{\"count\":\(expected)}\n")
        } else {
            #expect(String(rows.count) == expected)
        }
    }
}
