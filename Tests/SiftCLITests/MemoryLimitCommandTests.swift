import Foundation
import Sift
import Testing

/// Results held whole in memory — the sections of a fetch, an import into a JSON store — stop
/// with an error that names the limit and what to do once they pass the memory budget
/// (`SIFT_MEMORY`, else half of what the process may use), instead of the process aborting
/// with "failed to allocate" (issue 29, item 9).
@Suite("sift: sections and imports within the memory budget")
struct MemoryLimitCommandTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static let model = #"""
        {"name": "Rows", "entities": [{"name": "Row", "attributes": [
          {"name": "k", "type": "Integer 64", "optional": true},
          {"name": "s", "type": "String", "optional": true}], "relationships": []}]}
        """#

    /// `count` rows of distinct `k`, as JSON Lines.
    static func rows(_ count: Int) -> String {
        (0..<count).map { #"{"@entity": "Row", "k": \#($0), "s": "name \#($0)"}"# }.joined(separator: "\n") + "\n"
    }

    static func environment(memory: String) -> [String: String] {
        var environment = SiftBinary.environment
        environment["SIFT_MEMORY"] = memory
        return environment
    }

    /// A directory with the model and `count` rows in a JSON Lines file.
    static func fixture(rows count: Int) throws -> (directory: URL, model: String, data: String) {
        let directory = try directory()
        let model = directory.appendingPathComponent("model.json")
        try Data(Self.model.utf8).write(to: model)
        let data = directory.appendingPathComponent("rows.jsonl")
        try Data(rows(count).utf8).write(to: data)
        return (directory, model.path, data.path)
    }

    static func expectMemoryError(_ r: SiftBinary.Result, _ phrases: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 1, "status \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("failed to allocate"), "\(r.stderr)", sourceLocation: sourceLocation)
        for phrase in phrases {
            #expect(r.stderr.contains(phrase), "'\(phrase)' in \(r.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: ["sqlite", "json"])
    func sectionsPastTheBudgetStopWithAnError(kind: String) throws {
        let (directory, model, data) = try Self.fixture(rows: 5000)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("rows.\(kind)").path
        let imported = try SiftBinary.run("import", "--store", store, "--model", model, data)
        #expect(imported.status == 0, "\(imported.stderr)")
        // 5,000 sections take more than 1 MB.
        let r = try SiftBinary.run(arguments: ["query", "--store", store, "Row SECTION BY k", "--output", "jsonl"],
                                   environment: Self.environment(memory: "1M"))
        Self.expectMemoryError(r, ["error: the sections of 'k' need more memory than the 1 MB allowed (stopped at ",
                                   "LIMIT and OFFSET", "SIFT_MEMORY=SIZE"])
        // Within the budget, the same query answers; a narrower one answers under the small budget.
        let enough = try SiftBinary.run(arguments: ["query", "--store", store, "Row SECTION BY k", "--output", "jsonl"],
                                        environment: Self.environment(memory: "256M"))
        #expect(enough.status == 0, "\(enough.stderr)")
        #expect(enough.stdout.components(separatedBy: "# section ").count == 5001)
        let narrow = try SiftBinary.run(arguments: ["query", "--store", store, "Row WHERE k < 100 SECTION BY k", "--output", "jsonl"],
                                        environment: Self.environment(memory: "1M"))
        #expect(narrow.status == 0, "\(narrow.stderr)")
    }

    @Test func sectionsOnTheMemoryEngineStopWithAnError() throws {
        let (directory, model, data) = try Self.fixture(rows: 5000)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("rows.sqlite").path
        #expect(try SiftBinary.run("import", "--store", store, "--model", model, data).status == 0)
        let r = try SiftBinary.run(arguments: [store], stdin: ".engine memory\nRow SECTION BY k\n", environment: Self.environment(memory: "1M"))
        Self.expectMemoryError(r, ["the sections of 'k' need more memory than the 1 MB allowed"])
    }

    @Test func importIntoAJSONStorePastTheBudgetImportsNothing() throws {
        let (directory, model, data) = try Self.fixture(rows: 5000)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("rows.json").path
        let r = try SiftBinary.run(arguments: ["import", "--store", store, "--model", model, data], environment: Self.environment(memory: "1M"))
        Self.expectMemoryError(r, ["rows.jsonl: line ", "the objects of the import need more memory than the 1 MB allowed (stopped at object ",
                                   "nothing was imported", "held whole in memory", "SQLite store", "--memory SIZE (or SIFT_MEMORY)", "was not created"])
        #expect(!FileManager.default.fileExists(atPath: store))
        // --memory sets it too; into an existing store nothing changes.
        #expect(try SiftBinary.run("import", "--store", store, "--model", model, "--memory", "64M", data).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let again = try SiftBinary.run("import", "--store", store, "--memory", "1M", data)
        Self.expectMemoryError(again, ["the objects of the import need more memory than the 1 MB allowed"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        // A SQLite store keeps its rows on disk: the same budget imports them.
        let sqlite = directory.appendingPathComponent("rows.sqlite").path
        let onDisk = try SiftBinary.run(arguments: ["import", "--store", sqlite, "--model", model, data], environment: Self.environment(memory: "1M"))
        #expect(onDisk.status == 0, "\(onDisk.stderr)")
    }

    /// The default budget follows `ulimit -v`: 500,000 rows into a JSON store under 400 MB of
    /// address space aborted ("failed to allocate"); now the import stops with the error.
    @Test(.disabled(if: SiftBinary.timeScale != 1, "sanitized builds reserve more address space than the limit"))
    func importUnderAnAddressSpaceLimitStopsWithAnError() throws {
        let (directory, model, data) = try Self.fixture(rows: 500_000)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("rows.json").path
        var environment = SiftBinary.environment
        environment.removeValue(forKey: "SIFT_MEMORY")
        let quoted = [SiftBinary.url.path, "import", "--store", store, "--model", model, data].map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -v 400000 && exec \(quoted)"]
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "status \(process.terminationStatus): \(stderr.prefix(500))")
        #expect(stderr.contains("the objects of the import need more memory than the ") && !stderr.contains("Fatal error"), "\(stderr.prefix(500))")
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
