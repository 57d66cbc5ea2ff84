import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftStore

/// Fetched objects' link back to a SQL store (``SQLObjectStorage``, which both stores use),
/// one per entity of a fetch: relationships are read when asked (a to-one as the
/// destination object, a to-many as a set, or an array when ordered), for the row whose key the
/// object carries — from what a fetch prefetched for the batch being read while the rows have
/// not changed, else with one query of their own. Each store prefetches relationships and reads
/// destinations its own way; the answers are these, the same for both.
package protocol RelationshipReadingStorage: ManagedObjectStorage {
    /// The objects' entity.
    var entity: String { get }
    /// The store's layout.
    var schema: SQLSchema { get }
    /// The prefetched destinations of the owner with `key`, if they were prefetched and the
    /// rows have not changed since.
    func prefetchedDestinations(_ relationship: String, of key: Int64) -> [ManagedObject]?
    /// The prefetched count of the owner with `key`, likewise.
    func prefetchedCount(_ relationship: String, of key: Int64) -> Int?
    /// The destinations of a relationship of the row with `key`, in order, read now.
    func readDestinations(of relationship: RelationshipDescription, from table: EntityTable, key: Int64) throws -> [ManagedObject]
    /// A to-one's destination ID (none or one) made from the values the object's row held,
    /// without a query; nil where the row did not hold them (``SQLRowLayoutPlan/ToOne``).
    func rowDestinationIDs(_ relationship: String, of object: ManagedObject) -> [ObjectID]?
}

extension RelationshipReadingStorage {
    package func value(forKey key: String, of object: ManagedObject) throws(EvaluationError) -> Value {
        guard let table = schema.table(for: entity) else { return .null }
        guard let relationship = table.entity.relationship(named: key) else {
            if table.entity.attribute(named: key) != nil { return .null }
            throw EvaluationError(.unknownKey, table.entity.unknownKeyMessage(key), keyPath: key)
        }
        let objects: [ManagedObject]
        if let loaded = prefetchedDestinations(key, of: object.storageKey) {
            objects = loaded
        } else {
            do {
                objects = try readDestinations(of: relationship, from: table, key: object.storageKey)
            } catch let error as StoreError where error.code == .interrupted {
                throw EvaluationError(.interrupted, error.message, keyPath: key)
            } catch {
                throw EvaluationError(.unsupported, "reading \(entity).\(key): \(error)", keyPath: key)
            }
        }
        if !relationship.isToMany { return objects.first.map { .object($0) } ?? .null }
        let values = objects.map { Value.object($0) }
        return relationship.isOrdered ? .array(values) : .set(values)
    }

    package func relationshipIDs(of object: ManagedObject) -> [(name: String, ids: [ObjectID], isToMany: Bool)] {
        guard let table = schema.table(for: entity) else { return [] }
        return table.entity.relationships.map { relationship in
            if let made = rowDestinationIDs(relationship.name, of: object) { return (relationship.name, made, relationship.isToMany) }
            return (relationship.name, destinationObjects(relationship, from: table, of: object).map(\.objectID), relationship.isToMany)
        }
    }

    package func destinationIDs(_ relationship: String, of object: ManagedObject) -> [ObjectID] {
        // (Made from the object's row, else prefetched, without looking the relationship up:
        // only a relationship of the entity is ever either. Printing a to-one asks this per object.)
        if let made = rowDestinationIDs(relationship, of: object) { return made }
        if let loaded = prefetchedDestinations(relationship, of: object.storageKey) { return loaded.map(\.objectID) }
        guard let table = schema.table(for: entity), let description = table.entity.relationship(named: relationship) else { return [] }
        return destinationObjects(description, from: table, of: object).map(\.objectID)
    }

    /// A prefetched count, else a to-one's made from the row, else the prefetched destinations
    /// counted, else the destinations read (one query).
    package func destinationCount(_ relationship: String, of object: ManagedObject) -> Int {
        if let count = prefetchedCount(relationship, of: object.storageKey) { return count }
        if let made = rowDestinationIDs(relationship, of: object) { return made.count }
        guard let table = schema.table(for: entity), let description = table.entity.relationship(named: relationship) else { return 0 }
        return destinationObjects(description, from: table, of: object).count
    }

    /// The destinations, prefetched or read now (none when the store cannot read them).
    private func destinationObjects(_ relationship: RelationshipDescription, from table: EntityTable, of object: ManagedObject) -> [ManagedObject] {
        if let loaded = prefetchedDestinations(relationship.name, of: object.storageKey) { return loaded }
        return (try? readDestinations(of: relationship, from: table, key: object.storageKey)) ?? []
    }
}
