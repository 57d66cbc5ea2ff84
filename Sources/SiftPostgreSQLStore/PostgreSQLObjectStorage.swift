import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftStore

/// Fetched objects' link back to a PostgreSQL store, one per entity of a fetch: relationships
/// are read when asked (a to-one as the destination object, a to-many as a set, or an array when
/// ordered), with one query for the row whose key the object carries — or from memory, for the
/// relationships a fetch prefetched for the batch being read, while the rows have not changed.
final class PostgreSQLObjectStorage: ManagedObjectStorage, @unchecked Sendable {
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

    func value(forKey key: String, of object: ManagedObject) throws(EvaluationError) -> Value {
        guard let table = store.schema.table(for: entity) else { return .null }
        guard let relationship = table.entity.relationship(named: key) else {
            if table.entity.attribute(named: key) != nil { return .null }
            throw EvaluationError(.unknownKey, table.entity.unknownKeyMessage(key), keyPath: key)
        }
        let objects: [ManagedObject]
        do {
            objects = try prefetchedDestinations(key, of: object.storageKey)
                ?? store.destinations(of: relationship, from: table, key: object.storageKey)
        } catch {
            throw EvaluationError(.unsupported, "reading \(entity).\(key): \(error)", keyPath: key)
        }
        if !relationship.isToMany { return objects.first.map { .object($0) } ?? .null }
        let values = objects.map { Value.object($0) }
        return relationship.isOrdered ? .array(values) : .set(values)
    }

    func relationshipIDs(of object: ManagedObject) -> [(name: String, ids: [ObjectID], isToMany: Bool)] {
        guard let table = store.schema.table(for: entity) else { return [] }
        return table.entity.relationships.map { relationship in
            (relationship.name, destinations(relationship, from: table, of: object).map(\.objectID), relationship.isToMany)
        }
    }

    func destinationIDs(_ relationship: String, of object: ManagedObject) -> [ObjectID] {
        guard let table = store.schema.table(for: entity), let description = table.entity.relationship(named: relationship) else { return [] }
        return destinations(description, from: table, of: object).map(\.objectID)
    }

    func destinationCount(_ relationship: String, of object: ManagedObject) -> Int {
        guard let table = store.schema.table(for: entity), let description = table.entity.relationship(named: relationship) else { return 0 }
        return destinations(description, from: table, of: object).count
    }

    /// The destinations read now (none when the store cannot read them).
    private func destinations(_ relationship: RelationshipDescription, from table: EntityTable, of object: ManagedObject) -> [ManagedObject] {
        if let loaded = prefetchedDestinations(relationship.name, of: object.storageKey) { return loaded }
        return (try? store.destinations(of: relationship, from: table, key: object.storageKey)) ?? []
    }
}
