import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore
#if canImport(Glibc)
import Glibc
#endif

/// Many writers, one atomic store file (docs/STORES.md): the write lock beside the store, the
/// generation a store remembers (a save over another process's save is refused, nothing of it
/// lost), the lock's timeout, and temporary files (a failed save removes its own; a killed
/// writer's are removed at the next writing open, a live process's never).
@Suite struct StoreLockingTests {
    static let fileKinds = StoreFileTests.fileKinds

    /// A new store of `kind` in a fresh directory, holding the Notes model and no objects.
    static func newStore(_ kind: AtomicStore.Kind) throws -> (directory: URL, url: URL) {
        let directory = try temporaryDirectory()
        let url = StoreFileTests.url(in: directory, kind, name: "notes")
        _ = try AtomicStore.create(at: url, model: try NotesFixture.model())
        return (directory, url)
    }

    static func tagIDs(_ url: URL) throws -> [String] {
        try AtomicStore.open(at: url).fetch(FetchRequest(entityName: "Tag")).map(\.objectID.rawValue).sorted()
    }

    // MARK: The generation

    @Test(arguments: fileKinds)
    func aStoreWhoseFileAnotherStoreSavedRefusesToSaveOverIt(_ kind: AtomicStore.Kind) throws {
        let (directory, url) = try Self.newStore(kind)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try AtomicStore.open(at: url)
        let second = try AtomicStore.open(at: url)
        try first.insert("Tag", id: "A1", ["name": .string("first's")])
        try first.save()
        let saved = try Data(contentsOf: url)

        try second.insert("Tag", id: "B1", ["name": .string("second's")])
        let error = #expect(throws: StoreError.self) { try second.save() }
        #expect(error?.code == .conflict)
        #expect(error?.message == "\(url.path) changed since it was opened (another process saved it); open it again and redo the changes")
        // Nothing of the first's objects is lost; the second's changes stay pending.
        #expect(try Data(contentsOf: url) == saved)
        #expect(try Self.tagIDs(url) == ["A1"])
        #expect(second.hasChanges)
        #expect(try second.count(FetchRequest(entityName: "Tag")) == 1)

        // With its changes pending it cannot take the lock either; rolled back, it reads the
        // file again under the lock and its change lands beside the first's.
        #expect(throws: StoreError.self) { try second.lockForWriting() }
        #expect(!second.holdsWriteLock)
        second.rollback()
        try second.withWriteLock {
            #expect(try second.count(FetchRequest(entityName: "Tag")) == 1, "read again: the first's tag is there")
            try second.insert("Tag", id: "B1", ["name": .string("second's")])
            try second.save()
        }
        #expect(try Self.tagIDs(url) == ["A1", "B1"])
        // And the first, now stale in turn, refuses too.
        try first.insert("Tag", id: "A2", ["name": .string("first's again")])
        #expect(throws: StoreError.self) { try first.save() }
        #expect(try Self.tagIDs(url) == ["A1", "B1"])
    }

    @Test(arguments: fileKinds)
    func backToBackSavesAreTellApartWithoutTimestamps(_ kind: AtomicStore.Kind) throws {
        // Saves within one clock tick, of files of one size: the held-open inode tells them apart.
        let (directory, url) = try Self.newStore(kind)
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try AtomicStore.open(at: url)
        for round in 0..<50 {
            let stale = try AtomicStore.open(at: url)
            try writer.insert("Tag", id: ObjectID("W\(round)"), ["name": .string("w")])
            try writer.save()
            try stale.insert("Tag", id: ObjectID("S\(round)"), ["name": .string("s")])
            #expect(throws: StoreError.self, "round \(round)") { try stale.save() }
        }
        #expect(try Self.tagIDs(url).count == 50)
    }

    @Test(arguments: fileKinds)
    func aSaveWithNothingPendingWritesNothing(_ kind: AtomicStore.Kind) throws {
        let (directory, url) = try Self.newStore(kind)
        defer { try? FileManager.default.removeItem(at: directory) }
        let stale = try AtomicStore.open(at: url)
        let writer = try AtomicStore.open(at: url)
        try writer.insert("Tag", id: "A1", ["name": .string("a")])
        try writer.save()
        try stale.save()
        #expect(try Self.tagIDs(url) == ["A1"])
    }

    // MARK: The lock

