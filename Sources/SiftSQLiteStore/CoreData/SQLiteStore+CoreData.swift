import CSQLite
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

    /// Whether the file at `url` is a store Core Data wrote (a SQLite database with
    /// `Z_PRIMARYKEY` and `Z_METADATA`), looked at through a read-only connection as
    /// `open(at:readOnly:typeCache:coreDataModel:coreDataModelPath:)` does; false for any
    /// other file, or one that cannot be read.
    public static func isCoreDataStore(at url: URL) -> Bool {
        guard FileManager.default.fileExists(atPath: url.path), (try? checkHeader(url)) != nil,
              let database = try? SQLiteDatabase(path: url.path, options: hasNoLog(url) ? [.immutable] : [.readOnly]) else { return false }
        return (try? CoreDataStoreFile.isCoreDataStore(database)) == true
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

extension SQLiteStore {
    /// Before the first change to a Core Data store (read through a read-only connection that
    /// may treat the file as immutable): a connection that writes takes its place, set up as
    /// the first was, and the rows are written through it from then on. Nothing is written by
    /// opening it.
    func openCoreDataForWriting() throws(StoreError) {
        guard let coreData, !isCoreDataWritable, let url else { return }
        // (A store made here, `createCoreData`, has a connection that writes from the start.)
        if sqlite3_db_readonly(database.handle, "main") == 0 {
            isCoreDataWritable = true
            return
        }
        let writable: SQLiteDatabase
        do {
            writable = try SQLiteDatabase(path: url.path, options: [])
            writable.busyTimeout = database.busyTimeout
            try writable.execute("PRAGMA mmap_size = \(Self.memoryMapBytes)")
            try SiftSQLFunctions.register(on: writable)
        } catch {
            throw Self.storeError(error, file: url)
        }
        connection.replace(with: writable)
        isCoreDataWritable = true
        rows = CoreDataRowObjects(layout: coreData, database: writable, file: url)
    }

    /// Why a Core Data store refuses changes, if it does: its model was guessed from its
    /// tables, its model's exact version hashes differ from the store's, or its file or
    /// directory cannot be written.
    var coreDataChangesRefusal: StoreError? {
        guard let coreData else { return nil }
        let name = url?.lastPathComponent ?? "this database"
        let unchanged = "it can be queried but not changed"
        if coreData.modelSource == .schema {
            return StoreError(.readOnly, "\(name) is a Core Data store without a model (none in its Z_MODELCACHE): its model was guessed from the tables, and Sift writes only with the model Core Data writes with; give it with --model (a .xcdatamodeld, .xcdatamodel, .momd or .mom; the library's open(at:coreDataModel:)); \(unchanged)")
        }
        if coreData.hashesAreExact, !coreData.versionHashDifferences.isEmpty {
            let entities = coreData.versionHashDifferences.prefix(5).joined(separator: ", ")
            return StoreError(.readOnly, "\(name) has other version hashes (NSStoreModelVersionHashes) than its model gives \(entities): Core Data would refuse this model for the store, and Sift does not write with it; \(unchanged)")
        }
        // A connection that writes already (a store being made, or written before) needs no more.
        guard let url, isCoreDataWritable == false, sqlite3_db_readonly(database.handle, "main") == 1 else { return nil }
        if access(url.path, W_OK) != 0 {
            return StoreError(.readOnly, "\(name) cannot be written (no write permission); \(unchanged)")
        }
        if access(url.deletingLastPathComponent().path, W_OK) != 0 {
            return StoreError(.readOnly, "\(name) is in a directory that cannot be written, where SQLite keeps the journal or log that makes a change all or nothing; \(unchanged)")
        }
        return nil
    }
}

/// A store's connection, which a Core Data store replaces once (``SQLiteStore/openCoreDataForWriting()``),
/// read under a lock of its own.
final class ConnectionBox: @unchecked Sendable {
    private var current: SQLiteDatabase
    private let lock = NSLock()

    init(_ database: SQLiteDatabase) { current = database }

    func withLock<T>(_ body: (SQLiteDatabase) -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body(current)
    }

    func replace(with database: SQLiteDatabase) {
        lock.lock(); defer { lock.unlock() }
        current = database
    }
}
