import Sift
import SiftStore

/// Writes fetched objects as `--output json`/`jsonl` print them, straight from their attribute
/// values to JSON text: the same bytes as ``ObjectOutput/value(of:model:)`` written by
/// `JSONWriter`, without building a dictionary per object.
///
/// What every object of an entity shares is made once: the text up to its `@id`
/// (`{"@entity":"Person","@id":`), each attribute's `,"name":` (by the shared names a fetch
/// gives the objects of one entity), each relationship's. Only with every property shown
/// (no `--properties`); ``ObjectOutput`` says which.
final class ObjectJSONWriter {
    private let output: ObjectOutput
    private let model: DataModel
    /// By entity name: the opening up to `"@id":`, and the relationships shown with their keys.
    private var entities: [String: EntityText] = [:]
    /// The `,"name":` of each attribute, for the last names seen (a fetch's objects of one
    /// entity share their names, so this is nearly always the one looked up).
    private var lastNames: AttributeNames?
    private var lastKeys: [[UInt8]] = []

    private struct EntityText {
        let opening: [UInt8]
        let relationships: [(key: [UInt8], relationship: RelationshipDescription)]
    }

    /// A writer for `output`'s objects, or nil when it shows chosen properties (written through
    /// ``ObjectOutput/value(of:model:)``).
    init?(_ output: ObjectOutput, model: DataModel) {
        guard output.properties == nil else { return nil }
        self.output = output
        self.model = model
    }

    /// Appends `object`'s JSON text to `text`.
    func write(_ object: ManagedObject, to text: inout [UInt8]) {
        let entity = entityText(object.entityName)
        text.append(contentsOf: entity.opening)
        JSONWriter.writeString(object.objectID.rawValue, to: &text)
        let (names, values) = object.attributeSlots
        let keys = attributeKeys(names)
        var slot = values.startIndex
        for key in keys {
            text.append(contentsOf: key)
            JSONWriter.write(values[slot], to: &text)
            slot += 1
        }
        for (key, relationship) in entity.relationships {
            text.append(contentsOf: key)
            JSONWriter.write(output.value(of: relationship, object), to: &text)
        }
        text.append(UInt8(ascii: "}"))
    }

    private func entityText(_ name: String) -> EntityText {
        if let known = entities[name] { return known }
        var opening = Array(#"{"@entity":"#.utf8)
        JSONWriter.writeString(name, to: &opening)
        opening.append(contentsOf: #","@id":"#.utf8)
        var relationships: [(key: [UInt8], relationship: RelationshipDescription)] = []
        if output.relationships != .none, let entity = model.entity(named: name) {
            relationships = entity.relationships.map { (Self.key($0.name), $0) }
        }
        let text = EntityText(opening: opening, relationships: relationships)
        entities[name] = text
        return text
    }

    private func attributeKeys(_ names: AttributeNames) -> [[UInt8]] {
        if names !== lastNames {
            lastNames = names
            lastKeys = names.names.map(Self.key)
        }
        return lastKeys
    }

    /// `,"name":`
    private static func key(_ name: String) -> [UInt8] {
        var key: [UInt8] = [UInt8(ascii: ",")]
        JSONWriter.writeString(name, to: &key)
        key.append(UInt8(ascii: ":"))
        return key
    }
}
