import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Synchronization
import Testing

/// How changes reach a SQLite store: as the rows they touch, in one transaction per save, with
/// what a failed save, a full disk and a second writer do to the file.
@Suite struct SQLiteChangesTests {
    static func temporaryURL(_ name: String = "library.sqlite") throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-changes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name)
    }

    static func removeDirectory(of url: URL) { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }

    /// A library store file with `books` books (by two authors, tagged), saved and closed.
    static func library(at url: URL, books: Int) throws {
        let store = try SQLiteStore.create(at: url, model: try SQLTestModel.model())
        try store.performChanges {
            try store.insert("Author", id: "a1", ["name": .string("Le Guin")])
            try store.insert("Author", id: "a2", ["name": .string("Banks")])
            try store.insert("Tag", id: "t1", ["name": .string("sci-fi")])
            try store.insert("Tag", id: "t2", ["name": .string("classic")])
            for n in 1...books {
                try store.insert("Book", id: ObjectID("b\(n)"), ["title": .string("Book \(n)"), "year": .int(Int64(1900 + n % 100))],
                                 relationships: ["author": [n % 2 == 0 ? "a1" : "a2"], "tags": n % 3 == 0 ? ["t1", "t2"] : ["t1"]])
            }
        }
        try store.save()
    }

    /// Every statement a store runs while `body` does.
    static func traced(_ store: SQLiteStore, _ body: () throws -> Void) rethrows -> [String] {
        let statements = Mutex<[String]>([])
        store.database.setTrace { sql in statements.withLock { $0.append(sql) } }
        defer { store.database.setTrace(nil) }
        try body()
        return statements.withLock { $0 }
    }

    static func title(_ store: SQLiteStore, _ id: ObjectID) -> String? {
        guard case .string(let title)? = store.object(with: id)?[attribute: "title"] else { return nil }
        return title
    }

    /// The file's bytes, once every connection is closed (the WAL is checkpointed then).
    static func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    // MARK: Changes cost what they change

    @Test func aChangeReadsAndWritesOnlyTheRowsItTouches() throws {
        var statementCounts: [Int] = []
        for books in [50, 3_000] {
            let url = try Self.temporaryURL()
            defer { Self.removeDirectory(of: url) }
            try Self.library(at: url, books: books)
            let store = try SQLiteStore.open(at: url)
            let statements = try Self.traced(store) {
                try store.insert("Book", id: "new", ["title": .string("New")], relationships: ["author": ["a1"], "tags": ["t2"]])
                try store.update("b7", attributes: ["year": .int(2001)], relationships: ["tags": ["t2"]])
                try store.delete("b8")
                try store.save()
            }
            statementCounts.append(statements.count)
            // No statement reads a whole table: every one finds its rows through a key or an index.
            for sql in Set(statements) where !sql.hasPrefix("BEGIN") && !sql.hasPrefix("COMMIT") && !sql.hasPrefix("SAVEPOINT") && !sql.hasPrefix("RELEASE") {
                let plan = try store.database.explainQueryPlan(sql)
                #expect(!plan.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("SCAN") }, "\(sql)\n\(plan.joined(separator: "\n"))")
            }
            #expect(try store.count(FetchRequest(entityName: "Book")) == books)
            #expect(store.object(with: "new")?.relationshipIDs.first { $0.name == "tags" }?.ids == ["t2"])
        }
        // The same change costs the same statements in a store sixty times larger.
        #expect(statementCounts[0] == statementCounts[1], "\(statementCounts)")
    }

    // MARK: Transactions

    @Test func changesArePendingInOneTransactionUntilSaved() throws {
        let url = try Self.temporaryURL()
        defer { Self.removeDirectory(of: url) }
        try Self.library(at: url, books: 5)
        let store = try SQLiteStore.open(at: url)
        let reader = try SQLiteStore.open(at: url)
        try store.insert("Book", id: "new", ["title": .string("New")])
        try store.update("b1", ["title": .string("Changed")])
        // Fetches inside the transaction see its changes; another connection sees the last commit.
        #expect(try store.count(FetchRequest(statement: "Book WHERE title IN {'New', 'Changed'}")) == 2)
        #expect(try reader.count(FetchRequest(statement: "Book WHERE title IN {'New', 'Changed'}")) == 0)
        #expect(store.database.isInTransaction)
        try store.save()
        #expect(!store.database.isInTransaction)
        #expect(try reader.count(FetchRequest(statement: "Book WHERE title IN {'New', 'Changed'}")) == 2)
        // Rollback forgets.
        try store.delete("b2")
        store.rollback()
        #expect(!store.hasChanges)
        #expect(store.object(with: "b2") != nil)
        #expect(!store.database.isInTransaction)
    }

    @Test func aChangeThatFailsLeavesNoTransactionOpenAndEarlierChangesPending() throws {
        let store = try SQLTestModel.store()
        // The first change fails its checks: no write lock is kept for nothing.
        #expect(throws: StoreError.self) { try store.update("b1", ["year": .string("soon")]) }
        #expect(!store.hasChanges)
        #expect(!store.database.isInTransaction)
        // A change that fails half-way (its destination ID is unknown) leaves nothing of itself.
        try store.update("b2", ["title": .string("Kept")])
        let error = #expect(throws: StoreError.self) {
            try store.insert("Book", id: "b9", ["title": .string("Half")], relationships: ["author": ["a1"], "tags": ["t1", "nope"]])
        }
        #expect(error?.code == .unknownObject)
        #expect(store.object(with: "b9") == nil)
        #expect(Self.title(store, "b2") == "Kept")
        #expect(store.hasChanges)
        try store.save()
    }

    @Test func aFailedSaveLeavesTheFileByteForByteAsItWas() throws {
        let url = try Self.temporaryURL()
        defer { Self.removeDirectory(of: url) }
        try Self.library(at: url, books: 20)
        let before = try Self.bytes(url)
        do {
            let store = try SQLiteStore.open(at: url)
            try store.insert("Book", id: "n1", ["title": .string("Kept pending")])
            try store.update("b3", ["title": .null])  // required
            let error = #expect(throws: StoreError.self) { try store.save() }
            #expect(error?.code == .missingValue)
            #expect(error?.objectID == "b3")
            // The changes are still pending, and visible to the store itself.
            #expect(store.hasChanges)
            #expect(store.object(with: "n1") != nil)
            // Another connection sees nothing of them.
            #expect(try SQLiteStore.open(at: url).object(with: "n1") == nil)
        }
        #expect(try Self.bytes(url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        // The same changes, made valid, save.
        let store = try SQLiteStore.open(at: url)
        try store.insert("Book", id: "n1", ["title": .string("Saved")])
        try store.save()
        #expect(try SQLiteStore.open(at: url).object(with: "n1") != nil)
    }

    @Test func aFullDiskFailsTheChangeNotTheEarlierOnes() throws {
        let url = try Self.temporaryURL()
        defer { Self.removeDirectory(of: url) }
        try Self.library(at: url, books: 20)
        let before = try Self.bytes(url)
        do {
            let store = try SQLiteStore.open(at: url)
            try store.update("b1", ["title": .string("Pending")])
            // The database may not grow: a large insert fails as on a full disk.
            guard case .integer(let pages) = try store.database.scalar("PRAGMA page_count") else { Issue.record("no page count"); return }
            try store.database.execute("PRAGMA max_page_count = \(pages)")
            let error = #expect(throws: StoreError.self) {
                try store.insert("Book", id: "big", ["title": .string(String(repeating: "x", count: 200_000))])
            }
            #expect(error?.code == .database)
            #expect(error?.message.contains("full") == true, "\(error?.message ?? "")")
            #expect(store.object(with: "big") == nil)
            // SQLite rolled the whole transaction back; the store made the earlier change again.
            #expect(Self.title(store, "b1") == "Pending")
            #expect(store.hasChanges)
            store.rollback()
        }
        #expect(try Self.bytes(url) == before)
        // Once there is room again, the pending changes save.
        let store = try SQLiteStore.open(at: url)
        try store.update("b1", ["title": .string("Pending")])
        try store.database.execute("PRAGMA max_page_count = 1")
        #expect(throws: StoreError.self) { try store.insert("Book", id: "big", ["title": .string(String(repeating: "x", count: 200_000))]) }
        try store.database.execute("PRAGMA max_page_count = 1073741823")
        try store.save()
        #expect(Self.title(try SQLiteStore.open(at: url), "b1") == "Pending")
    }

    @Test func aSecondWriterWaitsThenGetsAClearError() throws {
        let url = try Self.temporaryURL()
        defer { Self.removeDirectory(of: url) }
        try Self.library(at: url, books: 3)
        let first = try SQLiteStore.open(at: url)
        let second = try SQLiteStore.open(at: url)
        second.busyTimeout = .milliseconds(50)
        try first.insert("Tag", id: "t3", ["name": .string("first")])
        let error = #expect(throws: StoreError.self) { try second.insert("Tag", id: "t4", ["name": .string("second")]) }
        #expect(error?.code == .locked)
        #expect(error?.message.contains("library.sqlite is locked by another connection") == true, "\(error?.message ?? "")")
        #expect(!second.hasChanges)
        // Reading is never blocked by the writer.
        #expect(try second.count(FetchRequest(entityName: "Tag")) == 2)
        try first.save()
        // Once the first has saved, the second writes, and both changes are kept.
        try second.insert("Tag", id: "t4", ["name": .string("second")])
        try second.save()
        #expect(try SQLiteStore.open(at: url).count(FetchRequest(entityName: "Tag")) == 4)
    }

    @Test func aWriterWaitingWithinTheBusyTimeoutSucceeds() throws {
        let url = try Self.temporaryURL()
        defer { Self.removeDirectory(of: url) }
        try Self.library(at: url, books: 3)
        let first = try SQLiteStore.open(at: url)
        try first.insert("Tag", id: "t3", ["name": .string("first")])
        // A thread of its own (not the test's task pool, which the waiting writer blocks) saves
        // the first change a moment later.
        let saved = DispatchSemaphore(value: 0)
        let failure = Mutex<StoreError?>(nil)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.2)
            do throws(StoreError) { try first.save() } catch { failure.withLock { $0 = error } }
            saved.signal()
        }
        let second = try SQLiteStore.open(at: url)
        second.busyTimeout = .seconds(30)
        try second.insert("Tag", id: "t4", ["name": .string("second")])  // waits for the first to save
        try second.save()
        saved.wait()
        #expect(failure.withLock { $0 } == nil)
        #expect(try SQLiteStore.open(at: url).count(FetchRequest(entityName: "Tag")) == 4)
    }

    // MARK: Keys and IDs

    @Test func keysContinueAfterTheLargestAndGeneratedIDsAreFree() throws {
        let store = try SQLTestModel.store()
        try store.insert("Book", id: "o9", ["title": .string("Taken name")])
        let generated = try store.insert("Book", ["title": .string("Generated")])
        #expect(generated != "o9")
        #expect(store.object(with: generated) != nil)
        // Insertion order is kept across tables: the new books come last.
        let titles = try store.fetch(FetchRequest(entityName: "Book")).map { Self.title(store, $0.objectID) }
        #expect(titles.suffix(2) == ["Taken name", "Generated"])
        try store.save()
    }
}
