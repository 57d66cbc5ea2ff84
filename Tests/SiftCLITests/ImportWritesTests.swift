import Foundation
import Testing

/// `sift import` writing to a SQLite store: JSON Lines from a file or standard input, and
/// several processes importing into one store at once (each waits for the others' write lock;
/// no import is lost), into every store kind, the store created by the first of them; and
/// several `sift update`s of one object at once, each from the value the last one saved.
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

    /// `--jobs N` reads and checks a file's lines on N threads: the same rows as `--jobs 1`, and
    /// the same error naming the same line.
    @Test func jobsImportTheRowsAndErrorsOfOneThread() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // About 700 KB: three chunks.
        let file = directory.appendingPathComponent("tags.jsonl")
        try Self.tags("J", count: 10_000).write(to: file, atomically: true, encoding: .utf8)
        let bad = directory.appendingPathComponent("bad.jsonl")
        try (Self.tags("B", count: 9_000) + #"{"@entity": "Tag", "@id": "B-x", "nmae": "x"}"# + "\n" + Self.tags("K", count: 10))
            .write(to: bad, atomically: true, encoding: .utf8)
        var dumps: [String] = []
        for jobs in ["1", "3"] {
            let store = directory.appendingPathComponent("notes\(jobs).sqlite").path
            try SQLiteCommandTests.importNotes(store)
            let imported = try SiftBinary.run("import", "--store", store, "--jobs", jobs, file.path)
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout == "\(file.path): imported 10000 objects (Tag 10000)\n")
            let failed = try SiftBinary.run("import", "--store", store, "--jobs", jobs, bad.path)
            #expect(failed.status == 1)
            #expect(failed.stderr == "error: \(bad.path): line 9001: Tag 'B-x': unknown key 'nmae' on Tag; did you mean 'name'?\n", "--jobs \(jobs)")
            let dump = try SiftBinary.run("query", "--store", store, "Tag", "--output", "jsonl")
            #expect(dump.status == 0)
            dumps.append(dump.stdout)
        }
        #expect(dumps[0].split(separator: "\n").count == 10_003)
        #expect(dumps[0] == dumps[1])
        let zero = try SiftBinary.run("import", "--store", directory.appendingPathComponent("x.sqlite").path, "--jobs", "0", file.path)
        #expect(zero.status != 0)
        #expect(zero.stderr.contains("--jobs must be 1 or more"), "\(zero.stderr)")
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

    // MARK: Many processes, one store

    static let storeKinds = ["json", "plist", "sqlite"]
    static let tagModel = #"{"name": "Tags", "entities": [{"name": "Tag", "attributes": [{"name": "name", "type": "String"}]}]}"#

    /// A `sift` process (not started) with its standard output and error collected in files.
    struct Running {
        let process = Process()
        let label: String
        let output: URL

        init(_ arguments: [String], label: String, in directory: URL) throws {
            self.label = label
            output = directory.appendingPathComponent("out-\(UUID().uuidString).txt")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            process.executableURL = SiftBinary.url
            process.arguments = arguments
            let handle = try FileHandle(forWritingTo: output)
            process.standardOutput = handle
            process.standardError = handle
        }

        /// Waits for the process; its output, removed.
        func finish() throws -> (status: Int32, output: String) {
            process.waitUntilExit()
            defer { try? FileManager.default.removeItem(at: output) }
            return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8))
        }
    }

    /// Runs every command at once; each must exit 0 printing `expected(label)`.
    static func runAtOnce(_ commands: [Running], expected: (String) -> String) throws {
        for command in commands { try command.process.run() }
        for command in commands {
            let (status, output) = try command.finish()
            #expect(status == 0 && output == expected(command.label), "\(command.label): status \(status): \(output)")
        }
    }

    @Test func fourImportersAtOnceIntoEveryStoreKindLoseNothing() throws {
        // 20 rounds of 4 `sift import`s at once into each kind of store (12 processes a round),
        // the first round creating the stores. Without the atomic stores' lock the last rename
        // wins and a round keeps one importer's tags.
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("tags-model.json")
        try Self.tagModel.write(to: model, atomically: false, encoding: .utf8)
        let rounds = 20, writers = 4, perWriter = 3
        var expected: Set<String> = []
        for round in 1...rounds {
            var commands: [Running] = []
            for writer in 1...writers {
                let prefix = "R\(round)W\(writer)"
                let file = directory.appendingPathComponent("\(prefix).jsonl")
                try Self.tags(prefix, count: perWriter).write(to: file, atomically: false, encoding: .utf8)
                expected.formUnion((1...perWriter).map { "\(prefix)-\($0)" })
                for kind in Self.storeKinds {
                    let store = directory.appendingPathComponent("tags.\(kind)").path
                    commands.append(try Running(["import", "--store", store, "--model", model.path, file.path],
                                                label: "\(kind) \(file.path)", in: directory))
                }
            }
            try Self.runAtOnce(commands) { label in "\(label.split(separator: " ")[1]): imported \(perWriter) objects (Tag \(perWriter))\n" }
        }
        for kind in Self.storeKinds {
            let result = try SiftBinary.run("query", "--store", directory.appendingPathComponent("tags.\(kind)").path, "Tag", "--output", "csv")
            #expect(result.status == 0, "\(result.stderr)")
            let ids = result.stdout.split(whereSeparator: \.isNewline).dropFirst().map { String($0.split(separator: ",")[1]) }
            #expect(ids.count == rounds * writers * perWriter, "\(kind)")
            #expect(Set(ids) == expected, "\(kind): missing \(expected.subtracting(ids).sorted().prefix(10))")
        }
        // No temporary file is left, and no lock file (the atomic stores lock the store file).
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.filter { $0.hasSuffix(".tmp") } == [])
        #expect(files.filter { $0.hasSuffix(".lock") } == [])
    }

    @Test func concurrentUpdatesOfOneObjectEachSeeTheLastSave() throws {
        // `n = n + 1` by 4 processes at once, 5 times: each reads n under the write lock, so
        // the count ends at 20 in every store kind.
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("counter-model.json")
        try #"{"name": "Counter", "entities": [{"name": "Counter", "attributes": [{"name": "n", "type": "Integer 64"}]}]}"#
            .write(to: model, atomically: false, encoding: .utf8)
        let data = directory.appendingPathComponent("counter-data.json")
        try #"{"Counter": [{"@id": "C", "n": 0}]}"#.write(to: data, atomically: false, encoding: .utf8)
        for kind in Self.storeKinds {
            let imported = try SiftBinary.run("import", "--store", directory.appendingPathComponent("counter.\(kind)").path, "--model", model.path, data.path)
            try #require(imported.status == 0, "\(imported.stderr)")
        }
        let rounds = 5, writers = 4
        for _ in 1...rounds {
            var commands: [Running] = []
            for kind in Self.storeKinds {
                for _ in 1...writers {
                    commands.append(try Running(["update", "--store", directory.appendingPathComponent("counter.\(kind)").path, "Counter SET n = n + 1"],
                                                label: kind, in: directory))
                }
            }
            try Self.runAtOnce(commands) { _ in "updated 1 object\n" }
        }
        for kind in Self.storeKinds {
            #expect(try Self.count(directory.appendingPathComponent("counter.\(kind)").path, "Counter WHERE n == \(rounds * writers)") == #"{"count": 1}"#, "\(kind)")
        }
    }
}
