import SiftEvaluation
import SiftLanguage
import SiftStore

/// A fetched object's link back to the SQLite store: relationships are read when asked (a
/// to-one as the destination object, a to-many as a set, or an array when ordered).
struct SQLObjectStorage: ManagedObjectStorage, @unchecked Sendable {
    let store: SQLiteStore
    let entity: String
    let key: Int64
    let id: ObjectID

    func value(forKey key: String) throws(EvaluationError) -> Value {
        guard let table = store.schema.table(for: entity) else { return .null }
        guard let relationship = table.entity.relationship(named: key) else {
            if table.entity.attribute(named: key) != nil { return .null }
            throw EvaluationError(.unknownKey, table.entity.unknownKeyMessage(key), keyPath: key)
        }
        let objects: [ManagedObject]
        do {
            objects = try store.destinations(of: relationship, from: table, key: self.key)
        } catch {
            throw EvaluationError(.unsupported, "reading \(entity).\(key): \(error)", keyPath: key)
        }
        if !relationship.isToMany { return objects.first.map { .object($0) } ?? .null }
        let values = objects.map { Value.object($0) }
        return relationship.isOrdered ? .array(values) : .set(values)
    }

    func relationshipIDs() -> [(name: String, ids: [ObjectID], isToMany: Bool)] {
        guard let table = store.schema.table(for: entity) else { return [] }
        return table.entity.relationships.map { relationship in
            let ids = (try? store.destinations(of: relationship, from: table, key: key).map(\.objectID)) ?? []
            return (relationship.name, ids, relationship.isToMany)
        }
    }

    var objectIdentity: AnyHashable { ObjectReference.identity(of: id) }
}
