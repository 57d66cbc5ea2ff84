import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// Draws the operations of a change sequence at random (from a ``DifferentialRandom`` seed),
/// looking at the reference store's live objects so that most changes name objects that exist
/// and fit, and some do not: wrong types, out-of-range numbers, nil for required values,
/// unknown keys, entities and IDs, duplicate IDs, destinations of the wrong entity, two
/// objects for a to-one, deletes a Deny rule refuses.
///
/// After a save the reference refused, it usually repairs what the error names (gives the
/// missing value, a unique value, members enough), so sequences also reach long runs of
/// successful saves and not only ever-failing ones.
struct ChangeSequenceGenerator {
    struct LiveObject: Hashable {
        var id: ObjectID
        var entity: String
    }

    let model: DataModel
    var random: DifferentialRandom
    /// Numbers the explicit IDs and unique values.
    private var counter = 0
    /// IDs given to inserts, live or not (deletes and references to objects that are gone).
    private var given: [ObjectID] = []

    init(model: DataModel, seed: UInt64) {
        self.model = model
        random = DifferentialRandom(seed: seed)
    }

    // MARK: Operations

    /// The next operation, given the reference's live objects and the error its last save
    /// threw (nil once a save succeeded or changes were rolled back).
    mutating func next(live: [LiveObject], lastSaveError: StoreError?) -> ChangeOperation {
        var state = live
        if let error = lastSaveError, random.chance(4, in: 5), let repair = repair(error, live: live) {
            return repair
        }
        enum Kind { case insert, updateAttributes, updateRelationships, delete, batchUpdate, batchDelete, save, rollback, unit, reopen }
        // A nearly empty store mostly gets objects.
        let kind = random.weighted([
            (state.count < 4 ? 120 : 27, Kind.insert), (15, .updateAttributes), (15, .updateRelationships), (10, .delete), (5, .batchUpdate),
            (3, .batchDelete), (12, .save), (3, .rollback), (7, .unit), (3, .reopen),
        ], or: .save)
        switch kind {
        case .save: return .save
        case .rollback: return .rollback
        case .reopen: return .reopen(saveFirst: !random.chance(1, in: 8))
        case .unit: return unit(state: &state, depth: 0)
        default: return change(kind: kind == .insert ? 0 : kind == .updateAttributes ? 1 : kind == .updateRelationships ? 2
                               : kind == .delete ? 3 : kind == .batchUpdate ? 4 : 5, state: &state)
        }
    }

    /// A change of kind 0 insert, 1 attribute update, 2 relationship update, 3 delete, 4 batch
    /// update, 5 batch delete; `state` follows what it does if it succeeds (for a unit's body).
    private mutating func change(kind: Int, state: inout [LiveObject]) -> ChangeOperation {
        switch kind {
        case 0: return insert(state: &state)
        case 1: return updateAttributes(state: state)
        case 2: return updateRelationships(state: state)
        case 3: return delete(state: &state)
        case 4: return batchUpdate()
        default: return batchDelete()
        }
    }

    private mutating func unit(state: inout [LiveObject], depth: Int) -> ChangeOperation {
        var body: [ChangeOperation] = []
        for _ in 0..<random.int(in: 1...4) {
            if depth == 0 && random.chance(1, in: 10) {
                body.append(unit(state: &state, depth: depth + 1))
            } else if random.chance(1, in: 25) {
                // A save or rollback inside a unit: the unit starts again from there.
                body.append(random.chance(2, in: 3) ? .save : .rollback)
            } else {
                let kind = random.weighted([(35, 0), (20, 1), (20, 2), (12, 3), (8, 4), (5, 5)], or: 0)
                body.append(change(kind: kind, state: &state))
            }
        }
        return .unit(body: body, propagatesErrors: random.chance(3, in: 10), abortsAtEnd: random.chance(1, in: 3))
    }

