import SiftEvaluation
import SiftLanguage

/// A frozen copy of a graph that fetch results and object views read from, so results stay
/// consistent while the store changes (and can be shared across threads).
final class GraphSnapshot: Sendable {
    let graph: ObjectGraph
    /// Counts the store's live fetched objects, across its snapshots.
    let liveObjects: LiveObjectCounter

    init(_ graph: ObjectGraph, liveObjects: LiveObjectCounter = LiveObjectCounter()) {
        self.graph = graph
        self.liveObjects = liveObjects
    }

    func view(_ position: Int) -> Value { .object(StoredObjectView(snapshot: self, position: position)) }
}

/// The objects the atomic stores fetch read their relationships from the snapshot, by
/// position.
extension GraphSnapshot: ManagedObjectStorage {
    func value(forKey key: String, of object: ManagedObject) throws(EvaluationError) -> Value {
        try StoredObjectView(snapshot: self, position: Int(object.storageKey)).value(forKey: key)
    }

    func relationshipIDs(of object: ManagedObject) -> [(name: String, ids: [ObjectID], isToMany: Bool)] {
        StoredObjectView(snapshot: self, position: Int(object.storageKey)).relationshipIDs()
    }

    func destinationIDs(_ relationship: String, of object: ManagedObject) -> [ObjectID] {
        let view = StoredObjectView(snapshot: self, position: Int(object.storageKey))
        return view.destinations(relationship).compactMap { graph.objects[$0]?.id }
    }

    func destinationCount(_ relationship: String, of object: ManagedObject) -> Int {
        StoredObjectView(snapshot: self, position: Int(object.storageKey)).destinations(relationship).count
    }

    var countsLiveObjects: Bool { true }
    func objectMade() { liveObjects.add(1) }
    func objectFreed() { liveObjects.add(-1) }
}

/// A stored object as the evaluator sees it: its attributes by name, a to-one relationship as
/// the destination object (or nil), a to-many one as a set of objects (an array when ordered).
/// A key the entity does not have is an error naming the key and the entity.
struct StoredObjectView: KeyValueObject {
    let snapshot: GraphSnapshot
    let position: Int

    func value(forKey key: String) throws(EvaluationError) -> Value {
        let graph = snapshot.graph
        guard let object = graph.objects[position] else { return .null }
        let entity = graph.model.entities[object.entity]
        switch entity.slot(of: key) {
        case .attribute(let slot):
            return object.attributes[slot]
        case .relationship(let slot):
            let destinations = object.relationships[slot]
            let relationship = entity.relationships[slot]
            if !relationship.isToMany {
                return destinations.first.map(snapshot.view) ?? .null
            }
            let views = destinations.map(snapshot.view)
            return relationship.isOrdered ? .array(views) : .set(views)
        case nil:
            throw EvaluationError(.unknownKey, entity.unknownKeyMessage(key), keyPath: key)
        }
    }

    func relationshipIDs() -> [(name: String, ids: [ObjectID], isToMany: Bool)] {
        let graph = snapshot.graph
        guard let object = graph.objects[position] else { return [] }
        let entity = graph.model.entities[object.entity]
        return entity.relationships.enumerated().map { slot, relationship in
            (relationship.name, object.relationships[slot].compactMap { graph.objects[$0]?.id }, relationship.isToMany)
        }
    }

    /// The graph positions of one relationship's destinations; none for an unknown name.
    func destinations(_ relationship: String) -> [Int] {
        let graph = snapshot.graph
        guard let object = graph.objects[position],
              case .relationship(let slot) = graph.model.entities[object.entity].slot(of: relationship) else { return [] }
        return object.relationships[slot]
    }

    var objectIdentity: AnyHashable {
        ObjectReference.identity(of: snapshot.graph.objects[position]?.id ?? ObjectID(""))
    }
}
