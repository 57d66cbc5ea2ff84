import SiftEvaluation
import SiftLanguage

/// One stored object: its ID, entity, attribute values and relationship destinations, by the
/// positions of the entity's ``EntityDescription/attributes`` and ``EntityDescription/relationships``.
package struct StoredObject: Sendable {
    package var id: ObjectID
    /// Position of the entity in the model.
    package var entity: Int
    package var attributes: [Value]
    /// Destinations of each relationship, as positions in the graph (a to-one has at most one).
    package var relationships: [[Int]]
}

/// The objects of a store and the rules that keep them consistent: defaults on insert, value
/// conversion, inverse relationships kept in sync, delete rules, and validation on save.
///
/// Objects sit in insertion order (their position is the insertion order used to break sort
/// ties); a deleted object leaves an empty slot until the graph is compacted. A value type:
/// copying a graph is cheap (copy on write), which is how stores roll back and how fetches see
/// a consistent snapshot.
package struct ObjectGraph: Sendable {
    package let model: DataModel
    package private(set) var objects: [StoredObject?] = []
    package private(set) var positions: [ObjectID: Int] = [:]
    private var generatedIDCounter = 0

    package init(model: DataModel) {
        self.model = model
    }

    package var liveObjectCount: Int { positions.count }

    package func position(of id: ObjectID) -> Int? { positions[id] }

    func entity(at position: Int) -> EntityDescription? {
        objects[position].map { model.entities[$0.entity] }
    }

    // MARK: Insert, update

    /// Inserts an object. Attributes left out get their default (or nil); values are converted
    /// to their attribute's type; relationships name destination objects by ID.
    @discardableResult
    package mutating func insert(entity entityName: String, id: ObjectID? = nil, attributes: [String: Value] = [:],
                         relationships: [String: [ObjectID]] = [:]) throws(StoreError) -> ObjectID {
        guard let entityPosition = model.entityPosition(named: entityName) else {
            throw unknownEntity(entityName)
        }
        let entity = model.entities[entityPosition]
        guard !entity.isAbstract else {
            throw StoreError(.abstractEntity, "cannot insert an object of abstract entity \(entity.name)", entity: entity.name, objectID: id)
        }
        let objectID = id ?? nextGeneratedID()
        guard positions[objectID] == nil else {
            throw StoreError(.duplicateObjectID, "object ID '\(objectID)' is already used", entity: entity.name, objectID: objectID)
        }
        // Check every key before changing anything.
        try checkKeys(attributes: attributes, relationships: relationships, entity: entity, id: objectID)
        var values = entity.attributes.map { $0.defaultValue ?? .null }
        for (key, value) in attributes {
            guard case .attribute(let slot) = entity.slot(of: key) else { continue }
            values[slot] = try converted(value, entity.attributes[slot], entity: entity, id: objectID)
        }
        let resolved = try resolveDestinations(relationships, entity: entity, id: objectID)
        let position = objects.count
        objects.append(StoredObject(id: objectID, entity: entityPosition, attributes: values,
                                    relationships: Array(repeating: [], count: entity.relationships.count)))
        positions[objectID] = position
        for (slot, destinations) in resolved {
            setDestinations(destinations, of: position, slot: slot)
        }
        return objectID
    }

    /// Changes the given attributes and relationships of an object; others keep their values.
    package mutating func update(_ id: ObjectID, attributes: [String: Value] = [:], relationships: [String: [ObjectID]] = [:]) throws(StoreError) {
        guard let position = positions[id], let object = objects[position] else { throw unknownObject(id) }
        let entity = model.entities[object.entity]
        try checkKeys(attributes: attributes, relationships: relationships, entity: entity, id: id)
        var newValues: [(Int, Value)] = []
        for (key, value) in attributes {
            guard case .attribute(let slot) = entity.slot(of: key) else { continue }
            newValues.append((slot, try converted(value, entity.attributes[slot], entity: entity, id: id)))
        }
        let resolved = try resolveDestinations(relationships, entity: entity, id: id)
        for (slot, value) in newValues { objects[position]?.attributes[slot] = value }
        for (slot, destinations) in resolved { setDestinations(destinations, of: position, slot: slot) }
    }

    private func checkKeys(attributes: [String: Value], relationships: [String: [ObjectID]], entity: EntityDescription,
                           id: ObjectID) throws(StoreError) {
        for key in attributes.keys {
            switch entity.slot(of: key) {
            case .attribute: continue
            case .relationship:
                throw StoreError(.invalidValue, "\(entity.name) '\(id)': '\(key)' is a relationship; give it object IDs",
                                 entity: entity.name, objectID: id, key: key)
            case nil: throw unknownKey(key, entity: entity, id: id)
            }
        }
        for key in relationships.keys {
            switch entity.slot(of: key) {
            case .relationship: continue
            case .attribute:
                throw StoreError(.invalidValue, "\(entity.name) '\(id)': '\(key)' is an attribute, not a relationship",
                                 entity: entity.name, objectID: id, key: key)
            case nil: throw unknownKey(key, entity: entity, id: id)
            }
        }
    }

    private func converted(_ value: Value, _ attribute: AttributeDescription, entity: EntityDescription,
                           id: ObjectID) throws(StoreError) -> Value {
        do throws(AttributeValueError) {
            return try AttributeCoercion.storedValue(value, for: attribute.type)
        } catch {
            throw StoreError(.invalidValue, "\(entity.name) '\(id)', \(attribute.name): \(error.message)",
                             entity: entity.name, objectID: id, key: attribute.name)
        }
    }

    private func resolveDestinations(_ relationships: [String: [ObjectID]], entity: EntityDescription,
                                     id: ObjectID) throws(StoreError) -> [(Int, [Int])] {
        var resolved: [(Int, [Int])] = []
        for (key, ids) in relationships {
            guard case .relationship(let slot) = entity.slot(of: key) else { continue }
            let relationship = entity.relationships[slot]
            if !relationship.isToMany && ids.count > 1 {
                throw StoreError(.invalidValue, "\(entity.name) '\(id)', \(key): a to-one relationship takes one object, not \(ids.count)",
                                 entity: entity.name, objectID: id, key: key)
            }
            var destinations: [Int] = []
            for destinationID in ids {
                guard let destination = positions[destinationID], let object = objects[destination] else {
                    throw StoreError(.unknownObject, "\(entity.name) '\(id)', \(key): no object with ID '\(destinationID)'",
                                     entity: entity.name, objectID: id, key: key)
                }
                let destinationEntity = model.entities[object.entity].name
                guard model.isKind(destinationEntity, of: relationship.destination) else {
                    throw StoreError(.invalidValue, "\(entity.name) '\(id)', \(key): '\(destinationID)' is a \(destinationEntity), not a \(relationship.destination)",
                                     entity: entity.name, objectID: id, key: key)
                }
                if !destinations.contains(destination) { destinations.append(destination) }
            }
            resolved.append((slot, destinations))
        }
        return resolved
    }

    // MARK: Relationships and their inverses

    /// The inverse relationship's slot in the object at `destination`, if the relationship has one.
    private func inverseSlot(of slot: Int, at position: Int, destination: Int) -> Int? {
        guard let object = objects[position], let target = objects[destination] else { return nil }
        guard let inverseName = model.entities[object.entity].relationships[slot].inverse,
              case .relationship(let inverse) = model.entities[target.entity].slot(of: inverseName) else { return nil }
        return inverse
    }

    private func isToMany(_ position: Int, _ slot: Int) -> Bool {
        guard let object = objects[position] else { return false }
        return model.entities[object.entity].relationships[slot].isToMany
    }

    private func isUnorderedToMany(_ position: Int, _ slot: Int) -> Bool {
        guard let object = objects[position] else { return false }
        let relationship = model.entities[object.entity].relationships[slot]
        return relationship.isToMany && !relationship.isOrdered
    }

    /// Points relationship `slot` of the object at `position` at `destinations`, keeping inverses in sync.
    mutating func setDestinations(_ destinations: [Int], of position: Int, slot: Int) {
        let old = objects[position]?.relationships[slot] ?? []
        for destination in old where !destinations.contains(destination) {
            unlink(position, slot, destination)
        }
        for destination in destinations where !old.contains(destination) {
            link(position, slot, destination)
        }
        // An ordered relationship keeps the order asked for; an unordered one holds its
        // destinations in insertion order, the order every store (SQLite too) reads them in.
        let held = isUnorderedToMany(position, slot) ? destinations.sorted() : destinations
        objects[position]?.relationships[slot] = held
    }

    /// Adds `destination` to relationship `slot` of `position`, and `position` to the inverse.
    private mutating func link(_ position: Int, _ slot: Int, _ destination: Int) {
        if !isToMany(position, slot), let previous = objects[position]?.relationships[slot].first, previous != destination {
            unlink(position, slot, previous)
        }
        addDestination(destination, to: position, slot: slot)
        guard let inverse = inverseSlot(of: slot, at: position, destination: destination) else { return }
        if !isToMany(destination, inverse), let previous = objects[destination]?.relationships[inverse].first, previous != position {
            // A to-one inverse moves: the destination leaves its previous owner's relationship.
            removeDestination(destination, from: previous, slot: slot)
        }
        addDestination(position, to: destination, slot: inverse)
    }

    private mutating func unlink(_ position: Int, _ slot: Int, _ destination: Int) {
        if let inverse = inverseSlot(of: slot, at: position, destination: destination) {
            removeDestination(position, from: destination, slot: inverse)
        }
        removeDestination(destination, from: position, slot: slot)
    }

    private mutating func addDestination(_ destination: Int, to position: Int, slot: Int) {
        guard objects[position] != nil else { return }
        if isToMany(position, slot) {
            guard objects[position]?.relationships[slot].contains(destination) == false else { return }
            let unordered = isUnorderedToMany(position, slot)
            if unordered, let index = objects[position]?.relationships[slot].firstIndex(where: { $0 > destination }) {
                objects[position]?.relationships[slot].insert(destination, at: index)
            } else {
                objects[position]?.relationships[slot].append(destination)
            }
        } else {
            objects[position]?.relationships[slot] = [destination]
        }
    }

    private mutating func removeDestination(_ destination: Int, from position: Int, slot: Int) {
        guard objects[position] != nil, slot < (objects[position]?.relationships.count ?? 0) else { return }
        objects[position]?.relationships[slot].removeAll { $0 == destination }
    }

    // MARK: Delete

    /// Deletes an object and applies its relationships' delete rules: Cascade deletes the
    /// destinations too, Nullify removes the deleted objects from the inverses, Deny refuses
    /// (naming the object that blocks it) while a destination is not itself being deleted, No
    /// Action leaves the destinations alone (Sift drops the dangling reference).
    package mutating func delete(_ id: ObjectID) throws(StoreError) {
        guard let start = positions[id], objects[start] != nil else { throw unknownObject(id) }
        // Everything the delete reaches through Cascade rules.
        var doomed: Set<Int> = [start]
        var queue = [start]
        while let position = queue.popLast() {
            guard let object = objects[position] else { continue }
            let entity = model.entities[object.entity]
            for (slot, relationship) in entity.relationships.enumerated() where relationship.deleteRule == .cascade {
                for destination in object.relationships[slot] where doomed.insert(destination).inserted {
                    queue.append(destination)
                }
            }
        }
        // Deny: a doomed object may not keep a destination that survives.
        for position in doomed.sorted() {
            guard let object = objects[position] else { continue }
            let entity = model.entities[object.entity]
            for (slot, relationship) in entity.relationships.enumerated() where relationship.deleteRule == .deny {
                if let blocker = object.relationships[slot].first(where: { !doomed.contains($0) }), let blocking = objects[blocker] {
                    let what = position == start ? "\(entity.name) '\(object.id)'" : "\(entity.name) '\(object.id)' (deleted by cascade from '\(id)')"
                    throw StoreError(.deleteDenied,
                                     "cannot delete \(what): its relationship \(relationship.name) still has \(model.entities[blocking.entity].name) '\(blocking.id)' (delete rule Deny)",
                                     entity: entity.name, objectID: object.id, key: relationship.name)
                }
            }
        }
        // Nullify (and No Action): detach every doomed object from what survives.
        for position in doomed.sorted() {
            guard let object = objects[position] else { continue }
            for slot in object.relationships.indices {
                for destination in object.relationships[slot] where !doomed.contains(destination) {
                    if let inverse = inverseSlot(of: slot, at: position, destination: destination) {
                        removeDestination(position, from: destination, slot: inverse)
                    }
                }
            }
        }
        for position in doomed {
            if let object = objects[position] { positions[object.id] = nil }
            objects[position] = nil
        }
        // Relationships without an inverse may still point at deleted objects.
        if doomed.count > 0 { dropDanglingReferences(to: doomed) }
    }

    private mutating func dropDanglingReferences(to doomed: Set<Int>) {
        for position in objects.indices {
            guard let object = objects[position] else { continue }
            let entity = model.entities[object.entity]
            for slot in object.relationships.indices where entity.relationships[slot].inverse == nil {
                if object.relationships[slot].contains(where: doomed.contains) {
                    objects[position]?.relationships[slot].removeAll(where: doomed.contains)
                }
            }
        }
    }

    // MARK: Validation (on save)

    /// Checks what a save requires: required attributes and to-one relationships are set,
    /// to-many counts are within bounds, uniqueness constraints hold.
    package func validate() throws(StoreError) {
        for object in objects {
            guard let object else { continue }
            let entity = model.entities[object.entity]
            for (slot, attribute) in entity.attributes.enumerated() where !attribute.isOptional && object.attributes[slot].isNull {
                throw StoreError(.missingValue, "\(entity.name) '\(object.id)': required attribute \(attribute.name) is nil",
                                 entity: entity.name, objectID: object.id, key: attribute.name)
            }
            for (slot, relationship) in entity.relationships.enumerated() {
                let count = object.relationships[slot].count
                if !relationship.isToMany {
                    if !relationship.isOptional && count == 0 {
                        throw StoreError(.missingValue, "\(entity.name) '\(object.id)': required relationship \(relationship.name) is nil",
                                         entity: entity.name, objectID: object.id, key: relationship.name)
                    }
                    continue
                }
                if relationship.minCount > 0 && count < relationship.minCount && !(relationship.isOptional && count == 0) {
                    throw StoreError(.relationshipCount, "\(entity.name) '\(object.id)': \(relationship.name) has \(count) objects, fewer than its minimum \(relationship.minCount)",
                                     entity: entity.name, objectID: object.id, key: relationship.name)
                }
                if relationship.maxCount > 0 && count > relationship.maxCount {
                    throw StoreError(.relationshipCount, "\(entity.name) '\(object.id)': \(relationship.name) has \(count) objects, more than its maximum \(relationship.maxCount)",
                                     entity: entity.name, objectID: object.id, key: relationship.name)
                }
            }
        }
        try validateUniqueness()
    }

    private func validateUniqueness() throws(StoreError) {
        for entity in model.entities {
            for constraint in entity.uniquenessConstraints {
                let members = Set(entity.entityAndSubentities.compactMap { model.entityPosition(named: $0) })
                var seen: [[ComparableKey]: ObjectID] = [:]
                for object in objects {
                    guard let object, members.contains(object.entity) else { continue }
                    let objectEntity = model.entities[object.entity]
                    let key: [ComparableKey] = constraint.map { name in
                        switch objectEntity.slot(of: name) {
                        case .attribute(let slot): return ComparableKey(object.attributes[slot])
                        case .relationship(let slot): return object.relationships[slot].first.map(ComparableKey.reference) ?? .null
                        case nil: return .null
                        }
                    }
                    // As in SQL (and so the SQLite store): a nil value never conflicts.
                    if key.contains(.null) { continue }
                    if let first = seen[key] {
                        let values = constraint.joined(separator: ", ")
                        throw StoreError(.constraintViolation,
                                         "\(objectEntity.name) '\(object.id)' has the same \(values) as '\(first)' (uniqueness constraint of \(entity.name))",
                                         entity: objectEntity.name, objectID: object.id, key: constraint.first)
                    }
                    seen[key] = object.id
                }
            }
        }
    }

    // MARK: IDs and errors

    private mutating func nextGeneratedID() -> ObjectID {
        while true {
            generatedIDCounter += 1
            let id = ObjectID("o\(generatedIDCounter)")
            if positions[id] == nil { return id }
        }
    }

    func unknownEntity(_ name: String) -> StoreError {
        do throws(ModelError) {
            _ = try model.requireEntity(name)
        } catch {
            return StoreError(.unknownEntity, error.message, entity: name)
        }
        return StoreError(.unknownEntity, "unknown entity '\(name)'", entity: name)
    }

    func unknownKey(_ key: String, entity: EntityDescription, id: ObjectID?) -> StoreError {
        StoreError(.unknownKey, entity.unknownKeyMessage(key), entity: entity.name, objectID: id, key: key)
    }

    func unknownObject(_ id: ObjectID) -> StoreError {
        StoreError(.unknownObject, "no object with ID '\(id)'", objectID: id)
    }
}

/// Values as dictionary keys for uniqueness checks: language equality (1 == 1.0, NFC strings).
enum ComparableKey: Hashable {
    case null
    case number(Double)
    case exactInteger(Int64)
    case text(String)
    case other(String)
    case reference(Int)

    init(_ value: Value) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .exactInteger(b ? 1 : 0)
        case .int(let i): self = .exactInteger(i)
        case .double(let d):
            if d.rounded() == d, abs(d) < 9.0e18 { self = .exactInteger(Int64(d)) } else { self = .number(d) }
        case .decimal(let d): self = .other("decimal:\(d)")
        case .string(let s): self = .text(s)
        case .date(let d): self = .other("date:\(d.timeIntervalSinceReferenceDate)")
        case .data(let d): self = .other("data:\(d.base64EncodedString())")
        case .uuid(let u): self = .other("uuid:\(u.uuidString)")
        default: self = .other(ValueText.text(value))
        }
    }
}