    private mutating func insert(state: inout [LiveObject]) -> ChangeOperation {
        let roll = random.below(100)
        var entityName: String
        if roll < 2 {
            entityName = "Widget"
        } else if roll < 5 {
            entityName = "Thing"
        } else {
            entityName = random.weighted([(30, "Item"), (10, "SpecialItem"), (8, "Gadget"), (8, "Category"), (10, "Tag"),
                                          (14, "Person"), (6, "Team"), (8, "Note")], or: "Item")
        }
        // Items need an owner: without a person, most inserts make one first.
        if (entityName == "Item" || entityName == "SpecialItem") && !state.contains(where: { $0.entity == "Person" }) && random.chance(9, in: 10) {
            entityName = "Person"
        }
        let id: ObjectID?
        let idRoll = random.below(100)
        if idRoll < 8 {
            id = nil
        } else if idRoll < 12, let existing = random.pick(state) {
            id = existing.id  // a duplicate
        } else {
            counter += 1
            id = ObjectID("\(ChangeSequenceModel.idPrefix[entityName] ?? "X")\(counter)")
        }
        guard let entity = model.entity(named: entityName) else {
            return .insert(entity: entityName, id: id, attributes: [Field(key: "name", value: .string("w"))], relationships: [])
        }
        var attributes: [Field] = []
        for attribute in entity.attributes {
            let required = !attribute.isOptional && attribute.defaultValue == nil
            if random.chance(required ? 96 : attribute.name == "code" ? 70 : 50, in: 100) {
                attributes.append(Field(key: attribute.name, value: validValue(attribute)))
            }
        }
        var relationships: [Link] = []
        for relationship in entity.relationships {
            let chance = !relationship.isOptional && !relationship.isToMany ? 95 : relationship.minCount > 0 ? 80 : relationship.name == "team" ? 50 : 30
            if random.chance(chance, in: 100) {
                relationships.append(Link(key: relationship.name, ids: destinations(relationship, state: state)))
            }
        }
        let faulty = addFaults(entity: entity, attributes: &attributes, relationships: &relationships, state: state)
        if let id, !state.contains(where: { $0.id == id }) {
            given.append(id)
            // A unit's later changes may name the object, if it is sure to be inserted (a
            // change naming two objects that are not there would fail on whichever its
            // dictionary lists first, which varies from run to run).
            if !faulty { state.append(LiveObject(id: id, entity: entityName)) }
        }
        return .insert(entity: entityName, id: id, attributes: attributes, relationships: relationships)
    }

    private mutating func updateAttributes(state: [LiveObject]) -> ChangeOperation {
        let (id, entity) = target(state: state)
        guard let entity else { return .update(id, attributes: [Field(key: "name", value: .string("x"))], relationships: []) }
        var attributes: [Field] = []
        for attribute in entity.attributes.shuffledPrefix(random.int(in: 1...3), using: &random) {
            attributes.append(Field(key: attribute.name, value: validValue(attribute)))
        }
        var relationships: [Link] = []
        addFaults(entity: entity, attributes: &attributes, relationships: &relationships, state: state, allowLinkFault: false)
        return .update(id, attributes: attributes, relationships: relationships)
    }

    private mutating func updateRelationships(state: [LiveObject]) -> ChangeOperation {
        let (id, entity) = target(state: state)
        guard let entity, !entity.relationships.isEmpty else {
            return .update(id, attributes: [], relationships: [Link(key: "tags", ids: [])])
        }
        var relationships: [Link] = []
        for relationship in entity.relationships.shuffledPrefix(random.chance(1, in: 3) ? 2 : 1, using: &random) {
            relationships.append(Link(key: relationship.name, ids: random.chance(1, in: 6) ? [] : destinations(relationship, state: state)))
        }
        var attributes: [Field] = []
        if random.chance(1, in: 5), let attribute = random.pick(entity.attributes) {
            attributes.append(Field(key: attribute.name, value: validValue(attribute)))
        }
        addFaults(entity: entity, attributes: &attributes, relationships: &relationships, state: state, allowValueFault: false)
        return .update(id, attributes: attributes, relationships: relationships)
    }

    private mutating func delete(state: inout [LiveObject]) -> ChangeOperation {
        let (id, _) = target(state: state)
        state.removeAll { $0.id == id }
        return .delete(id)
    }

