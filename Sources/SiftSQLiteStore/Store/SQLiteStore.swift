import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftSQLite
import SiftStore

/// Sift's embedded default store (FETCH.md §2): a SQLite database, in a file (`.sqlite`,
/// `.db`) or in memory. Fetches compile to SQL (see `FetchSQL`) and give exactly the answers
/// the atomic stores' evaluator gives, in the same order.
///
/// The schema comes from the model (see ``SQLSchema``) and the model is kept in the database
/// (table `"sift.metadata"`), so opening a store needs nothing else. A database Sift did not
/// create opens too: its tables, columns and foreign keys are read into a model, to query and
/// to change. Its columns' types, which depend on what they hold, are chosen per table when a
/// fetch first reads it, from a sample of its rows (docs/SQLITE-DATABASES.md), and kept in an
/// optional ``SQLiteTypeCache`` for later opens. Its rows are changed as the database lays them
/// out — values in the form each column holds, its keys, constraints, foreign keys and triggers
/// as it declares them (`ForeignRowObjects`); a store Core Data wrote, as Core Data writes it
/// (`CoreDataRowObjects`).
///
/// A store opened `readOnly` (or whose file cannot be written) is queried as any other and
/// refuses every change with a ``StoreError/Code/readOnly`` error, leaving the file as it is.
///
/// Changes follow the store rules of every store (`StoreObjects`: defaults, inverses, delete
/// rules; validation at save), answered by queries on the rows a change touches and written as
/// exactly those rows (`SQLRowObjects`): nothing else of the store is read. The first change
/// begins a write transaction (`BEGIN IMMEDIATE`, waiting up to ``busyTimeout`` for another
/// writer); each change is written into it at once, so fetches see it; `save()` validates the
/// changed objects and commits, `rollback()` rolls back. A failed save leaves the file as it was
/// and the changes pending. While changes are pending the store holds SQLite's write lock: other
/// writers wait, readers see the last commit.
///
///     let store = try SQLiteStore.create(at: URL(fileURLWithPath: "notes.sqlite"), model: model)
///     try store.insert("Note", ["title": .string("Hello")])
///     try store.save()
///     let notes = try store.fetch(FetchRequest(statement: "Note WHERE title BEGINSWITH 'He'"))
public final class SQLiteStore: PersistentStore, SlotInsertingStore, BatchDeletingStore, InterruptibleStore, ChangeReportingStore, @unchecked Sendable {
    /// The store file (nil in memory).
    public let url: URL?
    /// The model. In a database Sift did not create, every table's column types are chosen
    /// first (those not chosen yet are read now; ``catalogModel`` reads none).
    public var model: DataModel {
        guard let foreign, !foreign.isRead else { return schema.model }
        lock.lock(); defer { lock.unlock() }
        // (Interrupted, the tables read so far.)
        return ((try? foreign.readAll(in: database)) ?? schema).model
    }

    /// The model as far as the database has been read, without reading more: every entity,
    /// attribute and relationship, each attribute with its type — except, in a database Sift
    /// did not create, the attributes of tables no fetch has read yet, which are Undefined until
    /// one does (``model`` reads them all). For what only needs the model's shape: names,
    /// relationships, entities.
    public var catalogModel: DataModel { schema.model }

    /// The model with the attribute types of `entities` (and of every table read before)
    /// chosen: in a database Sift did not create, what `sift schema` and `.describe` of one
    /// entity need, without reading the other tables. Unknown names are ignored.
    public func model(reading entities: [String]) -> DataModel {
        guard let foreign else { return schema.model }
        lock.lock(); defer { lock.unlock() }
        let current = foreign.schema
        return ((try? foreign.read(entities.compactMap { current.table(for: $0)?.table }, in: database)) ?? schema).model
    }

