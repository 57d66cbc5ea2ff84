import Foundation
import PostgreSQLTestSupport
import Testing

/// Input at the edges (issue 29, item 12): values JSON has no number for, bytes that are not
/// text, line ends of other systems, files that are not what their name says, and imports
/// that fail: each gets a clear answer, and a failure leaves nothing behind.
@Suite struct InputEdgeCommandTests {
    /// A directory of the test's own, removed when `body` returns.
    static func inDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-edges-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    static func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    // MARK: Doubles JSON has no number for

    /// Infinities (and NaN) are written in the typed form `sift import` reads back, so an
    /// export imports as the same values (they were `null`, and came back nil).
    @Test func infinitiesRoundTripThroughJSONOutputAndImport() throws {
        try Self.inDirectory { directory in
            let data = directory.appendingPathComponent("d.jsonl")
            try Self.write("{\"@id\": \"a\", \"x\": 1.5}\n{\"@id\": \"b\", \"x\": 1e999}\n{\"@id\": \"c\", \"x\": -1e999}\n", to: data)
            let first = directory.appendingPathComponent("first.sqlite").path
            let imported = try SiftBinary.run("import", "--store", first, "--entity", "D", data.path)
            #expect(imported.status == 0, "\(imported.stderr)")
            for (format, file) in [("jsonl", "out.jsonl"), ("json", "out.json")] {
                let exported = try SiftBinary.run("query", "--store", first, "D SORT BY x", "--output", format)
                #expect(exported.status == 0, "\(exported.stderr)")
                #expect(exported.stdout.contains(#"{"$double":"1e999"}"#) && exported.stdout.contains(#"{"$double":"-1e999"}"#), "\(exported.stdout)")
                #expect(!exported.stdout.contains("null"), "\(exported.stdout)")
                let out = directory.appendingPathComponent(file)
                try Self.write(exported.stdout, to: out)
                let second = directory.appendingPathComponent("second-\(format).sqlite").path
                let model = directory.appendingPathComponent("model.json").path
                _ = try? FileManager.default.removeItem(atPath: model)
                let modelText = #"{"entities": [{"name": "D", "attributes": [{"name": "x", "type": "Double"}]}]}"#
                try Self.write(modelText, to: URL(fileURLWithPath: model))
                // (A JSON array of records is read as JSON Lines are.)
                let back = try SiftBinary.run("import", "--store", second, "--model", model, "--format", "jsonl", out.path, "--entity", "D")
                #expect(back.status == 0, "\(back.stderr)")
                let again = try SiftBinary.run("query", "--store", second, "D SORT BY x", "--output", "jsonl")
                let before = try SiftBinary.run("query", "--store", first, "D SORT BY x", "--output", "jsonl")
                #expect(again.stdout == before.stdout)
                let infinite = try SiftBinary.run("query", "--store", second, "D WHERE x > 1e300", "--output", "jsonl")
                #expect(infinite.stdout == #"{"@entity":"D","@id":"b","x":{"$double":"1e999"}}"# + "\n")
            }
        }
    }

