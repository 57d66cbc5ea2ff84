import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftStore

/// What a SQL store gives the objects it fetched so they can read their relationships
/// (``SQLObjectStorage``): its lock, its layout, a generation that changes whenever the rows may
/// change under fetched objects, and the destinations of one row's relationship, read now.
/// The SQLite and PostgreSQL stores adopt it.
package protocol SQLObjectReadingStore: AnyObject, Sendable {
    /// The store's lock (recursive: a relationship read holds it while the store reads).
    var lock: NSRecursiveLock { get }
    /// Changes whenever the rows may change under fetched objects (a change, a rollback).
    var generation: UInt64 { get }
    /// The store's layout.
    var schema: SQLSchema { get }
    /// The destinations of a relationship of the row with `key`, in order, read now.
    func destinations(of relationship: RelationshipDescription, from table: EntityTable, key: Int64) throws -> [ManagedObject]
}

/// Fetched objects' link back to a SQL store, one per entity of a fetch: relationships are read
/// when asked (``RelationshipReadingStorage``), for the row whose key the object carries.
///
/// Relationships a fetch prefetches (``SQLBatchPrefetch``, merged by the SQLite store, replaced by
/// the PostgreSQL store), and the to-many counts it prefetches, are kept here for the batch
/// being read and answered from memory while the rows have not changed; any other object (of an
/// earlier batch, or a relationship not prefetched) is read with one query of its own
/// (``SQLObjectReadingStore/destinations(of:from:key:)``).
package final class SQLObjectStorage: RelationshipReadingStorage, @unchecked Sendable {
    package let store: any SQLObjectReadingStore
    package let entity: String
    /// The store's lock, which guards what follows.
    private let lock: NSRecursiveLock
    /// Prefetched destinations, in order: relationship name → owner row key → destinations.
    /// Guarded by `lock`.
    private var prefetched: [String: [Int64: [ManagedObject]]] = [:]
    /// Prefetched destination counts: relationship name → owner row key → count. Guarded by
    /// `lock`, read in the same generation as `prefetched`.
    private var prefetchedCounts: [String: [Int64: Int]] = [:]
    /// The store generation `prefetched` was read in; stale once the rows may have changed.
    private var prefetchedGeneration: UInt64 = 0

    /// The to-ones whose destination IDs each object's row made, by relationship name.
    private let rowToOnes: [String: RowToOne]

    /// A to-one whose destination's ID is made from the values the owner's row held
    /// (``SQLRowLayoutPlan/ToOne``): where they are among an object's values, past its
    /// attributes.
    package struct RowToOne: Sendable {
        /// The destination's key, as stored.
        package let keySlot: Int
        /// The destination's entity number, where the ID names the entity.
        package let entitySlot: Int?
        package let destination: SQLRowLayoutPlan.DestinationID

        package init(keySlot: Int, entitySlot: Int?, destination: SQLRowLayoutPlan.DestinationID) {
            self.keySlot = keySlot
            self.entitySlot = entitySlot
            self.destination = destination
        }
    }

    package init(store: any SQLObjectReadingStore, entity: String, rowToOnes: [String: RowToOne] = [:]) {
        self.store = store
        self.entity = entity
        self.lock = store.lock
        self.rowToOnes = rowToOnes
    }

    // MARK: Prefetched relationships

    /// Forgets every prefetched relationship (a new batch is about to be prefetched).
    package func clearPrefetched() {
        lock.lock(); defer { lock.unlock() }
        prefetched = [:]
        prefetchedCounts = [:]
    }

    /// Keeps `destinations` (owner row key → destinations in order; every owner of the batch,
    /// those with none included) as the relationship's value for those owners, beside what
    /// the batch prefetched already (the SQLite store clears a batch's with ``clearPrefetched()``).
    package func setPrefetched(_ relationship: String, _ destinations: [Int64: [ManagedObject]]) {
        lock.lock(); defer { lock.unlock() }
        renew()
        prefetched[relationship, default: [:]].merge(destinations) { _, new in new }
    }

    /// Keeps `destinations` (every owner of a batch, those with none included) as the
    /// relationship's value for those owners, forgetting an earlier batch's (the PostgreSQL
    /// store's cursor scans).
    package func replacePrefetched(_ relationship: String, _ destinations: [Int64: [ManagedObject]]) {
        lock.lock(); defer { lock.unlock() }
        renew()
        prefetched[relationship] = destinations
    }

    /// Keeps `counts` (owner row key → number of destinations; every owner of the batch) as
    /// the relationship's count for those owners.
    package func setPrefetchedCounts(_ relationship: String, _ counts: [Int64: Int]) {
        lock.lock(); defer { lock.unlock() }
        renew()
        prefetchedCounts[relationship, default: [:]].merge(counts) { _, new in new }
    }

    /// Keeps `counts` (every owner of a batch) as the relationship's counts for those owners,
    /// forgetting an earlier batch's (the PostgreSQL store's cursor scans).
    package func replacePrefetchedCounts(_ relationship: String, _ counts: [Int64: Int]) {
        lock.lock(); defer { lock.unlock() }
        renew()
        prefetchedCounts[relationship] = counts
    }

    /// Forgets what was prefetched in an earlier store generation. Call with `lock` held.
    private func renew() {
        let generation = store.generation
        if prefetchedGeneration != generation {
            prefetched = [:]
            prefetchedCounts = [:]
            prefetchedGeneration = generation
        }
    }

    /// The prefetched count of the owner with `key`, if it was prefetched and the rows have
    /// not changed since.
    package func prefetchedCount(_ relationship: String, of key: Int64) -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard prefetchedGeneration == store.generation else { return nil }
        return prefetchedCounts[relationship]?[key]
    }

    /// The prefetched destinations of the owner with `key`, if they were prefetched and the
    /// rows have not changed since.
    package func prefetchedDestinations(_ relationship: String, of key: Int64) -> [ManagedObject]? {
        lock.lock(); defer { lock.unlock() }
        guard prefetchedGeneration == store.generation else { return nil }
        return prefetched[relationship]?[key]
    }

    // MARK: RelationshipReadingStorage

    package func rowDestinationIDs(_ relationship: String, of object: ManagedObject) -> [ObjectID]? {
        guard !rowToOnes.isEmpty, let toOne = rowToOnes[relationship] else { return nil }
        let values = object.storedValues
        guard toOne.keySlot < values.count else { return nil }
        let key: Int64
        switch values[values.startIndex + toOne.keySlot] {
        case .null: return []
        case .int(let stored): key = stored
        default: return nil  // (Not a row key: read as before.)
        }
        var entity: Int64?
        if let slot = toOne.entitySlot {
            guard slot < values.count, case .int(let number) = values[values.startIndex + slot] else { return nil }
            entity = number
        }
        return toOne.destination.id(key: key, entity: entity).map { [$0] }
    }

    package var schema: SQLSchema { store.schema }

    package func readDestinations(of relationship: RelationshipDescription, from table: EntityTable, key: Int64) throws -> [ManagedObject] {
        try store.destinations(of: relationship, from: table, key: key)
    }
}
