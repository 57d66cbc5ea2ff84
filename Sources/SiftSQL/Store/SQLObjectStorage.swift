import SiftEvaluation
import SiftLanguage
import SiftStore

/// Fetched objects' link back to the SQLite store, one per entity of a fetch: relationships
/// are read when asked (a to-one as the destination object, a to-many as a set, or an array
/// when ordered), for the row whose key the object carries.
///
/// Relationships a fetch prefetches (`RelationshipPrefetch`), and the to-many counts it
/// prefetches, are kept here for the batch being read and answered from memory; any other
/// object (of an earlier batch, or a relationship not prefetched) is read with one query of its
/// own (`SQLiteStore.destinations(of:from:key:)`).
final class SQLObjectStorage: ManagedObjectStorage, @unchecked Sendable {
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

    // MARK: ManagedObjectStorage

    func value(forKey key: String, of object: ManagedObject) throws(EvaluationError) -> Value {
        guard let table = store.schema.table(for: entity) else { return .null }
        guard let relationship = table.entity.relationship(named: key) else {
            if table.entity.attribute(named: key) != nil { return .null }
            throw EvaluationError(.unknownKey, table.entity.unknownKeyMessage(key), keyPath: key)
        }
        let objects: [ManagedObject]
        if let loaded = prefetchedDestinations(key, of: object.storageKey) {
            objects = loaded
        } else {
            do {
                objects = try store.destinations(of: relationship, from: table, key: object.storageKey)
            } catch {
                throw EvaluationError(.unsupported, "reading \(entity).\(key): \(error)", keyPath: key)
            }
        }
        if !relationship.isToMany { return objects.first.map { .object($0) } ?? .null }
        let values = objects.map { Value.object($0) }
        return relationship.isOrdered ? .array(values) : .set(values)
    }

    func relationshipIDs(of object: ManagedObject) -> [(name: String, ids: [ObjectID], isToMany: Bool)] {
        guard let table = store.schema.table(for: entity) else { return [] }
        return table.entity.relationships.map { relationship in
            (relationship.name, destinationObjects(relationship, from: table, of: object).map(\.objectID), relationship.isToMany)
        }
    }

    func destinationIDs(_ relationship: String, of object: ManagedObject) -> [ObjectID] {
        guard let table = store.schema.table(for: entity), let description = table.entity.relationship(named: relationship) else { return [] }
        return destinationObjects(description, from: table, of: object).map(\.objectID)
    }

    /// A prefetched count, else the prefetched destinations counted, else the destinations
    /// read (one query).
    func destinationCount(_ relationship: String, of object: ManagedObject) -> Int {
        if let count = prefetchedCount(relationship, of: object.storageKey) { return count }
        guard let table = store.schema.table(for: entity), let description = table.entity.relationship(named: relationship) else { return 0 }
        return destinationObjects(description, from: table, of: object).count
    }

    /// The destinations, prefetched or read now (none when the store cannot read them).
    private func destinationObjects(_ relationship: RelationshipDescription, from table: EntityTable, of object: ManagedObject) -> [ManagedObject] {
        if let loaded = prefetchedDestinations(relationship.name, of: object.storageKey) { return loaded }
        return (try? store.destinations(of: relationship, from: table, key: object.storageKey)) ?? []
    }
}
