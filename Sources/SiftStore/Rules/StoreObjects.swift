import SiftEvaluation
import SiftLanguage

/// A store's objects as the store rules see them: what an object is, what its relationships
/// point at, and the few changes that store them. The object graph answers from memory
/// (``ObjectGraph``); the SQLite store answers with queries on its rows and writes rows.
///
/// The rules themselves are written once, on top of these answers, in this protocol's
/// extensions: inserting and updating with defaults, conversion and checks
/// (`StoreObjects+Changes`), relationships with their inverses kept in sync
/// (`StoreObjects+Relationships`), and the delete rules (`StoreObjects+Delete`); validation
/// on save shares ``ObjectValidation``. So every store keeps the same rules with the same
/// errors, word for word.
///
/// A conformer's changes need not be atomic: the rules check everything that can fail before
/// they change anything, and a store undoes a half-made change on errors of its own (the SQLite
/// store runs a change that writes more than once inside a savepoint).
package protocol StoreObjects {
    /// An object of the store. Ordered by insertion (the order that breaks sort ties and in
    /// which an unordered to-many relationship holds its destinations).
    associatedtype Reference: Hashable & Comparable

    var model: DataModel { get }

    /// The object with an ID, if there is one.
    func reference(to id: ObjectID) throws(StoreError) -> Reference?

    /// The position in ``DataModel/entities`` of the object's entity.
    func entityPosition(of object: Reference) -> Int

    func objectID(of object: Reference) throws(StoreError) -> ObjectID

    /// The destinations of relationship `slot` of the object: an ordered to-many in its order,
    /// an unordered one in insertion order.
    func destinations(of object: Reference, slot: Int) throws(StoreError) -> [Reference]

    /// A new object ID, used by no object, for an insert that gives none.
    mutating func generatedID() throws(StoreError) -> ObjectID

    /// Whether no object uses `id`, looking everywhere except where an object of entity
    /// `entity` would be added: ``addObject(entity:id:attributes:)`` then finds a duplicate
    /// there itself and throws ``duplicateID(_:entity:)`` (the SQLite store's unique index on
    /// object IDs does, at no extra cost). The default looks everywhere.
    func idIsFree(_ id: ObjectID, besidesWhereAdding entity: Int) throws(StoreError) -> Bool

    /// Adds an object of entity `entity` with these attribute values (already converted to
    /// their types, one per attribute slot) and empty relationships.
    mutating func addObject(entity: Int, id: ObjectID, attributes: [Value]) throws(StoreError) -> Reference

    /// Sets attribute values (already converted) of an object.
    mutating func setAttributes(_ values: [SlotValue], of object: Reference) throws(StoreError)

    // Relationship storage, one side at a time (the rules keep the inverse in sync).

    /// Adds `destination` to relationship `slot` of `object` (a to-one: sets it; an ordered
    /// to-many: at the end; an unordered one: in insertion order). Does nothing if it is there.
    mutating func addDestination(_ destination: Reference, to object: Reference, slot: Int) throws(StoreError)

    /// Removes `destination` from relationship `slot` of `object`, if it is there.
    mutating func removeDestination(_ destination: Reference, from object: Reference, slot: Int) throws(StoreError)

    /// Stores `destinations` as relationship `slot` of `object`, in this order for an ordered
    /// to-many. Called after the rules added and removed destinations one by one, so only the
    /// order may still differ.
    mutating func holdDestinations(_ destinations: [Reference], of object: Reference, slot: Int) throws(StoreError)

    /// Removes objects the delete rules have detached from every object that survives through
    /// an inverse, and every reference to them from relationships without an inverse. In
    /// insertion order.
    mutating func removeObjects(_ doomed: [Reference]) throws(StoreError)
}

extension StoreObjects {
    func entity(of object: Reference) -> EntityDescription {
        model.entities[entityPosition(of: object)]
    }

    /// The slot of relationship `slot`'s inverse in the destination object, if it has one.
    func inverseSlot(of slot: Int, from object: Reference, to destination: Reference) -> Int? {
        guard let inverseName = entity(of: object).relationships[slot].inverse,
              case .relationship(let inverse) = entity(of: destination).slot(of: inverseName) else { return nil }
        return inverse
    }

    func isToMany(_ object: Reference, _ slot: Int) -> Bool {
        entity(of: object).relationships[slot].isToMany
    }

    package func unknownEntity(_ name: String) -> StoreError {
        do throws(ModelError) {
            _ = try model.requireEntity(name)
        } catch {
            return StoreError(.unknownEntity, error.message, entity: name)
        }
        return StoreError(.unknownEntity, "unknown entity '\(name)'", entity: name)
    }

    package func idIsFree(_ id: ObjectID, besidesWhereAdding entity: Int) throws(StoreError) -> Bool {
        try reference(to: id) == nil
    }

    /// An insert gave an ID another object has.
    package static func duplicateID(_ id: ObjectID, entity: String) -> StoreError {
        StoreError(.duplicateObjectID, "object ID '\(id)' is already used", entity: entity, objectID: id)
    }

    package func unknownObject(_ id: ObjectID) -> StoreError {
        StoreError(.unknownObject, "no object with ID '\(id)'", objectID: id)
    }
}

/// An attribute's value by its slot in ``EntityDescription/attributes``.
package struct SlotValue: Sendable {
    package var slot: Int
    package var value: Value

    package init(slot: Int, value: Value) {
        self.slot = slot
        self.value = value
    }
}
