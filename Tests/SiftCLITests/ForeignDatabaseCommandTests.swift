import Foundation
import Sift
import SiftSQLite
import Testing
@testable import SiftCLI

/// Databases Sift did not write, through the binary (issue 14): the build-database example
/// counts what `sqlite3` counts through `query`, `sql` and `explain`; `sift schema` says why
/// each column has its type; typed errors come before running in `sql` and `explain` too.
@Suite struct ForeignDatabaseCommandTests {
    static func keyNames(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("build.db").path
        let database = try SQLiteDatabase(path: path, options: [.create])
        var rows: [String] = []
        for i in 0..<200 { rows.append("('\(["C", "N", "<", "c"][i % 4])\(i)')") }
        try database.execute("""
            CREATE TABLE key_names (id INTEGER PRIMARY KEY, key STRING UNIQUE);
            INSERT INTO key_names (key) VALUES \(rows.joined(separator: ", "));
            CREATE TABLE Invoice (InvoiceId INTEGER PRIMARY KEY, InvoiceDate DATETIME NOT NULL, Total NUMERIC(10,2), Note);
            INSERT INTO Invoice VALUES (1, '2010-03-01 00:00:00', 1.98, 'paid'), (2, '2011-06-01 00:00:00', 3.96, 2),
                                       (3, '2011-12-24 00:00:00', 5.94, NULL), (4, '2012-01-01 00:00:00', 0.99, 'late');
            """)
        return path
    }

