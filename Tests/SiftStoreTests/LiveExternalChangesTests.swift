import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQLiteStore
@testable import SiftStore
import Testing

/// Live results following writes the controller's store did not make: another connection to
/// the same SQLite file (its commits seen through `PRAGMA data_version`), another store object
/// on the same JSON or plist file (its saves seen through the file's generation) — both
/// noticed by inotify, as another process's would be.
@Suite struct LiveExternalChangesTests {
    /// Collects the change sets a controller emits, from whichever thread.
    final class Collector: LiveFetchControllerDelegate, @unchecked Sendable {
        let changeSets = Locked<[ResultsChangeSet]>([])
        func controller(_ controller: LiveFetchController, didChange changes: ResultsChangeSet) {
            changeSets.withLock { $0.append(changes) }
        }
        func take() -> [ResultsChangeSet] { changeSets.withLock { sets in defer { sets = [] }; return sets } }
    }

    /// Waits (up to 30 s, a guard against hanging, not a measure) until `condition` holds.
    static func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return try condition()
    }

    /// `steps` random writes by `writer`, each saved; after each, the controller over `reader`
    /// (the same file, another connection or store object) comes to the writer's new result,
    /// and the change sets it emitted on the way, applied in order to the previous result,
    /// give exactly that result: none missed, none invented.
    static func follow(writer: any PersistentStore, reader open: (any PersistentStore) throws -> any PersistentStore, steps: Int, seed: UInt64) throws {
        var g = SplitMix(seed: seed)
        let owners = try (0..<3).map { try writer.insert(entity: "Owner", id: nil, attributes: ["name": .string("o\($0)")], relationships: [:]) }
        var serial = 0
        var ids: [ObjectID] = []
        for _ in 0..<30 { _ = try LiveFetchControllerTests.write(.insert, writer, &g, serial: &serial, ids: &ids, owners: owners) }
        let request = try LiveFetchControllerTests.request()
        let reader = try open(writer)
        let controller = try LiveFetchController(store: reader, request: request)
        let collector = Collector()
        controller.delegate = collector
        try controller.performFetch()
        var previous = controller.snapshot
        var changeSetCount = 0
        for step in 0..<steps {
            let kind = LiveFetchControllerTests.Step.allCases[Int(g.next() % UInt64(LiveFetchControllerTests.Step.allCases.count))]
            let chosen: LiveFetchControllerTests.Step = ids.count > 80 ? .delete : ids.count < 10 ? .insert : kind
            _ = try LiveFetchControllerTests.write(chosen, writer, &g, serial: &serial, ids: &ids, owners: owners)
            let expected = try ResultsSnapshot(writer.fetchSections(request))
            // The change sets that arrive, applied one by one, reach the writer's result.
            var snapshot = previous
            let reached = try eventually {
                for changes in collector.take() {
                    changeSetCount += 1
                    snapshot = try snapshot.applying(changes)
                    #expect(changes.snapshot == snapshot)
                }
                return snapshot == expected
            }
            guard reached else {
                Issue.record("step \(step) (\(chosen)): the change sets did not reach the other connection's result")
                return
            }
            #expect(controller.snapshot == expected)
            previous = expected
        }
        #expect(changeSetCount > steps / 3)
        #expect(controller.lastError == nil)
        // A last insert arrives alone: nothing was left over or made up before it.
        serial += 1
        let last = try writer.insert(entity: "Item", id: nil, attributes: [
            "serial": .int(Int64(serial)), "group": .string("a"), "rank": .int(0), "shown": .bool(true),
        ], relationships: [:])
        try writer.save()
        #expect(eventually { collector.changeSets.withLock { !$0.isEmpty } })
        let final = collector.take()
        #expect(final.count == 1 && final.first?.inserts.map(\.objectID) == [last])
        controller.stopFollowing()
    }

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-live-ext-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test(arguments: [StoreKind.sqlite, .json, .binaryPropertyList])
    func anotherConnectionsSaves(kind: StoreKind) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try JSONModelFormat.read(Data(LiveFetchControllerTests.modelJSON.utf8))
        let writer = try kind.make(model, name: "shared", in: directory)
        try Self.follow(writer: writer, reader: { try #require(try kind.reopen($0)) }, steps: kind == .sqlite ? 150 : 60, seed: 11)
    }

    /// A sectioned fetch whose rows another connection deletes between the sections' counts
    /// and their IDs: an error, not a crash (the controller reads both in one transaction).
    @Test func rowsGoneBetweenCountAndIDs() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try JSONModelFormat.read(Data(LiveFetchControllerTests.modelJSON.utf8))
        let reader = try StoreKind.sqlite.make(model, name: "gone", in: directory)
        for serial in 0..<5 {
            try reader.insert("Item", ["serial": .int(Int64(serial)), "group": "a", "rank": 1, "shown": true])
        }
        try reader.save()
        let writer = try #require(try StoreKind.sqlite.reopen(reader))
        let sections = try reader.fetchSections(LiveFetchControllerTests.request())
        try writer.batchDelete(entity: "Item", predicate: nil)
        try writer.save()
        let objects = try #require(sections.sections.first).objects
        #expect(objects.count == 5)
        #expect(throws: StoreError.self) { try objects.checkedObjectIDs() }
    }

    /// The watcher itself: a write to a watched file (or its companion) is seen, with inotify
    /// and by polling; a write to another file in the directory is not checked for.
    @Test(arguments: [false, true]) func fileWatcher(polling: Bool) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("store.db")
        try Data("0".utf8).write(to: file, options: .atomic)
        let version = Locked(0)
        let seen = Locked(0)
        let watcher = FileChangeWatcher(file: file, companions: ["-wal"], polling: polling) {
            let now = (try? String(contentsOf: file, encoding: .utf8)).flatMap { Int($0) } ?? 0
            return version.withLock { last in defer { last = now }; return last != now }
        } onChange: {
            seen.withLock { $0 += 1 }
        }
        defer { watcher.cancel() }
        try Data("1".utf8).write(to: file, options: .atomic)
        #expect(Self.eventually { seen.withLock { $0 } == 1 })
        try Data("x".utf8).write(to: directory.appendingPathComponent("store.db-wal"))
        try Data("2".utf8).write(to: file, options: .atomic)
        #expect(Self.eventually { seen.withLock { $0 } == 2 })
        watcher.cancel()
        try Data("3".utf8).write(to: file, options: .atomic)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(seen.withLock { $0 } == 2)
    }
}

