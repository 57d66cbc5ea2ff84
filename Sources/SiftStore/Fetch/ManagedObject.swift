import Synchronization
import SiftEvaluation
import SiftLanguage

/// A fetched object: its ID, entity, attribute values and the IDs its relationships point at,
/// as they were when it was fetched. Predicates evaluate on it (`value(forKey:)` follows
/// relationships into the store's state at fetch time), and it can be passed as a `%@`
/// argument (`parent == %@`).
public final class ManagedObject: KeyValueObject, ObjectIDConvertible, CustomStringConvertible {
    public let objectID: ObjectID
    public let entityName: String
    /// Attribute values by name, in the entity's attribute order.
    public let attributeValues: ValueDictionary
    /// Relationship destinations by name, in the entity's relationship order; a to-one
    /// relationship has zero or one ID.
    public let relationshipIDs: [(name: String, ids: [ObjectID], isToMany: Bool)]
    private let view: StoredObjectView

    init(snapshot: GraphSnapshot, position: Int) {
        let graph = snapshot.graph
        let object = graph.objects[position]
        let entity = object.map { graph.model.entities[$0.entity] }
        objectID = object?.id ?? ObjectID("")
        entityName = entity?.name ?? ""
        var values = ValueDictionary()
        var relationships: [(name: String, ids: [ObjectID], isToMany: Bool)] = []
        if let object, let entity {
            for (slot, attribute) in entity.attributes.enumerated() { values[attribute.name] = object.attributes[slot] }
            for (slot, relationship) in entity.relationships.enumerated() {
                let ids = object.relationships[slot].compactMap { graph.objects[$0]?.id }
                relationships.append((relationship.name, ids, relationship.isToMany))
            }
        }
        attributeValues = values
        relationshipIDs = relationships
        view = StoredObjectView(snapshot: snapshot, position: position)
        Self.live.add(1, ordering: .relaxed)
    }

    deinit { Self.live.subtract(1, ordering: .relaxed) }

    /// An attribute's value, or nil for a key that is not an attribute.
    public subscript(attribute name: String) -> Value? { attributeValues[name] }

    public func value(forKey key: String) throws(EvaluationError) -> Value {
        if let value = attributeValues[key] { return value }
        return try view.value(forKey: key)
    }

    public var objectIdentity: AnyHashable { ObjectReference.identity(of: objectID) }

    public var description: String { "<\(entityName) \(objectID)>" }

    private static let live = Atomic<Int>(0)

    /// How many fetched objects exist right now in this process: lets tests check that a
    /// batched fetch materialises its results a batch at a time.
    public static var liveInstanceCount: Int { live.load(ordering: .relaxed) }
}
