import Synchronization
import SiftEvaluation
import SiftLanguage

/// A fetched object: its ID, entity, attribute values and the IDs its relationships point at.
/// Predicates evaluate on it (`value(forKey:)` follows relationships into the store), and it
/// can be passed as a `%@` argument (`parent == %@`).
public final class ManagedObject: KeyValueObject, ObjectIDConvertible, CustomStringConvertible {
    public let objectID: ObjectID
    /// The entity, the attribute names and the store's side: shared by the objects a fetch
    /// reads of one entity.
    @usableFromInline let shape: ObjectShape
    /// The attribute values: a slice of the buffer a fetch decoded the object's batch into
    /// (the batch's objects share it, so it lives as long as one of them does). A store may
    /// keep values of its own after the attributes' (``storedValues``).
    @usableFromInline let values: ArraySlice<Value>
    /// Where the object is in its store (a row key, a graph position), for its storage.
    package let storageKey: Int64

    public var entityName: String { shape.entityName }
    /// The names of the attribute values, shared with the other objects of the entity the fetch read.
    private var names: AttributeNames { shape.names }
    /// The store's side of the object, shared by the objects a fetch reads of one entity.
    package var storage: any ManagedObjectStorage { shape.storage }

    /// Attribute values by name, in the entity's attribute order.
    public var attributeValues: ValueDictionary {
        let names = names.names
        return ValueDictionary(distinctKeys: names, values: Array(values.prefix(names.count)))
    }

    /// The attribute names (shared by the objects a fetch read of the entity: the same instance
    /// means the same names) and the values in their order, read without copying either.
    package var attributeSlots: (names: AttributeNames, values: ArraySlice<Value>) { (names, values.prefix(names.names.count)) }

    /// The values the store made the object with: the attributes', then any the store keeps
    /// for its storage (a SQL store's to-one keys read from the object's row).
    package var storedValues: ArraySlice<Value> { values }

    /// An object of a store: `values` are its attributes, named by `shape`'s names; `shape`'s
    /// storage answers for its relationships, finding the object by `storageKey`.
    package init(objectID: ObjectID, shape: ObjectShape, values: ArraySlice<Value>, storageKey: Int64) {
        self.objectID = objectID
        self.shape = shape
        self.values = values
        self.storageKey = storageKey
        if shape.countsLiveObjects { shape.storage.objectMade() }
    }

    /// An object of a store with a shape of its own.
    package convenience init(objectID: ObjectID, entityName: String, names: AttributeNames, values: ArraySlice<Value>, storage: any ManagedObjectStorage, storageKey: Int64) {
        self.init(objectID: objectID, shape: ObjectShape(entityName: entityName, names: names, storage: storage), values: values, storageKey: storageKey)
    }

    /// An object of a graph snapshot (the atomic stores).
    convenience init(snapshot: GraphSnapshot, position: Int) {
        let graph = snapshot.graph
        let object = graph.objects[position]
        let entity = object.map { graph.model.entities[$0.entity] }
        var names: [String] = []
        var values: [Value] = []
        if let object, let entity {
            for (slot, attribute) in entity.attributes.enumerated() {
                names.append(attribute.name)
                values.append(object.attributes[slot])
            }
        }
        self.init(objectID: object?.id ?? ObjectID(""), entityName: entity?.name ?? "", names: AttributeNames(names), values: values[...],
                  storage: snapshot, storageKey: Int64(position))
    }

    deinit { if shape.countsLiveObjects { shape.storage.objectFreed() } }

    /// Relationship destinations by name, in the entity's relationship order; a to-one
    /// relationship has zero or one ID. Read from the store when asked.
    public var relationshipIDs: [(name: String, ids: [ObjectID], isToMany: Bool)] { storage.relationshipIDs(of: self) }

    /// The IDs of one relationship's destinations, in order (a to-one relationship has zero or
    /// one); none for a name that is not a relationship of the object's entity.
    public func destinationIDs(of relationship: String) -> [ObjectID] { storage.destinationIDs(relationship, of: self) }

