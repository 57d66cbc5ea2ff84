import Foundation
import PostgreSQLTestSupport
import SiftPostgreSQL
import Testing

/// `sift` with `--store` naming a PostgreSQL database (a `postgresql://` URI or a libpq
/// `key=value` string), against the test server: import creates the store, query and count
/// read it, `sift sql` and `sift explain` show the server's SQL and plan.
@Suite struct PostgreSQLStoreCommandTests {
    static let notes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/Notes")

    /// The server's conninfo words, by keyword.
    static func words(_ conninfo: String) -> [String: String] {
        var words: [String: String] = [:]
        for word in conninfo.split(separator: " ") {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { words[parts[0]] = parts[1] }
        }
        return words
    }

    @Test func importQueryAndSQLThroughAURIAndAConninfo() async throws {
        let database = try await PostgreSQLTestServer.makeDatabase("cli")
        defer { database.drop() }
        let words = Self.words(database.serverConninfo)
        let conninfo = database.serverConninfo + " dbname=\(database.name)"
        var uri = "postgresql://\(words["user"] ?? "postgres")@/\(database.name)?port=\(words["port"] ?? "5432")"
        if let host = words["host"] { uri += "&host=\(host)" }

        let imported = try SiftBinary.run("import", "--store", uri, "--model", Self.notes.appendingPathComponent("model.json").path,
                                          Self.notes.appendingPathComponent("data.json").path)
        #expect(imported.status == 0, "\(imported.stderr)")

        let count = try SiftBinary.run("query", "--store", uri, "COUNT Note")
        #expect(count.status == 0, "\(count.stderr)")
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"count": 5}"#)

        let titles = try SiftBinary.run("query", "--store", conninfo, "Note WHERE title BEGINSWITH[cd] 'my' SORT BY title", "--output", "jsonl", "--properties", "title")
        #expect(titles.status == 0, "\(titles.stderr)")
        #expect(titles.stdout.contains("My First Note"))

