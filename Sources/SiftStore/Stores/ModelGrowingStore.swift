/// A store whose model can grow by entities of their own: entities with new names, no parent
/// and no relationships, added after the model's (whose objects stay as they are). `sift
/// import` adds one, inferred from the data, to a store whose model was inferred too
/// (``DataModel/isInferred``). The SQLite store and the JSON and binary stores grow.
///
///     var inference = ModelInference(entity: "People")
///     try inference.addCSV(CSVReader(fileHandle: people))
///     let entity = try inference.model().entities[0]
///     try store.performChanges {
///         try store.addEntities([entity])
///         try store.save()
///     }
public protocol ModelGrowingStore: PersistentStore {
    /// Adds `entities` to the store's model as a change: the next `save()` keeps it (with the
    /// model stored in the store), `rollback()` undoes it. An entity with a name the model has
    /// (or, in a SQLite store, one that differs only in case), a parent or relationships is an
    /// error; so are changes pending in a SQLite store (add the entities first, then change).
    func addEntities(_ entities: [EntityDescription]) throws(StoreError)
}

extension ModelGrowingStore {
    /// The model with `entities` added, or the error that says why they cannot be.
    package func grownModel(adding entities: [EntityDescription]) throws(StoreError) -> DataModel {
        for entity in entities where entity.parent != nil || !entity.ownRelationships.isEmpty {
            throw StoreError(.unsupportedModel, "entity \(entity.name) cannot be added to the store's model: an added entity has no parent and no relationships",
                             entity: entity.name)
        }
        for entity in entities where model.entity(named: entity.name) != nil {
            throw StoreError(.unsupportedModel, "the store's model has an entity \(entity.name) already", entity: entity.name)
        }
        do throws(ModelError) {
            return try model.adding(entities)
        } catch {
            throw StoreError(.unsupportedModel, "cannot add to the store's model: \(error.message)")
        }
    }
}