    /// How many destinations one relationship has (a to-one relationship 0 or 1); 0 for a name
    /// that is not a relationship of the object's entity. A count the fetch prefetched
    /// (``FetchRequest/relationshipCountsForPrefetching``) or whose destinations it prefetched
    /// is answered from memory, without reading the destinations.
    public func destinationCount(of relationship: String) -> Int { storage.destinationCount(relationship, of: self) }

    /// An attribute's value, or nil for a key that is not an attribute. (Inlinable with its
    /// look-up, which is inlined into it: a name is found by comparing two words a name. In the
    /// release benchmark a library user's call still calls it, `@inline(__always)` or not; see
    /// PERFORMANCE.md, "A million-row SQLite fetch".)
    @inlinable @inline(__always)
    public subscript(attribute name: String) -> Value? {
        guard let position = position(of: name) else { return nil }
        return values[values.startIndex &+ position]
    }

    /// Where attribute `name` is in ``values``. (The names are read as a guaranteed reference:
    /// the shape holds them as long as the object lives, so the look-up counts no references.)
    @inlinable @inline(__always)
    func position(of name: String) -> Int? {
        Unmanaged.passUnretained(shape.names)._withUnsafeGuaranteedRef { $0.position(named: name) }
    }

    /// (Inlinable as ``subscript(attribute:)`` is; a key that is not an attribute is the store's.)
    @inlinable @inline(__always)
    public func value(forKey key: String) throws(EvaluationError) -> Value {
        if let position = position(of: key) { return values[values.startIndex &+ position] }
        return try storageValue(forKey: key)
    }

    /// A value the store answers for (a relationship's), or its error for an unknown key.
    @usableFromInline
    func storageValue(forKey key: String) throws(EvaluationError) -> Value {
        try storage.value(forKey: key, of: self)
    }

    public var objectIdentity: AnyHashable { ObjectReference.identity(of: objectID) }

    public var description: String { "<\(entityName) \(objectID)>" }

}

/// What the objects a fetch reads of one entity share: the entity's name, its attribute names
/// (the order of each object's values) and the store's side of the objects.
@usableFromInline
package final class ObjectShape: Sendable {
    package let entityName: String
    @usableFromInline package let names: AttributeNames
    package let storage: any ManagedObjectStorage
    /// Whether `storage` counts its live objects (asked once here, not at every object's
    /// making and freeing: a call through the existential costs a retain and a release).
    package let countsLiveObjects: Bool

    package init(entityName: String, names: AttributeNames, storage: any ManagedObjectStorage) {
        self.entityName = entityName
        self.names = names
        self.storage = storage
        self.countsLiveObjects = storage.countsLiveObjects
    }
}

/// What a store gives a ``ManagedObject`` to answer for its relationships: a key-value view of
/// the stored object (relationships as objects) and the destinations' IDs.
///
/// One storage serves every object a fetch reads of an entity; each object is found by its
/// `storageKey`, so an object costs its values and nothing per object here.
package protocol ManagedObjectStorage: AnyObject, Sendable {
    /// A relationship's value (an object, a set or an array of objects), or nil for an
    /// attribute the object has no value for; unknown keys throw.
    func value(forKey key: String, of object: ManagedObject) throws(EvaluationError) -> Value
    func relationshipIDs(of object: ManagedObject) -> [(name: String, ids: [ObjectID], isToMany: Bool)]
    /// One relationship's destination IDs, in order; none for an unknown name.
    func destinationIDs(_ relationship: String, of object: ManagedObject) -> [ObjectID]
    /// One relationship's number of destinations; 0 for an unknown name.
    func destinationCount(_ relationship: String, of object: ManagedObject) -> Int
    /// Whether the storage counts its live objects: only then are `objectMade` and
    /// `objectFreed` called.
    var countsLiveObjects: Bool { get }
    /// An object of the storage was made, or freed: a store may count its live objects.
    func objectMade()
    func objectFreed()
}

extension ManagedObjectStorage {
    package var countsLiveObjects: Bool { false }
    package func objectMade() {}
    package func objectFreed() {}
}

/// How many objects a store's fetches have made that are still alive.
package final class LiveObjectCounter: Sendable {
    private let count = Atomic<Int>(0)
    package init() {}
    package var value: Int { count.load(ordering: .relaxed) }
    package func add(_ n: Int) { count.add(n, ordering: .relaxed) }
}
