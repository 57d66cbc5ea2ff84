import Foundation
import SiftLanguage

/// What one save committed to a store (Core Data's `NSManagedObjectContextDidSave` user info):
/// the objects inserted, updated (with the keys whose values changed) and deleted — or, where
/// the store cannot say, that something changed.
public struct StoreChanges: Sendable {
    public var inserted: Set<ObjectID>
    /// Each updated object's changed attribute and relationship names.
    public var updated: [ObjectID: Set<String>]
    public var deleted: Set<ObjectID>
    /// False when the store cannot say what changed (the sets may be incomplete): an observer
    /// reads everything it shows again.
    public var isComplete: Bool

    public init(inserted: Set<ObjectID> = [], updated: [ObjectID: Set<String>] = [:], deleted: Set<ObjectID> = [], isComplete: Bool = true) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.isComplete = isComplete
    }

    /// Something changed, the store cannot say what.
    public static let unknown = StoreChanges(isComplete: false)

    /// Whether the save changed nothing.
    public var isEmpty: Bool { isComplete && inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// A store that reports each save's changes to its observers (the atomic stores; a store of
/// your own adopts it by posting to ``changeCenter`` after each save).
public protocol ChangeReportingStore: PersistentStore {
    /// Where the store posts the changes of each save, once it is written.
    var changeCenter: StoreChangeCenter { get }
}

/// A store other connections or processes may change: it tells of their commits (the SQLite
/// store through `PRAGMA data_version`, the JSON and plist stores through their file's
/// generation, both checked when inotify reports a write; the PostgreSQL store through
/// `LISTEN`/`NOTIFY` from triggers it installs, or by polling).
public protocol ExternalChangeObservingStore: ChangeReportingStore {
    /// Calls `handler`, on a thread of its own, with what each commit by another connection or
    /// process changed (``StoreChanges/unknown`` where the store cannot say), until the
    /// observation is cancelled or freed.
    func observeExternalChanges(_ handler: @escaping @Sendable (StoreChanges) -> Void) throws(StoreError) -> StoreChangeObservation

    /// Runs `body` (fetches, and reading their IDs) on one state of the store, which other
    /// processes' commits do not change half-way (SQLite: one read transaction).
    func readingOneState<T>(_ body: () throws -> T) throws -> T
}

extension ExternalChangeObservingStore {
    /// Runs `body`: a store whose fetches read one state already needs nothing more.
    public func readingOneState<T>(_ body: () throws -> T) throws -> T { try body() }
}

/// The observers of one store's saves. A store posts after its save is written and its locks
/// are released, on the saving thread; observers are called in the order they were added.
public final class StoreChangeCenter: @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [(token: UInt64, handler: @Sendable (StoreChanges) -> Void)] = []
    private var nextToken: UInt64 = 0

    public init() {}

    /// Whether anyone observes (a store computes what changed only then).
    public var hasObservers: Bool {
        lock.lock(); defer { lock.unlock() }
        return !observers.isEmpty
    }

    /// Calls `handler` with each save's changes until the observation is cancelled or freed.
    public func observe(_ handler: @escaping @Sendable (StoreChanges) -> Void) -> StoreChangeObservation {
        lock.lock(); defer { lock.unlock() }
        nextToken += 1
        let token = nextToken
        observers.append((token, handler))
        return StoreChangeObservation { [weak self] in self?.remove(token) }
    }

    /// Tells every observer (the store calls it after a save).
    public func post(_ changes: StoreChanges) {
        lock.lock()
        let handlers = observers.map(\.handler)
        lock.unlock()
        for handler in handlers { handler(changes) }
    }

    private func remove(_ token: UInt64) {
        lock.lock(); defer { lock.unlock() }
        observers.removeAll { $0.token == token }
    }
}

/// An observation of a store's saves: ends when cancelled or freed.
public final class StoreChangeObservation: @unchecked Sendable {
    private let lock = NSLock()
    private var end: (@Sendable () -> Void)?

    /// An observation that calls `end` when cancelled or freed (once).
    public init(end: @escaping @Sendable () -> Void) { self.end = end }

    /// Stops the observation (again: nothing).
    public func cancel() {
        lock.lock()
        let end = self.end
        self.end = nil
        lock.unlock()
        end?()
    }

    deinit { cancel() }
}