    @Test(arguments: fileKinds)
    func aStoreOpenedForWritingMakesOtherWritersWaitAndTimeOut(_ kind: AtomicStore.Kind) throws {
        let (directory, url) = try Self.newStore(kind)
        defer { try? FileManager.default.removeItem(at: directory) }
        let holder = try AtomicStore.openForWriting(at: url)
        #expect(holder.holdsWriteLock)
        // The lock is on the store file itself; no lock file is made beside it.
        #expect(Self.isLocked(url))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [url.lastPathComponent])

        // Readers are not blocked.
        let reader = try AtomicStore.open(at: url)
        #expect(try reader.count(FetchRequest(entityName: "Tag")) == 0)
        // Writers wait, then fail with a locked error naming the store.
        reader.lockTimeout = .milliseconds(100)
        try reader.insert("Tag", id: "R1", ["name": .string("r")])
        let saving = #expect(throws: StoreError.self) { try reader.save() }
        #expect(saving?.code == .locked)
        #expect(saving?.message == "\(url.lastPathComponent) is locked by another process or store writing to it (waited 100 ms); try again once it has saved")
        reader.rollback()
        let opening = #expect(throws: StoreError.self) { try AtomicStore.openForWriting(at: url, lockTimeout: .milliseconds(50)) }
        #expect(opening?.code == .locked)

        // A writer waiting when the holder saves and lets go goes on, from the holder's objects.
        try holder.insert("Tag", id: "H1", ["name": .string("holder's")])
        let waiter = Thread {
            Thread.sleep(forTimeInterval: 0.2)
            try? holder.save()
            holder.unlockForWriting()
        }
        waiter.start()
        let next = try AtomicStore.openForWriting(at: url, lockTimeout: .seconds(10))
        #expect(try next.count(FetchRequest(entityName: "Tag")) == 1)
        #expect(!holder.holdsWriteLock)
        try next.insert("Tag", id: "N1", ["name": .string("next's")])
        try next.save()
        next.unlockForWriting()
        #expect(try Self.tagIDs(url) == ["H1", "N1"])
    }