/// Another process's writes to a SQLite store are refetched whole ("unknown"): the objects'
/// hashes of shown values make an update made by `sqlite3` an update, and a change to a value
/// the fetch does not read nothing at all.
@Suite struct LiveSQLiteShellTests {
    static func shell(_ database: URL, _ sql: String) throws -> Int32 {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [database.path, sql]
        try shell.run()
        shell.waitUntilExit()
        return shell.terminationStatus
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func updatesBySQLite3() throws {
        let directory = try LiveExternalChangesTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try JSONModelFormat.read(Data(LiveFetchControllerTests.modelJSON.utf8))
        let store = try StoreKind.sqlite.make(model, name: "shell", in: directory)
        let first = try store.insert("Item", ["serial": 1, "group": "a", "rank": 1, "shown": true, "title": "one"])
        let second = try store.insert("Item", ["serial": 2, "group": "a", "rank": 2, "shown": true, "title": "two"])
        try store.save()
        let file = try #require((store as? SQLiteStore)?.url)
        let controller = try LiveFetchController(store: store, request: LiveFetchControllerTests.request())
        let collector = LiveExternalChangesTests.Collector()
        controller.delegate = collector
        try controller.performFetch()
        defer { controller.stopFollowing() }
        func next() -> ResultsChangeSet? {
            guard LiveExternalChangesTests.eventually({ collector.changeSets.withLock { !$0.isEmpty } }) else { return nil }
            return collector.take().first
        }
        // A memo (not read), then a title (read): the first change set is the title's update.
        try #require(try Self.shell(file, #"UPDATE "Item" SET "memo" = 'm' WHERE "_id" = '\#(first)'"#) == 0)
        try #require(try Self.shell(file, #"UPDATE "Item" SET "title" = 'deux' WHERE "_id" = '\#(second)'"#) == 0)
        let update = try #require(next())
        #expect(update.updates == [.init(kind: .update, objectID: second, oldIndexPath: .init(section: 0, row: 1), newIndexPath: .init(section: 0, row: 1))])
        #expect(update.moves.isEmpty && update.inserts.isEmpty && update.deletes.isEmpty)
        // A rank past the other's: a move.
        try #require(try Self.shell(file, #"UPDATE "Item" SET "rank" = 3 WHERE "_id" = '\#(first)'"#) == 0)
        let move = try #require(next())
        #expect(move.moves == [.init(kind: .move, objectID: first, oldIndexPath: .init(section: 0, row: 0), newIndexPath: .init(section: 0, row: 1))])
        #expect(move.updates.isEmpty)
    }
}
