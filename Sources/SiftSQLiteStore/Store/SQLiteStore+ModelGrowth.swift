import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftSQLite
import SiftStore

/// Entities added to a SQLite store's model (``ModelGrowingStore``): in the write transaction,
/// their tables are created and the stored model is replaced; the store's layout follows at
/// once, and goes back to what it was if the transaction rolls back.
extension SQLiteStore: ModelGrowingStore {
    public func addEntities(_ entities: [EntityDescription]) throws(StoreError) {
        lock.lock(); defer { lock.unlock() }
        guard schema.isSiftLayout else {
            throw StoreError(.readOnly, "\(url?.lastPathComponent ?? "this database") was not created by Sift; its tables are not a model that grows")
        }
        guard !hasChanges, !units.contains(where: { $0.savepoint != nil }) else {
            throw StoreError(.invalidRequest, "entities are added to a store's model before other changes: save or roll back the pending ones first")
        }
        let grown = try grownModel(adding: entities)
        // SQLite's table names ignore case.
        let tables = Set(model.entities.map { $0.name.lowercased() })
        for entity in entities where tables.contains(entity.name.lowercased()) {
            let other = model.entities.first { $0.name.lowercased() == entity.name.lowercased() }?.name ?? entity.name
            throw StoreError(.unsupportedModel, "entity \(entity.name) cannot be added beside \(other): a SQLite store's table names ignore case", entity: entity.name)
        }
        let grownSchema = try SQLSchema.forModel(grown)
        try beginChanges()
        do {
            // The statements of the grown layout that the store's lacks: the new tables and their indexes.
            let existing = Set(SchemaDDL.statements(for: schema))
            for statement in SchemaDDL.statements(for: grownSchema) where !existing.contains(statement) {
                try database.execute(statement)
            }
            try database.run("UPDATE \(SQLIdentifier.quoted(SQLSchema.metadataTable)) SET \"value\" = ?1 WHERE \"key\" = 'model'",
                             [.text(JSONModelFormat.write(grown))])
        } catch {
            try? database.execute("ROLLBACK")
            rollback()
            throw Self.storeError(error, file: url)
        }
        grownSchema.searchColumns.isPresent = schema.searchColumns.isPresent
        if schemaBeforeTransaction == nil { schemaBeforeTransaction = schema }
        ownSchema = grownSchema
        rows = SQLiteRowObjects(schema: grownSchema, database: SQLiteRowDatabase(database))
        do {
            try rows.transactionBegan()
        } catch {
            rollback()
            throw error
        }
        hasChanges = true
        // A transaction that created tables is not made again after SQLite rolls it back.
        journal = nil
        generation &+= 1
    }
}