    /// Whether another open file description of the store file cannot take `flock`'s exclusive
    /// lock on it now (what a writer in another process would find).
    static func isLocked(_ url: URL) -> Bool {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return true }
        flock(fd, LOCK_UN)
        return false
    }

    @Test(arguments: fileKinds)
    func theLockMovesToTheFileASaveRenamesIntoPlace(_ kind: AtomicStore.Kind) throws {
        // A save replaces the store file: the holder locks the new file before the rename, so
        // it still holds the lock on what the path names, and a writer that waited on the old
        // file (or opens the new one) goes on only when the holder lets go.
        let (directory, url) = try Self.newStore(kind)
        defer { try? FileManager.default.removeItem(at: directory) }
        let holder = try AtomicStore.openForWriting(at: url)
        let before = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int
        try holder.insert("Tag", id: "H1", ["name": .string("first")])
        try holder.save()
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int != before, "a save writes a new file")
        #expect(Self.isLocked(url), "the new file is locked before anyone can open it")

        let waiterSaw = Failures()
        let waiter = Thread {
            do {
                let next = try AtomicStore.openForWriting(at: url, lockTimeout: .seconds(20))
                waiterSaw.add("\(try next.count(FetchRequest(entityName: "Tag")))")
                try next.insert("Tag", id: "W1", ["name": .string("waiter's")])
                try next.save()
                next.unlockForWriting()
                waiterSaw.add("done")
            } catch {
                waiterSaw.add("\(error)")
            }
        }
        waiter.start()
        Thread.sleep(forTimeInterval: 0.2)
        try holder.insert("Tag", id: "H2", ["name": .string("second")])
        try holder.save()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(waiterSaw.all == [], "the waiter waits while the holder holds the lock across its saves")
        holder.unlockForWriting()
        let deadline = Date().addingTimeInterval(20)
        while waiterSaw.all.isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(waiterSaw.all.first == "2", "the waiter read the holder's two saves")
        while waiterSaw.all.count < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(waiterSaw.all == ["2", "done"])
        #expect(try Self.tagIDs(url) == ["H1", "H2", "W1"])
        #expect(!Self.isLocked(url))
    }

    @Test(arguments: fileKinds)
    func writersOnManyThreadsLoseNothing(_ kind: AtomicStore.Kind) throws {
        // Each thread opens its own store (as processes do) under the lock, inserts and saves.
        let (directory, url) = try Self.newStore(kind)
        defer { try? FileManager.default.removeItem(at: directory) }
        let writers = 8, perWriter = 5
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            do {
                for round in 0..<perWriter {
                    let store = try AtomicStore.openForWriting(at: url, lockTimeout: .seconds(30))
                    try store.insert("Tag", id: ObjectID("W\(writer)-\(round)"), ["name": .string("w")])
                    try store.save()
                    store.unlockForWriting()
                }
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all == [])
        #expect(try Self.tagIDs(url).count == writers * perWriter)
    }

    @Test(arguments: fileKinds)
    func withoutTheLockConcurrentWritersLoseUpdates(_ kind: AtomicStore.Kind) throws {
        // What the lock prevents: stores that read, change and save without it each write the
        // file as they read it. The generation turns the lost update into a refused save.
        let (directory, url) = try Self.newStore(kind)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try AtomicStore.open(at: url), second = try AtomicStore.open(at: url)
        try first.insert("Tag", id: "A", ["name": .string("a")])
        try second.insert("Tag", id: "B", ["name": .string("b")])
        try first.save()
        #expect(throws: StoreError.self) { try second.save() }
        #expect(try Self.tagIDs(url) == ["A"])
    }

    @Test func openingToReadNeitherLocksNorWrites() throws {
        let (directory, url) = try Self.newStore(.json)
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try Data(contentsOf: url)
        let store = try AtomicStore.open(at: url)
        _ = try store.fetch(FetchRequest(entityName: "Note")).count
        try store.save()
        #expect(!FileManager.default.fileExists(atPath: url.path + ".lock"))
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [url.lastPathComponent])
    }

    @Test func openingForWritingCreatesAMissingStoreOnlyWithAModel() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("new.json")
        let missing = #expect(throws: StoreError.self) { try AtomicStore.openForWriting(at: url) }
        #expect(missing?.code == .fileSystem)
        #expect(missing?.message.contains(url.path) == true)
        let created = try AtomicStore.openForWriting(at: url, creatingWith: try NotesFixture.model())
        try created.insert("Tag", id: "T", ["name": .string("t")])
        try created.save()
        created.unlockForWriting()
        // A second "create" opens what is there.
        let again = try AtomicStore.openForWriting(at: url, creatingWith: try NotesFixture.model())
        #expect(try again.count(FetchRequest(entityName: "Tag")) == 1)
    }

    // MARK: Temporary files

    @Test(arguments: fileKinds)
    func aSaveThatFailsMidwayRemovesItsTemporaryFile(_ kind: AtomicStore.Kind) throws {
        let (directory, url) = try Self.newStore(kind)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try AtomicStore.open(at: url)
        let before = try Data(contentsOf: url)
        try store.insert("Tag", id: "T", ["name": .string("t")])
        AtomicFileWriter.failSaves(to: url.path)
        let error = #expect(throws: StoreError.self) { try store.save() }
        AtomicFileWriter.stopFailingSaves(to: url.path)
        #expect(error?.code == .fileSystem)
        #expect(error?.message.contains(".\(url.lastPathComponent).") == true, "names the temporary file: \(error?.message ?? "")")
        #expect(try Data(contentsOf: url) == before)
        #expect(try StoreFileTests.leftovers(in: directory, besides: url) == [])
        #expect(store.hasChanges)
        // The lock was released: the next save goes through.
        try store.save()
        #expect(try Self.tagIDs(url) == ["T"])
    }

    @Test(arguments: fileKinds)
    func aKilledWritersTemporaryFilesAreRemovedAtTheNextWritingOpen(_ kind: AtomicStore.Kind) throws {
        let (directory, url) = try Self.newStore(kind)
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = url.lastPathComponent
        let dead = try Self.deadProcessID()
        let stale = ".\(name).\(dead).00112233445566ff.tmp"
        let live = ".\(name).1.8899aabbccddeeff.tmp"                 // pid 1 is always running
        let legacy = ".\(name).\(UUID().uuidString).tmp"             // an older Sift's: owner unknown
        let otherStore = ".other.json.\(dead).00112233445566ff.tmp"  // another store's
        for file in [stale, live, legacy, otherStore] {
            try Data("partial".utf8).write(to: directory.appendingPathComponent(file))
        }
        #expect(AtomicFileWriter.temporaryFileOwner(stale, of: name) == dead)
        #expect(AtomicFileWriter.temporaryFileOwner(legacy, of: name) == nil)
        #expect(AtomicFileWriter.temporaryFileOwner(AtomicFileWriter.temporaryName(for: name), of: name) == getpid())

        // Opening to read touches nothing.
        _ = try AtomicStore.open(at: url)
        #expect(try StoreFileTests.leftovers(in: directory, besides: url) == [stale, live, legacy, otherStore].sorted())
        // Opening to write removes the dead process's file only.
        let store = try AtomicStore.openForWriting(at: url)
        #expect(try StoreFileTests.leftovers(in: directory, besides: url) == [live, legacy, otherStore].sorted())
        store.unlockForWriting()

        // A store opened to read cleans up when its save takes the lock.
        try Data("partial".utf8).write(to: directory.appendingPathComponent(stale))
        let reader = try AtomicStore.open(at: url)
        try reader.insert("Tag", id: "T", ["name": .string("t")])
        try reader.save()
        #expect(try StoreFileTests.leftovers(in: directory, besides: url) == [live, legacy, otherStore].sorted())
    }

    /// The pid of a process that has ended (and been reaped).
    static func deadProcessID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        let pid = process.processIdentifier
        #expect(!AtomicFileWriter.isRunning(pid))
        return pid
    }
}

/// Errors collected from many threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    func add(_ message: String) {
        lock.lock(); defer { lock.unlock() }
        messages.append(message)
    }

    var all: [String] {
        lock.lock(); defer { lock.unlock() }
        return messages
    }
}
