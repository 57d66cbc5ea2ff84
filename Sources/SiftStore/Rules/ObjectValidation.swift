import SiftLanguage

/// What a save requires of each object, and the errors when it is not so, for every store: the
/// object graph checks all its objects, the SQLite store the ones the transaction changed (with
/// queries), each in insertion order, each object's attributes before its relationships, and
/// uniqueness constraints after every object passed.
package enum ObjectValidation {
    /// Checks one object: required attributes are set, required to-one relationships are set,
    /// to-many counts are within their bounds (a required to-many may be empty).
    ///
    /// - Parameters:
    ///   - isNull: whether the attribute in a slot is nil.
    ///   - count: how many destinations the relationship in a slot has.
    package static func check(_ entity: EntityDescription, id: ObjectID, isNull: (Int) -> Bool, count: (Int) -> Int) throws(StoreError) {
        for (slot, attribute) in entity.attributes.enumerated() where !attribute.isOptional && isNull(slot) {
            throw StoreError(.missingValue, "\(entity.name) '\(id)': required attribute \(attribute.name) is nil",
                             entity: entity.name, objectID: id, key: attribute.name)
        }
        for (slot, relationship) in entity.relationships.enumerated() where needsCount(relationship) {
            let count = count(slot)
            if !relationship.isToMany {
                if count == 0 {
                    throw StoreError(.missingValue, "\(entity.name) '\(id)': required relationship \(relationship.name) is nil",
                                     entity: entity.name, objectID: id, key: relationship.name)
                }
                continue
            }
            if relationship.minCount > 0 && count < relationship.minCount && !(relationship.isOptional && count == 0) {
                throw StoreError(.relationshipCount, "\(entity.name) '\(id)': \(relationship.name) has \(count) objects, fewer than its minimum \(relationship.minCount)",
                                 entity: entity.name, objectID: id, key: relationship.name)
            }
            if relationship.maxCount > 0 && count > relationship.maxCount {
                throw StoreError(.relationshipCount, "\(entity.name) '\(id)': \(relationship.name) has \(count) objects, more than its maximum \(relationship.maxCount)",
                                 entity: entity.name, objectID: id, key: relationship.name)
            }
        }
    }

    /// Whether ``check(_:id:isNull:count:)`` reads the attribute's value.
    package static func needsValue(_ attribute: AttributeDescription) -> Bool { !attribute.isOptional }

    /// Whether ``check(_:id:isNull:count:)`` reads the relationship's count: a required to-one,
    /// a to-many with a bound.
    package static func needsCount(_ relationship: RelationshipDescription) -> Bool {
        relationship.isToMany ? relationship.minCount > 0 || relationship.maxCount > 0 : !relationship.isOptional
    }

    /// Two objects share the values of a uniqueness constraint: `object` (the later one) has the
    /// same values as `first`.
    package static func uniquenessViolation(entity: String, object: ObjectID, first: ObjectID, constraint: [String],
                                            constraintEntity: String) -> StoreError {
        StoreError(.constraintViolation,
                   "\(entity) '\(object)' has the same \(constraint.joined(separator: ", ")) as '\(first)' (uniqueness constraint of \(constraintEntity))",
                   entity: entity, objectID: object, key: constraint.first)
    }
}
