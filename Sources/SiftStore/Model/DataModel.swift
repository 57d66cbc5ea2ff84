import SiftEvaluation
import SiftLanguage

/// A model: entities with attributes and relationships (Core Data's managed object model).
///
/// Creating one validates it: entity and property names are unique, parents and destinations
/// exist and inheritance has no cycles, an inverse points back, default values fit their
/// attribute's type, only String attributes are searchable, indexes and constraints name
/// existing properties.
///
///     let model = try DataModel(entities: [
///         EntityDescription(name: "Note", attributes: [AttributeDescription(name: "title", type: .string, isOptional: false)],
///                           relationships: [RelationshipDescription(name: "category", destination: "Category", inverse: "notes")]),
///         EntityDescription(name: "Category", attributes: [AttributeDescription(name: "name", type: .string)],
///                           relationships: [RelationshipDescription(name: "notes", destination: "Note", isToMany: true, inverse: "category")]),
///     ])
public struct DataModel: Sendable {
    /// A name for the model (the file it came from, or its version).
    public var name: String
    /// Whether the model was inferred from data (`sift import --entity` without a model,
    /// ``ModelInference``): importing an entity it lacks adds one inferred from the data
    /// (``ModelGrowingStore``), where a model written by hand says which entities there are.
    /// Written `"inferred": true` in the JSON model format.
    public var isInferred = false
    /// The entities, in the order they were declared.
    public private(set) var entities: [EntityDescription]
    private var entityIndex: [String: Int]

    public init(name: String = "Model", entities declared: [EntityDescription]) throws(ModelError) {
        self.name = name
        var index: [String: Int] = [:]
        for (i, entity) in declared.enumerated() {
            guard !entity.name.isEmpty else { throw ModelError("an entity has an empty name") }
            guard index[entity.name] == nil else { throw ModelError("entity \(entity.name) is declared twice") }
            index[entity.name] = i
        }
        self.entityIndex = index
        self.entities = declared
        try resolveInheritance()
        try validateProperties()
    }

    /// This model with `added` entities after its own (which keep their positions): new names,
    /// validated as a new model is.
    public func adding(_ added: [EntityDescription]) throws(ModelError) -> DataModel {
        var grown = try DataModel(name: name, entities: entities + added)
        grown.isInferred = isInferred
        assert(grown.entities.prefix(entities.count).map(\.name) == entities.map(\.name), "entities keep their positions")
        return grown
    }

    public func entity(named name: String) -> EntityDescription? {
        entityIndex[name].map { entities[$0] }
    }

    /// The position of an entity in ``entities``.
    public func entityPosition(named name: String) -> Int? { entityIndex[name] }

    /// The entity named `name`, or an error that suggests the closest name.
    public func requireEntity(_ name: String) throws(ModelError) -> EntityDescription {
        if let entity = entity(named: name) { return entity }
        var message = "unknown entity '\(name)'"
        if let suggestion = Suggestions.closest(to: name, in: entities.map(\.name)) {
            message += "; did you mean '\(suggestion)'?"
        } else if entities.isEmpty {
            // (An empty database: a 0-byte SQLite file, a PostgreSQL database without tables.)
            message += " (there are no entities: the store is empty)"
        } else {
            message += " (entities: \(entities.map(\.name).joined(separator: ", ")))"
        }
        throw ModelError(message)
    }

    /// Whether `entity` is `ancestor` or inherits from it.
    public func isKind(_ entity: String, of ancestor: String) -> Bool {
        var current: String? = entity
        while let name = current {
            if name == ancestor { return true }
            current = self.entity(named: name)?.parent
        }
        return false
    }

    // MARK: Resolution and validation

