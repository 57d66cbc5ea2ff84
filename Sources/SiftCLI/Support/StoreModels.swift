import Sift

/// The model of an open store as the commands need it. A SQLite database Sift did not create
/// chooses its columns' types from their rows, a table at a time, when a fetch first reads it
/// (docs/SQLITE-DATABASES.md): what needs only the model's shape — entity names, relationships,
/// printing objects — takes the ``outline(of:)``, which reads no rows.
enum StoreModels {
    /// Every entity, attribute and relationship; attribute types only as far as the store has
    /// read them (``IntrospectedModelStore/catalogModel``).
    static func outline(of store: any PersistentStore) -> DataModel {
        (store as? any IntrospectedModelStore)?.catalogModel ?? store.model
    }

    /// The model with the attribute types of `entities` read (``IntrospectedModelStore/model(reading:)``).
    static func model(of store: any PersistentStore, reading entities: [String]) -> DataModel {
        (store as? any IntrospectedModelStore)?.model(reading: entities) ?? store.model
    }

    /// Whether every change to `store` is refused though it was opened for writing.
    static func refusesChanges(_ store: (any PersistentStore)?) -> Bool {
        (store as? any AccessReportingStore)?.isReadOnly == true
    }
}
