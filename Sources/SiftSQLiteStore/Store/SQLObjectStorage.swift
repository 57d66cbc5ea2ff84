import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftStore

/// Fetched objects' link back to the SQLite store, one per entity of a fetch: relationships
/// are read when asked (``RelationshipReadingStorage``), for the row whose key the object
/// carries.
///
/// Relationships a fetch prefetches (`RelationshipPrefetch`), and the to-many counts it
/// prefetches, are kept here for the batch being read and answered from memory; any other
/// object (of an earlier batch, or a relationship not prefetched) is read with one query of its
/// own (`SQLiteStore.destinations(of:from:key:)`).
final class SQLObjectStorage: RelationshipReadingStorage, @unchecked Sendable {
    let store: SQLiteStore
    let entity: String
    /// Prefetched destinations, in order: relationship name → owner row key → destinations.
    /// Guarded by `store.lock`.
    private var prefetched: [String: [Int64: [ManagedObject]]] = [:]
    /// Prefetched destination counts: relationship name → owner row key → count. Guarded by
    /// `store.lock`, read in the same generation as `prefetched`.
    private var prefetchedCounts: [String: [Int64: Int]] = [:]
    /// The store generation `prefetched` was read in; stale once the rows may have changed.
    private var prefetchedGeneration: UInt64 = 0

    init(store: SQLiteStore, entity: String) {
        self.store = store
        self.entity = entity
    }

    // MARK: Prefetched relationships

    /// Forgets every prefetched relationship (a new batch is about to be prefetched).
    func clearPrefetched() {
        store.lock.lock(); defer { store.lock.unlock() }
        prefetched = [:]
        prefetchedCounts = [:]
    }

    /// Keeps `destinations` (owner row key → destinations in order; every owner of the batch,
    /// those with none included) as the relationship's value for those owners.
    func setPrefetched(_ relationship: String, _ destinations: [Int64: [ManagedObject]]) {
        store.lock.lock(); defer { store.lock.unlock() }
        renew()
        prefetched[relationship, default: [:]].merge(destinations) { _, new in new }
    }

    /// Keeps `counts` (owner row key → number of destinations; every owner of the batch) as
    /// the relationship's count for those owners.
    func setPrefetchedCounts(_ relationship: String, _ counts: [Int64: Int]) {
        store.lock.lock(); defer { store.lock.unlock() }
        renew()
        prefetchedCounts[relationship, default: [:]].merge(counts) { _, new in new }
    }

    /// Forgets what was prefetched in an earlier store generation. Call with `store.lock` held.
    private func renew() {
        if prefetchedGeneration != store.generation {
            prefetched = [:]
            prefetchedCounts = [:]
            prefetchedGeneration = store.generation
        }
    }

    /// The prefetched count of the owner with `key`, if it was prefetched and the rows have
    /// not changed since.
    func prefetchedCount(_ relationship: String, of key: Int64) -> Int? {
        store.lock.lock(); defer { store.lock.unlock() }
        guard prefetchedGeneration == store.generation else { return nil }
        return prefetchedCounts[relationship]?[key]
    }

    /// The prefetched destinations of the owner with `key`, if they were prefetched and the
    /// rows have not changed since.
    func prefetchedDestinations(_ relationship: String, of key: Int64) -> [ManagedObject]? {
        store.lock.lock(); defer { store.lock.unlock() }
        guard prefetchedGeneration == store.generation else { return nil }
        return prefetched[relationship]?[key]
    }

    // MARK: RelationshipReadingStorage

    var schema: SQLSchema { store.schema }

    func readDestinations(of relationship: RelationshipDescription, from table: EntityTable, key: Int64) throws -> [ManagedObject] {
        try store.destinations(of: relationship, from: table, key: key)
    }
}
