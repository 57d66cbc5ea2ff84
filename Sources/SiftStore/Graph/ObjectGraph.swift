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

/// The objects of an atomic store, in memory, and the rules that keep them consistent
/// (``StoreObjects``: defaults on insert, value conversion, inverse relationships kept in sync,
/// delete rules; ``ObjectValidation`` on save).
///
/// Objects sit in insertion order (their position is the insertion order used to break sort
/// ties); a deleted object leaves an empty slot until the graph is compacted. A value type:
/// copying a graph is cheap (copy on write), which is how stores roll back and how fetches see
/// a consistent snapshot.
package struct ObjectGraph: Sendable {
    package private(set) var model: DataModel
    package private(set) var objects: [StoredObject?] = []
    package private(set) var positions: [ObjectID: Int] = [:]
    private var generatedIDCounter = 0

    package init(model: DataModel) {
        self.model = model
    }

    package var liveObjectCount: Int { positions.count }

    /// Takes `grown` as the model: this one's entities, at the same positions, and more after
    /// them (``DataModel/adding(_:)``), so every object is what it was.
    package mutating func grow(to grown: DataModel) {
        precondition(grown.entities.prefix(model.entities.count).map(\.name) == model.entities.map(\.name),
                     "a grown model keeps the entities at their positions")
        model = grown
    }

    package func position(of id: ObjectID) -> Int? { positions[id] }

    func entity(at position: Int) -> EntityDescription? {
        objects[position].map { model.entities[$0.entity] }
    }

    // MARK: Insert, update, delete (the rules are StoreObjects')

    /// Inserts an object. Attributes left out get their default (or nil); values are converted
    /// to their attribute's type; relationships name destination objects by ID.
    @discardableResult
    package mutating func insert(entity: String, id: ObjectID? = nil, attributes: [String: Value] = [:],
                                 relationships: [String: [ObjectID]] = [:]) throws(StoreError) -> ObjectID {
        try insertObject(entity: entity, id: id, attributes: attributes, relationships: relationships)
    }

    /// Changes the given attributes and relationships of an object; others keep their values.
    package mutating func update(_ id: ObjectID, attributes: [String: Value] = [:], relationships: [String: [ObjectID]] = [:]) throws(StoreError) {
        try updateObject(id, attributes: attributes, relationships: relationships)
    }

    /// Deletes an object and applies its relationships' delete rules.
    package mutating func delete(_ id: ObjectID) throws(StoreError) {
        try deleteObjects([id])
    }

    // MARK: Validation (on save)

    /// Checks what a save requires of every object (``ObjectValidation``), then the uniqueness
    /// constraints.
    package func validate() throws(StoreError) {
        for object in objects {
            guard let object else { continue }
            try ObjectValidation.check(model.entities[object.entity], id: object.id,
                                       isNull: { object.attributes[$0].isNull }, count: { object.relationships[$0].count })
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
                        throw ObjectValidation.uniquenessViolation(entity: objectEntity.name, object: object.id, first: first,
                                                                   constraint: constraint, constraintEntity: entity.name)
                    }
                    seen[key] = object.id
                }
            }
        }
    }
}

/// The graph's answers to the store rules: objects by position, relationships as arrays of
/// positions.
extension ObjectGraph: StoreObjects {
    package func reference(to id: ObjectID) -> Int? {
        guard let position = positions[id], objects[position] != nil else { return nil }
        return position
    }

    package func entityPosition(of object: Int) -> Int { objects[object]?.entity ?? 0 }

    package func objectID(of object: Int) -> ObjectID { objects[object]?.id ?? ObjectID("") }

    package func destinations(of object: Int, slot: Int) -> [Int] { objects[object]?.relationships[slot] ?? [] }

    package mutating func generatedID() -> ObjectID {
        while true {
            generatedIDCounter += 1
            let id = ObjectID("o\(generatedIDCounter)")
            if positions[id] == nil { return id }
        }
    }

    package mutating func addObject(entity: Int, id: ObjectID, attributes: [Value]) -> Int {
        let position = objects.count
        objects.append(StoredObject(id: id, entity: entity, attributes: attributes,
                                    relationships: Array(repeating: [], count: model.entities[entity].relationships.count)))
        positions[id] = position
        return position
    }

    package mutating func setAttributes(_ values: [SlotValue], of object: Int) {
        for value in values { objects[object]?.attributes[value.slot] = value.value }
    }

    /// An unordered to-many relationship holds its destinations in ascending position order
    /// (insertion order), so finding one is a binary search: adding or removing one of many
    /// (the inverse of a to-one that each of 100,000 objects sets) costs no scan of the others.
    package mutating func addDestination(_ destination: Int, to position: Int, slot: Int) {
        guard let entity = objects[position]?.entity else { return }
        let relationship = model.entities[entity].relationships[slot]
        guard relationship.isToMany else {
            objects[position]?.relationships[slot] = [destination]
            return
        }
        if relationship.isOrdered {
            guard objects[position]?.relationships[slot].contains(destination) == false else { return }
            objects[position]?.relationships[slot].append(destination)
            return
        }
        guard let (index, found) = objects[position]?.relationships[slot].sortedIndex(of: destination), !found else { return }
        objects[position]?.relationships[slot].insert(destination, at: index)
    }

    package mutating func removeDestination(_ destination: Int, from position: Int, slot: Int) {
        guard let entity = objects[position]?.entity, slot < model.entities[entity].relationships.count else { return }
        let relationship = model.entities[entity].relationships[slot]
        guard relationship.isToMany, !relationship.isOrdered else {
            objects[position]?.relationships[slot].removeAll { $0 == destination }
            return
        }
        guard let (index, found) = objects[position]?.relationships[slot].sortedIndex(of: destination), found else { return }
        objects[position]?.relationships[slot].remove(at: index)
    }

    package mutating func holdDestinations(_ destinations: [Int], of position: Int, slot: Int) {
        objects[position]?.relationships[slot] = destinations
    }

    package mutating func removeObjects(_ doomed: [Int]) {
        for position in doomed {
            if let object = objects[position] { positions[object.id] = nil }
            objects[position] = nil
        }
        // Relationships without an inverse may still point at deleted objects.
        guard !doomed.isEmpty else { return }
        let gone = Set(doomed)
        for position in objects.indices {
            guard let object = objects[position] else { continue }
            let entity = model.entities[object.entity]
            for slot in object.relationships.indices where entity.relationships[slot].inverse == nil {
                if object.relationships[slot].contains(where: gone.contains) {
                    objects[position]?.relationships[slot].removeAll(where: gone.contains)
                }
            }
        }
    }
}

extension [Int] {
    /// Where `element` is in this ascending array, or would be inserted to keep it ascending,
    /// and whether it is there.
    func sortedIndex(of element: Int) -> (index: Int, found: Bool) {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < element { low = middle + 1 } else { high = middle }
        }
        return (low, low < count && self[low] == element)
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
