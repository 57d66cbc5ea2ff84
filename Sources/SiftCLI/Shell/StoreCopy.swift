import Foundation
import Sift

/// Copying every object of one store into another with the same model.
enum StoreCopy {
    /// Inserts every object of `source` into `target` (empty, of the same model) with its ID,
    /// attributes and relationships, and saves. Each inheritance hierarchy is copied in the
    /// source's order, so every fetch (always of one hierarchy) sees the objects in the same
    /// insertion order, and unordered to-many relationships list their destinations alike.
    static func copy(_ source: any PersistentStore, into target: any PersistentStore) throws {
        try target.performChanges {
            var copied: [ManagedObject] = []
            for root in source.model.entities where root.parent == nil {
                for object in try source.fetch(FetchRequest(entityName: root.name)) {
                    var attributes: [String: Value] = [:]
                    for (name, value) in object.attributeValues.pairs { attributes[name] = value }
                    try target.insert(entity: object.entityName, id: object.objectID, attributes: attributes, relationships: [:])
                    copied.append(object)
                }
            }
            // Relationships once every object is in: each object sets its own, in its order
            // (setting one side sets the inverse, which its own turn then finds unchanged).
            for object in copied {
                var relationships: [String: [ObjectID]] = [:]
                for relationship in object.relationshipIDs where !relationship.ids.isEmpty {
                    relationships[relationship.name] = relationship.ids
                }
                if !relationships.isEmpty { try target.update(object.objectID, attributes: [:], relationships: relationships) }
            }
        }
        try target.save()
    }
}
