import SiftEvaluation
import SiftLanguage

/// An entity: its attributes and relationships, an optional parent entity whose properties it
/// inherits, whether it is abstract, and its indexes and uniqueness constraints.
///
/// In a ``DataModel`` an entity also knows its inherited properties: ``attributes`` and
/// ``relationships`` list the parent's first, so a property has the same position in every
/// sub-entity (stores rely on it).
public struct EntityDescription: Sendable {
    public var name: String
    /// The parent entity's name (inheritance).
    public var parent: String?
    /// An abstract entity has no objects of its own, only through its sub-entities.
    public var isAbstract: Bool
    /// The entity's own attributes (``DataModel`` adds the inherited ones).
    public var ownAttributes: [AttributeDescription]
    public var ownRelationships: [RelationshipDescription]
    /// Indexes, each a list of property names.
    public var indexes: [[String]]
    /// Uniqueness constraints, each a list of property names whose values together must be
    /// unique among the objects of this entity (and its sub-entities).
    public var uniquenessConstraints: [[String]]

    // Filled in by DataModel.
    public internal(set) var attributes: [AttributeDescription] = []
    public internal(set) var relationships: [RelationshipDescription] = []
    /// Names of this entity and every entity that inherits from it, in model order.
    public internal(set) var entityAndSubentities: [String] = []
    /// The entity at the top of this one's inheritance chain.
    public internal(set) var rootEntity: String = ""
    var propertyIndex: [String: PropertySlot] = [:]
    /// Each attribute's default value (nil without one), by slot: what an insert starts from.
    package internal(set) var defaultValues: [Value] = []

    public init(name: String, parent: String? = nil, isAbstract: Bool = false,
                attributes: [AttributeDescription] = [], relationships: [RelationshipDescription] = [],
                indexes: [[String]] = [], uniquenessConstraints: [[String]] = []) {
        self.name = name
        self.parent = parent
        self.isAbstract = isAbstract
        self.ownAttributes = attributes
        self.ownRelationships = relationships
        self.indexes = indexes
        self.uniquenessConstraints = uniquenessConstraints
    }

    /// The entity as declared — its own attributes and relationships, not those it inherits —
    /// as ``DataModel``'s initializer takes it, to make a model again with some of its parts
    /// changed: `attributes` and `relationships`, where given, in place of its own.
    package func declaration(attributes: [AttributeDescription]? = nil, relationships: [RelationshipDescription]? = nil) -> EntityDescription {
        EntityDescription(name: name, parent: parent, isAbstract: isAbstract, attributes: attributes ?? ownAttributes,
                          relationships: relationships ?? ownRelationships, indexes: indexes, uniquenessConstraints: uniquenessConstraints)
    }

    /// Where a property sits: an attribute or relationship position in ``attributes`` /
    /// ``relationships``.
    public enum PropertySlot: Sendable, Hashable {
        case attribute(Int)
        case relationship(Int)
    }

    /// The property named `name` (inherited ones included).
    public func slot(of name: String) -> PropertySlot? { propertyIndex[name] }

    public func attribute(named name: String) -> AttributeDescription? {
        guard case .attribute(let i) = propertyIndex[name] else { return nil }
        return attributes[i]
    }

    public func relationship(named name: String) -> RelationshipDescription? {
        guard case .relationship(let i) = propertyIndex[name] else { return nil }
        return relationships[i]
    }

    /// "unknown key 'titel' on Note; did you mean 'title'?": the one wording every layer uses.
    public func unknownKeyMessage(_ key: String) -> String {
        var message = "unknown key '\(key)' on \(name)"
        if let suggestion = Suggestions.closest(to: key, in: propertyNames) { message += "; did you mean '\(suggestion)'?" }
        return message
    }

    /// Every property name, attributes first, in declaration order (inherited first).
    public var propertyNames: [String] { attributes.map(\.name) + relationships.map(\.name) }
}
