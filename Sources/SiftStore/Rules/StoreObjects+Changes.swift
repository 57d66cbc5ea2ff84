import SiftEvaluation
import SiftLanguage

/// Inserting and updating objects: every key and value is checked, and converted to its
/// attribute's type, before anything changes; attributes left out of an insert get their
/// default; relationships name their destinations by ID and keep their inverses in sync.
extension StoreObjects {
    /// Inserts an object and returns its ID (`id`, or a generated one).
    @discardableResult
    package mutating func insertObject(entity entityName: String, id: ObjectID? = nil, attributes: [String: Value] = [:],
                                       relationships: [String: [ObjectID]] = [:]) throws(StoreError) -> ObjectID {
        guard let entityPosition = model.entityPosition(named: entityName) else {
            throw unknownEntity(entityName)
        }
        let entity = model.entities[entityPosition]
        guard !entity.isAbstract else {
            throw StoreError(.abstractEntity, "cannot insert an object of abstract entity \(entity.name)", entity: entity.name, objectID: id)
        }
        let objectID: ObjectID
        if let id { objectID = id } else { objectID = try generatedID() }
        guard try reference(to: objectID) == nil else { throw Self.duplicateID(objectID, entity: entity.name) }
        try Self.checkKeys(attributes: attributes, relationships: relationships, entity: entity, id: objectID)
        var values = entity.attributes.map { $0.defaultValue ?? .null }
        for (key, value) in Self.ordered(attributes, in: entity) {
            guard case .attribute(let slot) = entity.slot(of: key) else { continue }
            values[slot] = try Self.converted(value, entity.attributes[slot], entity: entity, id: objectID)
        }
        let resolved = try resolveDestinations(relationships, entity: entity, id: objectID)
        let object = try addObject(entity: entityPosition, id: objectID, attributes: values)
        for (slot, destinations) in resolved {
            try setDestinations(destinations, of: object, slot: slot)
        }
        return objectID
    }

    /// Inserts an object of the entity at `entityPosition` with attribute values by slot (keys
    /// found already, as an import does), without relationships: the same rules and errors as
    /// ``insertObject(entity:id:attributes:relationships:)``, without looking names up again.
    @discardableResult
    package mutating func insertObject(entityPosition: Int, id: ObjectID?, values given: [SlotValue]) throws(StoreError) -> ObjectID {
        // The entity's parts are read in place (an import calls this for every row: copying the
        // entity, or each attribute, would cost more than the rest).
        let entities = model.entities
        guard !entities[entityPosition].isAbstract else {
            let name = entities[entityPosition].name
            throw StoreError(.abstractEntity, "cannot insert an object of abstract entity \(name)", entity: name, objectID: id)
        }
        let objectID: ObjectID
        if let id { objectID = id } else { objectID = try generatedID() }
        // Where the object goes, adding it finds a duplicate ID; a value error must not come
        // first, so it looks before reporting one.
        guard try idIsFree(objectID, besidesWhereAdding: entityPosition) else { throw Self.duplicateID(objectID, entity: entities[entityPosition].name) }
        // Each given value converted to its attribute's type, or the error naming the object.
        // (Inlined: called once for each value of every imported row.)
        @inline(__always)
        func stored(_ given: SlotValue) throws(StoreError) -> Value {
            do throws(AttributeValueError) {
                return try AttributeCoercion.storedValue(given.value, for: entities[entityPosition].attributes[given.slot].type)
            } catch {
                throw try insertError(error, entity: entities[entityPosition], slot: given.slot, id: objectID)
            }
        }
        let defaults = entities[entityPosition].defaultValues
        // Values given in slot order (an import's rows are) are taken slot by slot, with a
        // default only where none is given: the defaults are not copied for every row and then
        // overwritten. Out of order (or a slot given twice), the defaults are copied and each
        // given value set in turn. Either way the values convert in the order given, so the
        // first that fails is the same.
        var values: [Value] = []
        values.reserveCapacity(defaults.count)
        var next = 0
        for slot in defaults.indices {
            if next < given.count && given[next].slot == slot {
                values.append(try stored(given[next]))
                next += 1
            } else {
                values.append(defaults[slot])
            }
        }
        if next < given.count {
            values = defaults
            for given in given { values[given.slot] = try stored(given) }
        }
        assert(values.count == defaults.count, "one value for each attribute slot")
        _ = try addObject(entity: entityPosition, id: objectID, attributes: values)
        return objectID
    }

    /// The error of an insert whose value in attribute `slot` did not convert: a duplicate ID
    /// first (where the object would go, only adding it looks), else the value's. (Out of line:
    /// its look-up's generic metadata is fetched only when a value fails, not for every row.)
    @inline(never)
    private func insertError(_ error: AttributeValueError, entity: EntityDescription, slot: Int, id: ObjectID) throws(StoreError) -> StoreError {
        guard try reference(to: id) == nil else { return Self.duplicateID(id, entity: entity.name) }
        let attribute = entity.attributes[slot]
        return StoreError(.invalidValue, "\(entity.name) '\(id)', \(attribute.name): \(error.message)",
                          entity: entity.name, objectID: id, key: attribute.name)
    }

