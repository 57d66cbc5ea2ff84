import SiftEvaluation
import SiftLanguage

extension PersistentStore {
    /// Inserts every object of this store — of `entities` only, when given (their
    /// relationships to other entities left out) — into `target` (empty, of the same model)
    /// with its ID, attributes and relationships, and saves: what `.engine both` and the
    /// differential tests compare two engines on.
    ///
    /// Each inheritance hierarchy is copied in this store's order, so every fetch (always of
    /// one hierarchy) sees the objects in the same insertion order, and unordered to-many
    /// relationships list their destinations alike. Destinations are read a batch of objects
    /// at a time (prefetched), not one query per object.
    ///
    /// This store's `interrupt()` stops the copy between objects (``StoreError/interrupted``),
    /// and `target` keeps nothing of it.
    public func copyObjects(into target: any PersistentStore, entities: Set<String>? = nil) throws {
        let model = model
        let interruption = (self as? any InterruptibleStore)?.interruption
        try interruption.whileRunning {
            try copyObjects(into: target, entities: entities, model: model, interruption: interruption)
        }
    }

    private func copyObjects(into target: any PersistentStore, entities: Set<String>?, model: DataModel,
                             interruption: FetchInterruption?) throws {
        try target.performChanges {
            var copied: [ManagedObject] = []
            for root in model.entities where root.parent == nil && entities?.contains(root.name) != false {
                var request = FetchRequest(entityName: root.name)
                request.relationshipKeyPathsForPrefetching = root.relationships.map(\.name)
                request.fetchBatchSize = 500
                for object in try fetch(request) {
                    try interruption?.check()
                    var attributes: [String: Value] = [:]
                    for (name, value) in object.attributeValues.pairs { attributes[name] = value }
                    try target.insert(entity: object.entityName, id: object.objectID, attributes: attributes, relationships: [:])
                    copied.append(object)
                }
            }
            // Relationships once every object is in: each object sets its own, in its order
            // (setting one side sets the inverse, which its own turn then finds unchanged).
            for object in copied {
                try interruption?.check()
                var relationships: [String: [ObjectID]] = [:]
                for relationship in object.relationshipIDs where !relationship.ids.isEmpty {
                    if let entities, let destination = model.entity(named: object.entityName)?.relationship(named: relationship.name)?.destination,
                       !entities.contains(destination) { continue }
                    relationships[relationship.name] = relationship.ids
                }
                if !relationships.isEmpty { try target.update(object.objectID, attributes: [:], relationships: relationships) }
            }
        }
        try target.save()
    }
}
