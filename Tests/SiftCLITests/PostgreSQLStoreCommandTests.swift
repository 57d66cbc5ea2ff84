import Foundation
import PostgreSQLTestSupport
import Testing

/// `sift` with `--store` naming a PostgreSQL database (a `postgresql://` URI or a libpq
/// `key=value` string), against the test server: import creates the store, query and count
/// read it, `sift sql` says the PostgreSQL compiler is not there yet.
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

        let sql = try SiftBinary.run("sql", "--store", uri, "Note")
        #expect(sql.status == 1)
        #expect(sql.stderr.contains("PostgreSQL"))
        #expect(sql.stderr.contains("not there"))

        let repl = try SiftBinary.run(arguments: ["repl", "--store", uri], stdin: "COUNT Note WHERE category.name == 'Work'\n")
        #expect(repl.status == 0, "\(repl.stderr)")
        let opened = try SiftBinary.run(arguments: ["repl"], stdin: ".open \(uri)\nCOUNT Category\n")
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout.contains("3"), "\(opened.stdout)")

        let missing = try SiftBinary.run("query", "--store", "postgresql://nobody@/no_such_database?host=/nonexistent", "COUNT Note")
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("error:"))
    }
}
