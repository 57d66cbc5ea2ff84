import Foundation
import Testing

/// `sift import` writing to a SQLite store: JSON Lines from a file or standard input, and
/// several processes importing into one store at once (each waits for the others' write lock;
/// no import is lost).
@Suite struct ImportWritesTests {
    /// `count` tags as JSON Lines, with IDs unique to `prefix`.
    static func tags(_ prefix: String, count: Int) -> String {
        (1...count).map { #"{"@entity": "Tag", "@id": "\#(prefix)-\#($0)", "name": "\#(prefix) tag \#($0)"}"# }.joined(separator: "\n") + "\n"
    }

    static func count(_ store: String, _ entity: String) throws -> String {
        let result = try SiftBinary.run("query", "--store", store, "COUNT \(entity)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func jsonLinesImportFromAFileAndFromStandardInput() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("notes.sqlite").path
        try SQLiteCommandTests.importNotes(store)
        let file = directory.appendingPathComponent("tags.jsonl")
        try Self.tags("F", count: 40).write(to: file, atomically: true, encoding: .utf8)
        let fromFile = try SiftBinary.run("import", "--store", store, file.path)
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(fromFile.stdout == "\(file.path): imported 40 objects (Tag 40)\n")
        #expect(fromFile.stderr.isEmpty, "no progress line when standard error is not a terminal: \(fromFile.stderr)")
        let fromStandardInput = try SiftBinary.run("import", "--store", store, "-", stdin: Self.tags("S", count: 5))
        #expect(fromStandardInput.status == 0, "\(fromStandardInput.stderr)")
        #expect(fromStandardInput.stdout == "<stdin>: imported 5 objects (Tag 5)\n")
        #expect(try Self.count(store, "Tag") == #"{"count": 48}"#)
        // A bad line names the line, and nothing of the file is imported.
        let bad = try SiftBinary.run("import", "--store", store, "-", stdin: Self.tags("B", count: 3) + #"{"@entity": "Tag", "@id": "B-9", "nmae": "x"}"# + "\n")
        #expect(bad.status == 1)
        #expect(bad.stderr == "error: <stdin>: line 4: Tag 'B-9': unknown key 'nmae' on Tag; did you mean 'name'?\n")
        #expect(try Self.count(store, "Tag") == #"{"count": 48}"#)
    }

    @Test func processesImportingIntoOneStoreAtOnceLoseNothing() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("notes.sqlite").path
        try SQLiteCommandTests.importNotes(store)
        let writers = 4, perWriter = 300
        var processes: [Process] = []
        for n in 1...writers {
            let file = directory.appendingPathComponent("tags\(n).jsonl")
            try Self.tags("W\(n)", count: perWriter).write(to: file, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = SiftBinary.url
            process.arguments = ["import", "--store", store, file.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            processes.append(process)
        }
        for process in processes { try process.run() }
        for process in processes { process.waitUntilExit() }
        #expect(processes.map(\.terminationStatus) == Array(repeating: 0, count: writers))
        #expect(try Self.count(store, "Tag") == #"{"count": \#(3 + writers * perWriter)}"#)
        // The store is whole: every relationship of the notes is as imported.
        let notes = try SiftBinary.run("query", "--store", store, "COUNT Note WHERE ANY tags.name == 'Family'")
        #expect(notes.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"count": 2}"#)
    }
}
