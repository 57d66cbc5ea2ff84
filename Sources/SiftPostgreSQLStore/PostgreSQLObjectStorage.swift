import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftStore

/// Fetched objects' link back to a PostgreSQL store, one per entity of a fetch: relationships
/// are read when asked, as the SQLite store's are (``RelationshipReadingStorage``), with one
/// query for the row whose key the object carries — or from memory, for the relationships a
/// fetch prefetched for the batch being read, while the rows have not changed.
final class PostgreSQLObjectStorage: RelationshipReadingStorage, @unchecked Sendable {
    let store: PostgreSQLStore
    let entity: String
    /// Prefetched destinations: relationship name → owner row key → destinations in order.
    /// Guarded by `store.lock`.
    private var prefetched: [String: [Int64: [ManagedObject]]] = [:]
    /// The store generation `prefetched` was read in.
    private var prefetchedGeneration: UInt64 = 0

    init(store: PostgreSQLStore, entity: String) {
        self.store = store
        self.entity = entity
    }

    /// Keeps `destinations` (every owner of a batch, those with none included) as the
    /// relationship's value for those owners, forgetting an earlier batch's.
    func setPrefetched(_ relationship: String, _ destinations: [Int64: [ManagedObject]]) {
        store.lock.lock(); defer { store.lock.unlock() }
        if prefetchedGeneration != store.generation {
            prefetched = [:]
            prefetchedGeneration = store.generation
        }
        prefetched[relationship] = destinations
    }

    /// The prefetched destinations of the owner with `key`, if they were prefetched and the rows
    /// have not changed since.
    func prefetchedDestinations(_ relationship: String, of key: Int64) -> [ManagedObject]? {
        store.lock.lock(); defer { store.lock.unlock() }
        guard prefetchedGeneration == store.generation else { return nil }
        return prefetched[relationship]?[key]
    }

    /// None: a PostgreSQL fetch prefetches no counts.
    func prefetchedCount(_ relationship: String, of key: Int64) -> Int? { nil }

    var schema: SQLSchema { store.schema }

    func readDestinations(of relationship: RelationshipDescription, from table: EntityTable, key: Int64) throws -> [ManagedObject] {
        try store.destinations(of: relationship, from: table, key: key)
    }
}