    private mutating func batchUpdate() -> ChangeOperation {
        let entity = random.weighted([(30, "Item"), (6, "Thing"), (6, "SpecialItem"), (5, "Gadget"), (6, "Category"), (6, "Tag"),
                                      (10, "Person"), (5, "Team"), (5, "Note"), (1, "Widget")], or: "Item")
        let predicate = random.pick(ChangeSequenceModel.batchPredicates[entity] ?? [nil], or: nil)
        let pool = ChangeSequenceModel.batchAssignments[entity] ?? []
        var set: [(key: String, expression: String)] = []
        var faulty = false
        for (key, expressions) in pool.shuffledPrefix(random.chance(1, in: 3) ? 2 : 1, using: &random) {
            // At most one assignment that fails (a key that is no attribute, a value that
            // does not fit), so which one fails first does not depend on dictionary order.
            let candidates = expressions.filter { !faulty || !Self.faultyAssignment(key, $0) }
            guard let expression = random.pick(candidates) else { continue }
            if Self.faultyAssignment(key, expression) { faulty = true }
            set.append((key, expression))
        }
        if random.chance(1, in: 30) { set = [] }
        return .batchUpdate(entity: entity, predicate: predicate, set: set)
    }

    /// Whether an assignment of the pools may fail on its own.
    static func faultyAssignment(_ key: String, _ expression: String) -> Bool {
        ["owner", "team", "nosuchkey"].contains(key) || ["3000000000", "'x'", "2", "40000", "1.5", "'heavy'"].contains(expression)
    }

    private mutating func batchDelete() -> ChangeOperation {
        let entity = random.weighted([(20, "Item"), (5, "Thing"), (5, "SpecialItem"), (4, "Gadget"), (5, "Category"), (6, "Tag"),
                                      (8, "Person"), (5, "Team"), (6, "Note"), (1, "Widget")], or: "Item")
        // Deleting every object is rare: most batch deletes select some.
        var predicates = ChangeSequenceModel.batchPredicates[entity] ?? [nil]
        if predicates.count > 1 && random.chance(3, in: 4) { predicates.removeAll { $0 == nil } }
        return .batchDelete(entity: entity, predicate: random.pick(predicates, or: nil))
    }

    /// The object a change names: mostly a live one, sometimes one that is gone or never was.
    private mutating func target(state: [LiveObject]) -> (ObjectID, EntityDescription?) {
        let roll = random.below(100)
        if roll < 90, let object = random.pick(state) {
            return (object.id, model.entity(named: object.entity))
        }
        if roll < 96, let id = random.pick(given), !state.contains(where: { $0.id == id }) {
            return (id, model.entity(named: entityOfGiven(id)))
        }
        return (ObjectID("gone\(random.below(5))"), nil)
    }

    private func entityOfGiven(_ id: ObjectID) -> String {
        let prefix = String(id.rawValue.prefix(1))
        return ChangeSequenceModel.idPrefix.first { $0.value == prefix }?.key ?? "Item"
    }

    // MARK: Values and destinations