    /// The schema: the model's in a store Sift created; in another database, as far as it has
    /// been read (``ForeignSchema``; a fetch reads what it needs first, ``schema(for:)``).
    package var schema: SQLSchema { foreign?.schema ?? ownSchema }
    /// The schema of a store Sift created (for another database, the catalogue's before any
    /// table was read).
    /// It changes only when entities are added (``addEntities(_:)``).
    var ownSchema: SQLSchema
    /// A database Sift did not create: its schema, read as fetches need it.
    let foreign: ForeignSchema?
    /// A store Core Data wrote: its model, where that came from, and its layout (read whole
    /// when the store opens). Its rows are written by `CoreDataRowObjects`; the layout itself
    /// never changes.
    package let coreData: CoreDataStoreLayout?
    /// Why a database with Core Data's tables is read as a plain one: no model could be made
    /// of it (nil otherwise).
    var unreadLayout: String?
    /// Whether a Core Data store's connection is one that writes (after its first change).
    var isCoreDataWritable = false
    /// The connection: for a Core Data store, read-only until its first change, which opens
    /// one that writes (``openCoreDataForWriting()``).
    var database: SQLiteDatabase { connection.withLock { $0 } }
    /// The connection behind ``database`` (a lock of its own: ``interrupt()`` reads it while
    /// a fetch holds ``lock``).
    let connection: ConnectionBox
    @_spi(SQLStoreCore) public let lock = NSRecursiveLock()
    /// Stops the evaluator's work on SQL's rows (a predicate SQL cannot say) when `interrupt()`
    /// comes: no SQLite statement is running then for `sqlite3_interrupt` to stop.
    package let interruption = FetchInterruption()

    /// The rows as the store rules see them, and what the open transaction changed: in the
    /// layout of a store Sift created, or of a database it did not.
    lazy var rows: any SQLiteRowChanges = coreData.map { CoreDataRowObjects(layout: $0, database: database, file: url) }
        ?? foreign.map { ForeignRowObjects(foreign: $0, database: database, file: url) }
        ?? SQLiteRowObjects(schema: schema, database: SQLiteRowDatabase(database))
    /// Whether the store was opened read-only (`open(at:readOnly:typeCache:coreDataModel:coreDataModelPath:)`).
    let isOpenedReadOnly: Bool
    /// The open ``performChanges(_:)`` units, innermost last.
    @_spi(SQLStoreCore) public var units: [SQLChangeUnit<Int>] = []
    /// The changes of the open transaction, to make again if SQLite rolls it back on its own
    /// (nil: too many to keep).
    var journal: [JournaledChange]? = []
    /// Whether the open transaction made a change the journal does not record (an import's rows).
    var changesUnrecorded = false
    /// Where each save's changes are posted (``ChangeReportingStore``).
    public let changeCenter = StoreChangeCenter()
    /// Changes whenever the rows may change under fetched objects (a change, a rollback):
    /// prefetched relationships loaded in an earlier generation are read again.
    @_spi(SQLStoreCore) public var generation: UInt64 = 0
    public package(set) var hasChanges = false
    /// The page cache size (`PRAGMA cache_size`) to restore when the open write transaction
    /// ends; nil when the cache has its own size.
    var readCacheSize: Int64?
    /// Whether the open write transaction reads without the memory map (an import's: see
    /// `readWithoutMap()`), which comes back when it ends.
    var readsWithoutMap = false
    /// The layout before the open transaction added entities: back in force if it rolls back.
    var schemaBeforeTransaction: SQLSchema?

    init(url: URL?, database: SQLiteDatabase, schema: SQLSchema, foreign: ForeignSchema? = nil, coreData: CoreDataStoreLayout? = nil,
         readOnly: Bool = false) throws(StoreError) {
        self.url = url
        self.connection = ConnectionBox(database)
        self.ownSchema = schema
        self.foreign = foreign
        self.coreData = coreData
        self.isOpenedReadOnly = readOnly
        database.busyTimeout = Self.defaultBusyTimeout
        do {
            try database.execute("PRAGMA mmap_size = \(Self.memoryMapBytes)")
            try SiftSQLFunctions.register(on: database)
        } catch {
            throw Self.storeError(error)
        }
    }

    // MARK: Opening

