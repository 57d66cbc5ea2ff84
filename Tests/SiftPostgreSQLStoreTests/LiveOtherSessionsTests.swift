import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftPostgreSQLStore
import SiftStore
import Testing

/// Live results following other sessions' commits on PostgreSQL: another store on its own
/// connection, and plain SQL from a third (as `psql` would send), write; the controller hears
/// of each commit through the triggers' notifications (or by polling, in a database Sift did
/// not create) and comes to the writer's result, its change sets applied in order giving exactly
/// that result — none missed, none invented.
@Suite struct LiveOtherSessionsTests {
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

    static func place(of id: ObjectID, in snapshot: ResultsSnapshot) -> ResultIndexPath? {
        for (s, section) in snapshot.sections.enumerated() {
            if let row = section.objectIDs.firstIndex(of: id) { return ResultIndexPath(section: s, row: row) }
        }
        return nil
    }

    enum Step: CaseIterable { case insert, rank, group, memo, delete, batchUpdate, sqlUpdate, sqlDelete }

    /// Random writes by `writer` and by plain SQL on `sql`; after each, the change sets that
    /// arrive, applied one by one, reach the writer's result. Returns the kinds of object
    /// changes seen and whether a change to an attribute of a shown object that left it in its
    /// place arrived as that object's update alone (where `expectUpdates`).
    static func follow(reader: PostgreSQLStore, writer: PostgreSQLStore, sql: PostgreSQLConnection, steps: Int, expectUpdates: Bool) throws -> Set<String> {
        var g = UniquenessDifferentialTests.Generator(state: 71)
        let groups = ["a", "b", "c"]
        var serial = 0
        var ids: [ObjectID] = []
        func insert() throws {
            serial += 1
            ids.append(try writer.insert(entity: "Item", id: nil, attributes: [
                "serial": .int(Int64(serial)), "group": .string(groups.randomElement(using: &g)!), "rank": .int(Int64.random(in: 0..<6, using: &g)),
                "shown": .bool(Int.random(in: 0..<4, using: &g) != 0),
            ], relationships: [:]))
        }
        for _ in 0..<15 { try insert() }
        try writer.save()
        var request = try FetchRequest(statement: "Item WHERE shown == YES SORT BY group, rank, serial")
        request.sectionNameKeyPath = "group"
        request.fetchBatchSize = 8
        let controller = try LiveFetchController(store: reader, request: request)
        let collector = Collector()
        controller.delegate = collector
        try controller.performFetch()
        var previous = controller.snapshot
        var kinds: Set<String> = []
        for step in 0..<steps {
            let chosen = ids.count < 6 ? .insert : ids.count > 40 ? .delete : Step.allCases.randomElement(using: &g)!
            let id = ids.randomElement(using: &g)!
            switch chosen {
            case .insert: try insert()
            case .rank: try writer.update(id, attributes: ["rank": .int(Int64.random(in: 0..<6, using: &g))], relationships: [:])
            case .group: try writer.update(id, attributes: ["group": .string(groups.randomElement(using: &g)!)], relationships: [:])
            case .memo: try writer.update(id, attributes: ["memo": .string("m\(step)")], relationships: [:])
            case .delete: try writer.delete(id); ids.removeAll { $0 == id }
            case .batchUpdate:
                try writer.batchUpdate(entity: "Item", predicate: PredicateNode(format: "rank < 2"), set: ["shown": .constant(.bool(step % 2 == 0))])
            case .sqlUpdate:
                try sql.execute("UPDATE \"Item\" SET \"rank\" = (\"rank\" + 1) % 6 WHERE \"serial\" % 3 = \(step % 3)")
            case .sqlDelete:
                try sql.execute("BEGIN; DELETE FROM \"Item\" WHERE \"_id\" = '\(id.rawValue)'; COMMIT")
                ids.removeAll { $0 == id }
            }
            if writer.hasChanges { try writer.save() }
            let expected = try ResultsSnapshot(writer.fetchSections(request))
            var snapshot = previous
            var arrived: [ResultsChangeSet] = []
            let reached = try eventually {
                for changes in collector.take() {
                    arrived.append(changes)
                    snapshot = try snapshot.applying(changes)
                    #expect(changes.snapshot == snapshot)
                }
                return snapshot == expected
            }
            guard reached else {
                Issue.record("step \(step) (\(chosen)): the change sets did not reach the writer's result")
                return kinds
            }
            for changes in arrived { for change in changes.objectChanges { kinds.insert(change.kind.rawValue) } }
            if expectUpdates, chosen == .memo, let place = Self.place(of: id, in: previous) {
                // The notification named the object and its column: it is told as updated, alone.
                #expect(eventually { arrived.append(contentsOf: collector.take()); return !arrived.isEmpty })
                #expect(arrived.count == 1 && arrived.first?.updates.map(\.objectID) == [id] && arrived.first?.updates.first?.oldIndexPath == place,
                        "step \(step): \(arrived)")
            }
            #expect(controller.snapshot == expected)
            previous = expected
        }
        #expect(controller.lastError == nil)
        // A last insert arrives alone: nothing was left over or made up before it.
        serial += 1
        let last = try writer.insert(entity: "Item", id: nil, attributes: [
            "serial": .int(Int64(serial)), "group": .string("a"), "rank": .int(0), "shown": .bool(true),
        ], relationships: [:])
        try writer.save()
        #expect(eventually { collector.changeSets.withLock { !$0.isEmpty } })
        Thread.sleep(forTimeInterval: 0.2)
        let final = collector.take()
        #expect(final.count == 1 && final.first?.inserts.map(\.objectID) == [last], "\(final)")
        controller.stopFollowing()
        return kinds
    }

    /// The writer is another process: `psql`, as a user types it, commits one statement at a
    /// time — a change of a sort key, a move to another section, a change of a shown value, a
    /// change that hides an object, a delete. After each, the change sets that arrive, applied in
    /// order, give what a fresh fetch gives; after the last, no more arrive: none missed, none
    /// invented.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/psql")))
    func aPsqlProcessWrites() async throws {
        let test = try await StoreTestDatabase.make(LiveResultsTests.model, label: "livepsql")
        defer { test.database.drop() }
        let writer = try test.reopened()
        for serial in 1...8 {
            _ = try writer.insert(entity: "Item", id: nil, attributes: [
                "serial": .int(Int64(serial)), "group": .string(serial % 2 == 0 ? "a" : "b"), "rank": .int(0), "shown": .bool(true),
            ], relationships: [:])
        }
        try writer.save()
        var request = try FetchRequest(statement: "Item WHERE shown == YES SORT BY group, rank, serial")
        request.sectionNameKeyPath = "group"
        let controller = try LiveFetchController(store: test.store, request: request)
        let collector = Collector()
        controller.delegate = collector
        try controller.performFetch()
        var snapshot = controller.snapshot
        let conninfo = test.database.serverConninfo + " dbname=\(test.database.name)"
        let statements = [
            #"UPDATE "Item" SET "rank" = 5 WHERE "serial" = 2"#,
            #"UPDATE "Item" SET "group" = 'c' WHERE "serial" = 3"#,
            #"UPDATE "Item" SET "memo" = 'noted' WHERE "serial" = 4"#,
            #"UPDATE "Item" SET "shown" = false WHERE "serial" = 5"#,
            #"DELETE FROM "Item" WHERE "serial" IN (6, 7)"#,
        ]
        var kinds: Set<String> = []
        for statement in statements {
            let psql = Process()
            psql.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
            psql.arguments = ["-X", "-q", "-v", "ON_ERROR_STOP=1", conninfo, "-c", statement]
            try psql.run()
            psql.waitUntilExit()
            #expect(psql.terminationStatus == 0, "\(statement)")
            let expected = try ResultsSnapshot(writer.fetchSections(request))
            let reached = try Self.eventually {
                for changes in collector.take() {
                    snapshot = try snapshot.applying(changes)
                    #expect(changes.snapshot == snapshot)
                    for change in changes.objectChanges { kinds.insert(change.kind.rawValue) }
                }
                return snapshot == expected
            }
            #expect(reached, "\(statement): the change sets did not reach a fresh fetch's result")
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(collector.take().isEmpty, "a change set after the last commit")
        #expect(kinds.isSuperset(of: ["move", "update", "delete"]), "\(kinds)")
        #expect(controller.lastError == nil)
        controller.stopFollowing()
    }

    @Test func notificationsFromOtherSessions() async throws {
        let test = try await StoreTestDatabase.make(LiveResultsTests.model, label: "livenotify")
        defer { test.database.drop() }
        let writer = try test.reopened()
        let kinds = try Self.follow(reader: test.store, writer: writer, sql: try test.connect(), steps: 80, expectUpdates: true)
        #expect(test.store.changeWatch == .notifications)
        #expect(kinds.isSuperset(of: ["insert", "delete", "move", "update"]), "\(kinds)")
    }

    @Test func pollingWhereTriggersAreNotInstalled() async throws {
        let test = try await StoreTestDatabase.make(LiveResultsTests.model, label: "livepoll")
        defer { test.database.drop() }
        test.store.forcesChangePolling = true
        let writer = try test.reopened()
        let kinds = try Self.follow(reader: test.store, writer: writer, sql: try test.connect(), steps: 40, expectUpdates: false)
        #expect(test.store.changeWatch == .polling(reason: "polling was asked for"))
        #expect(kinds.isSuperset(of: ["insert", "delete"]), "\(kinds)")
        // Nothing was installed in the database.
        let triggers = try test.connect().scalar("SELECT count(*) FROM pg_catalog.pg_trigger WHERE tgname LIKE 'sift\\_notify\\_%'")
        #expect(triggers.int64Value == 0)
    }

    /// A role that may read the store but not add triggers to its tables (not their owner, no
    /// TRIGGER privilege): its controller polls, and still follows the owner's commits.
    @Test func aRoleWithoutTheTriggerPrivilegePolls() async throws {
        let test = try await StoreTestDatabase.make(LiveResultsTests.model, label: "livepriv")
        defer { test.database.drop() }
        let reader = try PermissionTests.Role.make("livereader", in: test.database)
        defer { reader.drop() }
        try test.connect().execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(PostgreSQLIdentifier.quoted(reader.name))")
        let store = try PostgreSQLStore.open(connection: try reader.connect())
        var request = try FetchRequest(statement: "Item SORT BY serial")
        request.sectionNameKeyPath = "group"
        let controller = try LiveFetchController(store: store, request: request)
        let collector = Collector()
        controller.delegate = collector
        try controller.performFetch()
        guard case .polling(let reason)? = store.changeWatch else {
            Issue.record("\(String(describing: store.changeWatch))")
            return
        }
        #expect(reason.contains("42501"), "\(reason)")
        let inserted = try test.store.insert(entity: "Item", id: nil, attributes: [
            "serial": .int(1), "group": .string("a"), "rank": .int(0), "shown": .bool(true),
        ], relationships: [:])
        try test.store.save()
        #expect(Self.eventually { collector.changeSets.withLock { $0.flatMap(\.inserts).map(\.objectID) } == [inserted] })
        controller.stopFollowing()
    }

    /// A database Sift did not create is not changed: its commits are followed by polling.
    @Test func foreignDatabaseIsPolled() async throws {
        let database = try await PostgreSQLTestServer.makeDatabase("liveforeign")
        defer { database.drop() }
        let sql = try database.connect()
        try sql.execute("CREATE TABLE thing (id integer PRIMARY KEY, name text NOT NULL, score integer NOT NULL)")
        try sql.execute("INSERT INTO thing VALUES (1, 'one', 1), (2, 'two', 2)")
        let store = try PostgreSQLStore.open(connection: try database.connect())
        let request = try FetchRequest(statement: "thing SORT BY score, id")
        let controller = try LiveFetchController(store: store, request: request)
        let collector = Collector()
        controller.delegate = collector
        try controller.performFetch()
        guard case .polling? = store.changeWatch else {
            Issue.record("\(String(describing: store.changeWatch))")
            return
        }
        var previous = controller.snapshot
        for statement in ["INSERT INTO thing VALUES (3, 'three', 0)", "UPDATE thing SET score = 9 WHERE id = 1",
                          "DELETE FROM thing WHERE id = 2", "BEGIN; INSERT INTO thing VALUES (4, 'four', 4); UPDATE thing SET score = -1 WHERE id = 4; COMMIT"] {
            try sql.execute(statement)
            let expected = ResultsSnapshot(sections: [.init(name: "", objectIDs: try store.fetch(request).objectIDs)])
            var snapshot = previous
            #expect(try Self.eventually {
                for changes in collector.take() { snapshot = try snapshot.applying(changes) }
                return snapshot == expected
            }, "\(statement)")
            previous = expected
        }
        let triggers = try sql.scalar("SELECT count(*) FROM pg_catalog.pg_trigger WHERE NOT tgisinternal")
        #expect(triggers.int64Value == 0)
        controller.stopFollowing()
    }
}