    /// A value the attribute accepts (sometimes in another form it converts: an integral
    /// double for an integer, 0/1 for a Boolean, an ISO 8601 string for a date); nil for
    /// optional attributes now and then.
    private mutating func validValue(_ attribute: AttributeDescription) -> Value {
        if attribute.isOptional && random.chance(1, in: 10) { return .null }
        switch attribute.type {
        case .string, .uri:
            switch attribute.name {
            case "code": return .string(random.pick(["A", "B", "C", "A1"], or: "A"))
            case "name":
                return .string(random.pick(["alpha", "beta", "gamma", "Alpha", "\u{E9}t\u{E9}", "e\u{301}te\u{301}", "", "a b"], or: "alpha"))
            default: return .string(random.pick(["n", "note", "", "x"], or: "n"))
            }
        case .integer16:
            if random.chance(1, in: 10) { return .double(Double(random.int(in: -2...5))) }
            return .int(Int64(random.pick([0, 1, 2, 3, -7, 300, 32767, -32768], or: 1)))
        case .integer32:
            if random.chance(1, in: 10) { return .double(3.0) }
            return .int(Int64(random.pick([0, 1, 2, 3, 5, -1, 70000, Int(Int32.max)], or: 1)))
        case .integer64:
            return .int(random.pick([0, 1, 2, -5, Int64.max, Int64.min], or: 1))
        case .double, .float:
            if random.chance(1, in: 10) { return .int(Int64(random.int(in: -3...9))) }
            return .double(random.pick([0.5, 1.0, 2.25, -3.5, 1e-7, 12345.678, 0.1 + 0.2, -0.0, 1e300, .infinity, -.infinity], or: 1))
        case .boolean:
            return random.pick([.bool(true), .bool(false), .int(0), .int(1)], or: .bool(true))
        case .date:
            if random.chance(1, in: 6) { return .string(random.pick(["2021-03-04T05:06:07Z", "2020-02-29", "1999-12-31T23:59:59.5Z"], or: "2020-02-29")) }
            let seconds = Double(random.int(in: -1_000_000...1_000_000_000)) + Double(random.below(1000)) / 1000
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        default:
            return .null
        }
    }

    /// A value the attribute refuses (or nil for a required one, refused at save).
    private mutating func invalidValue(_ attribute: AttributeDescription) -> Value {
        if !attribute.isOptional && random.chance(1, in: 3) { return .null }
        switch attribute.type {
        case .string, .uri: return random.pick([.int(3), .bool(true), .double(1.5)], or: .int(3))
        case .integer16: return random.pick([.int(40000), .double(2.5), .string("3"), .bool(true), .int(-32769)], or: .int(40000))
        case .integer32: return random.pick([.int(3_000_000_000), .string("x"), .double(1e10)], or: .string("x"))
        case .integer64: return random.pick([.double(1e19), .string("1"), .double(0.5)], or: .string("1"))
        case .double, .float: return random.pick([.double(.nan), .string("1.5"), .bool(true)], or: .double(.nan))
        case .boolean: return random.pick([.int(2), .string("yes"), .double(0.5)], or: .int(2))
        case .date: return random.pick([.string("soon"), .int(5), .double(1.5), .string("2021-13-01")], or: .string("soon"))
        default: return .int(1)
        }
    }

    /// Destinations for a relationship, of the right entity, from the live objects (a to-one
    /// gets one, now and then none; a to-many a few, now and then a repeat).
    private mutating func destinations(_ relationship: RelationshipDescription, state: [LiveObject]) -> [ObjectID] {
        let fitting = state.filter { model.isKind($0.entity, of: relationship.destination) }
        guard !fitting.isEmpty else { return [] }
        if !relationship.isToMany {
            return random.chance(1, in: 10) ? [] : [random.pick(fitting)!.id]
        }
        let count = relationship.minCount > 0 ? random.int(in: max(0, relationship.minCount - 1)...(relationship.maxCount + 1))
                                             : random.int(in: 0...3)
        var ids = fitting.shuffledPrefix(count, using: &random).map(\.id)
        if !ids.isEmpty && random.chance(1, in: 12) { ids.append(ids[0]) }
        return ids
    }

