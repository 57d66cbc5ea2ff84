import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftPostgreSQLStore
import SiftStore
import Synchronization
import Testing

/// Changes to a PostgreSQL store: pending in one transaction until saved, rolled back whole, a
/// failed save leaving the database as it was, the store rules (inverses, delete rules,
/// uniqueness) as every store applies them.
@Suite struct WriteTests {
    static func ids(_ store: PostgreSQLStore, _ statement: String) throws -> [String] {
        try store.fetch(FetchRequest(statement: statement)).objectIDs.map(\.rawValue)
    }

    @Test func createOpenAndSave() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "save")
        defer { test.database.drop() }
        let store = test.store
        let folder = try store.insert("Folder", id: ObjectID("f1"), ["name": .string("Work")])
        try store.insert("Note", id: ObjectID("n1"), ["title": .string("a"), "rank": .int(2)], relationships: ["folder": [folder]])
        try store.insert("Memo", id: ObjectID("m1"), ["title": .string("b"), "rank": .int(1), "pinned": .bool(true)], relationships: ["folder": [folder]])
        #expect(store.hasChanges)
        // Not visible to another connection before the save.
        #expect(try Self.ids(test.reopened(), "Note") == [])
        try store.save()
        #expect(!store.hasChanges)
        let other = try test.reopened()
        #expect(other.model.entities.map(\.name) == StoreTestModels.notes.entities.map(\.name))
        #expect(try Self.ids(other, "Note") == ["n1", "m1"])
        #expect(try Self.ids(other, "Note SORT BY rank") == ["m1", "n1"])
        #expect(try Self.ids(other, "Memo") == ["m1"])
        #expect(try Self.ids(other, "Note WHERE folder.name == 'Work' AND rank == 2") == ["n1"])
        let folderObject = try #require(other.object(with: ObjectID("f1")))
        #expect(folderObject.destinationIDs(of: "notes") == [ObjectID("n1"), ObjectID("m1")])
        let note = try #require(other.object(with: ObjectID("m1")))
        #expect(note.entityName == "Memo")
        #expect(try note.value(forKey: "folder").object?.objectIdentity == folderObject.objectIdentity)
    }

    @Test func creatingTwiceIsRefused() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "twice")
        defer { test.database.drop() }
        #expect(throws: StoreError.self) { try PostgreSQLStore.create(connection: try test.connect(), model: StoreTestModels.notes) }
    }

    @Test func rollbackDiscardsEverything() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "rollback")
        defer { test.database.drop() }
        let store = test.store
        try store.insert("Folder", id: ObjectID("f1"), ["name": .string("Work")])
        try store.save()
        try store.insert("Folder", id: ObjectID("f2"), ["name": .string("Home")])
        try store.update(ObjectID("f1"), ["name": .string("Changed")])
        #expect(try Self.ids(store, "Folder") == ["f1", "f2"])
        store.rollback()
        #expect(!store.hasChanges)
        #expect(try Self.ids(store, "Folder") == ["f1"])
        #expect(same(store.object(with: ObjectID("f1"))?[attribute: "name"], .string("Work")))
        // Keys continue: a new insert after the rollback works.
        try store.insert("Folder", id: ObjectID("f3"), ["name": .string("Again")])
        try store.save()
        #expect(try Self.ids(test.reopened(), "Folder") == ["f1", "f3"])
    }

    @Test func failedSaveLeavesTheDatabaseAndTheChanges() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "failsave")
        defer { test.database.drop() }
        let store = test.store
        try store.insert("Folder", id: ObjectID("f1"), ["name": .string("Work")])
        try store.insert("Note", id: ObjectID("n1"), [:])  // no title: invalid at save
        #expect(throws: StoreError.self) { try store.save() }
        do {
            try store.save()
        } catch {
            #expect(error.code == .missingValue)
            #expect(error.objectID == ObjectID("n1"))
        }
        #expect(store.hasChanges)
        #expect(try Self.ids(test.reopened(), "Folder") == [])
        try store.update(ObjectID("n1"), ["title": .string("fixed")])
        try store.save()
        #expect(try Self.ids(test.reopened(), "Folder") == ["f1"])
        #expect(try Self.ids(test.reopened(), "Note") == ["n1"])
    }

    @Test func failedChangeLeavesEarlierChangesPending() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "failchange")
        defer { test.database.drop() }
        let store = test.store
        try store.insert("Folder", id: ObjectID("f1"), ["name": .string("Work")])
        #expect(throws: StoreError.self) { try store.insert("Folder", id: ObjectID("f1"), ["name": .string("Twice")]) }
        #expect(throws: StoreError.self) { try store.insert("Note", ["title": .string("x")], relationships: ["folder": [ObjectID("nope")]]) }
        #expect(throws: StoreError.self) { try store.insert("Nope", [:]) }
        #expect(store.hasChanges)
        try store.save()
        #expect(try Self.ids(test.reopened(), "Folder") == ["f1"])
        #expect(try Self.ids(test.reopened(), "Note") == [])
    }

    @Test func uniquenessIsCheckedAtSave() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "unique")
        defer { test.database.drop() }
        let store = test.store
        try store.insert("Tag", id: ObjectID("t1"), ["label": .string("red")])
        try store.save()
        try store.insert("Tag", id: ObjectID("t2"), ["label": .string("red")])
        do {
            try store.save()
            Issue.record("saved a duplicate label")
        } catch {
            #expect(error.code == .constraintViolation)
            #expect(error.message.contains("t1"))
        }
        try store.update(ObjectID("t2"), ["label": .string("blue")])
        try store.save()
    }

    @Test func deleteRulesAndOrderedRelationships() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "delete")
        defer { test.database.drop() }
        let store = test.store
        try store.insert("Tag", id: ObjectID("t1"), ["label": .string("a")])
        try store.insert("Tag", id: ObjectID("t2"), ["label": .string("b")])
        try store.insert("Folder", id: ObjectID("f1"), ["name": .string("Work")])
        try store.insert("Note", id: ObjectID("n1"), ["title": .string("x")],
                         relationships: ["folder": [ObjectID("f1")], "tags": [ObjectID("t2"), ObjectID("t1")]])
        try store.save()
        let note = try #require(store.object(with: ObjectID("n1")))
        #expect(note.destinationIDs(of: "tags") == [ObjectID("t2"), ObjectID("t1")])
        try store.update(ObjectID("n1"), attributes: [:], relationships: ["tags": [ObjectID("t1"), ObjectID("t2")]])
        #expect(try #require(store.object(with: ObjectID("n1"))).destinationIDs(of: "tags") == [ObjectID("t1"), ObjectID("t2")])
        // Deleting a tag removes it from the note (no inverse).
        try store.delete(ObjectID("t1"))
        #expect(try #require(store.object(with: ObjectID("n1"))).destinationIDs(of: "tags") == [ObjectID("t2")])
        // The folder's delete rule cascades to its notes.
        try store.delete(ObjectID("f1"))
        try store.save()
        let other = try test.reopened()
        #expect(try Self.ids(other, "Note") == [])
        #expect(try Self.ids(other, "Tag") == ["t2"])
    }

    @Test func unitsOfChangesUndoAlone() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "units")
        defer { test.database.drop() }
        let store = test.store
        try store.insert("Folder", id: ObjectID("f1"), ["name": .string("Kept")])
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.performChanges {
                try store.insert("Folder", id: ObjectID("f2"), ["name": .string("Undone")])
                throw Stop()
            }
        }
        #expect(store.hasChanges)
        let inserted = try store.performChanges {
            try store.insert("Folder", id: ObjectID("f3"), ["name": .string("Unit")])
        }
        #expect(inserted == ObjectID("f3"))
        try store.save()
        #expect(try Self.ids(test.reopened(), "Folder") == ["f1", "f3"])
        // A failed unit with nothing pending before leaves nothing pending.
        #expect(throws: Stop.self) {
            try store.performChanges {
                try store.insert("Folder", id: ObjectID("f4"), ["name": .string("Undone")])
                throw Stop()
            }
        }
        #expect(!store.hasChanges)
    }

    /// One writer at a time: a second store's first change waits for the first's lock, and
    /// fails with `locked` after its lock timeout; once the first saves, it goes through.
    @Test func writersQueue() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "writers")
        defer { test.database.drop() }
        let second = try test.reopened()
        second.lockTimeout = .milliseconds(200)
        try test.store.insert("Folder", id: ObjectID("f1"), ["name": .string("First")])
        do {
            try second.insert("Folder", id: ObjectID("f2"), ["name": .string("Second")])
            Issue.record("the second writer did not wait")
        } catch {
            #expect(error.code == .locked)
        }
        #expect(!second.hasChanges)
        // Readers are not blocked.
        #expect(try second.count(FetchRequest(entityName: "Folder")) == 0)
        try test.store.save()
        try second.insert("Folder", id: ObjectID("f2"), ["name": .string("Second")])
        try second.save()
        #expect(try Self.ids(test.reopened(), "Folder") == ["f1", "f2"])
    }

    /// An interrupt that comes when no fetch runs does not spoil the next one; interrupts that
    /// come while a fetch runs stop it with `interrupted` (the evaluator checks at every row).
    @Test func interrupts() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "interrupt")
        defer { test.database.drop() }
        let store = test.store
        try store.performChanges {
            for n in 0..<3000 { try store.insert("Folder", id: ObjectID("f\(n)"), ["name": .string("\(n)")]) }
        }
        try store.save()
        store.interrupt()
        #expect(try store.count(FetchRequest(entityName: "Folder")) == 3000)
        // (A possessive quantifier: a pattern the server's regular expressions cannot say, so the
        // predicate is the evaluator's, row by row.)
        let slow = try FetchRequest(entityName: "Folder", predicate: "notes.@count == 0 AND name MATCHES '[0-9]++'")
        #expect(try store.generatedSQL(for: slow).inMemoryPredicate != nil)
        let done = Atomic<Bool>(false)
        let interrupter = Thread {
            while !done.load(ordering: .relaxed) {
                store.interrupt()
            }
        }
        interrupter.start()
        var code: StoreError.Code?
        do {
            _ = try store.count(slow)
        } catch let error as StoreError {
            code = error.code
        }
        done.store(true, ordering: .relaxed)
        #expect(code == .interrupted)
        usleep(20_000)
        #expect(try store.count(slow) == 3000)
    }

    @Test func importGoesThroughSlots() async throws {
        let test = try await StoreTestDatabase.make(StoreTestModels.notes, label: "import")
        defer { test.database.drop() }
        let json = #"{"Folder": [{"@id": "f1", "name": "Work"}], "Note": [{"@id": "n1", "title": "x", "folder": "f1"}]}"#
        try StoreImporter.importJSON(Data(json.utf8), into: test.store)
        #expect(!test.store.hasChanges)
        let other = try test.reopened()
        #expect(try Self.ids(other, "Note WHERE folder.name == 'Work'") == ["n1"])
    }
}