    private mutating func resolveInheritance() throws(ModelError) {
        // Parents exist and there are no cycles; then order entities so parents come first.
        for entity in entities {
            var seen: Set<String> = [entity.name]
            var current = entity.parent
            while let parent = current {
                guard let parentEntity = self.entity(named: parent) else {
                    throw ModelError("entity \(entity.name): parent entity '\(parent)' does not exist")
                }
                guard seen.insert(parent).inserted else {
                    throw ModelError("entity \(entity.name): inheritance cycle through '\(parent)'")
                }
                current = parentEntity.parent
            }
        }
        for i in entities.indices {
            // The entity and its ancestors, root first (appended, then reversed: linear in depth).
            var chain: [EntityDescription] = []
            var current: EntityDescription? = entities[i]
            while let entity = current {
                chain.append(entity)
                current = entity.parent.flatMap { self.entity(named: $0) }
            }
            chain.reverse()
            var attributes: [AttributeDescription] = []
            var relationships: [RelationshipDescription] = []
            var slots: [String: EntityDescription.PropertySlot] = [:]
            for ancestor in chain {
                for attribute in ancestor.ownAttributes {
                    try checkPropertyName(attribute.name, entity: entities[i].name, ancestor: ancestor.name, taken: slots)
                    slots[attribute.name] = .attribute(attributes.count)
                    attributes.append(attribute)
                }
                for relationship in ancestor.ownRelationships {
                    try checkPropertyName(relationship.name, entity: entities[i].name, ancestor: ancestor.name, taken: slots)
                    slots[relationship.name] = .relationship(relationships.count)
                    relationships.append(relationship)
                }
            }
            entities[i].attributes = attributes
            entities[i].relationships = relationships
            entities[i].propertyIndex = slots
            entities[i].defaultValues = attributes.map { $0.defaultValue ?? .null }
            entities[i].rootEntity = chain[0].name
        }
        // Each entity joins the lists of itself and its ancestors, in declaration order: one
        // walk up per entity (testing every pair of entities was cubic in the depth).
        var subentities = [[String]](repeating: [], count: entities.count)
        for entity in entities {
            var current: String? = entity.name
            while let name = current, let position = entityIndex[name] {
                subentities[position].append(entity.name)
                current = entities[position].parent
            }
        }
        for i in entities.indices {
            entities[i].entityAndSubentities = subentities[i]
        }
    }

    private func checkPropertyName(_ name: String, entity: String, ancestor: String,
                                   taken: [String: EntityDescription.PropertySlot]) throws(ModelError) {
        guard !name.isEmpty else { throw ModelError("entity \(ancestor): a property has an empty name") }
        guard name.first != "@", !name.contains(".") else {
            throw ModelError("entity \(ancestor): property name '\(name)' may not start with '@' or contain '.'")
        }
        guard taken[name] == nil else {
            if ancestor == entity { throw ModelError("entity \(entity): property '\(name)' is declared twice") }
            throw ModelError("entity \(entity): property '\(name)' is declared twice (it is inherited from \(ancestor))")
        }
    }

    private func validateProperties() throws(ModelError) {
        for entity in entities {
            for attribute in entity.ownAttributes {
                if attribute.isSearchable && attribute.type != .string {
                    throw ModelError("entity \(entity.name): attribute \(attribute.name) (\(attribute.type.name)) cannot be searchable: only String attributes can")
                }
                if let value = attribute.defaultValue {
                    do throws(AttributeValueError) {
                        _ = try AttributeCoercion.storedValue(value, for: attribute.type)
                    } catch {
                        throw ModelError("entity \(entity.name): default value of \(attribute.name) is not a valid \(attribute.type.name): \(error.message)")
                    }
                }
            }
            for relationship in entity.ownRelationships {
                let label = "relationship \(entity.name).\(relationship.name)"
                guard let destination = self.entity(named: relationship.destination) else {
                    throw ModelError("\(label): destination entity '\(relationship.destination)' does not exist")
                }
                guard let inverseName = relationship.inverse else { continue }
                guard let inverse = destination.relationship(named: inverseName) else {
                    throw ModelError("\(label): inverse '\(inverseName)' is not a relationship of \(destination.name)")
                }
                guard isKind(entity.name, of: inverse.destination) || isKind(inverse.destination, of: entity.name) else {
                    throw ModelError("\(label): its inverse \(destination.name).\(inverseName) points to \(inverse.destination), not \(entity.name)")
                }
                if let back = inverse.inverse, back != relationship.name {
                    throw ModelError("\(label): its inverse \(destination.name).\(inverseName) names '\(back)' as its inverse, not \(relationship.name)")
                }
            }
            for (kind, lists) in [("index", entity.indexes), ("uniqueness constraint", entity.uniquenessConstraints)] {
                for list in lists {
                    guard !list.isEmpty else { throw ModelError("entity \(entity.name): an empty \(kind)") }
                    for property in list {
                        switch entity.slot(of: property) {
                        case .attribute: continue
                        case .relationship(let i) where !entity.relationships[i].isToMany: continue
                        case .relationship:
                            throw ModelError("entity \(entity.name): \(kind) on to-many relationship '\(property)'")
                        case nil:
                            throw ModelError("entity \(entity.name): \(kind) names unknown property '\(property)'")
                        }
                    }
                }
            }
        }
    }
}
