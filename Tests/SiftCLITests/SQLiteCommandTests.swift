import Foundation
import Sift
import SiftSQLite
import Testing
@testable import SiftCLI

/// SQLite stores through the binary: `sift import`/`query`/`schema` on `.sqlite` and `.db`
/// files (Sift's own and any SQLite database), and `sift sql` / `sift explain`.
@Suite struct SQLiteCommandTests {
    static let notes = QueryCommandTests.examples.appendingPathComponent("Notes")

    /// A fresh directory, removed by the caller.
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-sqlite-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Notes imported into a store at `path`, from `model` (default: Examples/Notes/model.json).
    static func importNotes(_ path: String, model: String? = nil) throws {
        let result = try SiftBinary.run("import", "--store", path, "--model", model ?? notes.appendingPathComponent("model.json").path,
                                        notes.appendingPathComponent("data.json").path)
        try #require(result.status == 0, "\(result.stderr)")
    }

    @Test func aSQLiteStoreAnswersAsTheJSONStoreDoes() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlite = directory.appendingPathComponent("notes.sqlite").path
        let json = directory.appendingPathComponent("notes.json").path
        try Self.importNotes(sqlite)
        try Self.importNotes(json)
        let header = try FileHandle(forReadingFrom: URL(fileURLWithPath: sqlite)).read(upToCount: 16) ?? Data()
        #expect(String(decoding: header, as: UTF8.self) == "SQLite format 3\0")
        let statements = [
            "Note SORT BY title",
            "Note WHERE ANY tags.name == 'Family' SORT BY updatedAt DESC",
            "COUNT Note WHERE category.name == 'Work'",
            "SELECT category.name AS c, count:(title) AS n FROM Note GROUP BY category.name",
            "Note WHERE title CONTAINS[cd] 'cafe' LIMIT 1",
        ]
        for statement in statements {
            for output in ["json", "table"] {
                let a = try SiftBinary.run("query", "--store", sqlite, statement, "--output", output)
                let b = try SiftBinary.run("query", "--store", json, statement, "--output", output)
                #expect(a.status == 0, "\(statement): \(a.stderr)")
                #expect(a.stdout == b.stdout, "\(statement) (\(output))")
                #expect(!a.stdout.isEmpty)
            }
        }
        let schemaSQLite = try SiftBinary.run("schema", "--store", sqlite)
        let schemaJSON = try SiftBinary.run("schema", "--store", json)
        #expect(schemaSQLite.status == 0)
        #expect(schemaSQLite.stdout == schemaJSON.stdout)
        #expect(schemaSQLite.stdout.contains("Note"))
    }

    @Test func anyDatabaseCanBeQueried() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("music.db").path
        let database = try SQLiteDatabase(path: path, options: [.create])
        try database.execute("""
            CREATE TABLE artists (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE albums (id INTEGER PRIMARY KEY, title TEXT, artist_id INTEGER REFERENCES artists(id));
            INSERT INTO artists VALUES (1, 'Nina'), (2, 'Miles');
            INSERT INTO albums VALUES (1, 'Blue', 1), (2, 'Wild', 1), (3, 'Kind', 2);
            """)
        let schema = try SiftBinary.run("schema", "--store", path)
        #expect(schema.status == 0, "\(schema.stderr)")
        #expect(schema.stdout.contains("artists") && schema.stdout.contains("artist_id"))
        let albums = try SiftBinary.run("query", "--store", path, "albums WHERE artist.name == 'Nina' SORT BY title DESC", "--output", "csv")
        #expect(albums.status == 0, "\(albums.stderr)")
        #expect(albums.stdout.contains("Wild") && albums.stdout.contains("Blue") && !albums.stdout.contains("Kind"))
        let busy = try SiftBinary.run("query", "--store", path, "artists WHERE albums.@count > 1")
        #expect(busy.stdout.contains("\"@id\":\"artists/1\"") && !busy.stdout.contains("Miles"), "\(busy.stdout)")
        let csv = directory.appendingPathComponent("more.csv")
        try Data("name\nNew\n".utf8).write(to: csv)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let refused = try SiftBinary.run("repl", "--store", path, "--read-only", ".import \(csv.path) artists")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("music.db was opened read-only; it can be queried but not changed"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let imported = try SiftBinary.run("import", "--store", path, "--entity", "artists", csv.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("imported 1 object"), "\(imported.stdout)")
        let database2 = try SQLiteDatabase(path: path, options: [.readOnly])
        #expect(try database2.rows("SELECT id, name FROM artists WHERE id = 3") == [[.integer(3), .text("New")]])
    }

    @Test func sqlPrintsTheQueryAndItsBindings() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("notes.sqlite").path
        try Self.importNotes(store)
        let result = try SiftBinary.run("sql", "--store", store, "Note WHERE title BEGINSWITH 'A'")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""t0"."title" >= ?1 AND "t0"."title" < ?2"#), "\(result.stdout)")
        #expect(result.stdout.contains("\n  ?1 = 'A'\n  ?2 = 'B'"))
        let arguments = try SiftBinary.run("sql", "--store", store, "Note WHERE title == %@ AND category.name == $c", "--arg", #""Hi""#, "--var", #"c="Work""#)
        #expect(arguments.status == 0, "\(arguments.stderr)")
        #expect(arguments.stdout.contains("'Hi'") && arguments.stdout.contains("'Work'"))
    }

    @Test func sqlPrintsTheDictionaryQuery() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("notes.sqlite").path
        try Self.importNotes(store)
        let grouped = try SiftBinary.run("sql", "--store", store, "SELECT category.name AS category, count:(title) AS n FROM Note GROUP BY category.name SORT BY n DESC")
        #expect(grouped.status == 0, "\(grouped.stderr)")
        #expect(grouped.stdout.hasPrefix(#"SELECT "t1"."name", count("t0"."title") FROM "Note" AS "t0" LEFT JOIN"#), "\(grouped.stdout)")
        #expect(grouped.stdout.contains(#"GROUP BY "t1"."name" ORDER BY min("t0"."_pk")"#), "\(grouped.stdout)")
        // A property only the evaluator computes: the objects' query, not paged (the rows are).
        let inMemory = try SiftBinary.run("sql", "--store", store, "SELECT uppercase:(title) AS t FROM Note LIMIT 2")
        #expect(inMemory.status == 0, "\(inMemory.stderr)")
        #expect(!inMemory.stdout.contains("LIMIT") && inMemory.stdout.contains("dictionaries in memory"), "\(inMemory.stdout)")
    }

    @Test func explainShowsTheIndexIsUsed() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let modelText = try String(contentsOf: Self.notes.appendingPathComponent("model.json"), encoding: .utf8)
        let indexed = modelText.replacingOccurrences(of: #""name": "Note","#, with: #""name": "Note", "indexes": [["title"]],"#)
        try #require(indexed != modelText)
        let model = directory.appendingPathComponent("model.json")
        try Data(indexed.utf8).write(to: model)
        let store = directory.appendingPathComponent("notes.sqlite").path
        try Self.importNotes(store, model: model.path)
        let result = try SiftBinary.run("explain", "--store", store, "Note WHERE title BEGINSWITH 'A'")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("?1 = 'A'"))
        #expect(result.stdout.contains("\nQUERY PLAN\n"))
        #expect(result.stdout.contains("--SEARCH"), "\(result.stdout)")
        let scan = try SiftBinary.run("explain", "--store", store, "Note WHERE contents == 'x'")
        #expect(scan.stdout.contains("--SCAN") && !scan.stdout.contains("--SEARCH"), "\(scan.stdout)")
    }

    @Test func hostileStatementsAreOnlyEverBound() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("notes.sqlite").path
        try Self.importNotes(store)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let hostile = "x'; DROP TABLE Note; --"
        for command in ["sql", "explain", "query"] {
            let result = try SiftBinary.run(command, "--store", store, "Note WHERE title == \"\(hostile)\"")
            #expect(result.status == 0, "\(command): \(result.stderr)")
            if command != "query" {
                #expect(result.stdout.contains("?1 = 'x''; DROP TABLE Note; --'"), "\(result.stdout)")
                #expect(!result.stdout.contains("DROP TABLE Note; --\""))
            }
        }
        let argument = try SiftBinary.run("sql", "--store", store, "Note WHERE %K == %@", "--arg", #""title\"; DROP TABLE Note; --""#, "--arg", "1")
        #expect(argument.status == 1 && argument.stdout.isEmpty)
        #expect(argument.stderr.contains("unknown key"), "\(argument.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        let count = try SiftBinary.run("query", "--store", store, "COUNT Note")
        #expect(count.stdout == "{\"count\": 5}\n")
    }

    @Test func sqlAndExplainNeedASQLiteStore() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("notes.json").path
        try Self.importNotes(store)
        for command in ["sql", "explain"] {
            let result = try SiftBinary.run(command, "--store", store, "Note")
            #expect(result.status == 64)
            #expect(result.stderr.contains("is not a SQLite store"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let unknown = try SiftBinary.run("sql", "--store", store.replacingOccurrences(of: ".json", with: ".sqlite"), "Note")
        #expect(unknown.status == 1 && unknown.stderr.contains("no store at"))
        let help = try SiftBinary.run("explain", "--help")
        #expect(help.stdout.contains("QUERY PLAN") && help.stdout.contains("Examples:"))
    }
}

/// The query plan drawn as sqlite3's `.eqp` tree.
@Suite struct QueryPlanTreeTests {
    @Test func nestedStepsAreDrawnWithBranches() {
        let lines = ["SCAN t0", "CORRELATED SCALAR SUBQUERY 1", "  SEARCH t1 USING PRIMARY KEY (_owner=?)",
                     "  SEARCH t2 USING INTEGER PRIMARY KEY (rowid=?)", "USE TEMP B-TREE FOR ORDER BY"]
        #expect(GeneratedSQLOutput.tree(lines) == """
            |--SCAN t0
            |--CORRELATED SCALAR SUBQUERY 1
            |  |--SEARCH t1 USING PRIMARY KEY (_owner=?)
            |  `--SEARCH t2 USING INTEGER PRIMARY KEY (rowid=?)
            `--USE TEMP B-TREE FOR ORDER BY

            """)
        #expect(GeneratedSQLOutput.tree(["SEARCH t0 USING INDEX i (a=?)"]) == "`--SEARCH t0 USING INDEX i (a=?)\n")
        #expect(GeneratedSQLOutput.tree([]) == "")
    }
}
