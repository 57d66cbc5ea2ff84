import Foundation
import SiftSQL
import SiftSQLite
import SiftStore

extension SQLiteStore: ModelOriginReportingStore {
    /// The store at `url` opened as Core Data's, through a read-only connection; nil when it is
    /// not one (or cannot be read as any database here: the caller's own open then says why).
    ///
    /// A database in WAL mode without a write-ahead log beside it (one closed cleanly, as every
    /// copy taken off a device is) is read as immutable: a read-only connection would otherwise
    /// leave an empty `-wal` and `-shm` beside it, which it may not remove. With a log, its
    /// committed frames are read (SQLite's read-only WAL mode), and neither it nor the file
    /// changes.
    static func openCoreData(at url: URL, readOnly: Bool, model: CoreDataModel?, modelPath: String?) throws(StoreError) -> SQLiteStore? {
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: url.path, options: hasNoLog(url) ? [.immutable] : [.readOnly])
            database.busyTimeout = defaultBusyTimeout
            guard try CoreDataStoreFile.isCoreDataStore(database) else { return nil }
        } catch {
            return nil
        }
        let layout: CoreDataStoreLayout
        do {
            layout = try CoreDataStoreLayout.read(database, path: url.path, model: model, modelPath: modelPath)
        } catch where model == nil {
            // Not even Z_PRIMARYKEY's entities make a model: its tables are read as any
            // database's are, as the tables they are (still only read).
            let catalog: ForeignCatalog, foreign: ForeignSchema
            do {
                catalog = try SchemaIntrospection.catalog(of: database, name: url.deletingPathExtension().lastPathComponent)
                foreign = try ForeignSchema(catalog: catalog, path: url.path, cache: nil)
            } catch {
                throw storeError(error, file: url)
            }
            let store = try SQLiteStore(url: url, database: database, schema: foreign.schema, foreign: foreign, readOnly: readOnly)
            store.unreadLayout = "\(error.message); its tables are read as they are"
            return store
        }
        return try SQLiteStore(url: url, database: database, schema: layout.schema, coreData: layout, readOnly: readOnly)
    }

    /// Whether the file is in WAL mode (its header's read and write versions are 2) with no
    /// write-ahead log beside it, or an empty one.
    static func hasNoLog(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 20), head.count == 20, head[18] == 2, head[19] == 2 else { return false }
        var status = stat()
        let logPath = url.path + "-wal"
        return stat(logPath, &status) != 0 ? errno == ENOENT : status.st_size == 0
    }

    /// For a store Core Data wrote, its layout and where its model came from (`Core Data's
    /// layout; the model from the store's model cache (Z_MODELCACHE)`); nil for any other.
    public var modelOrigin: String? {
        if unreadLayout != nil { return "Core Data's tables, read as a plain SQLite database (no model could be read)" }
        return coreData?.summary
    }

    /// What was guessed or set aside when the store opened (a Core Data store without a usable
    /// model cache: what its model was guessed from, and how to give it), one sentence each.
    public var openingWarnings: [String] { (coreData?.warnings ?? []) + (unreadLayout.map { [$0] } ?? []) }
}