    /// At most one fault of each kind: an unknown or misplaced key, a value that does not fit,
    /// a destination that does not fit. Returns whether it added any.
    @discardableResult
    private mutating func addFaults(entity: EntityDescription, attributes: inout [Field], relationships: inout [Link], state: [LiveObject],
                                    allowValueFault: Bool = true, allowLinkFault: Bool = true) -> Bool {
        var added = false
        if random.chance(1, in: 12) {
            added = true
            switch random.below(4) {
            case 0: attributes.append(Field(key: random.pick(["colour", "Name", "count2"], or: "colour"), value: .string("red")))
            case 1:
                if let relationship = random.pick(entity.relationships) {
                    attributes.append(Field(key: relationship.name, value: .string("P1")))
                } else {
                    attributes.append(Field(key: "colour", value: .int(1)))
                }
            case 2: relationships.append(Link(key: random.pick(["friends", "item2"], or: "friends"), ids: []))
            default:
                if let attribute = random.pick(entity.attributes) { relationships.append(Link(key: attribute.name, ids: [])) }
            }
        }
        if allowValueFault, random.chance(1, in: 9), let attribute = random.pick(entity.attributes) {
            added = true
            attributes.removeAll { $0.key == attribute.name }
            attributes.append(Field(key: attribute.name, value: invalidValue(attribute)))
        }
        if allowLinkFault, random.chance(1, in: 10), let relationship = random.pick(entity.relationships) {
            added = true
            relationships.removeAll { $0.key == relationship.name }
            var ids: [ObjectID]
            switch random.below(3) {
            case 0:  // an ID no object has (or had)
                ids = [random.pick(given).map { id in state.contains { $0.id == id } ? ObjectID("gone1") : id } ?? "gone2"]
            case 1:  // an object of another entity
                let other = state.filter { !model.isKind($0.entity, of: relationship.destination) }
                ids = random.pick(other).map { [$0.id] } ?? ["gone3"]
            default:  // two objects for a to-one (a to-many gets an unknown ID among good ones)
                ids = destinations(relationship, state: state)
                if relationship.isToMany {
                    ids.insert("gone4", at: random.below(ids.count + 1))
                } else {
                    let fitting = state.filter { model.isKind($0.entity, of: relationship.destination) }
                    ids = fitting.shuffledPrefix(2, using: &random).map(\.id)
                    if ids.count < 2 { ids.append("gone5") }
                }
            }
            relationships.append(Link(key: relationship.name, ids: ids))
        }
        return added
    }

    // MARK: Repairs

    /// A change that fixes what a refused save names, if there is one.
    private mutating func repair(_ error: StoreError, live: [LiveObject]) -> ChangeOperation? {
        guard let id = error.objectID, let key = error.key, let object = live.first(where: { $0.id == id }),
              let entity = model.entity(named: object.entity) else { return nil }
        counter += 1
        switch error.code {
        case .missingValue:
            if let attribute = entity.attributes.first(where: { $0.name == key }) {
                var value = validValue(attribute)
                if value.isNull { value = attribute.type == .string ? .string("fixed") : .int(1) }
                return .update(id, attributes: [Field(key: key, value: value)], relationships: [])
            }
            if let relationship = entity.relationship(named: key) {
                let fitting = live.filter { model.isKind($0.entity, of: relationship.destination) }
                guard let destination = random.pick(fitting) else { return .delete(id) }
                return .update(id, attributes: [], relationships: [Link(key: key, ids: [destination.id])])
            }
            return nil
        case .relationshipCount:
            guard let relationship = entity.relationship(named: key) else { return nil }
            let fitting = live.filter { model.isKind($0.entity, of: relationship.destination) }
            let low = max(relationship.minCount, 1), high = relationship.maxCount > 0 ? relationship.maxCount : low + 2
            guard fitting.count >= low else { return .delete(id) }
            return .update(id, attributes: [], relationships: [Link(key: key, ids: fitting.shuffledPrefix(random.int(in: low...min(high, fitting.count)), using: &random).map(\.id))])
        case .constraintViolation:
            switch key {
            case "code": return .update(id, attributes: [Field(key: "code", value: .string("U\(counter)"))], relationships: [])
            case "level": return .update(id, attributes: [Field(key: "level", value: .int(Int64(1000 + counter)))], relationships: [])
            default: return .update(id, attributes: [Field(key: key, value: .string("unique \(counter)"))], relationships: [])
            }
        default:
            return nil
        }
    }

    typealias Field = ChangeOperation.Field
    typealias Link = ChangeOperation.Link
}

extension Collection {
    /// Up to `count` elements in random order.
    func shuffledPrefix(_ count: Int, using random: inout DifferentialRandom) -> [Element] {
        var elements = Array(self)
        var result: [Element] = []
        while result.count < count, !elements.isEmpty {
            result.append(elements.remove(at: random.below(elements.count)))
        }
        return result
    }
}