    @Test func theBuildDatabaseCountsWhatSQLiteCounts() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.keyNames(in: directory)
        let count = try SiftBinary.run("query", "--store", path, #"COUNT key_names WHERE key BEGINSWITH "C""#)
        #expect(count.status == 0, "\(count.stderr)")
        #expect(count.stdout == "{\"count\": 50}\n")
        let sql = try SiftBinary.run("sql", "--store", path, #"COUNT key_names WHERE key BEGINSWITH "C""#)
        #expect(sql.status == 0 && !sql.stdout.contains("WHERE 0"), "\(sql.stdout)")
        let explain = try SiftBinary.run("explain", "--store", path, #"COUNT key_names WHERE key BEGINSWITH "C""#)
        #expect(explain.status == 0 && explain.stdout.contains("QUERY PLAN"), "\(explain.stdout)")
        let inYear = try SiftBinary.run("query", "--store", path,
                                        #"COUNT Invoice WHERE InvoiceDate >= "2011-01-01" AND InvoiceDate < "2012-01-01""#)
        #expect(inYear.stdout == "{\"count\": 2}\n", "\(inYear.stderr)")
    }

    @Test func schemaSaysWhyEachColumnHasItsType() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.keyNames(in: directory)
        let schema = try SiftBinary.run("schema", "--store", path)
        #expect(schema.status == 0, "\(schema.stderr)")
        #expect(schema.stdout == """
            key_names
              id   Integer 64  (declared INTEGER; the row's key)
              key  String      (declared STRING)

            Invoice
              InvoiceId    Integer 64  (declared INTEGER; the row's key)
              InvoiceDate  Date        (declared DATETIME; ISO 8601 text (YYYY-MM-DD HH:MM:SS))
              Total        Decimal     (declared NUMERIC(10,2))
              Note         Undefined   (no declared type; holds integer, text)

            """, "\(schema.stdout)")
    }

    /// A grouped fetch through a to-one path runs in SQLite (issue 16): `sift sql` shows the GROUP
    /// BY, not the objects' query and the fallback's reason, and `query` answers what `sqlite3`
    /// answers.
    @Test func groupedFetchesRunInSQLite() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("lahman.db").path
        let database = try SQLiteDatabase(path: path, options: [.create])
        try database.execute("""
            CREATE TABLE people (playerID TEXT PRIMARY KEY, nameLast TEXT);
            CREATE TABLE batting (ID INTEGER PRIMARY KEY, playerID TEXT REFERENCES people (playerID), HR INT);
            INSERT INTO people VALUES ('aaronha01', 'Aaron'), ('ruthba01', 'Ruth'), ('aaronto01', 'Aaron'), ('bondsba01', 'Bonds');
            INSERT INTO batting (playerID, HR) VALUES ('aaronha01', 44), ('ruthba01', 54), ('aaronto01', 8), ('bondsba01', 73),
                                                      ('ruthba01', 60), ('nobody01', 5), ('aaronha01', NULL);
            """)
        let statement = "SELECT player.nameLast AS surname, sum:(HR) AS hr FROM batting GROUP BY player.nameLast HAVING hr > 50 ORDER BY hr DESC"
        let sql = try SiftBinary.run("sql", "--store", path, statement)
        #expect(sql.status == 0, "\(sql.stderr)")
        #expect(sql.stdout.contains(#"GROUP BY "t1"."nameLast""#), "\(sql.stdout)")
        #expect(!sql.stdout.contains("in memory:") && !sql.stdout.contains("did not lay out"), "\(sql.stdout)")
        let query = try SiftBinary.run("query", "--store", path, statement)
        #expect(query.status == 0, "\(query.stderr)")
        let bySQLite = try database.rows("""
            SELECT p.nameLast, sum(b.HR) FROM batting AS b LEFT JOIN people AS p ON p.playerID = b.playerID
            GROUP BY p.nameLast HAVING sum(b.HR) > 50 ORDER BY 2 DESC
            """)
        #expect(bySQLite == [[.text("Ruth"), .integer(114)], [.text("Bonds"), .integer(73)], [.text("Aaron"), .integer(52)]])
        #expect(query.stdout == """
            [
              {"surname":"Ruth","hr":114},
              {"surname":"Bonds","hr":73},
              {"surname":"Aaron","hr":52}
            ]

            """, "\(query.stdout)")
    }

    @Test(arguments: ["query", "sql", "explain"])
    func typeErrorsComeBeforeRunning(_ command: String) throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.keyNames(in: directory)
        let ordering = try SiftBinary.run(command, "--store", path, "key_names WHERE key > 5")
        #expect(ordering.status == 1)
        #expect(ordering.stderr.contains("'>' cannot order key, a String attribute of key_names, and the integer 5"), "\(ordering.stderr)")
        let date = try SiftBinary.run(command, "--store", path, #"Invoice WHERE InvoiceDate < "soon""#)
        #expect(date.status == 1)
        #expect(date.stderr.contains(#""soon" is not an ISO 8601 date; InvoiceDate is a Date attribute of Invoice"#), "\(date.stderr)")
    }

    /// A table larger than the sample says so beside its name; the column types are kept in
    /// `$SIFT_CACHE_DIR` (none with `SIFT_CACHE=off`), never beside the database.
    @Test func schemaSaysWhatWasSampledAndTheCacheFollowsTheEnvironment() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("big.db").path
        let database = try SQLiteDatabase(path: path, options: [.create])
        try database.execute("""
            CREATE TABLE big (id INTEGER PRIMARY KEY, n INT);
            WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 2500) INSERT INTO big SELECT i, i FROM k;
            CREATE TABLE small (id INTEGER PRIMARY KEY, s TEXT);
            INSERT INTO small VALUES (1, 'one');
            """)
        let cache = directory.appendingPathComponent("cache")
        func run(_ arguments: String..., cacheSetting: String? = nil) throws -> SiftBinary.Result {
            var environment = SiftBinary.environment
            environment["SIFT_CACHE_DIR"] = cache.path
            if let cacheSetting { environment["SIFT_CACHE"] = cacheSetting }
            return try SiftBinary.run(arguments: arguments, environment: environment)
        }
        let beside = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let off = try run("query", "--store", path, "COUNT big WHERE n > 10", cacheSetting: "off")
        #expect(off.stdout == "{\"count\": 2490}\n", "\(off.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cache.path))
        let schema = try run("schema", "--store", path)
        #expect(schema.stdout == """
            big (types from the first and last 1000 rows)
              id  Integer 64  (declared INTEGER; the row's key)
              n   Integer 64  (declared INT; the first and last 1000 rows read, values of other kinds read as nil)

            small
              id  Integer 64  (declared INTEGER; the row's key)
              s   String      (declared TEXT)

            """, "\(schema.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".json") }.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == (beside + ["cache"]).sorted())
        let count = try run("query", "--store", path, "COUNT big WHERE n > 10")
        #expect(count.stdout == "{\"count\": 2490}\n", "\(count.stderr)")
    }
}
