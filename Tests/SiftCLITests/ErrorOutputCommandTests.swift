import Foundation
import Sift
import Testing

/// What `sift` prints when something fails partway: the results before the error stay and a
/// JSON array (or sections object) is closed, so standard output is still valid JSON; the error
/// goes to standard error in words — for SQLite, PCRE2 and Foundation errors too (which file,
/// what happened, what to do) — and the status is 1.
@Suite("sift: errors and partial output")
struct ErrorOutputCommandTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func expectWords(_ stderr: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for raw in ["Error Domain=", "(code ", " in: SELECT", "Error: ", "SQLiteError", "CommandError"] {
            #expect(!stderr.contains(raw), "raw error text '\(raw)': \(stderr)", sourceLocation: sourceLocation)
        }
    }

    static let badThirdLine = "{\"a\": 1}\n{\"a\": 2}\n{\"a\": tru}\n{\"a\": 4}\n"

    /// Line 3 is not JSON: the two records before it are printed, the array is closed.
    @Test(arguments: ["json", "indices"])
    func anErrorMidStreamLeavesValidJSON(_ format: String) throws {
        let r = try SiftBinary.run("filter", "a > 0", "--output", format, stdin: Self.badThirdLine)
        #expect(r.status == 1)
        #expect(r.stderr == "error: <stdin>: line 3, column 7: invalid literal\n")
        let parsed = try JSONParser.parse(r.stdout)
        #expect(parsed.collectionElements?.count == 2, "\(r.stdout)")
        let none = try SiftBinary.run("filter", "a > 0", "--output", format, stdin: "{\"a\": tru}\n")
        #expect(none.stdout == "", "nothing was printed before the error: \(none.stdout)")
    }

    @Test func jsonLinesStayWholeLines() throws {
        let r = try SiftBinary.run("filter", "a > 0", "--output", "jsonl", stdin: Self.badThirdLine)
        #expect(r.status == 1)
        #expect(r.stdout == "{\"a\": 1}\n{\"a\": 2}\n")
    }

    /// JSON Lines holding bytes that are not UTF-8: an error naming the line, not a record
    /// matched as U+FFFD and echoed with the raw bytes.
    @Test func invalidUTF8InJSONLinesIsAnErrorWithItsLine() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("people.jsonl")
        try Data(Array("{\"name\": \"Ann\"}\n{\"name\": \"Bob\"}\n{\"name\": \"B".utf8) + [0xFF] + Array("b\"}\n".utf8)).write(to: file)
        for format in ["json", "jsonl", "indices"] {
            let r = try SiftBinary.run("filter", "name BEGINSWITH 'B'", file.path, "--output", format)
            #expect(r.status == 1, "\(format)")
            #expect(r.stderr.contains("people.jsonl: line 3, column 12: invalid UTF-8 in a string"), "\(format): \(r.stderr)")
            #expect(!r.stdout.utf8.contains(0xFF))
            if format != "jsonl" { #expect((try? JSONParser.parse(r.stdout)) != nil, "\(format): \(r.stdout)") }
        }
    }

    // MARK: Stores

    /// A SQLite store of 3000 notes, damaged in its middle pages.
    static func damagedStore(in directory: URL) throws -> String {
        let jsonl = directory.appendingPathComponent("notes.jsonl")
        let lines = (0..<3000).map {
            #"{"@entity": "Note", "@id": "N\#($0)", "title": "note \#($0) \#(String(repeating: "x", count: 60))", "createdAt": "2017-07-06T07:22:18Z", "updatedAt": "2017-07-06T07:22:18Z"}"#
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: jsonl)
        let store = directory.appendingPathComponent("notes.sqlite").path
        let model = QueryCommandTests.examples.appendingPathComponent("Notes/model.json").path
        let imported = try SiftBinary.run("import", "--store", store, "--model", model, jsonl.path)
        try #require(imported.status == 0, "\(imported.stderr)")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: store))
        try handle.seek(toOffset: 20 * 4096)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 25 * 4096))
        try handle.close()
        return store
    }

    @Test func aDamagedSQLiteStoreIsNamedWithWhatToDo() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.damagedStore(in: directory)
        let damaged = "error: \(store) is damaged (SQLite: database disk image is malformed); recover what it holds with `sqlite3 \(store) .recover"
        let count = try SiftBinary.run("query", "--store", store, "COUNT Note")
        #expect(count.status == 1)
        #expect(count.stderr.hasPrefix(damaged), "\(count.stderr)")
        Self.expectWords(count.stderr)
        // Objects stream: those before the damage are printed, in a closed array.
        let objects = try SiftBinary.run("query", "--store", store, "Note", "--output", "json")
        #expect(objects.status == 1)
        #expect(objects.stderr.hasPrefix(damaged), "\(objects.stderr)")
        let printed = try JSONParser.parse(objects.stdout).collectionElements?.count ?? -1
        #expect(printed >= 0 && printed < 3000, "\(objects.stdout.suffix(200))")
        // A fetch that finds nothing before the damage says so, rather than print [].
        let filtered = try SiftBinary.run("query", "--store", store, "Note WHERE title CONTAINS 'note 2999 '", "--output", "jsonl")
        #expect(filtered.status == 1)
        #expect(filtered.stderr.hasPrefix(damaged), "\(filtered.stderr)")
        // The REPL says the same.
        let repl = try SiftBinary.run(store, stdin: "COUNT Note\n")
        #expect(repl.stderr.contains("is damaged (SQLite: database disk image is malformed)"), "\(repl.stderr)")
        Self.expectWords(repl.stderr)
    }

    @Test func aDamagedBinaryStoreIsNamedInWords() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("notes.plist")
        let notes = QueryCommandTests.examples.appendingPathComponent("Notes")
        let imported = try SiftBinary.run("import", "--store", store.path, "--model", notes.appendingPathComponent("model.json").path,
                                          notes.appendingPathComponent("data.json").path)
        try #require(imported.status == 0, "\(imported.stderr)")
        try Data(try Data(contentsOf: store).prefix(400)).write(to: store)
        let r = try SiftBinary.run("query", "--store", store.path, "COUNT Note")
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(store.path) is not a valid Sift store: it is a damaged binary property list"), "\(r.stderr)")
        #expect(r.stderr.contains("restore a copy"), "\(r.stderr)")
        Self.expectWords(r.stderr)
    }

    /// MATCHES past its backtracking limit: on SQLite, the message the evaluator gives for the
    /// pattern (it was `Error: … (code 1) in: SELECT …`, or no error at all).
    @Test func aMatchesLimitReadsTheSameOnEveryStore() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let notes = QueryCommandTests.examples.appendingPathComponent("Notes")
        var messages: [String] = []
        for kind in ["sqlite", "json"] {
            let store = directory.appendingPathComponent("notes.\(kind)").path
            let imported = try SiftBinary.run("import", "--store", store, "--model", notes.appendingPathComponent("model.json").path,
                                              notes.appendingPathComponent("data.json").path)
            try #require(imported.status == 0, "\(imported.stderr)")
            let subject = String(repeating: "a", count: 40) + "b"
            let updated = try SiftBinary.run("update", "--store", store, "Note SET title = '\(subject)' WHERE title == 'Groceries'")
            try #require(updated.status == 0, "\(updated.stderr)")
            for statement in [#"Note WHERE title MATCHES "(a+)+$""#, #"COUNT Note WHERE title MATCHES "(a+)+$""#] {
                let r = try SiftBinary.run("query", "--store", store, statement)
                #expect(r.status == 1, "\(kind): \(statement): \(r.stdout)")
                Self.expectWords(r.stderr)
                messages.append(r.stderr)
            }
        }
        #expect(Set(messages).count == 1, "\(messages)")
        #expect(messages.first?.hasPrefix(#"error: MATCHES "(a+)+$" exceeded its backtracking limit on a 41-character subject"#) == true && messages.first?.contains("; simplify the pattern") == true,
                "\(messages)")
        let filter = try SiftBinary.run("filter", #"t MATCHES "(a+)+$""#, stdin: "{\"t\": \"\(String(repeating: "a", count: 40))b\"}\n")
        #expect(filter.stderr.contains(#"MATCHES "(a+)+$" exceeded its backtracking limit on a 41-character subject"#), "\(filter.stderr)")
    }
}