        // `sift sql` shows the server's query, `$N` values, and what the evaluator does.
        let sql = try SiftBinary.run("sql", "--store", uri, "Note WHERE category.name == 'Work' AND title MATCHES '(?s).*e.*' SORT BY title LIMIT 2")
        #expect(sql.status == 0, "\(sql.stderr)")
        #expect(sql.stdout.contains(#"LEFT JOIN "Category" AS "t1" ON "t1"."_pk" = "t0"."category" WHERE "t1"."name" = $1 ORDER BY "t0"."title" NULLS FIRST, "t0"."_pk""#), "\(sql.stdout)")
        #expect(sql.stdout.contains("\n  $1 = 'Work'\n"), "\(sql.stdout)")
        #expect(sql.stdout.contains(#"-- then in memory: title MATCHES "(?s).*e.*" (PostgreSQL has no sift_matches)"#), "\(sql.stdout)")
        // (A pattern in MatchesRegex's subset is the server's own regular expression.)
        let matchesSQL = try SiftBinary.run("sql", "--store", uri, "Note WHERE title MATCHES '.*e.*'")
        #expect(matchesSQL.stdout.contains(#"WHERE "t0"."title" ~ $1"#) && !matchesSQL.stdout.contains("then in memory"), "\(matchesSQL.stdout)")
        let countSQL = try SiftBinary.run("sql", "--store", uri, "COUNT Note WHERE title CONTAINS 'Note'")
        #expect(countSQL.stdout.hasPrefix(#"SELECT count(*) FROM "Note" AS "t0" WHERE strpos("t0"."title", $1) > 0"#), "\(countSQL.stdout)")
        // Sections and dictionaries the server computes show their GROUP BY (issue 17).
        let sectionsSQL = try SiftBinary.run("sql", "--store", uri, "Note SORT BY category.name SECTION BY category.name")
        #expect(sectionsSQL.status == 0, "\(sectionsSQL.stderr)")
        #expect(sectionsSQL.stdout.contains("\n-- sections:\n" + #"SELECT min("t1"."name"), max("t1"."name"), count("t1"."name"), count(*) FROM "Note" AS "t0" LEFT JOIN "Category" AS "t1" ON "t1"."_pk" = "t0"."category" GROUP BY "t1"."name" ORDER BY "t1"."name" NULLS FIRST"#),
                "\(sectionsSQL.stdout)")
        #expect(!sectionsSQL.stdout.contains("in memory"), "\(sectionsSQL.stdout)")
        let grouped = "SELECT category.name AS c, count:(title) AS n FROM Note WHERE title != 'x' GROUP BY category.name"
        let dictionarySQL = try SiftBinary.run("sql", "--store", uri, grouped)
        #expect(dictionarySQL.status == 0, "\(dictionarySQL.stderr)")
        #expect(dictionarySQL.stdout.hasPrefix(#"SELECT "t1"."name", count("t0"."title") FROM "Note" AS "t0" LEFT JOIN "Category" AS "t1" ON "t1"."_pk" = "t0"."category" WHERE "t0"."title" IS DISTINCT FROM $1 GROUP BY "t1"."name" ORDER BY min("t0"."_pk") NULLS FIRST"#),
                "\(dictionarySQL.stdout)")
        #expect(!dictionarySQL.stdout.contains("in memory"), "\(dictionarySQL.stdout)")
        let groups = try SiftBinary.run("query", "--store", uri, grouped + " SORT BY c", "--output", "jsonl")
        #expect(groups.status == 0, "\(groups.stderr)")
        #expect(groups.stdout.split(separator: "\n") == [#"{"c":null,"n":1}"#, #"{"c":"Personal","n":1}"#, #"{"c":"Work","n":2}"#, #"{"c":"errands","n":1}"#],
                "\(groups.stdout)")
        let dictionaryPlan = try SiftBinary.run("explain", "--store", uri, grouped)
        #expect(dictionaryPlan.stdout.contains("Aggregate"), "\(dictionaryPlan.stdout)")
        // `sift explain` adds PostgreSQL's plan.
        let explained = try SiftBinary.run("explain", "--store", conninfo, "Note WHERE category.name == 'Work'")
        #expect(explained.status == 0, "\(explained.stderr)")
        #expect(explained.stdout.contains("QUERY PLAN\n"), "\(explained.stdout)")
        #expect(explained.stdout.contains("Scan on"), "\(explained.stdout)")

        let repl = try SiftBinary.run(arguments: ["repl", "--store", uri], stdin: "COUNT Note WHERE category.name == 'Work'\n")
        #expect(repl.status == 0, "\(repl.stderr)")
        let shown = try SiftBinary.run(arguments: ["repl", "--store", uri], stdin: ".sql on\n.eqp on\nCOUNT Note WHERE title CONTAINS 'Note'\n")
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains(#"strpos("t0"."title", $1) > 0"#) && shown.stdout.contains("QUERY PLAN\n"), "\(shown.stdout)")
        let opened = try SiftBinary.run(arguments: ["repl"], stdin: ".open \(uri)\nCOUNT Category\n")
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout.contains("3"), "\(opened.stdout)")

        let missing = try SiftBinary.run("query", "--store", "postgresql://nobody@/no_such_database?host=/nonexistent", "COUNT Note")
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("error:"))
    }

    /// A database Sift did not create opens read-only, its model read from its catalog: query,
    /// count, `sift sql` (the compiled query on the tables as they are), `sift schema` (the
    /// declared types), `.open` in the REPL; a change is refused.
    @Test func aDatabaseWithoutASiftStoreOpensFromItsCatalog() async throws {
        let database = try await PostgreSQLTestServer.makeDatabase("cli-foreign")
        defer { database.drop() }
        try database.connect().execute("""
            CREATE TABLE artist (id integer PRIMARY KEY, name text NOT NULL);
            CREATE TABLE album (id bigint PRIMARY KEY, title varchar(80), artist_id integer REFERENCES artist, released date);
            INSERT INTO artist VALUES (1, 'AC/DC'), (2, 'Accept'), (3, 'Aerosmith');
            INSERT INTO album VALUES (10, 'Let There Be Rock', 1, '1977-03-21'), (11, 'Back in Black', 1, '1980-07-25'),
                (12, 'Restless and Wild', 2, NULL), (13, 'Toys in the Attic', 3, '1975-04-08');
            """)
        let words = Self.words(database.serverConninfo)
        var uri = "postgresql://\(words["user"] ?? "postgres")@/\(database.name)?port=\(words["port"] ?? "5432")"
        if let host = words["host"] { uri += "&host=\(host)" }

        let titles = try SiftBinary.run("query", "--store", uri, #"album WHERE artist.name == "AC/DC" SORT BY title"#, "--output", "jsonl", "--properties", "title")
        #expect(titles.status == 0, "\(titles.stderr)")
        #expect(titles.stdout == """
            {"@entity":"album","@id":"album/11","title":"Back in Black"}
            {"@entity":"album","@id":"album/10","title":"Let There Be Rock"}

            """, "\(titles.stdout)")
        let count = try SiftBinary.run("query", "--store", uri, #"COUNT artist WHERE ANY albums.title CONTAINS "in""#)
        #expect(count.status == 0, "\(count.stderr)")
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"count": 2}"#, "\(count.stdout)")

        let sql = try SiftBinary.run("sql", "--store", uri, #"album WHERE artist.name == "AC/DC" SORT BY title"#)
        #expect(sql.status == 0, "\(sql.stderr)")
        #expect(sql.stdout.contains(#"LEFT JOIN "artist" AS "t1" ON "t1"."id" = "t0"."artist_id" WHERE "t1"."name" COLLATE "C" = $1 ORDER BY "t0"."title" COLLATE "C" NULLS FIRST, "t0"."id""#), "\(sql.stdout)")

        let schema = try SiftBinary.run("schema", "--store", uri)
        #expect(schema.status == 0, "\(schema.stderr)")
        #expect(schema.stdout.contains("(declared date)"), "\(schema.stdout)")
        #expect(schema.stdout.contains("(declared integer; the row's key)"), "\(schema.stdout)")

        let opened = try SiftBinary.run(arguments: ["repl"], stdin: ".open \(uri)\nCOUNT album WHERE released < CAST('1978-01-01T00:00:00Z', 'NSDate')\n")
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout.contains("2"), "\(opened.stdout)")
        // The REPL asks the store what it can do: a database read from its catalog is
        // read-only, its own engine is SQL, and `.engine both` compares it with the evaluator.
        let engines = try SiftBinary.run(arguments: ["repl"], stdin: ".open \(uri)\n.engine sql\n.engine both\nCOUNT album WHERE title CONTAINS 'in'\n")
        #expect(engines.status == 0, "\(engines.stderr)")
        let said = engines.stdout + engines.stderr
        #expect(said.contains(" read-only: 2 entities"), "\(said)")
        #expect(!said.contains("has no SQL engine"), "\(said)")
        #expect(said.contains("engines agree: count 2"), "\(said)")

        let deleted = try SiftBinary.run("delete", "--store", uri, "DELETE FROM artist WHERE name == 'Accept'")
        #expect(deleted.status != 0)
        #expect(deleted.stderr.contains("can be queried but not changed"), "\(deleted.stderr)")
        #expect(try database.connect().scalar("SELECT count(*) FROM artist").int64Value == 3)
    }
}
