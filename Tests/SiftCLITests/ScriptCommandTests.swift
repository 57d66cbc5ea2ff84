import Foundation
import Sift
import Testing

/// `sift run` and the REPL's other ways in, through the built binary: scripts (`--bail`, the
/// exit status, `FILE:LINE:COLUMN` errors, `--output`, `--var`, a `#!` line), `sift STORE
/// 'STATEMENT'`, piped input, the bundled example stores, and the example scripts under
/// Examples/ with their expected output (ExampleScripts/NAME.out).
@Suite struct ScriptCommandTests {
    static let packageRoot = ExamplesTests.packageRoot
    static let expectedOutputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ExampleScripts")

    /// A directory with a Notes SQLite store, removed when `body` returns.
    static func withNotesStore(_ body: (URL) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-scripts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let notes = QueryCommandTests.examples.appendingPathComponent("Notes")
        let store = try SQLiteStore.create(at: directory.appendingPathComponent("notes.sqlite"), model: try ModelFile.load(notes.appendingPathComponent("model.json")))
        try StoreImporter.importJSON(try Data(contentsOf: notes.appendingPathComponent("data.json")), into: store)
        try body(directory)
    }

    static func write(_ text: String, to url: URL, executable: Bool = false) throws {
        try Data(text.utf8).write(to: url)
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
    }

    // MARK: sift run

