import Synchronization
import SiftEvaluation
import SiftLanguage

/// A fetched object: its ID, entity, attribute values and the IDs its relationships point at.
/// Predicates evaluate on it (`value(forKey:)` follows relationships into the store), and it
/// can be passed as a `%@` argument (`parent == %@`).
public final class ManagedObject: KeyValueObject, ObjectIDConvertible, CustomStringConvertible {
    public let objectID: ObjectID
    public let entityName: String
    /// Attribute values by name, in the entity's attribute order.
    public let attributeValues: ValueDictionary
    private let storage: any ManagedObjectStorage

    /// An object of a store: `storage` answers for its relationships.
    package init(objectID: ObjectID, entityName: String, attributeValues: ValueDictionary, storage: any ManagedObjectStorage) {
        self.objectID = objectID
        self.entityName = entityName
        self.attributeValues = attributeValues
        self.storage = storage
        Self.live.add(1, ordering: .relaxed)
    }

    /// An object of a graph snapshot (the atomic stores).
    convenience init(snapshot: GraphSnapshot, position: Int) {
        let graph = snapshot.graph
        let object = graph.objects[position]
        let entity = object.map { graph.model.entities[$0.entity] }
        var values = ValueDictionary()
        if let object, let entity {
            for (slot, attribute) in entity.attributes.enumerated() { values[attribute.name] = object.attributes[slot] }
        }
        self.init(objectID: object?.id ?? ObjectID(""), entityName: entity?.name ?? "", attributeValues: values,
                  storage: StoredObjectView(snapshot: snapshot, position: position))
    }

    deinit { Self.live.subtract(1, ordering: .relaxed) }

    /// Relationship destinations by name, in the entity's relationship order; a to-one
    /// relationship has zero or one ID. Read from the store when asked.
    public var relationshipIDs: [(name: String, ids: [ObjectID], isToMany: Bool)] { storage.relationshipIDs() }

    /// An attribute's value, or nil for a key that is not an attribute.
    public subscript(attribute name: String) -> Value? { attributeValues[name] }

    public func value(forKey key: String) throws(EvaluationError) -> Value {
        if let value = attributeValues[key] { return value }
        return try storage.value(forKey: key)
    }

    public var objectIdentity: AnyHashable { ObjectReference.identity(of: objectID) }

    public var description: String { "<\(entityName) \(objectID)>" }

    private static let live = Atomic<Int>(0)

    /// How many fetched objects exist right now in this process: lets tests check that a
    /// batched fetch materialises its results a batch at a time.
    public static var liveInstanceCount: Int { live.load(ordering: .relaxed) }
}

/// What a store gives a ``ManagedObject`` to answer for its relationships: a key-value view of
/// the stored object (relationships as objects) and the destinations' IDs.
package protocol ManagedObjectStorage: KeyValueObject {
    func relationshipIDs() -> [(name: String, ids: [ObjectID], isToMany: Bool)]
}