    /// A new, empty store in memory.
    public static func inMemory(model: DataModel) throws(StoreError) -> SQLiteStore {
        let database: SQLiteDatabase
        do { database = try SQLiteDatabase.inMemory() } catch { throw storeError(error) }
        return try create(database, url: nil, model: model)
    }

    /// Creates a store file holding the model and no objects; an existing file is an error.
    ///
    /// The database is built whole in a temporary file beside `url` and then linked into place
    /// (`link(2)`, which fails if `url` exists): another process never sees a half-made store,
    /// and of two processes creating one store at once, one creates it and the other gets the
    /// "already exists" error (and can open the store the first made).
    public static func create(at url: URL, model: DataModel) throws(StoreError) -> SQLiteStore {
        do {
            return try create(at: url, model: model, filling: { _ in })
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.database, "\(error)")
        }
    }

    /// Creates a store file holding what `fill` saves into it: the file appears at `url` only
    /// when `fill` has returned, whole (as ``create(at:model:)`` makes it), and if `fill` throws
    /// there is no file at all — a new store that an import fills, all or nothing. Changes
    /// `fill` leaves unsaved are not kept. Fails with the "already exists" error when `url`
    /// exists, before `fill` runs or, if another process created the file meanwhile, after it
    /// (nothing of this store is then kept). An empty file at `url` (SQLite's empty database,
    /// ``isEmptyDatabaseFile(_:)``; `touch notes.sqlite`) is no store: the new one replaces it,
    /// if it is empty still when the store is put in place.
    ///
    ///     let store = try SQLiteStore.create(at: url, model: model) { store in
    ///         try StoreImporter.importCSV(CSVReader(fileHandle: handle), entity: "Person", into: store)
    ///     }
    public static func create(at url: URL, model: DataModel, filling fill: (SQLiteStore) throws -> Void) throws -> SQLiteStore {
        var schema: SQLSchema?
        return try create(at: url, filling: fill, making: { database in
            let store = try create(database, url: url, model: model)
            schema = store.schema
            return store
        }, reopening: { database in
            guard let schema else { preconditionFailure("the store was made before it is reopened") }
            return try SQLiteStore(url: url, database: database, schema: schema)
        })
    }

    /// Makes a store file whole in a temporary file beside `url` (the rollback-journal mode,
    /// so every byte is in the file when the connection closes; WAL last), then links it into
    /// place (``create(at:model:filling:)`` says how) and opens it again with `reopen`.
    static func create(at url: URL, filling fill: (SQLiteStore) throws -> Void, making make: (SQLiteDatabase) throws -> SQLiteStore,
                       reopening reopen: (SQLiteDatabase) throws -> SQLiteStore) throws -> SQLiteStore {
        let replacesEmptyFile = isEmptyDatabaseFile(url)
        guard replacesEmptyFile || !FileManager.default.fileExists(atPath: url.path) else { throw StoreError.alreadyExists(url) }
        let temporary = url.deletingLastPathComponent().appendingPathComponent(AtomicFileWriter.temporaryName(for: url.lastPathComponent)).path
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporary + suffix) }
        }
        do {
            let database: SQLiteDatabase
            do {
                database = try SQLiteDatabase(path: temporary, options: [.create])
            } catch {
                throw storeError(error)
            }
            let store = try make(database)
            try fill(store)
            store.rollback()
            do { try database.execute("PRAGMA journal_mode=WAL") } catch { throw storeError(error) }
        }
        if link(temporary, url.path) != 0 {
            let code = errno
            // (A file that is no longer empty was written meanwhile: it is left as it is.)
            let replaced = code == EEXIST && replacesEmptyFile && isEmptyDatabaseFile(url) && rename(temporary, url.path) == 0
            if !replaced {
                if code == EEXIST { throw StoreError.createdMeanwhile(url) }
                throw StoreError(.fileSystem, "cannot create \(url.path): \(String(cString: strerror(code)))")
            }
        }
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: url.path, options: [])
        } catch {
            throw storeError(error, file: url)
        }
        return try reopen(database)
    }

    private static func create(_ database: SQLiteDatabase, url: URL?, model: DataModel) throws(StoreError) -> SQLiteStore {
        try StoreNamingRules.check(model)
        let schema = try SQLSchema.forModel(model)
        do {
            try database.inTransaction {
                for statement in SchemaDDL.statements(for: schema) { try database.execute(statement) }
                let modelJSON = JSONModelFormat.write(model)
                try database.run("INSERT INTO \(SQLIdentifier.quoted(SQLSchema.metadataTable)) VALUES (?1, ?2), (?3, ?4), (?5, ?6)",
                                 [.text("format"), .text("sift"), .text("version"), .integer(StoreLayoutMigration.currentVersion), .text("model"), .text(modelJSON)])
            }
        } catch let error as SQLiteError where error.message.hasPrefix("too many columns on ") {
            let table = error.message.dropFirst("too many columns on ".count)
            throw StoreError(.unsupportedModel, "entity \(table) and its subentities have more attributes and to-one relationships than SQLite holds in one table (\(Self.columnLimit) columns, with the store's own); the JSON and plist stores hold them",
                             entity: String(table))
        } catch {
            throw storeError(error)
        }
        return try SQLiteStore(url: url, database: database, schema: schema)
    }

    /// How much of a database file a connection reads through a memory map (SQLite's
    /// `PRAGMA mmap_size`) rather than with `pread` into its page cache: the pages are the
    /// kernel's, shared and never copied, so a scan that looks at each page once (a first
    /// `count(*)` of a million rows) takes a fifth of the time. Writes still go through SQLite's
    /// journal and `write`. Where the map cannot be made (an address-space limit), SQLite reads
    /// as before; a file larger than this reads its remaining pages with `pread`.
    static let memoryMapBytes = 256 << 20

    /// The most columns a table of SQLite holds (`SQLITE_MAX_COLUMN`, 2000 unless SQLite was
    /// built otherwise).
    static let columnLimit = 2000

    /// Opens a store file: a Sift store with its model, or any other SQLite database, read
    /// into a model from its tables. For another database, `typeCache` keeps the column types
    /// chosen from its rows for later opens of the unchanged file (nil: none kept; the command
    /// line uses ``SQLiteTypeCache/fromEnvironment(_:)``).
    ///
    /// `readOnly` opens the file for reading only (SQLite's `SQLITE_OPEN_READONLY`): fetches
    /// run as always, every change fails with a ``StoreError/Code/readOnly`` error, and the file
    /// is never written. A file without write permission opens so too.
    ///
    /// A store Core Data wrote (a database with `Z_PRIMARYKEY` and `Z_METADATA`, whatever its
    /// name) opens with its model — `coreDataModel` if given (it must fit the store), else the
    /// store's model cache, else one guessed from its tables, with warnings
    /// (``openingWarnings``) — through a read-only connection: until a change is made, neither
    /// the file nor its write-ahead log changes by a byte. Its first change opens a connection
    /// that writes, and changes are written as Core Data writes them; a store whose model was
    /// guessed refuses changes (docs/COREDATA-STORES.md).
    /// `coreDataModelPath` names where `coreDataModel` came from, for ``modelOrigin``.
    public static func open(at url: URL, readOnly: Bool = false, typeCache: SQLiteTypeCache? = nil,
                            coreDataModel: DataModel? = nil, coreDataModelPath: String? = nil) throws(StoreError) -> SQLiteStore {
        try open(at: url, readOnly: readOnly, typeCache: typeCache, coreDataModel: coreDataModel.map(CoreDataModel.init(deriving:)),
                 coreDataModelPath: coreDataModelPath)
    }

    /// Opens a store file as `open(at:readOnly:typeCache:coreDataModel:coreDataModelPath:)`
    /// does, a Core Data store with `coreDataModel` in Core Data's own terms (as
    /// ``ModelFile/loadCoreData(_:)`` reads a model file): its version hashes are compared with
    /// the store's (a difference is a warning, and with a model from Core Data's archives,
    /// whose hashes are exact, the store refuses changes).
    public static func open(at url: URL, readOnly: Bool = false, typeCache: SQLiteTypeCache? = nil,
                            coreDataModel: CoreDataModel?, coreDataModelPath: String? = nil) throws(StoreError) -> SQLiteStore {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw StoreError(.fileSystem, "\(url.path) does not exist")
        }
        try checkHeader(url)
        // Core Data's stores are recognised through a read-only connection, so that no
        // connection that could write (or checkpoint their log) opens them before a change.
        if let store = try openCoreData(at: url, readOnly: readOnly, model: coreDataModel, modelPath: coreDataModelPath) { return store }
        if coreDataModel != nil {
            throw StoreError(.unsupportedModel, "\(url.lastPathComponent) is not a Core Data store (it has no Z_PRIMARYKEY and Z_METADATA): a model is given only to open one")
        }
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: url.path, options: readOnly ? [.readOnly] : [])
            database.busyTimeout = defaultBusyTimeout
            _ = try database.scalar("SELECT count(*) FROM sqlite_schema")
        } catch {
            throw storeError(error, file: url)
        }
        let schema: SQLSchema
        var foreign: ForeignSchema?
        do {
            let isSift = try database.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?1",
                                             [.text(SQLSchema.metadataTable)]) == .integer(1)
            if isSift {
                let stored = try database.scalar("SELECT \"value\" FROM \(SQLIdentifier.quoted(SQLSchema.metadataTable)) WHERE \"key\" = 'model'")
                let text: String? = if case .text(let text) = stored { text } else { nil }
                let model = try StoredModel.read(text, of: url.path)
                schema = try SQLSchema.forModel(model)
                // A stored model may mark attributes searchable whose hidden columns the next
                // write adds (StoreLayoutMigration); until then fetches do without them.
                schema.searchColumns.isPresent = try SearchColumnPresence.check(schema, in: database)
            } else {
                // The catalogue now; each table's column types when a fetch first reads it.
                let catalog = try SchemaIntrospection.catalog(of: database, name: url.deletingPathExtension().lastPathComponent)
                let read = try ForeignSchema(catalog: catalog, path: url.path, cache: typeCache)
                schema = read.schema
                foreign = read
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw storeError(error, file: url)
        }
        return try SQLiteStore(url: url, database: database, schema: schema, foreign: foreign, readOnly: readOnly)
    }

    /// Whether the file at `url` is an empty database by SQLite's rule: 0 bytes, with no
    /// write-ahead log beside it holding pages (a database made in WAL mode keeps its first
    /// pages there until a checkpoint). It opens as a database without tables.
    public static func isEmptyDatabaseFile(_ url: URL) -> Bool {
        func size(_ path: String) -> Int? {
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            return Int(status.st_size)
        }
        return size(url.path) == 0 && (size(url.path + "-wal") ?? 0) == 0
    }

    /// Fails when the file at `url` has bytes and they do not start with SQLite's header
    /// (`SQLite format 3` and a zero byte). SQLite itself opens a 1-byte file as an empty
    /// database and, written to, overwrites it; Sift never takes a file that SQLite did not
    /// write for one. (A 0-byte file is SQLite's empty database: ``isEmptyDatabaseFile(_:)``.)
    static func checkHeader(_ url: URL) throws(StoreError) {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return }  // SQLite's error says why
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: sqliteHeader.count), !head.isEmpty else { return }
        guard !head.starts(with: sqliteHeader) else { return }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
        let length = size.map { $0 < 100 ? " (\($0) byte\($0 == 1 ? "" : "s"), shorter than SQLite's 100-byte header)" : "" } ?? ""
        throw StoreError(.corruptStore, "\(url.path) is not a SQLite database, or is encrypted or damaged at its start: it does not begin with "
                         + "SQLite's header ('SQLite format 3')\(length); check that the path names a store")
    }

    /// The first 16 bytes of every SQLite database file.
    static let sqliteHeader: [UInt8] = Array("SQLite format 3".utf8) + [0]

    // MARK: Fetching

    public func object(with id: ObjectID) -> ManagedObject? {
        lock.lock(); defer { lock.unlock() }
        return SQLObjectLookup.object(with: id, in: schema) { lookup in
            var table = lookup.table
            if let foreign, !table.typesAreRead {
                // (Only the tables the ID may name are read.)
                guard let read = (try? foreign.read([table.table], in: database))?.table(for: table.entity.name), read.typesAreRead else { return nil }
                table = read
            }
            // (The schema as it is now, with the table's types just read.)
            let schema = self.schema
            let layout = RowLayout(table: table, schema: schema, alias: "t0", store: self)
            guard let statement = try? database.cachedStatement(lookup.sql(selecting: layout.columns, placeholder: "?1")),
                  (try? statement.bind(sqlValues: [lookup.binding])) != nil, (try? statement.step()) == true else { return nil }
            // Reset once read: a statement left on its row keeps a read open (and a migration
            // from dropping tables).
            defer { statement.reset() }
            return managedObject(decoding: statement, with: layout)
        }
    }

    /// The object of the row the statement is on, decoded with `layout` (a buffer of its own).
    func managedObject(decoding statement: SQLiteStatement, with layout: RowLayout) -> ManagedObject {
        var values: [Value] = []
        values.reserveCapacity(layout.widestRow)
        let row = layout.decode(statement, appendingTo: &values)
        return managedObject(row, values: values[...])
    }

    /// The objects of rows decoded into one buffer: each object's values are a slice of it.
    func managedObjects(_ rows: [SQLDecodedRow], values: [Value]) -> [ManagedObject] {
        rows.map { managedObject($0, values: values[$0.values]) }
    }

    /// A fetched object for a decoded row whose values are `values`.
    func managedObject(_ row: consuming SQLDecodedRow, values: ArraySlice<Value>) -> ManagedObject {
        let entity = row.entity
        let shape = entity.shape ?? ObjectShape(entityName: entity.entity, names: entity.names, storage: SQLObjectStorage(store: self, entity: entity.entity))
        return ManagedObject(objectID: row.id, shape: shape, values: values, storageKey: row.key)
    }

    /// How destinations of `relationship` are read (as `"d"`): whole rows of its destination's
    /// table, decoded as the table's root entity's layout decodes them; nil for an entity
    /// without a table.
    func destinationLayout(of relationship: RelationshipDescription) -> RowLayout? {
        lock.lock(); defer { lock.unlock() }
        if let foreign, schema.table(for: relationship.destination)?.typesAreRead == false, let table = schema.table(for: relationship.destination)?.table {
            _ = try? foreign.read([table], in: database)
        }
        let schema = self.schema
        // (Not read only when interrupted: nothing is read then.)
        guard let destination = schema.table(for: relationship.destination), destination.typesAreRead else { return nil }
        let root = schema.tables.values.first(where: { $0.table == destination.table && $0.entity.parent == nil }) ?? destination
        return RowLayout(table: root, schema: schema, alias: "d", store: self)
    }

    /// The destinations of a relationship of the row with `key`, in order. (`SQLitePrefetchDriver`
    /// reads the same rows in the same order for many keys at once.)
    package func destinations(of relationship: RelationshipDescription, from table: EntityTable, key: Int64) throws -> [ManagedObject] {
        lock.lock(); defer { lock.unlock() }
        guard let held = table.relationships[relationship.name], let layout = destinationLayout(of: relationship) else { return [] }
        let sql = SQLRelationshipRead(relationship, of: table, held: held, destination: layout.table, selecting: layout.columns,
                                      owners: .one, schema: schema, dialect: SQLiteDialect()).sql
        // Errors in words (an interrupt is StoreError.interrupted), never SQLite's with the SQL.
        do {
            let statement = try database.prepare(sql)
            try statement.bind([.integer(key)])
            var rows: [SQLDecodedRow] = []
            var values: [Value] = []
            while try statement.step() { rows.append(layout.decode(statement, previous: rows.last?.entity, appendingTo: &values)) }
            return managedObjects(rows, values: values)
        } catch {
            throw translated(error)
        }
    }
}

extension SQLiteStore: SQLObjectReadingStore {}
