import Foundation
import Sift
import Testing
import TestTimeLimits
@testable import SiftCLI

/// Input that pushes on sizes — integers at the ends of 64 bits, more records than memory
/// allows, nesting a million deep, megabytes in one literal — gets an answer or a clear error
/// in bounded time and memory, never a trap (SIGILL) or an abort (SIGABRT).
@Suite("sift: input at its limits")
struct InputLimitsCommandTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func expectNoCrash(_ r: SiftBinary.Result, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 0 || r.status == 1, "\(what): status \(r.status)\n\(r.stderr)", sourceLocation: sourceLocation)
        #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Backtracing") && !r.stderr.contains("Swift runtime failure"),
                "\(what): \(r.stderr)", sourceLocation: sourceLocation)
    }

    // MARK: Integers

    /// The line of issue 13: `offset + limit` trapped.
    @Test func offsetAndTheLargestLimitDoNotTrap() throws {
        let r = try SiftBinary.run("filter", "TRUEPREDICATE", "--section-by", "a", "--offset", "1", "--limit", "9223372036854775807",
                                   stdin: #"{"a":1}"# + "\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "{\"sections\": []}\n")
    }

    @Test(arguments: [
        (["--limit", "9223372036854775807", "--offset", "9223372036854775807"], "[]"),
        (["--limit", "9223372036854775807", "--offset", "1"], "[1, 2]"),
        (["--limit", "1", "--offset", "9223372036854775807"], "[]"),
        (["--limit", "9223372036854775807", "--sort", "a DESC"], "[2, 1, 0]"),
        (["--limit", "2", "--offset", "9223372036854775806", "--sort", "a"], "[]"),
        (["--limit", "9223372036854775807", "--offset", "2", "--section-by", "a"], "{\"sections\": [{\"name\": \"3\"}]}"),
    ] as [([String], String)])
    func largestLimitsAndOffsets(_ options: [String], _ expected: String) throws {
        let r = try SiftBinary.run(arguments: ["filter", "TRUEPREDICATE", "--output", "indices"] + options,
                                   stdin: "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n")
        Self.expectNoCrash(r, "\(options)")
        #expect(r.status == 0, "\(r.stderr)")
        if expected.hasPrefix("{") {
            #expect(r.stdout.contains("\"name\": \"3\""), "\(r.stdout)")
        } else {
            #expect(r.stdout == expected + "\n")
        }
    }

    @Test func negativeAndTooLargeLimitsAreUsageErrors() throws {
        for options in [["--limit", "-1"], ["--offset", "-9223372036854775808"], ["--limit", "9223372036854775808"]] {
            let r = try SiftBinary.run(arguments: ["filter", "TRUEPREDICATE"] + options, stdin: "{}\n")
            #expect(r.status == 64, "\(options): \(r.status) \(r.stderr)")
            Self.expectNoCrash(SiftBinary.Result(status: 1, stdout: r.stdout, stderr: r.stderr), "\(options)")
        }
    }

    /// LIMIT and OFFSET are any non-negative 64-bit integer (2147483648 was refused).
    @Test(arguments: ["Note LIMIT 2147483648", "Note LIMIT 9223372036854775807 OFFSET 9223372036854775807",
                      "Note LIMIT 9223372036854775807 OFFSET 1", "SELECT title FROM Note LIMIT 2147483648 OFFSET 4294967296",
                      "Note SORT BY title SECTION BY title LIMIT 9223372036854775807 OFFSET 2"])
    func statementLimitsTakeAny64BitCount(_ statement: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let notes = QueryCommandTests.examples.appendingPathComponent("Notes")
        for kind in ["sqlite", "json"] {
            let store = directory.appendingPathComponent("notes.\(kind)").path
            if !FileManager.default.fileExists(atPath: store) {
                let imported = try SiftBinary.run("import", "--store", store, "--model", notes.appendingPathComponent("model.json").path,
                                                  notes.appendingPathComponent("data.json").path)
                try #require(imported.status == 0, "\(imported.stderr)")
            }
            let r = try SiftBinary.run("query", "--store", store, statement, "--output", "jsonl")
            Self.expectNoCrash(r, "\(kind): \(statement)")
            #expect(r.status == 0, "\(kind): \(statement): \(r.stderr)")
            let rows = r.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }
            if statement.contains("OFFSET 9223372036854775807") || statement.contains("OFFSET 4294967296") {
                #expect(rows.isEmpty, "\(kind): \(statement)")
            } else if statement.contains("OFFSET 1") {
                #expect(rows.count == 4, "\(kind): \(statement)")
            } else if statement.contains("OFFSET 2") {
                #expect(rows.count == 3, "\(kind): \(statement)")
            } else {
                #expect(rows.count == 5, "\(kind): \(statement)")
            }
        }
    }

    /// The REPL's `.limit` takes the largest Int (it fetched one more than the page: Int.max + 1
    /// trapped); `.width` refuses widths no terminal has (their padding overflowed).
    @Test func replLimitAndWidthAtTheirLargest() throws {
        let r = try SiftBinary.run("example:Notes", stdin: """
            .limit 9223372036854775807
            .use Note
            title != nil
            .width 9223372036854775807
            .width 0 10001
            .width 10000
            .limit 2
            title != nil

            """)
        Self.expectNoCrash(r, "repl")
        #expect(r.stdout.contains("(5 rows)"), "\(r.stdout)")
        #expect(r.stderr.contains(".width: 9223372036854775807 cells is wider than a column can be (at most 10000)"), "\(r.stderr)")
        #expect(r.stderr.contains(".width: 10001 cells is wider"), "\(r.stderr)")
        #expect(r.stdout.contains("3 more rows"), "\(r.stdout)")
    }

    // MARK: Memory

    /// More records than the budget: a clear error naming the budget and the record, not an
    /// abort when an allocation fails. (The budget is set small; the default comes from the
    /// process's limits and the machine's memory.)
    @Test(arguments: [["--sort", "a"], ["--section-by", "a"], ["--output", "table"], ["--output", "csv"]])
    func keptRecordsPastTheBudgetAreAClearError(_ options: [String]) throws {
        let input = (0..<2000).map { #"{"a": \#($0 % 7), "text": "record \#($0) with some words in it"}"# }.joined(separator: "\n") + "\n"
        let r = try SiftBinary.run(arguments: ["filter", "TRUEPREDICATE", "--memory", "64K"] + options, stdin: input)
        Self.expectNoCrash(r, "\(options)")
        #expect(r.status == 1)
        let reason = options[0] == "--output" ? "--output \(options[1])" : options[0]
        #expect(r.stderr.hasPrefix("error: \(reason) needs to hold every matching record in memory; the input passed the 64 KB it may use (at record "),
                "\(r.stderr)")
        #expect(r.stderr.contains("--memory SIZE"), "\(r.stderr)")
        // Within the budget, the same command runs.
        let small = try SiftBinary.run(arguments: ["filter", "a == 3", "--memory", "64K"] + options,
                                       stdin: input.split(separator: "\n").prefix(50).joined(separator: "\n"))
        #expect(small.status == 0, "\(small.stderr)")
        // SIFT_MEMORY sets it too; a bad size is a usage error.
        let bad = try SiftBinary.run(arguments: ["filter", "TRUEPREDICATE", "--memory", "lots"] + options, stdin: "{}\n")
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("--memory takes a size such as 512M or 2G, not 'lots'"), "\(bad.stderr)")
    }

    @Test func streamingNeedsNoBudget() throws {
        let input = (0..<2000).map { #"{"a": \#($0)}"# }.joined(separator: "\n")
        let r = try SiftBinary.run(arguments: ["filter", "TRUEPREDICATE", "--memory", "1K", "--output", "indices"], stdin: input)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasSuffix("1999]\n"))
    }

    @Test func importRefusesAWholeFileLargerThanItsBudget() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("potatoes.json")
        try Data(("{\"Potato\": [" + (0..<5000).map { "{\"variety\": \"Russet \($0)\", \"userRating\": 3}" }.joined(separator: ",\n") + "]}").utf8).write(to: json)
        let store = directory.appendingPathComponent("potatoes.sqlite").path
        let model = QueryCommandTests.examples.appendingPathComponent("TaterRater/model.json").path
        let r = try SiftBinary.run("import", "--store", store, "--model", model, "--memory", "100K", json.path)
        Self.expectNoCrash(r, "import")
        #expect(r.status == 1)
        #expect(r.stderr.contains("is read whole, and this one (") && r.stderr.contains("JSON Lines"), "\(r.stderr)")
        let enough = try SiftBinary.run("import", "--store", store, "--model", model, "--memory", "10M", json.path)
        #expect(enough.status == 0, "\(enough.stderr)")
    }

    @Test func importStreamsACSVFileLargerThanItsBudget() throws {
        // A CSV file is read a record at a time, to infer its model and to import it.
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("potatoes.csv")
        try Data(("variety,userRating\n" + (0..<5000).map { "Russet \($0),3" }.joined(separator: "\n")).utf8).write(to: csv)
        // Into a SQLite store: a JSON store holds its objects in memory, within the budget too
        // (MemoryLimitCommandTests).
        let store = directory.appendingPathComponent("potatoes.sqlite").path
        let r = try SiftBinary.run("import", "--store", store, "--entity", "Potato", "--memory", "100K", csv.path)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "\(csv.path): imported 5000 objects (Potato 5000)\n")
    }

    @Test func sizesAndTheDefault() {
        // The default is half of what the process may use, and at least 16 MB.
        #expect(MemoryBudget.systemDefault() >= 16 << 20)
        #expect(MemoryBudget.systemDefault() <= Int(clamping: ProcessInfo.processInfo.physicalMemory) / 2 + (16 << 20))
        #expect((try? MemoryBudget.resolve(option: nil, environment: ["SIFT_MEMORY": "3M"]))?.limit == 3 << 20)
        #expect((try? MemoryBudget.resolve(option: "1K", environment: ["SIFT_MEMORY": "3M"]))?.limit == 1 << 10)
        #expect(throws: BudgetError.self) { try MemoryBudget.resolve(option: nil, environment: ["SIFT_MEMORY": "much"]) }
        #expect(MemoryBudget.bytes("512M") == 512 << 20)
        #expect(MemoryBudget.bytes("2g") == 2 << 30)
        #expect(MemoryBudget.bytes("64KB") == 64 << 10)
        #expect(MemoryBudget.bytes("1000") == 1000)
        #expect(MemoryBudget.bytes("9999999999T") == nil)
        #expect(MemoryBudget.bytes("-1M") == nil)
        #expect(MemoryBudget.bytes("") == nil)
    }

    // MARK: Nesting and size

    /// A million brackets deep: an error with the line and column, at once (the parser has a
    /// depth limit and no recursion), in filter input, a store file and --arg.
    @Test func millionDeepJSONIsAnErrorWithItsPlace() throws {
        let deep = String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000)
        let started = Date()
        let lines = try SiftBinary.run("filter", "TRUEPREDICATE", stdin: "{\"a\": 1}\n{\"a\": \(deep)}\n")
        #expect(lines.status == 1)
        #expect(lines.stderr.contains("error: <stdin>: line 2, column ") && lines.stderr.contains("JSON nested too deeply"), "\(lines.stderr.prefix(300))")
        let array = try SiftBinary.run("filter", "TRUEPREDICATE", stdin: deep)
        #expect(array.status == 1)
        #expect(array.stderr.contains("line 1, column 513: JSON nested too deeply"), "\(array.stderr.prefix(300))")

        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("deep.json")
        try Data((#"{"sift": "store", "version": 1, "model": {"entities": []}, "objects": "# + deep + "}").utf8).write(to: store)
        let opened = try SiftBinary.run("query", "--store", store.path, "COUNT Note")
        #expect(opened.status == 1)
        #expect(opened.stderr.contains("is not a valid Sift store: not JSON: line 1, column") && opened.stderr.contains("nested too deeply"),
                "\(opened.stderr.prefix(300))")

        // An argument (a command line holds at most 128 KB of it).
        let argument = String(repeating: "[", count: 60_000) + String(repeating: "]", count: 60_000)
        let arg = try SiftBinary.run("filter", "a == %@", "--arg", argument, stdin: "{}\n")
        #expect(arg.status == 1)
        #expect(arg.stderr.contains("JSON nested too deeply"), "\(arg.stderr.prefix(300))")
        #expect(arg.stderr.utf8.count < 1000, "the message quotes the argument whole: \(arg.stderr.utf8.count) bytes")
        #expect(Date().timeIntervalSince(started) < 10 * SiftBinary.timeScale)
    }

    /// A string literal past the 16 MB the parser reads (RobustnessTests tries 100 MB; here a
    /// request file of 17 MB, as a command line cannot hold one) is refused before it is read,
    /// with what to do instead.
    @Test func anOverlongLiteralIsRefusedAtOnce() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("notes.json").path
        try SQLiteCommandTests.importNotes(store)
        var request = Data(#"{"entityName": "Note", "predicate": "title == \""#.utf8)
        request.append(Data(repeating: UInt8(ascii: "x"), count: 17 << 20))
        request.append(Data(#"\""}"#.utf8))
        let file = directory.appendingPathComponent("request.json")
        try request.write(to: file)
        let started = Date()
        let r = try SiftBinary.run("query", "--store", store, "--request", file.path)
        Self.expectNoCrash(r, "request")
        #expect(r.status == 1)
        #expect(r.stderr.contains("the text is 17 MB long, more than the 16 MB the parser reads"), "\(r.stderr.prefix(400))")
        #expect(r.stderr.utf8.count < 2000)
        #expect(Date().timeIntervalSince(started) < 5 * SiftBinary.timeScale)
    }

    /// A script line past the 16 MB the parser reads, and a long line with an error at its end,
    /// are quoted in a window around the column (as `sift parse` does), not echoed whole: an
    /// 17 MB line used to come back on standard error in full.
    @Test(arguments: [true, false])
    func aLongScriptLineIsQuotedInAWindow(overLimit: Bool) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("notes.json").path
        try SQLiteCommandTests.importNotes(store)
        let line = overLimit
            ? "COUNT Note WHERE title == \"" + String(repeating: "x", count: 17 << 20) + "\"\n"
            : "COUNT Note WHERE " + Array(repeating: "title == \"a\"", count: 50_000).joined(separator: " AND ") + " AND )\n"
        let script = directory.appendingPathComponent("long.sift")
        try ("COUNT Note\n" + line).write(to: script, atomically: true, encoding: .utf8)
        for r in [try SiftBinary.run("run", script.path, "--store", store), try SiftBinary.run(store, stdin: "COUNT Note\n" + line)] {
            Self.expectNoCrash(r, "script")
            #expect(r.status == 1)
            #expect(r.stdout.contains("5\n"), "\(r.stdout)")
            #expect(r.stderr.contains(overLimit ? ":2:1: error: the text is 17 MB long" : ":2:\(line.utf8.count - 1): error: expected an expression"),
                    "\(r.stderr.prefix(400))")
            #expect(r.stderr.contains(overLimit ? "…\n" : "\n…") && r.stderr.hasSuffix("^\n"), "\(r.stderr.prefix(400))")
            #expect(r.stderr.utf8.count < 1000, "\(r.stderr.utf8.count) bytes")
        }
    }

    /// A statement written over 20,000 lines runs as one on a single line does: each line is
    /// read once (lexing all the lines so far after each was quadratic: 18 s against 0.6 s).
    @Test(.hangGuard())
    func aStatementOfManyLinesIsReadInLinearTime() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("notes.json").path
        try SQLiteCommandTests.importNotes(store)
        let script = "COUNT Note WHERE title IN {\n" + (0..<20_000).map { "\"x\($0)\",\n" }.joined() + "\"Groceries\"}\n"
        let file = directory.appendingPathComponent("long.sift")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let r = try SiftBinary.run("run", file.path, "--store", store)
        #expect(r.status == 0, "\(r.stderr.prefix(300))")
        #expect(r.stdout.contains("    1\n"), "\(r.stdout)")
    }

    /// Typed values whose text is long are refused before Foundation reads it, and messages
    /// quote only its start.
    @Test func longTypedValuesAreRefusedQuickly() throws {
        let digits = String(repeating: "1", count: 2_000_000)
        let r = try SiftBinary.run("filter", "a > 0", stdin: "{\"a\": {\"$decimal\": \"\(digits)\"}}\n")
        #expect(r.status == 1)
        #expect(r.stderr.contains("invalid decimal '1111111111111111111111111111111111111111…' (2000000 characters)"), "\(r.stderr.prefix(300))")
        #expect(r.stderr.utf8.count < 500)
    }
}
