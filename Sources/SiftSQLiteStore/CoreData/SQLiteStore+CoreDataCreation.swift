import Foundation
import SiftSQL
import SiftSQLite
import SiftStore

extension SQLiteStore {
    /// Creates a store file in Core Data's layout for `model`, holding what `fill` saves into
    /// it, whole or not at all (as ``create(at:model:filling:)`` makes a store in Sift's
    /// layout): the tables, columns, indexes, `Z_PRIMARYKEY` rows, `Z_METADATA` (a new store
    /// UUID, the entities' version hashes and their digest) and `Z_MODELCACHE` (the model as
    /// Core Data caches it, ``CoreDataModel/modelCache()``) that Core Data makes for that model (`CoreDataStoreDDL`; docs/COREDATA-STORES.md, "Creating a store").
    ///
    /// The metadata also holds the model as Sift's model JSON, so the store opens with its
    /// model without `--model` (Core Data keeps metadata keys it does not know). The version
    /// hashes are Core Data's own for a model read from its archives (a `.mom`, a model cache,
    /// Xcode 3's `elements`); from an Xcode `contents` file or a `model.json` they are computed
    /// from what the file says (``CoreDataModel/init(deriving:)``).
    public static func createCoreData(at url: URL, model: CoreDataModel,
                                      filling fill: (SQLiteStore) throws -> Void = { _ in }) throws -> SQLiteStore {
        try create(at: url, filling: fill, making: { database in
            let layout = CoreDataLayout(model)
            let plist: Data
            let cache: Data
            do {
                plist = try CoreDataStoreDDL.metadata(hashes: model.entityVersionHashes(), versionIdentifiers: model.versionIdentifiers,
                                                      modelJSON: JSONModelFormat.write(model.model))
            } catch {
                throw StoreError(.unsupportedModel, "the model cannot be written into the store's metadata: \(error)")
            }
            do {
                cache = try model.modelCache()
            } catch {
                throw StoreError(.unsupportedModel, "the model cannot be written into the store's model cache: \(error)")
            }
            do {
                try database.inTransaction {
                    for statement in CoreDataStoreDDL.statements(for: layout, model: model.model) { try database.execute(statement) }
                    for row in CoreDataStoreDDL.primaryKeyRows(of: layout) {
                        try database.run("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?1, ?2, ?3, 0)",
                                         [.integer(Int64(row.number)), .text(row.name), .integer(Int64(row.superNumber))])
                    }
                    try database.run("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?1, ?2)",
                                     [.text(UUID().uuidString), .blob([UInt8](plist))])
                    // The model as Core Data caches it, so Core Data opens the store without the app's model.
                    try database.run("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?1)", [.blob([UInt8](cache))])
                }
            } catch let error as SQLiteError where error.message.hasPrefix("too many columns on ") {
                let table = error.message.dropFirst("too many columns on ".count)
                throw StoreError(.unsupportedModel, "the entities stored in \(table) have more attributes and to-one relationships than SQLite holds in one table (\(Self.columnLimit) columns)")
            } catch let error as SQLiteError {
                throw storeError(error)
            }
            return try coreDataStore(url: url, database: database)
        }, reopening: { database in
            try coreDataStore(url: url, database: database)
        })
    }

    /// The store on `database`, with the model written into its metadata.
    private static func coreDataStore(url: URL, database: SQLiteDatabase) throws(StoreError) -> SQLiteStore {
        let layout = try CoreDataStoreLayout.read(database, path: url.path)
        return try SQLiteStore(url: url, database: database, schema: layout.schema, coreData: layout)
    }
}