    /// A NaN an expression makes is written so too; `sift filter` reads the typed form back.
    @Test func typedDoublesFilterAsDoubles() throws {
        let result = try SiftBinary.run("filter", "x > 1e308", stdin: "{\"x\": {\"$double\": \"1e999\"}}\n{\"x\": 2}\n{\"x\": {\"$double\": \"NaN\"}}\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""$double": "1e999""#) && !result.stdout.contains("NaN"), "\(result.stdout)")
    }

    // MARK: JSON Lines with a NUL

    /// A NUL between records is one error at one position (it named the record before it as
    /// well), and the character is named, not printed.
    @Test(arguments: [
        ("{\"a\": 1}\n\0\n{\"a\": 2}\n", "line 2, column 1"),
        ("{\"a\": 1}\0{\"a\": 2}\n", "line 1, column 9"),
        ("{\"a\": 1}\n{\"a\": 2}\n\0", "line 3, column 1"),
    ])
    func aNULBetweenJSONLinesRecordsHasOnePosition(_ text: String, _ position: String) throws {
        try Self.inDirectory { directory in
            let data = directory.appendingPathComponent("nul.jsonl")
            try Data(text.utf8).write(to: data)
            for store in ["new.sqlite", "existing.sqlite"] {
                let path = directory.appendingPathComponent(store).path
                if store == "existing.sqlite" {
                    try Self.write("{\"a\": 0}\n", to: directory.appendingPathComponent("ok.jsonl"))
                    _ = try SiftBinary.run("import", "--store", path, "--entity", "Q", directory.appendingPathComponent("ok.jsonl").path)
                }
                let result = try SiftBinary.run("import", "--store", path, "--entity", "Q", data.path)
                #expect(result.status == 1)
                #expect(result.stderr.components(separatedBy: "line ").count == 2, "\(result.stderr)")
                #expect(result.stderr.contains("\(position): unexpected character U+0000"), "\(result.stderr)")
                #expect(!result.stderr.contains("\0"))
            }
        }
    }

    // MARK: Line ends of other systems

    /// Statements over several lines, blank lines between them, a dot command: a script with
    /// LF, CR LF or lone CR line ends runs alike (CR LF joined every line into one statement).
    static let script = "COUNT Note\nNote WHERE title BEGINSWITH \"M\"\n  SORT BY title\n\n.mode csv\nCOUNT Tag\n"

    @Test(arguments: ["\r\n", "\r"])
    func scriptsWithOtherLineEndsRunAsWithLF(_ lineEnd: String) throws {
        try ScriptCommandTests.withNotesStore { directory in
            let store = directory.appendingPathComponent("notes.sqlite").path
            let unix = directory.appendingPathComponent("unix.sift")
            let other = directory.appendingPathComponent("other.sift")
            try Self.write(Self.script, to: unix)
            try Self.write(Self.script.replacingOccurrences(of: "\n", with: lineEnd), to: other)
            let expected = try SiftBinary.run("run", unix.path, "--store", store)
            #expect(expected.status == 0 && expected.stderr.isEmpty, "\(expected.stderr)")
            #expect(expected.stdout.contains("My First Note") && expected.stdout.hasSuffix("count\r\n3\r\n"))
            let fromFile = try SiftBinary.run("run", other.path, "--store", store)
            #expect(fromFile.status == 0 && fromFile.stderr.isEmpty, "\(fromFile.stderr)")
            #expect(fromFile.stdout == expected.stdout)
            let piped = try SiftBinary.run("run", "-", "--store", store, stdin: Self.script.replacingOccurrences(of: "\n", with: lineEnd))
            #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
            #expect(piped.stdout == expected.stdout)
            let repl = try SiftBinary.run(store, stdin: Self.script.replacingOccurrences(of: "\n", with: lineEnd))
            #expect(repl.stdout == expected.stdout, "\(repl.stderr)")
            let read = try SiftBinary.run(store, ".read \(other.path)")
            #expect(read.stdout == expected.stdout, "\(read.stderr)")
            let statement = try SiftBinary.run(store, "COUNT Note" + lineEnd + "COUNT Tag")
            #expect(statement.stdout == "count\n-----\n    5\n(1 row)\ncount\n-----\n    3\n(1 row)\n", "\(statement.stderr)")
        }
    }

    // MARK: Bytes that are not UTF-8

    /// Runs `sift` through the shell, whose `printf` writes bytes a Swift string cannot hold
    /// (`command` names the binary `"$SIFT"`).
    static func runShell(_ command: String) throws -> SiftBinary.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = SiftBinary.environment
        environment["SIFT"] = SiftBinary.url.path
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
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

    /// A script that is not UTF-8 (Latin-1, a lone surrogate written as bytes) is an error at
    /// its line and column; a file runs none of it, piped input stops there, without the
    /// statement the line may have gone on. (It ran, with U+FFFD in place of the bytes.)
    @Test(arguments: [("\\351", "0xE9"), ("\\355\\240\\200", "0xED"), ("\\377", "0xFF")])
    func scriptsThatAreNotUTF8AreErrorsAtTheirPosition(_ bytes: String, _ byte: String) throws {
        try ScriptCommandTests.withNotesStore { directory in
            let store = directory.appendingPathComponent("notes.sqlite").path
            let script = directory.appendingPathComponent("latin1.sift").path
            _ = try Self.runShell("printf 'COUNT Note\\nCOUNT Note WHERE title == \"caf\(bytes)\"\\nCOUNT Tag\\n' > '\(script)'")
            let fromFile = try Self.runShell("\"$SIFT\" run '\(script)' --store '\(store)'")
            #expect(fromFile.status == 1)
            #expect(fromFile.stdout.isEmpty)
            #expect(fromFile.stderr.hasPrefix("\(script):2:31: error: the text is not UTF-8 (byte \(byte);"), "\(fromFile.stderr)")
            #expect(fromFile.stderr.contains("nothing in it was run"))
            let read = try Self.runShell("\"$SIFT\" '\(store)' '.read \(script)'")
            #expect(read.status == 1 && read.stdout.isEmpty)
            #expect(read.stderr.contains("line 2, column 31: the text is not UTF-8 (byte \(byte);"), "\(read.stderr)")
            for command in ["\"$SIFT\" run - --store '\(store)'", "\"$SIFT\" '\(store)'"] {
                let piped = try Self.runShell(command + " < '\(script)'")
                #expect(piped.status == 1)
                // The statement before the line is dropped: the line might have gone on with it.
                #expect(piped.stdout.isEmpty, "\(command)")
                #expect(piped.stderr.hasSuffix("; the input was not read further; the statement written before it was not run\n"), "\(piped.stderr)")
                #expect(piped.stderr.hasPrefix("<stdin>:2:31: error: the text is not UTF-8 (byte \(byte);"), "\(piped.stderr)")
            }
        }
    }

    /// An argument that is not UTF-8 is an error naming it and the column (it was searched
    /// for, or named a file, with U+FFFD in place of its bytes).
    @Test func argumentsThatAreNotUTF8AreErrorsAtTheirPosition() throws {
        let predicate = try Self.runShell("\"$SIFT\" parse \"$(printf 'name == \\042caf\\351\\042')\"")
        #expect(predicate.status == 64)
        #expect(predicate.stderr == "error: argument 2 ('name == \"caf\\xE9\"'), column 13: the text is not UTF-8 (byte 0xE9); arguments must be UTF-8\n")
        let surrogate = try Self.runShell("\"$SIFT\" filter 'name == %@' --arg \"$(printf '\\042\\355\\240\\200\\042')\" /dev/null")
        #expect(surrogate.status == 64)
        #expect(surrogate.stderr == "error: argument 4 ('\"\\xED\\xA0\\x80\"'), column 2: the text is not UTF-8 (byte 0xED); arguments must be UTF-8\n")
        let fine = try Self.runShell("\"$SIFT\" parse 'name == \"café\"'")
        #expect(fine.status == 0 && fine.stdout == "name == \"café\"\n", "\(fine.stderr)")
    }

    // MARK: Imports that fail, stores that exist

    static let notes = ExamplesTests.packageRoot.appendingPathComponent("Examples/Notes")

    /// A data file that cannot be read is found before anything is made (an empty store was
    /// left), and the error says why.
    @Test(arguments: ["new.sqlite", "new.json", "new.plist"])
    func anUnreadableDataFileMakesNoStoreAndSaysWhy(_ name: String) throws {
        try Self.inDirectory { directory in
            let store = directory.appendingPathComponent(name).path
            let model = Self.notes.appendingPathComponent("model.json").path
            let missing = directory.appendingPathComponent("missing.jsonl").path
            let result = try SiftBinary.run("import", "--store", store, "--model", model, Self.notes.appendingPathComponent("data.json").path, missing)
            #expect(result.status == 1)
            #expect(result.stderr == "error: cannot read \(missing): No such file or directory\n")
            #expect(!FileManager.default.fileExists(atPath: store))
            let folder = try SiftBinary.run("import", "--store", store, "--model", model, directory.path)
            #expect(folder.stderr == "error: cannot read \(directory.path): Is a directory\n")
            #expect(!FileManager.default.fileExists(atPath: store))
            let inferred = try SiftBinary.run("import", "--store", store, "--entity", "Row", missing)
            #expect(inferred.stderr == "error: cannot read \(missing): No such file or directory\n")
            #expect(!FileManager.default.fileExists(atPath: store))
        }
    }

    /// `sift import` without `--model` imports into a PostgreSQL database's store, as into an
    /// existing file's (it said the database did not exist); a failed import into a database
    /// without one makes none.
    @Test func importsIntoAPostgreSQLStoreNeedNoModel() async throws {
        let database = try await PostgreSQLTestServer.makeDatabase("edges")
        defer { database.drop() }
        let conninfo = database.serverConninfo + " dbname=\(database.name)"
        let model = Self.notes.appendingPathComponent("model.json").path
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("sift-missing-\(UUID().uuidString).jsonl").path
        let failed = try SiftBinary.run("import", "--store", conninfo, "--model", model, missing)
        #expect(failed.stderr == "error: cannot read \(missing): No such file or directory\n")
        let noStore = try SiftBinary.run("import", "--store", conninfo, Self.notes.appendingPathComponent("data.json").path)
        #expect(noStore.status == 1)
        #expect(noStore.stderr.contains("holds no Sift store; give --model MODEL"), "\(noStore.stderr)")
        let first = try SiftBinary.run("import", "--store", conninfo, "--model", model, Self.notes.appendingPathComponent("data.json").path)
        #expect(first.status == 0, "\(first.stderr)")
        let more = "{\"@entity\": \"Tag\", \"@id\": \"T9\", \"name\": \"Later\"}\n"
        let second = try SiftBinary.run("import", "--store", conninfo, "-", stdin: more)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == "<stdin>: imported 1 object (Tag 1)\n")
        let count = try SiftBinary.run("query", "--store", conninfo, "COUNT Tag")
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"count": 4}"#)
    }

    // MARK: Files that are not SQLite databases

    /// A short `.sqlite` file that does not start with SQLite's header is not a database
    /// (SQLite opened a 1-byte file as an empty one, and would overwrite it), and is never
    /// written.
    @Test(arguments: [Data("x".utf8), Data("SQLite".utf8), Data("hello, this is text and no database".utf8)])
    func aFileWithoutSQLitesHeaderIsNotADatabase(_ bytes: Data) throws {
        try Self.inDirectory { directory in
            let file = directory.appendingPathComponent("short.sqlite")
            try bytes.write(to: file)
            let model = Self.notes.appendingPathComponent("model.json").path
            for arguments in [[file.path, ".tables"], ["query", "--store", file.path, "COUNT Note"],
                              ["import", "--store", file.path, "--model", model, Self.notes.appendingPathComponent("data.json").path]] {
                let result = try SiftBinary.run(arguments: arguments)
                #expect(result.status == 1, "\(arguments)")
                #expect(result.stderr.contains("\(file.path) is not a SQLite database, or is encrypted or damaged at its start: it does not begin with SQLite's header"),
                        "\(result.stderr)")
                #expect(try Data(contentsOf: file) == bytes)
            }
        }
    }

    /// A 0-byte `.sqlite` file is SQLite's empty database (as sqlite3 opens it): it holds no
    /// entities, says so, and `sift import --model` makes the store in its place; an import
    /// that fails leaves it as it was.
    @Test func anEmptyFileIsAnEmptyDatabaseThatAStoreReplaces() throws {
        try Self.inDirectory { directory in
            let file = directory.appendingPathComponent("empty.sqlite")
            try Data().write(to: file)
            let query = try SiftBinary.run("query", "--store", file.path, "COUNT Note")
            #expect(query.status == 1)
            #expect(query.stderr == "error: unknown entity 'Note' (there are no entities: the store is empty)\n")
            let model = Self.notes.appendingPathComponent("model.json").path
            let data = Self.notes.appendingPathComponent("data.json").path
            let failed = try SiftBinary.run("import", "--store", file.path, "--model", model, data, directory.appendingPathComponent("missing.json").path)
            #expect(failed.status == 1)
            #expect(try Data(contentsOf: file).isEmpty)
            let imported = try SiftBinary.run("import", "--store", file.path, "--model", model, data)
            #expect(imported.status == 0, "\(imported.stderr)")
            let count = try SiftBinary.run("query", "--store", file.path, "COUNT Note")
            #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"count": 5}"#, "\(count.stderr)")
        }
    }
}