    /// Changes the given attributes and relationships of an object; others keep their values.
    package mutating func updateObject(_ id: ObjectID, attributes: [String: Value] = [:], relationships: [String: [ObjectID]] = [:]) throws(StoreError) {
        guard let object = try reference(to: id) else { throw unknownObject(id) }
        let entity = entity(of: object)
        try Self.checkKeys(attributes: attributes, relationships: relationships, entity: entity, id: id)
        var newValues: [SlotValue] = []
        for (key, value) in Self.ordered(attributes, in: entity) {
            guard case .attribute(let slot) = entity.slot(of: key) else { continue }
            newValues.append(SlotValue(slot: slot, value: try Self.converted(value, entity.attributes[slot], entity: entity, id: id)))
        }
        let resolved = try resolveDestinations(relationships, entity: entity, id: id)
        if !newValues.isEmpty { try setAttributes(newValues, of: object) }
        for (slot, destinations) in resolved { try setDestinations(destinations, of: object, slot: slot) }
    }

    // MARK: Checks

    package static func checkKeys(attributes: [String: Value], relationships: [String: [ObjectID]], entity: EntityDescription,
                                  id: ObjectID) throws(StoreError) {
        for (key, _) in ordered(attributes, in: entity) {
            switch entity.slot(of: key) {
            case .attribute: continue
            case .relationship:
                throw StoreError(.invalidValue, "\(entity.name) '\(id)': '\(key)' is a relationship; give it object IDs",
                                 entity: entity.name, objectID: id, key: key)
            case nil: throw unknownKey(key, entity: entity, id: id)
            }
        }
        for (key, _) in ordered(relationships, in: entity) {
            switch entity.slot(of: key) {
            case .relationship: continue
            case .attribute:
                throw StoreError(.invalidValue, "\(entity.name) '\(id)': '\(key)' is an attribute, not a relationship",
                                 entity: entity.name, objectID: id, key: key)
            case nil: throw unknownKey(key, entity: entity, id: id)
            }
        }
    }

    /// A change's keys in the entity's order — attributes, then relationships, each by position;
    /// unknown keys last, by name — so a change with several faults always reports the same one,
    /// in every store (a dictionary's own order differs from one instance to the next).
    package static func ordered<V>(_ values: [String: V], in entity: EntityDescription) -> [(key: String, value: V)] {
        func rank(_ key: String) -> Int {
            switch entity.slot(of: key) {
            case .attribute(let slot): slot
            case .relationship(let slot): entity.attributes.count + slot
            case nil: Int.max
            }
        }
        guard values.count > 1 else { return values.map { ($0.key, $0.value) } }
        return values.map { (key: $0.key, value: $0.value, rank: rank($0.key)) }
            .sorted { $0.rank != $1.rank ? $0.rank < $1.rank : $0.key < $1.key }
            .map { ($0.key, $0.value) }
    }

    /// A value converted to its attribute's stored form, or an error naming the object and key.
    package static func converted(_ value: Value, _ attribute: AttributeDescription, entity: EntityDescription,
                                  id: ObjectID) throws(StoreError) -> Value {
        do throws(AttributeValueError) {
            return try AttributeCoercion.storedValue(value, for: attribute.type)
        } catch {
            throw StoreError(.invalidValue, "\(entity.name) '\(id)', \(attribute.name): \(error.message)",
                             entity: entity.name, objectID: id, key: attribute.name)
        }
    }

    package static func unknownKey(_ key: String, entity: EntityDescription, id: ObjectID?) -> StoreError {
        StoreError(.unknownKey, entity.unknownKeyMessage(key), entity: entity.name, objectID: id, key: key)
    }

    /// The destinations named by ID, checked: they exist, are of the relationship's destination
    /// entity, and a to-one gets at most one. Repeated IDs count once.
    private func resolveDestinations(_ relationships: [String: [ObjectID]], entity: EntityDescription,
                                     id: ObjectID) throws(StoreError) -> [(Int, [Reference])] {
        var resolved: [(Int, [Reference])] = []
        for (key, ids) in Self.ordered(relationships, in: entity) {
            guard case .relationship(let slot) = entity.slot(of: key) else { continue }
            let relationship = entity.relationships[slot]
            if !relationship.isToMany && ids.count > 1 {
                throw StoreError(.invalidValue, "\(entity.name) '\(id)', \(key): a to-one relationship takes one object, not \(ids.count)",
                                 entity: entity.name, objectID: id, key: key)
            }
            var destinations: [Reference] = []
            var seen: Set<Reference> = []
            for destinationID in ids {
                guard let destination = try reference(to: destinationID) else {
                    throw StoreError(.unknownObject, "\(entity.name) '\(id)', \(key): no object with ID '\(destinationID)'",
                                     entity: entity.name, objectID: id, key: key)
                }
                let destinationEntity = self.entity(of: destination).name
                guard model.isKind(destinationEntity, of: relationship.destination) else {
                    throw StoreError(.invalidValue, "\(entity.name) '\(id)', \(key): '\(destinationID)' is a \(destinationEntity), not a \(relationship.destination)",
                                     entity: entity.name, objectID: id, key: key)
                }
                if seen.insert(destination).inserted { destinations.append(destination) }
            }
            resolved.append((slot, destinations))
        }
        return resolved
    }
}
