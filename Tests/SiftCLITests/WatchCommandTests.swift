import Foundation
import Sift
import Testing

/// `sift watch` as a user runs it: the built binary follows a store while other `sift`
/// processes change it; each change set is one golden JSON line; SIGTERM ends it with status 0.
@Suite struct WatchCommandTests {
    static let model = #"""
    {"name": "W", "entities": [{"name": "Item", "attributes": [
      {"name": "name", "type": "String"}, {"name": "group", "type": "String"}, {"name": "rank", "type": "Integer 64"}]}]}
    """#
    static let data = #"{"Item": [{"name": "a", "group": "x", "rank": 1}, {"name": "b", "group": "y", "rank": 2}]}"#

    /// The lines a running process prints, collected on a thread of their own.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func append(_ data: Data) { lock.lock(); text += String(decoding: data, as: UTF8.self); lock.unlock() }
        var complete: [String] {
            lock.lock(); defer { lock.unlock() }
            return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
        /// Waits (up to 30 s, a guard against hanging, not a measure) for `count` lines.
        func wait(for count: Int) -> [String] {
            let deadline = ContinuousClock.now + .seconds(30)
            while complete.count < count && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
            return complete
        }
    }

    @Test(arguments: ["sqlite", "json"]) func followsOtherProcessesWrites(kind: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let modelFile = directory.appendingPathComponent("model.json"), dataFile = directory.appendingPathComponent("data.json")
        try Data(Self.model.utf8).write(to: modelFile)
        try Data(Self.data.utf8).write(to: dataFile)
        let store = directory.appendingPathComponent("w.\(kind)").path
        let imported = try SiftBinary.run("import", "--store", store, "--model", modelFile.path, dataFile.path)
        try #require(imported.status == 0, "\(imported.stderr)")

        let watch = Process()
        watch.executableURL = SiftBinary.url
        watch.arguments = ["watch", "--store", store, "Item SORT BY group, rank SECTION BY group", "--output", "jsonl"]
        watch.environment = SiftBinary.environment
        let out = Pipe()
        watch.standardOutput = out
        watch.standardError = FileHandle.nullDevice
        let lines = Lines()
        out.fileHandleForReading.readabilityHandler = { handle in lines.append(handle.availableData) }
        try watch.run()
        defer { if watch.isRunning { watch.terminate() } }

        #expect(lines.wait(for: 1) == [
            #"{"sections": {"deletes": [], "inserts": [{"index": 0, "name": "x"}, {"index": 1, "name": "y"}]}, "objects": [{"change": "insert", "id": "o1", "newIndexPath": [0, 0]}, {"change": "insert", "id": "o2", "newIndexPath": [1, 0]}]}"#,
        ])
        // Another process moves a into section y: section x goes, a moves after b.
        let moved = try SiftBinary.run("update", "--store", store, #"Item SET group = "y", rank = 5 WHERE name == "a""#)
        try #require(moved.status == 0, "\(moved.stderr)")
        #expect(lines.wait(for: 2).dropFirst() == [
            #"{"sections": {"deletes": [{"index": 0, "name": "x"}], "inserts": []}, "objects": [{"change": "move", "id": "o1", "indexPath": [0, 0], "newIndexPath": [0, 1]}]}"#,
        ])
        // A change to the sort key that keeps the order is an update: the JSON store says what
        // changed; on SQLite another process's commit is refetched whole, and the object's
        // hash of shown values changed. Then a delete.
        let ranked = try SiftBinary.run("update", "--store", store, #"Item SET rank = 3 WHERE name == "b""#)
        try #require(ranked.status == 0, "\(ranked.stderr)")
        let update = #"{"sections": {"deletes": [], "inserts": []}, "objects": [{"change": "update", "id": "o2", "indexPath": [0, 0], "newIndexPath": [0, 0]}]}"#
        #expect(Array(lines.wait(for: 3).dropFirst(2)) == [update])
        let deleted = try SiftBinary.run("delete", "--store", store, #"Item WHERE name == "b""#)
        try #require(deleted.status == 0, "\(deleted.stderr)")
        let delete = #"{"sections": {"deletes": [], "inserts": []}, "objects": [{"change": "delete", "id": "o2", "indexPath": [0, 0]}]}"#
        let expected = [update, delete]
        #expect(Array(lines.wait(for: 2 + expected.count).dropFirst(2)) == expected)
        var total = 2 + expected.count
        // A write Sift did not make: the sqlite3 shell inserts a row in Sift's layout.
        if kind == "sqlite", FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") {
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            shell.arguments = [store, #"INSERT INTO "Item" ("_id", "_entity", "name", "group", "rank") VALUES ('s1', 'Item', 'c', 'x', 0)"#]
            try shell.run()
            shell.waitUntilExit()
            try #require(shell.terminationStatus == 0)
            total += 1
            #expect(lines.wait(for: total).last == #"{"sections": {"deletes": [], "inserts": [{"index": 0, "name": "x"}]}, "objects": [{"change": "insert", "id": "s1", "newIndexPath": [0, 0]}]}"#)
            // And updates a value the fetch shows: an update, though Sift did not write it.
            let updater = Process()
            updater.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            updater.arguments = [store, #"UPDATE "Item" SET "rank" = 7 WHERE "_id" = 's1'"#]
            try updater.run()
            updater.waitUntilExit()
            try #require(updater.terminationStatus == 0)
            total += 1
            #expect(lines.wait(for: total).last == #"{"sections": {"deletes": [], "inserts": []}, "objects": [{"change": "update", "id": "s1", "indexPath": [0, 0], "newIndexPath": [0, 0]}]}"#)
        }

        watch.terminate()
        watch.waitUntilExit()
        out.fileHandleForReading.readabilityHandler = nil
        #expect(watch.terminationReason == .exit && watch.terminationStatus == 0)
        #expect(lines.complete.count == total)
    }

    @Test func refusesWhatItCannotFollow() throws {
        let result = try SiftBinary.run("watch", "--store", "/nonexistent/w.sqlite", "Item SORT BY name", "--output", "table")
        #expect(result.status != 0)
        #expect(result.stderr.contains("jsonl"))
    }
}
