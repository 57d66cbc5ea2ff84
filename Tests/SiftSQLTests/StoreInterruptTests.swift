import ChinookSupport
import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Synchronization
import Testing

/// `interrupt()` on both kinds of store: a fetch under way throws `StoreError.interrupted`
/// (SQLite's `sqlite3_interrupt`; the atomic stores' check between objects), the store goes on
/// working, and an interrupt with nothing running has no effect on the next fetch.
@Suite struct StoreInterruptTests {
    enum Kind: String, CaseIterable, Sendable {
        case sqlite, atomic
    }

    static let rows = 20_000
    /// About 80 µs a row: a second and a half for the whole store, unless interrupted.
    static let slowFetch = "Item WHERE name MATCHES '(.*[aeiou]){5}(X|Y)'"

    static func store(_ kind: Kind) throws -> any PersistentStore {
        let model = try JSONModelFormat.read(Data(#"{"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}]}]}"#.utf8))
        let store: any PersistentStore = switch kind {
        case .sqlite: try SQLiteStore.inMemory(model: model)
        case .atomic: AtomicStore.inMemory(model: model)
        }
        for n in 0..<rows { try store.insert("Item", ["name": .string("item number \(n) lorem ipsum dolor sit amet consectetur")]) }
        try store.save()
        return store
    }

    static func interrupt(_ store: any PersistentStore) {
        switch store {
        case let store as SQLiteStore: store.interrupt()
        case let store as AtomicStore: store.interrupt()
        default: Issue.record("no interrupt for \(type(of: store))")
        }
    }

    @Test(arguments: Kind.allCases)
    func interruptStopsTheFetchUnderWay(_ kind: Kind) throws {
        let store = try Self.store(kind)
        nonisolated(unsafe) let interrupted = store
        let finished = Atomic<Bool>(false)
        let stopped = DispatchSemaphore(value: 0)
        // Interrupts until the fetches have ended (one may not have started at the first).
        let interrupter = Thread {
            while !finished.load(ordering: .relaxed) {
                usleep(20_000)
                Self.interrupt(interrupted)
            }
            stopped.signal()
        }
        interrupter.start()
        let started = ContinuousClock.now
        #expect(throws: StoreError.interrupted) {
            try store.count(FetchRequest(statement: Self.slowFetch))
        }
        let sorted = try FetchRequest(statement: Self.slowFetch + " SORT BY name")
        switch kind {
        case .atomic:
            #expect(throws: StoreError.interrupted) { try store.fetch(sorted) }
        case .sqlite:
            // SQLite runs the query as the objects are read, and iteration cannot throw: it ends
            // early, with the objects read so far (none here).
            #expect(try store.fetch(sorted).map(\.objectID).isEmpty)
        }
        finished.store(true, ordering: .relaxed)
        stopped.wait()
        #expect(ContinuousClock.now - started < .seconds(1))
        // The store goes on working.
        #expect(try store.count(FetchRequest(statement: "Item WHERE name ENDSWITH 'consectetur'")) == Self.rows)
    }

    @Test(arguments: Kind.allCases)
    func anInterruptWithNothingRunningIsForgotten(_ kind: Kind) throws {
        let store = try Self.store(kind)
        Self.interrupt(store)
        #expect(try store.count(FetchRequest(statement: "Item WHERE name BEGINSWITH 'item number 1'")) == 11_111)
        #expect(try store.fetch(FetchRequest(statement: "Item WHERE name MATCHES 'item number 9999 .*'")).count == 1)
    }

    @Test func anInterruptedErrorIsAStoreError() {
        #expect(StoreError.interrupted.code == .interrupted)
        #expect(StoreError.interrupted.message == "interrupted")
    }

    /// An interrupt while the evaluator reads a relationship (one query per object, as a key
    /// path the SQL cannot hold does) is `interrupted`, never SQLite's error with its SQL.
    @Test func anInterruptWhileReadingARelationshipIsInterrupted() throws {
        let url = try ChinookDatabase.makeTemporary()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = try SQLiteStore.open(at: url)
        // (Naming Artist has its table's column types read now, not when the relationship is.)
        let albums = Array(try store.fetch(FetchRequest(statement: "Album WHERE AlbumId <= 3 AND Artist.Name != nil")))
        var caught: (any Error)?
        do {
            // A statement is under way while the rows are read: an interrupt stops it and any
            // statement that starts before it ends (the relationship's read).
            try store.forEachRow(FetchRequest(statement: "Track")) { _ in
                store.interrupt()
                _ = try albums[0].value(forKey: "Artist")
            }
        } catch {
            caught = error
        }
        let error = try #require(caught as? EvaluationError, "\(String(describing: caught))")
        #expect(error.code == .interrupted)
        #expect(error.message == "interrupted")
        #expect(SQLiteStore.translated(error, file: nil) as? StoreError == StoreError.interrupted)
        // Nothing runs now: the relationship reads as it should.
        guard case .object(let artist as ManagedObject) = try albums[1].value(forKey: "Artist") else {
            Issue.record("no artist")
            return
        }
        #expect(artist.entityName == "Artist")
    }

    /// A part of the predicate SQL cannot say runs in the evaluator on SQL's rows, with no SQLite
    /// statement under way for `sqlite3_interrupt` to stop: `interrupt()` stops it at its next
    /// row. (Six steps and a needle read from the row: many seconds of the evaluator's work.)
    @Test func interruptStopsTheEvaluatorOnSQLsRows() throws {
        let url = try ChinookDatabase.makeTemporary()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let store = try SQLiteStore.open(at: url)
        let path = "playlisttracks.Playlist.playlisttracks.Track.invoicelines.Invoice.BillingCountry"
        let slow = try FetchRequest(statement: "COUNT Track WHERE ANY \(path) BEGINSWITH[n] uppercase:(Name)")
        #expect(try store.generatedSQL(for: slow).inMemoryPredicate != nil)
        let interrupted = store
        let finished = Atomic<Bool>(false)
        let stopped = DispatchSemaphore(value: 0)
        let interrupter = Thread {
            while !finished.load(ordering: .relaxed) {
                usleep(50_000)
                interrupted.interrupt()
            }
            stopped.signal()
        }
        interrupter.start()
        let started = ContinuousClock.now
        #expect(throws: StoreError.interrupted) { try store.count(slow) }
        finished.store(true, ordering: .relaxed)
        stopped.wait()
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(try store.count(FetchRequest(statement: "COUNT Track WHERE TrackId <= 10")) == 10)
    }
}
