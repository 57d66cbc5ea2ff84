import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// The objects of one differential case, in insertion order (the order that breaks sort ties,
/// so both stores must be filled in exactly this order).
///
/// Relationships are written on one side only (an Item's `owner`, `tags` and `parent`); the
/// stores fill in the inverses (`Person.items`, `Tag.items`, `Item.children`).
struct DifferentialDataSet: Sendable {
    struct Object: Sendable {
        /// The object's own entity (`SpecialItem` for a special item).
        var entity: String
        var id: ObjectID
        /// The attributes given on insert, in a fixed order; `.null` is an explicit nil. An
        /// attribute left out takes its default.
        var attributes: [(name: String, value: Value)]
        /// The relationships given on insert (targets by ID; a to-one has exactly one).
        var relationships: [(name: String, targets: [ObjectID])]
    }

    var objects: [Object]

    /// Entities in the order the import JSON lists them (each object's entity is listed
    /// under its root entity, so `SpecialItem` rows sit among the `Item` rows).
    static let rootOrder = ["Person", "Tag", "Item"]

    static func root(of entity: String) -> String { entity == "SpecialItem" ? "Item" : entity }

    // MARK: Filling a store

    /// Inserts every object in order through the `PersistentStore` API, then saves. A
    /// relationship whose target comes later in the order (an item's parent inserted after
    /// it) is set by an update once everything is inserted.
    func fill(_ store: any PersistentStore) throws {
        var inserted: Set<ObjectID> = []
        var deferred: [(ObjectID, String, [ObjectID])] = []
        for object in objects {
            var attributes: [String: Value] = [:]
            for (name, value) in object.attributes { attributes[name] = value }
            var relationships: [String: [ObjectID]] = [:]
            for (name, targets) in object.relationships {
                if targets.allSatisfy(inserted.contains) {
                    relationships[name] = targets
                } else {
                    deferred.append((object.id, name, targets))
                }
            }
            try store.insert(entity: object.entity, id: object.id, attributes: attributes, relationships: relationships)
            inserted.insert(object.id)
        }
        for (id, name, targets) in deferred {
            try store.update(id, attributes: [:], relationships: [name: targets])
        }
        try store.save()
    }

    // MARK: Shrinking

    /// The data set without the objects at `positions`; relationships to them are dropped.
    func removing(_ positions: Set<Int>) -> DifferentialDataSet {
        let removedIDs = Set(positions.compactMap { objects.indices.contains($0) ? objects[$0].id : nil })
        var kept: [Object] = []
        for (position, object) in objects.enumerated() where !positions.contains(position) {
            var object = object
            object.relationships = object.relationships.compactMap { relationship in
                let targets = relationship.targets.filter { !removedIDs.contains($0) }
                return targets.isEmpty ? nil : (relationship.name, targets)
            }
            kept.append(object)
        }
        return DifferentialDataSet(objects: kept)
    }

    // MARK: The import JSON form

    /// The data set as Sift's import JSON (docs/IMPORT.md), the form a report prints: it can
    /// be imported with `sift import` or `StoreImporter.importJSON` to reproduce a case. Rows
    /// keep insertion order (every Person, then every Tag, then the items, as the generator
    /// makes them).
    var importJSON: String {
        var groups: [String: [String]] = [:]
        for object in objects {
            var fields = ["\"@id\": \(Self.json(object.id.rawValue))"]
            if object.entity != Self.root(of: object.entity) { fields.insert("\"@entity\": \(Self.json(object.entity))", at: 0) }
            for (name, value) in object.attributes { fields.append("\(Self.json(name)): \(Self.json(value))") }
            for (name, targets) in object.relationships {
                let text = name == "tags" || targets.count != 1
                    ? "[" + targets.map { Self.json($0.rawValue) }.joined(separator: ", ") + "]"
                    : Self.json(targets[0].rawValue)
                fields.append("\(Self.json(name)): \(text)")
            }
            groups[Self.root(of: object.entity), default: []].append("{" + fields.joined(separator: ", ") + "}")
        }
        let entities = Self.rootOrder.compactMap { entity -> String? in
            guard let rows = groups[entity] else { return nil }
            return "  \(Self.json(entity)): [\n    " + rows.joined(separator: ",\n    ") + "]"
        }
        return entities.isEmpty ? "{}" : "{\n" + entities.joined(separator: ",\n") + "\n}"
    }

    static func json(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONWriter.writeString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A value as the import format writes it: dates as ISO 8601 text, UUIDs as their string,
    /// doubles in their shortest form (`-0.0` keeps its sign).
    static func json(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .double(let d): JSONWriter.doubleText(d) ?? "null"
        case .string(let s): json(s)
        case .date(let d): json(ISO8601.string(from: d))
        case .uuid(let u): json(u.uuidString)
        default: JSONWriter.string(value)
        }
    }

    /// A one-line summary: how many objects of each entity.
    var summary: String {
        var counts: [String: Int] = [:]
        for object in objects { counts[object.entity, default: 0] += 1 }
        let parts = counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        return parts.isEmpty ? "no objects" : parts.joined(separator: ", ")
    }
}