    @Test func aScriptRunsItsStatementsAndCommands() throws {
        try Self.withNotesStore { directory in
            let script = directory.appendingPathComponent("report.sift")
            try Self.write("""
                # Notes per category.
                .mode csv
                SELECT category.name AS category, count:(title) AS notes FROM Note
                  GROUP BY category.name
                COUNT Tag
                """, to: script)
            let result = try SiftBinary.run("run", script.path, "--store", directory.appendingPathComponent("notes.sqlite").path)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "category,notes\r\nWork,2\r\n,1\r\nPersonal,1\r\nerrands,1\r\ncount\r\n3\r\n")
            #expect(result.stderr == "")
        }
    }

    @Test func errorsNameTheFileLineAndColumnAndTheStatusIsOne() throws {
        try Self.withNotesStore { directory in
            let script = directory.appendingPathComponent("bad.sift")
            try Self.write("COUNT Note\nNote WHERE\n  title BEGINSWTH \"a\"\nCOUNT Nope\nCOUNT Tag\n", to: script)
            let result = try SiftBinary.run("run", script.path, "--store", directory.appendingPathComponent("notes.sqlite").path)
            #expect(result.status == 1)
            #expect(result.stdout == "count\n-----\n    5\n(1 row)\ncount\n-----\n    3\n(1 row)\n")
            #expect(result.stderr == """
                \(script.path):3:9: error: expected a comparison operator, found 'BEGINSWTH'; did you mean 'BEGINSWITH'?
                  title BEGINSWTH "a"
                        ^
                \(script.path):4:7: error: unknown entity 'Nope'; did you mean 'Note'?
                COUNT Nope
                      ^

                """)
        }
    }

    @Test func bailStopsAtTheFirstError() throws {
        try Self.withNotesStore { directory in
            let script = directory.appendingPathComponent("bail.sift")
            try Self.write("COUNT Note\nCOUNT Nope\nCOUNT Tag\n", to: script)
            let store = directory.appendingPathComponent("notes.sqlite").path
            let result = try SiftBinary.run("run", script.path, "--store", store, "--bail")
            #expect(result.status == 1)
            #expect(result.stdout == "count\n-----\n    5\n(1 row)\n")
            #expect(result.stderr == "\(script.path):2:7: error: unknown entity 'Nope'; did you mean 'Note'?\nCOUNT Nope\n      ^\n")
            // .bail on in the script does the same.
            try Self.write(".bail on\nCOUNT Nope\nCOUNT Tag\n", to: script)
            let again = try SiftBinary.run("run", script.path, "--store", store)
            #expect(again.status == 1)
            #expect(again.stdout == "")
        }
    }

    @Test func outputAndVarSetTheModeAndVariables() throws {
        try Self.withNotesStore { directory in
            let script = directory.appendingPathComponent("since.sift")
            try Self.write("SELECT title FROM Note WHERE updatedAt > $since SORT BY title\n", to: script)
            let result = try SiftBinary.run("run", script.path, "--store", directory.appendingPathComponent("notes.sqlite").path,
                                            "--var", #"since={"$date": "2017-07-07T00:00:00Z"}"#, "--output", "jsonl")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == #"{"title":"Groceries"}"# + "\n" + #"{"title":"My First Note"}"# + "\n" + #"{"title":"meeting notes"}"# + "\n")
            let bad = try SiftBinary.run("run", script.path, "--output", "yaml")
            #expect(bad.status != 0)
            #expect(bad.stderr.contains("--output must be one of table, box, line, json, jsonl, csv, markdown"))
            let badVar = try SiftBinary.run("run", script.path, "--var", "since")
            #expect(badVar.status != 0)
            #expect(badVar.stderr.contains("--var 'since': expected NAME=JSON"))
        }
    }

    /// `--relationships` sets how objects start showing to-many relationships, as
    /// `.relationships` does; the script can still change it.
    @Test func relationshipsSetsHowObjectsShowToManyRelationships() throws {
        try Self.withNotesStore { directory in
            let script = directory.appendingPathComponent("tags.sift")
            try Self.write("Tag WHERE name == 'Monday'\n.relationships counts\nTag WHERE name == 'Monday'\n", to: script)
            let store = directory.appendingPathComponent("notes.sqlite").path
            let ids = try SiftBinary.run("run", script.path, "--store", store, "--output", "jsonl", "--relationships", "ids")
            #expect(ids.status == 0, "\(ids.stderr)")
            let lines = ids.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(ids.stdout)")
            #expect(lines.first?.contains(#""notes":["#) == true, "\(ids.stdout)")
            #expect(lines.last?.contains(#""notes":2"#) == true, "\(ids.stdout)")
            let none = try SiftBinary.run("run", script.path, "--store", store, "--output", "jsonl", "--relationships", "none")
            #expect(none.stdout.split(separator: "\n").first?.contains("notes") == false, "\(none.stdout)")
            let bad = try SiftBinary.run("run", script.path, "--relationships", "all")
            #expect(bad.status != 0)
        }
    }

    @Test func aMissingScriptOrStoreIsAnError() throws {
        let result = try SiftBinary.run("run", "/nonexistent/script.sift")
        #expect(result.status == 1)
        #expect(result.stderr == "error: cannot read /nonexistent/script.sift\n")
        let noStore = try SiftBinary.run("run", "/nonexistent/script.sift", "--store", "/nonexistent/notes.sqlite")
        #expect(noStore.status == 1)
        #expect(noStore.stderr == "error: no store at /nonexistent/notes.sqlite (give --create --model MODEL to create one)\n")
    }

    /// A script whose first line is `#!/usr/bin/env -S sift run` runs as a program, with `sift`
    /// found on the PATH.
    @Test func aShebangScriptRunsAsAProgram() throws {
        try Self.withNotesStore { directory in
            let bin = directory.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("sift"), withDestinationURL: SiftBinary.url)
            let script = directory.appendingPathComponent("count-notes.sift")
            try Self.write("#!/usr/bin/env -S sift run\n# How many notes?\n.mode csv\nCOUNT Note\nCOUNT Nope\n", to: script, executable: true)
            let result = try Self.runProgram(script, arguments: ["--store", directory.appendingPathComponent("notes.sqlite").path], path: bin.path)
            #expect(result.status == 1)
            #expect(result.stdout == "count\r\n5\r\n")
            #expect(result.stderr == "\(script.path):5:7: error: unknown entity 'Nope'; did you mean 'Note'?\nCOUNT Nope\n      ^\n")
        }
    }

    /// Runs an executable file with `path` first on the PATH.
    static func runProgram(_ url: URL, arguments: [String] = [], path: String) throws -> SiftBinary.Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        var environment = SiftBinary.environment
        environment["PATH"] = path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return SiftBinary.Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                                 stderr: String(decoding: errData, as: UTF8.self))
    }

    // MARK: The example scripts

    @Test(arguments: ["movies-report", "notes-by-category"])
    func theExampleScriptAnswersItsQuestions(_ name: String) throws {
        let script = Self.packageRoot.appendingPathComponent("Examples/\(name).sift")
        let expected = try String(contentsOf: Self.expectedOutputs.appendingPathComponent("\(name).out"), encoding: .utf8)
        let result = try SiftBinary.run("run", script.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(result.stdout == expected, "\(name).sift printed\n\(result.stdout)")
        // As a program, from another directory.
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("sift-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bin) }
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("sift"), withDestinationURL: SiftBinary.url)
        #expect(FileManager.default.isExecutableFile(atPath: script.path), "chmod +x Examples/\(name).sift")
        let program = try Self.runProgram(script, path: bin.path)
        #expect(program.status == 0, "\(program.stderr)")
        #expect(program.stdout == expected)
    }

    // MARK: sift STORE, piped input, the example stores

    @Test func aStoreAndAStatementRunOneStatement() throws {
        try Self.withNotesStore { directory in
            let store = directory.appendingPathComponent("notes.sqlite").path
            let result = try SiftBinary.run(store, #"COUNT Note WHERE category.name == "Work""#)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "count\n-----\n    2\n(1 row)\n")
            let bad = try SiftBinary.run(store, #"Note WHERE titel == "x""#)
            #expect(bad.status == 1)
            #expect(bad.stderr == "Note WHERE titel == \"x\"\n           ^\nerror: column 12: unknown key 'titel' on Note; did you mean 'title'?\n")
            let parse = try SiftBinary.run(store, #"Note WHERE title BEGINSWTH "x""#)
            #expect(parse.status == 1)
            #expect(parse.stderr == "Note WHERE title BEGINSWTH \"x\"\n                 ^\nerror: column 18: expected a comparison operator, found 'BEGINSWTH'; did you mean 'BEGINSWITH'?\n")
        }
    }

    @Test func pipedInputIsReadAsAScript() throws {
        try Self.withNotesStore { directory in
            let store = directory.appendingPathComponent("notes.sqlite").path
            let result = try SiftBinary.run(arguments: [store], stdin: ".mode csv\nCOUNT Note\nCOUNT Nope\nSELECT name FROM Tag\n  SORT BY name\n")
            #expect(result.status == 1)
            #expect(result.stdout == "count\r\n5\r\nname\r\nFamily\r\nIdeas\r\nMonday\r\n")
            #expect(result.stderr == "<stdin>:3:7: error: unknown entity 'Nope'; did you mean 'Note'?\nCOUNT Nope\n      ^\n")
            let repl = try SiftBinary.run(arguments: ["repl", "--store", store, "--bail"], stdin: "COUNT Nope\nCOUNT Note\n")
            #expect(repl.status == 1)
            #expect(repl.stdout == "")
        }
    }

    @Test func theExampleStoresOpenByName() throws {
        let movies = try SiftBinary.run("example:Movies", "COUNT Movie")
        #expect(movies.status == 0, "\(movies.stderr)")
        #expect(movies.stdout == "count\n-----\n    9\n(1 row)\n")
        // With no store, the default example store.
        let piped = try SiftBinary.run(arguments: [], stdin: "COUNT Note\n")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == "count\n-----\n    5\n(1 row)\n")
        let misspelt = try SiftBinary.run("example:Movis", "COUNT Movie")
        #expect(misspelt.status == 1)
        #expect(misspelt.stderr == "error: no example app 'Movis'; did you mean 'example:Movies'?\n")
    }

    @Test func aMissingStoreIsAnErrorUnlessCreated() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-create-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("new.sqlite").path
        let missing = try SiftBinary.run(path, "COUNT Note")
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: no store at \(path) (give --create --model MODEL to create one)\n")
        #expect(!FileManager.default.fileExists(atPath: path))
        let model = QueryCommandTests.examples.appendingPathComponent("Notes/model.json").path
        let created = try SiftBinary.run("repl", "--store", path, "--create", "--model", model, "COUNT Note")
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout == "count\n-----\n    0\n(1 row)\n")
        let noModel = try SiftBinary.run("repl", "--store", directory.appendingPathComponent("other.sqlite").path, "--create", "COUNT Note")
        #expect(noModel.status == 1)
        #expect(noModel.stderr.contains("--create needs --model MODEL"))
    }
}
