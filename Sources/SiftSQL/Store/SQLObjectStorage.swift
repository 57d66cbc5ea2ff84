import SiftEvaluation
import SiftLanguage
import SiftStore

/// Fetched objects' link back to the SQLite store, one per entity of a fetch: relationships
/// are read when asked (a to-one as the destination object, a to-many as a set, or an array
/// when ordered), for the row whose key the object carries.
final class SQLObjectStorage: ManagedObjectStorage, @unchecked Sendable {
    let store: SQLiteStore
    let entity: String

    init(store: SQLiteStore, entity: String) {
        self.store = store
        self.entity = entity
    }

    func value(forKey key: String, of object: ManagedObject) throws(EvaluationError) -> Value {
        guard let table = store.schema.table(for: entity) else { return .null }
        guard let relationship = table.entity.relationship(named: key) else {
            if table.entity.attribute(named: key) != nil { return .null }
            throw EvaluationError(.unknownKey, table.entity.unknownKeyMessage(key), keyPath: key)
        }
        let objects: [ManagedObject]
        do {
            objects = try store.destinations(of: relationship, from: table, key: object.storageKey)
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
            let ids = (try? store.destinations(of: relationship, from: table, key: object.storageKey).map(\.objectID)) ?? []
            return (relationship.name, ids, relationship.isToMany)
        }
    }
}
