import Foundation
import Sift
import Synchronization
import Testing
@testable import SiftCLI

/// What the transcripts cannot show: the files `.output` and `.once` write, `.request` taking
/// the session's variables, and how `.engine both` reports engines that disagree.
@Suite struct SessionFileTests {
    /// A session on the Notes example store, fed `lines` as a script; what it printed.
    static func run(_ lines: [String]) throws -> (printed: String, failures: Int) {
        let collected = Mutex("")
        let session = Session(output: .collecting(into: { text in collected.withLock { $0 += text } }), source: .script(name: "test.sift"))
        session.open(store: try ExampleStores.open("example:Notes"), label: "example:Notes")
        for (index, line) in lines.enumerated() { session.feed(line, lineNumber: index + 1) }
        session.endOfInput()
        return (collected.withLock { $0 }, session.failures)
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func outputAndOnceWriteFiles() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let once = directory.appendingPathComponent("once.csv").path, out = directory.appendingPathComponent("out.txt").path
        let (printed, failures) = try Self.run([
            ".mode csv", ".once \(once)", ".headers on", "COUNT Note", "COUNT Tag",
            ".output \(out)", "COUNT Category", ".print done", ".output", "SELECT name FROM Tag SORT BY name LIMIT 1",
        ])
        #expect(failures == 0)
        // CSV lines end in CRLF (RFC 4180).
        #expect(printed == "count\r\n3\r\nname\r\nFamily\r\n")
        #expect(try String(contentsOfFile: once, encoding: .utf8) == "count\r\n5\r\n")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "count\r\n3\r\ndone\n")
    }

    @Test func aRequestTakesTheSessionsVariables() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("request.json")
        try Data(#"{"entityName": "Note", "predicate": "updatedAt > $since", "sortDescriptors": ["title"], "resultType": "dictionaries", "propertiesToFetch": ["title"]}"#.utf8).write(to: file)
        let (printed, failures) = try Self.run([
            ".mode jsonl", ".request \(file.path)", #".set since {"$date": "2017-07-07T12:00:00Z"}"#, ".request \(file.path)",
        ])
        #expect(failures == 1)
        #expect(printed == """
            test.sift:2:1: error: the variable $since has no value; set one with .set since JSON (.vars lists them)
            {"title":"Groceries"}
            {"title":"meeting notes"}

            """)
    }

    @Test func aRequestsPredicateErrorShowsACaret() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bad.json")
        try Data(#"{"entityName": "Note", "predicate": "title BEGINSWTH 'a'"}"#.utf8).write(to: file)
        let (printed, failures) = try Self.run([".request \(file.path)"])
        #expect(failures == 1)
        #expect(printed == """
            test.sift:1:1: error: \(file.path): predicate: expected a comparison operator, found 'BEGINSWTH'; did you mean 'BEGINSWITH'?
            title BEGINSWTH 'a'
                  ^

            """)
    }

    @Test func theRecentNotesRequestRuns() throws {
        let file = QueryCommandTests.examples.appendingPathComponent("Notes/recent-notes.json").path
        let (printed, failures) = try Self.run([".mode jsonl", ".request \(file)"])
        #expect(failures == 0)
        #expect(printed == """
            {"title":"meeting notes","category":"Work","updatedAt":{"$date":"2017-07-09T17:30:00Z"}}
            {"title":"Groceries","category":"Personal","updatedAt":{"$date":"2017-07-08T08:00:00Z"}}
            {"title":"My First Note","category":"Work","updatedAt":{"$date":"2017-07-07T09:15:08Z"}}

            """)
    }

    // MARK: .engine both

    @Test func enginesThatDisagreeShowTheFirstDifference() {
        var a = EngineComparison.Results(), b = EngineComparison.Results()
        a.lines = [#"{"@id":"N1"}"#, #"{"@id":"N2"}"#]
        a.summary = "2 rows"
        b.lines = [#"{"@id":"N1"}"#, #"{"@id":"N3"}"#, #"{"@id":"N2"}"#]
        b.summary = "3 rows"
        let verdict = EngineComparison.compare(("sql", .results(a)), ("memory", .results(b)))
        #expect(!verdict.agree)
        #expect(verdict.message == """
            engines differ at row 2 (sql 2 rows, memory 3 rows):
              sql:    {"@id":"N2"}
              memory: {"@id":"N3"}
            """)
        var shorter = b
        shorter.lines.removeLast()
        shorter.lines[1] = #"{"@id":"N2"}"#
        shorter.summary = "2 rows"
        b.lines[1] = #"{"@id":"N2"}"#
        let missing = EngineComparison.compare(("sql", .results(shorter)), ("memory", .results(b)))
        #expect(missing.message.hasSuffix("  sql:    (no row)\n  memory: {\"@id\":\"N2\"}"))
        #expect(EngineComparison.compare(("sql", .failed("x")), ("memory", .results(a))).message == "engines differ: sql fails (x); memory returns 2 rows")
        #expect(EngineComparison.compare(("sql", .failed("x")), ("memory", .failed("x"))).agree)
        #expect(EngineComparison.compare(("sql", .results(a)), ("memory", .results(a))).message == "engines agree: 2 rows")
    }

    /// A store copied into the other engine answers every fetch as the original does, and a
    /// change to the original makes `.engine` copy it again.
    @Test func theEngineCopyFollowsChanges() throws {
        let (printed, failures) = try Self.run([
            ".engine memory", "COUNT Note", #"DELETE FROM Note WHERE title == "Groceries""#, "COUNT Note",
            ".engine both", "Note WHERE ANY tags.name == \"Family\" SORT BY title",
        ])
        #expect(failures == 0)
        #expect(printed.contains("    5\n"))
        #expect(printed.contains("deleted 1 object\n"))
        #expect(printed.contains("    4\n"))
        #expect(printed.hasSuffix("(1 row)\nengines agree: 1 row\n"))
    }

    /// `.output` and `.once` on the open store's file (by any path to it) are refused and the
    /// store is left whole; before, the store was truncated to the results.
    @Test(arguments: [".output", ".once"])
    func resultsAreNeverWrittenOverTheOpenStore(_ command: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("notes.sqlite").path
        try SQLiteCommandTests.importNotes(store)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("link").path, withDestinationPath: store)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        for target in [store, directory.path + "/./notes.sqlite", directory.appendingPathComponent("link").path] {
            let r = try SiftBinary.run(store, stdin: "\(command) \(target)\nCOUNT Note\n")
            #expect(r.status == 1)
            #expect(r.stderr.contains("\(target) is the open store (\(store)): writing results there would destroy the store; choose another file"),
                    "\(r.stderr)")
            #expect(r.stdout.contains("    5\n"), "\(r.stdout)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        }
        let other = directory.appendingPathComponent("out.txt").path
        let r = try SiftBinary.run(store, stdin: "\(command) \(other)\nCOUNT Note\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: other, encoding: .utf8).contains("    5\n"))
    }
}
