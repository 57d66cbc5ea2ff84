import Foundation
import Testing

/// The output of `sift filter` and `sift query` in every `--output` format, byte for byte:
/// each case's standard output must be exactly `RenderGolden/NAME.out`. Scripts depend on these
/// bytes, so a renderer may change its code, never what it prints (sections, nulls, quoting,
/// records of different keys, records that are not objects, counts, `--select`).
///
/// `SIFT_UPDATE_GOLDEN=1 swift test --filter RenderGoldenCommandTests` writes the `.out` files
/// from what the binary prints (read the diff before committing it).
@Suite struct RenderGoldenCommandTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("RenderGolden")

    static let formats = ["json", "jsonl", "table", "csv", "indices", "box", "line", "markdown"]

    /// Records of different keys, nulls, text to quote or escape, a record that is not an
    /// object, and one written over several lines.
    static let records = """
        {"name": "Ann", "age": 30, "city": "Berlin", "note": null}
        {"name": "Bob", "city": "Paris, \\"FR\\"", "tags": ["a", "b"]}
        {
          "name": "Cy",
          "age": 25.5,
          "note": "line1\\nline2"
        }
        7
        {"name": "漢字", "age": -1, "city": "Berlin", "extra": {"k": true}}

        """

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        var testDescription: String { name }
    }

    static let filterCases: [Case] = formats.flatMap { format in [
        Case(name: "filter-\(format)", arguments: ["filter", "TRUEPREDICATE", "--output", format]),
        Case(name: "filter-none-\(format)", arguments: ["filter", "name == 'nobody'", "--output", format]),
        Case(name: "filter-sections-\(format)", arguments: ["filter", "TRUEPREDICATE", "--sort", "city", "--section-by", "city", "--output", format]),
        Case(name: "filter-select-\(format)", arguments: ["filter", "age != nil", "--select", "name,age,extra.k", "--output", format]),
    ] }

    @Test(arguments: filterCases)
    func filterPrintsAsBefore(_ c: Case) throws {
        let result = try SiftBinary.run(arguments: c.arguments, stdin: Self.records)
        #expect(result.status == 0, "\(result.stderr)")
        try Self.compare(result.stdout, c.name)
    }

    static let queryCases: [Case] = ["json", "jsonl", "table", "csv", "box", "line", "markdown"].flatMap { format in [
        Case(name: "query-\(format)", arguments: ["query", "--output", format, "Note SORT BY title"]),
        Case(name: "query-sections-\(format)", arguments: ["query", "--output", format, "Note SORT BY category.name, title SECTION BY category.name"]),
        Case(name: "query-count-\(format)", arguments: ["query", "--output", format, "COUNT Note WHERE title CONTAINS 'Note'"]),
        Case(name: "query-select-\(format)", arguments: ["query", "--output", format, "SELECT title, contents FROM Note SORT BY title"]),
        Case(name: "query-none-\(format)", arguments: ["query", "--output", format, "Note WHERE title == 'nothing'"]),
    ] }

    @Test(arguments: queryCases)
    func queryPrintsAsBefore(_ c: Case) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let notes = QueryCommandTests.examples.appendingPathComponent("Notes")
        let store = directory.appendingPathComponent("notes.sqlite").path
        let imported = try SiftBinary.run("import", "--store", store, "--model", notes.appendingPathComponent("model.json").path,
                                          notes.appendingPathComponent("data.json").path)
        try #require(imported.status == 0, "\(imported.stderr)")
        var arguments = c.arguments
        arguments.insert(contentsOf: ["--store", store], at: 1)
        let result = try SiftBinary.run(arguments: arguments)
        #expect(result.status == 0, "\(result.stderr)")
        try Self.compare(result.stdout, c.name)
    }

    /// `sift query --output box|line|markdown` prints what `sift run --output …` (the REPL's
    /// `.mode`) prints for the same statement: one renderer for both.
    @Test(arguments: ["box", "line", "markdown"])
    func replFormatsPrintAsTheREPLDoes(_ format: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let notes = QueryCommandTests.examples.appendingPathComponent("Notes")
        let store = directory.appendingPathComponent("notes.sqlite").path
        let imported = try SiftBinary.run("import", "--store", store, "--model", notes.appendingPathComponent("model.json").path,
                                          notes.appendingPathComponent("data.json").path)
        try #require(imported.status == 0, "\(imported.stderr)")
        for statement in ["SELECT title, contents FROM Note SORT BY title", "Note SORT BY category.name, title SECTION BY category.name"] {
            let script = directory.appendingPathComponent("s.sift")
            try Data((statement + "\n").utf8).write(to: script)
            let run = try SiftBinary.run("run", script.path, "--store", store, "--output", format)
            let query = try SiftBinary.run("query", "--store", store, "--output", format, statement)
            #expect(run.status == 0 && query.status == 0, "\(run.stderr)\(query.stderr)")
            #expect(query.stdout == run.stdout)
            #expect(query.stdout.contains("My First Note"))
        }
    }

    static func compare(_ output: String, _ name: String) throws {
        let file = folder.appendingPathComponent("\(name).out")
        if ProcessInfo.processInfo.environment["SIFT_UPDATE_GOLDEN"] != nil {
            try Data(output.utf8).write(to: file)
            return
        }
        // An empty file is not read: FoundationEssentials' readBytesFromFile leaks the 4 KB buffer
        // it reads an empty file into (LeakSanitizer reports it), and four outputs are empty.
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        let expected = size == 0 ? "" : try String(decoding: Data(contentsOf: file), as: UTF8.self)
        #expect(output == expected, "\(name): printed\n\(output)")
    }
}
