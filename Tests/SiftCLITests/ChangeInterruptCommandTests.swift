import Foundation
import Sift
import SiftSQLite
import Synchronization
import Testing
@testable import SiftCLI

/// Ctrl-C (SIGINT, sent to the built binary) during a long batch change: the change stops
/// before it is saved, is rolled back whole, and the binary says so — `interrupted; nothing
/// was changed`, and the process ends as SIGINT ends it (`$?` 130 in a shell) — where it used to run to the end, save, and then say only
/// `interrupted`. The store is checked unchanged afterwards. Sizes are the issue's: a
/// 1,000,000-row SQLite store (a change of many seconds) and a 16,000-object JSON store.
@Suite(.serialized) struct ChangeInterruptCommandTests {
    static let sqliteRows = 1_000_000
    static let jsonObjects = 16_000

    @Test func updateOnSQLiteStopsAndRollsBack() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Self.makeSQLiteStore(in: folder)
        let result = try Self.interrupted(["update", "--store", store.path, "Item SET name = 'changed'"])
        Self.expectNothingChanged(result)
        #expect(try Self.count(store, "name == 'changed'") == 0)
        #expect(try Self.count(store, nil) == Self.sqliteRows)
    }

    @Test func deleteOnSQLiteStopsAndRollsBack() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Self.makeSQLiteStore(in: folder)
        let result = try Self.interrupted(["delete", "--store", store.path, "Item WHERE n >= 0"])
        Self.expectNothingChanged(result)
        #expect(try Self.count(store, nil) == Self.sqliteRows)
    }

    @Test func updateOnJSONStopsAndRollsBack() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Self.makeJSONStore(in: folder)
        let before = try Data(contentsOf: store)
        // A value that takes milliseconds an object (10,000 SUBQUERY tests, since its collection
        // reads the object), so the change runs long however fast the store writes.
        let slow = "SUBQUERY({n, \((1..<100).map(String.init).joined(separator: ", "))}, $a, SUBQUERY({\((0..<100).map(String.init).joined(separator: ", "))}, $b, $a == $b).@count > 0).@count"
        let result = try Self.interrupted(["update", "--store", store.path, "Item SET n = \(slow)"])
        Self.expectNothingChanged(result)
        #expect(try Data(contentsOf: store) == before, "the JSON store was rewritten")
    }

    /// Ctrl-C during `sift import --from`: the copy stops, the new store is not made (no file
    /// left), one line says so, and the process ends as SIGINT ends it.
    @Test func importFromStopsAndMakesNoStore() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.makeSQLiteStore(in: folder)
        let target = folder.appendingPathComponent("copy.sqlite")
        let result = try Self.interrupted(["import", "--store", target.path, "--from", source.path])
        #expect(result.status == -SIGINT, "\(result.stderr)")
        #expect(result.stderr == "error: \(source.path): interrupted; \(target.path) was not created\n", "\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("copy") }
        #expect(left.isEmpty, "\(left)")
        #expect(try Self.count(source, nil) == Self.sqliteRows)
    }

    /// Ctrl-C during `sift import --from` into an existing store: none of the copy is saved.
    @Test func importFromStopsAndLeavesTheTargetAsItWas() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.makeSQLiteStore(in: folder)
        let target = folder.appendingPathComponent("target.sqlite")
        let existing = try SQLiteStore.create(at: target, model: try JSONModelFormat.read(Data(Self.model.utf8)))
        _ = try existing.insert(entity: "Item", id: ObjectID("kept"), attributes: ["name": .string("already here"), "n": .int(-1)], relationships: [:])
        try existing.save()
        let result = try Self.interrupted(["import", "--store", target.path, "--from", source.path])
        #expect(result.status == -SIGINT, "\(result.stderr)")
        #expect(result.stderr == "error: \(source.path): interrupted; \(target.path) was left as it was\n", "\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(try Self.count(target, nil) == 1)
        #expect(try Self.count(target, "name == 'already here'") == 1)
    }

    /// A script stops at the interrupted statement: the change is rolled back, the error names
    /// the script's line, and the statements after it do not run.
    @Test func aScriptStopsAtTheInterruptedChange() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Self.makeSQLiteStore(in: folder)
        let script = folder.appendingPathComponent("change.sift")
        try "# a long change, then a count\nUPDATE Item SET name = 'changed'\nCOUNT Item\n".write(to: script, atomically: true, encoding: .utf8)
        let result = try Self.interrupted(["run", script.path, "--store", store.path])
        #expect(result.status == -SIGINT, "\(result.stderr)")
        #expect(result.stderr == "\(script.path):2:1: error: interrupted; nothing was changed\n", "\(result.stderr)")
        #expect(result.stdout.isEmpty, "the script went on: \(result.stdout)")
        #expect(try Self.count(store, "name == 'changed'") == 0)
    }

    /// A SIGINT that comes after the change was saved (here: as its summary is printed) does
    /// not pretend to have stopped it: the session says the change was made, and counts no
    /// failure. (A real SIGINT to this process, handled as the REPL handles it.)
    @Test func anInterruptAfterTheSaveSaysTheChangeWasMade() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("items.sqlite")
        let store = try SQLiteStore.create(at: url, model: try JSONModelFormat.read(Data(Self.model.utf8)))
        for n in 0..<3 { try store.insert("Item", ["name": .string("item \(n)"), "n": .int(Int64(n))]) }
        try store.save()
        let collected = Mutex("")
        let session = Session(output: .collecting(into: { text in
            collected.withLock { $0 += text }
            guard text.hasPrefix("updated") else { return }
            kill(getpid(), SIGINT)
            // Time for the signal queue to take it, while the statement still runs.
            usleep(300_000)
        }), source: .interactive)
        session.open(store: store, label: "items.sqlite")
        let interrupter = StatementInterrupter(whenIdle: .ignore)
        defer { interrupter.stop() }
        #expect(session.runReportingInterrupt(interrupter) { session.feed("UPDATE Item SET n = n + 10") })
        #expect(collected.withLock { $0 } == "updated 3 objects\nupdated 3 objects; interrupted after the change was saved\n")
        #expect(session.failures == 0)
        #expect(try Self.count(url, "n >= 10") == 3)
    }

    // MARK: Support

    static func expectNothingChanged(_ result: SiftBinary.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == -SIGINT, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr == "error: interrupted; nothing was changed\n", "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(result.stdout)", sourceLocation: sourceLocation)
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-change-interrupt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static let model = #"{"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "n", "type": "Integer 64"}]}]}"#

    /// A Sift store of `sqliteRows` items, filled by one SQL statement.
    static func makeSQLiteStore(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("items.sqlite")
        _ = try SQLiteStore.create(at: url, model: try JSONModelFormat.read(Data(model.utf8)))
        let database = try SQLiteDatabase(path: url.path, options: [])
        try database.execute("""
            WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < \(sqliteRows))
            INSERT INTO "Item" ("_pk", "_id", "_entity", "name", "n")
            SELECT i, 'o' || i, 'Item', 'item number ' || i, i FROM k
            """)
        return url
    }

    /// A JSON store of `jsonObjects` items.
    static func makeJSONStore(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("items.json")
        let modelFile = folder.appendingPathComponent("model.json")
        try model.write(to: modelFile, atomically: true, encoding: .utf8)
        let lines = (0..<jsonObjects).map { #"{"name": "item number \#($0)", "n": \#($0)}"# }.joined(separator: "\n")
        let data = folder.appendingPathComponent("items.jsonl")
        try lines.write(to: data, atomically: true, encoding: .utf8)
        let result = try SiftBinary.run("import", "--store", url.path, "--model", modelFile.path, "--entity", "Item", data.path)
        try #require(result.status == 0, "\(result.stderr)")
        return url
    }

    static func count(_ url: URL, _ predicate: String?) throws -> Int {
        let store = try StoreFile.open(url.path, readOnly: true)
        return try store.count(FetchRequest(entityName: "Item", predicate: predicate.map { try PredicateNode(format: $0) }))
    }

    /// Runs `sift ARGUMENTS`, and once it handles SIGINT (it then catches or ignores it, which
    /// `/proc/PID/status` shows) and its change is under way, sends it one.
    static func interrupted(_ arguments: [String]) throws -> SiftBinary.Result {
        let process = Process()
        process.executableURL = SiftBinary.url
        process.arguments = arguments
        process.environment = SiftBinary.environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let deadline = ContinuousClock.now + .seconds(30 * SiftBinary.timeScale)
        while !handlesSIGINT(process.processIdentifier), process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        // Time for the change to be under way (it runs for many seconds unless stopped).
        usleep(500_000)
        kill(process.processIdentifier, SIGINT)
        group.wait()
        process.waitUntilExit()
        // (Killed by the signal: its number, negated.)
        return SiftBinary.Result(status: process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus,
                                 stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Whether process `pid` catches or ignores SIGINT.
    static func handlesSIGINT(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        let mask = UInt64(1) << UInt64(SIGINT - 1)
        for line in status.split(separator: "\n") where line.hasPrefix("SigIgn:") || line.hasPrefix("SigCgt:") {
            if let bits = UInt64(line.split(separator: "\t").last ?? "", radix: 16), bits & mask != 0 { return true }
        }
        return false
    }
}
