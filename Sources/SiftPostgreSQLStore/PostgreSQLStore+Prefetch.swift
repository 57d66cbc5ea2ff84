import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftStore

extension PostgreSQLStore {
    /// Reads relationships `names` of a batch of objects decoded with `layout`: one query per
    /// relationship and entity of the batch (`= ANY` of the batch's keys), kept in the objects'
    /// storage (``PostgreSQLObjectStorage``) and answered from memory while the rows have not
    /// changed. Names an object's entity does not have are passed over.
    func prefetch(_ names: [String], of objects: [ManagedObject], layout: PostgreSQLRowLayout) throws(StoreError) {
        guard !names.isEmpty, !objects.isEmpty else { return }
        lock.lock(); defer { lock.unlock() }
        var byEntity: [String: (storage: PostgreSQLObjectStorage, keys: [Int64])] = [:]
        for object in objects {
            guard let storage = layout.entities[object.entityName]?.shape.storage as? PostgreSQLObjectStorage else { continue }
            byEntity[object.entityName, default: (storage, [])].keys.append(object.storageKey)
        }
        for (entity, owners) in byEntity {
            guard let table = schema.table(for: entity) else { continue }
            for name in names {
                guard let relationship = table.entity.relationship(named: name) else { continue }
                owners.storage.setPrefetched(name, try destinations(of: relationship, from: table, keys: owners.keys))
            }
        }
    }
}
