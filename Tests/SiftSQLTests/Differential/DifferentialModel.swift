import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// The fixed model every differential case runs on: one of each attribute type a fetch can
/// compare or sort (strings, integers of three widths, Double, Float, Decimal, Boolean, Date,
/// UUID),
/// optional and required attributes, to-one, to-many, many-to-many and self-referencing
/// relationships, a sub-entity, indexes and searchable attributes (which must never change what
/// a fetch returns: the SQLite store reads `[c]`/`[cd]` tests of `Item.name`, `SpecialItem.extra`
/// and `Tag.name` from their folded columns).
///
/// The data and predicate generators read the model's shape from ``DifferentialModel`` (the
/// key paths a predicate may use and what type each reaches), so they stay in step with it.
enum DifferentialModel {
    /// The model in Sift's JSON model format (docs/MODEL-JSON.md), as the reports print it.
    static let json = #"""
    {"name": "Differential", "entities": [
      {"name": "Item",
       "attributes": [
         {"name": "name", "type": "String", "searchable": true},
         {"name": "title", "type": "String", "optional": false, "default": ""},
         {"name": "count", "type": "Integer 64"},
         {"name": "small", "type": "Integer 16", "optional": false, "default": 0},
         {"name": "price", "type": "Double"},
         {"name": "ratio", "type": "Float", "optional": false, "default": 0},
         {"name": "amount", "type": "Decimal"},
         {"name": "flag", "type": "Boolean"},
         {"name": "when", "type": "Date"},
         {"name": "code", "type": "UUID"}],
       "relationships": [
         {"name": "owner", "destination": "Person", "inverse": "items"},
         {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "items"},
         {"name": "parent", "destination": "Item", "inverse": "children"},
         {"name": "children", "destination": "Item", "toMany": true, "inverse": "parent"}],
       "indexes": [["count"], ["name"]]},
      {"name": "SpecialItem", "parent": "Item",
       "attributes": [
         {"name": "extra", "type": "String", "searchable": true},
         {"name": "level", "type": "Integer 32"}]},
      {"name": "Person",
       "attributes": [
         {"name": "name", "type": "String"},
         {"name": "age", "type": "Integer 32"}],
       "relationships": [
         {"name": "items", "destination": "Item", "toMany": true, "inverse": "owner"}]},
      {"name": "Tag",
       "attributes": [
         {"name": "name", "type": "String", "optional": false, "searchable": true},
         {"name": "weight", "type": "Double"}],
       "relationships": [
         {"name": "items", "destination": "Item", "toMany": true, "inverse": "tags"}]}
    ]}
    """#

    /// The model, read from ``json``.
    static func make() throws -> DataModel {
        try JSONModelFormat.read(Data(json.utf8), name: "Differential")
    }

    /// The entities a fetch may name. `Item` fetches include `SpecialItem` objects unless the
    /// request says otherwise.
    static let fetchableEntities = ["Item", "SpecialItem", "Person", "Tag"]

    /// What a value read from the model is, as far as the generators care.
    enum ValueType: String, Sendable, CaseIterable {
        case string, integer, double, boolean, date, uuid
        /// Integer, Double, Float, Decimal and Boolean: they compare (and do arithmetic) with
        /// each other. (A Decimal is a `double` to the generators: its values are decimals.)
        var isNumeric: Bool { self == .integer || self == .double || self == .boolean }
    }

    /// An attribute of an entity (inherited ones included) and what it holds.
    struct Attribute: Sendable {
        let name: String
        let type: ValueType
        /// The attribute's model type, for the generator's value pools (`Integer 16` has a
        /// narrower range than `Integer 64`, a Float fewer digits than a Double).
        let modelType: AttributeType
        let isOptional: Bool
    }

    /// A relationship and its destination.
    struct Relationship: Sendable {
        let name: String
        let destination: String
        let isToMany: Bool
    }

    /// The attributes of an entity, read from the model (inherited ones first).
    static func attributes(of entity: String, in model: DataModel) -> [Attribute] {
        guard let description = model.entity(named: entity) else { return [] }
        return description.attributes.compactMap { attribute in
            guard let type = valueType(of: attribute.type) else { return nil }
            return Attribute(name: attribute.name, type: type, modelType: attribute.type, isOptional: attribute.isOptional)
        }
    }

    /// The relationships of an entity, read from the model.
    static func relationships(of entity: String, in model: DataModel) -> [Relationship] {
        guard let description = model.entity(named: entity) else { return [] }
        return description.relationships.map { Relationship(name: $0.name, destination: $0.destination, isToMany: $0.isToMany) }
    }

    static func valueType(of type: AttributeType) -> ValueType? {
        switch type {
        case .string, .uri: .string
        case .integer16, .integer32, .integer64: .integer
        case .double, .float, .decimal: .double
        case .boolean: .boolean
        case .date: .date
        case .uuid: .uuid
        default: nil
        }
    }
}
