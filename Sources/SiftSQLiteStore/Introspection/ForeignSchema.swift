import Foundation
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

/// The schema of a database Sift did not create, read as fetches need it
/// (docs/SQLITE-DATABASES.md): its catalogue when it is opened (tables, columns, keys: no row
/// is read), and each table's column types (``ColumnTypeInference``, a bounded sample) the
/// first time a fetch reads the table — the fetched entity and what its key paths reach
/// (``FetchReach``). A text date column's form is checked against every value the first time a
/// predicate compares it (where an index then serves the comparison).
///
/// What is chosen is kept for the store's life and, with a ``SQLiteTypeCache``, for later opens
/// of the same unchanged file. The schema is a value (``schema``), made again as tables are
/// read: a table not read yet has its attributes Undefined and is marked so
/// (``EntityTable/typesAreRead``). Reading needs the store's connection, so ``read(_:in:)``
/// and ``verifyTextDates(of:in:)`` are called with the store's lock held; ``schema`` may be
/// read from any thread.
final class ForeignSchema: @unchecked Sendable {
    let catalog: ForeignCatalog
    private let cache: SQLiteTypeCache?
    /// The file's identity when it was opened, or when Sift last wrote it (nil: no cache, or a
    /// file that cannot be told). Guarded by `lock`.
    private var identity: DatabaseFileIdentity?
    private let lock = NSLock()
    /// The types chosen so far, by table. Guarded by `lock`.
    private var types: [String: ColumnTypeInference.TableTypes] = [:]
    /// Types the cache holds that no fetch has needed yet. Guarded by `lock`; nil until the
    /// cache is first read.
    private var cached: [String: SQLiteTypeCache.CachedTable]?
    /// Guarded by `lock`.
    private var current: SQLSchema

    /// The schema of `catalog`, no table's types read yet; `cache` keeps them for the file at
    /// `path`.
    init(catalog: ForeignCatalog, path: String?, cache: SQLiteTypeCache?) throws(StoreError) {
        self.catalog = catalog
        self.cache = cache
        identity = cache == nil ? nil : path.flatMap(DatabaseFileIdentity.init(path:))
        current = try Self.schema(of: catalog, types: [:])
    }

    /// The schema as far as it has been read.
    var schema: SQLSchema { lock.withLock { current } }

    /// Whether every table's types have been chosen.
    var isRead: Bool { lock.withLock { types.count == catalog.tables.count } }

    /// Chooses the column types of `tables` not read yet (from the cache where it holds them)
    /// and returns the schema with them. Call with the store's lock held. Throws only when
    /// interrupted (the tables read before stay read).
    @discardableResult
    func read(_ tables: some Sequence<String>, in database: SQLiteDatabase) throws(SQLiteError) -> SQLSchema {
        lock.lock()
        let wanted = Set(tables).filter { types[$0] == nil }
        guard !wanted.isEmpty else {
            defer { lock.unlock() }
            return current
        }
        lock.unlock()
        var chosen: [String: ColumnTypeInference.TableTypes] = [:]
        var learned: [String: SQLiteTypeCache.CachedTable] = [:]
        let cachedTables = cachedEntry()
        do {
            for table in catalog.tables where wanted.contains(table.name) {
                let declared = Self.declared(table)
                if let entry = cachedTables[table.name], entry.declared == declared {
                    chosen[table.name] = entry.types
                    continue
                }
                let types = try ColumnTypeInference.types(of: table, in: database, isCoreDataStore: catalog.isCoreDataStore)
                chosen[table.name] = types
                if !types.couldNotBeRead { learned[table.name] = SQLiteTypeCache.CachedTable(declared: declared, types: types) }
            }
        } catch {
            // Interrupted: what was read stays read.
            keep(learned, in: database)
            adopt(chosen)
            throw error
        }
        keep(learned, in: database)
        return adopt(chosen)
    }

    /// Chooses every table's column types. Call with the store's lock held.
    @discardableResult
    func readAll(in database: SQLiteDatabase) throws(SQLiteError) -> SQLSchema {
        try read(catalog.tables.map(\.name), in: database)
    }

    /// Checks, for each text date column of `columns` (table → column names) whose values were
    /// seen in one ``TextDateForm`` and which leads an index, that every value is of that form
    /// (or nil), so comparisons read its text and the index serves them; a column with another
    /// value is read through `sift_date` from then on. Call with the store's lock held, after
    /// ``read(_:in:)`` of the tables.
    @discardableResult
    func verifyTextDates(of columns: [String: Set<String>], in database: SQLiteDatabase) throws(SQLiteError) -> SQLSchema {
        var changed: [String: ColumnTypeInference.TableTypes] = [:]
        for (tableName, names) in columns {
            guard var tableTypes = lock.withLock({ types[tableName] }), let table = catalog.table(named: tableName) else { continue }
            let candidates = names.filter { name in
                guard let textDates = tableTypes.columns[name]?.textDates else { return false }
                return !textDates.isVerified
            }
            guard !candidates.isEmpty else { continue }
            let indexed = ColumnTypeInference.indexedColumns(of: tableName, in: database)
            // Without an index the check reads the table; it does so once (cached) where the
            // table is small enough that reading it costs little.
            let small = Self.rowsAtMost(Self.uncheckedTableLimit, in: table, database: database)
            for name in candidates.sorted() where indexed.contains(name) || small {
                guard let form = tableTypes.columns[name]?.textDates?.form else { continue }
                if try Self.everyValue(of: name, in: table, isIn: form, database: database) {
                    tableTypes.columns[name]?.textDates?.isVerified = true
                } else {
                    tableTypes.columns[name]?.textDates = nil
                    tableTypes.columns[name]?.reason += "; not every value is \(form.pattern)"
                }
                changed[tableName] = tableTypes
            }
        }
        guard !changed.isEmpty else { return schema }
        keep(changed.reduce(into: [:]) { entries, pair in
            guard let table = catalog.table(named: pair.key) else { return }
            entries[pair.key] = SQLiteTypeCache.CachedTable(declared: Self.declared(table), types: pair.value)
        }, in: database)
        return adopt(changed)
    }

    /// How much of each table read so far was sampled: the tables not read whole.
    var sampledTables: Set<String> {
        lock.withLock { Set(types.filter { !$0.value.isWhole }.keys) }
    }

    // MARK: Keeping

    /// Takes `chosen` in and makes the schema again.
    @discardableResult
    private func adopt(_ chosen: [String: ColumnTypeInference.TableTypes]) -> SQLSchema {
        lock.lock(); defer { lock.unlock() }
        guard !chosen.isEmpty else { return current }
        types.merge(chosen) { _, new in new }
        // (The catalogue made a model once already: it makes one again.)
        if let schema = try? Self.schema(of: catalog, types: types) { current = schema }
        return current
    }

    /// The cache's entry for the file as it was opened (read once).
    private func cachedEntry() -> [String: SQLiteTypeCache.CachedTable] {
        lock.lock(); defer { lock.unlock() }
        if let cached { return cached }
        let read = identity.map { cache?.tables(for: $0) ?? [:] } ?? [:]
        cached = read
        return read
    }

    /// Writes what was learned to the cache, if the file is still as it was when opened (else
    /// what was read may be of a later state than the identity says) and no write transaction
    /// is open (what it reads may be rolled back).
    private func keep(_ learned: [String: SQLiteTypeCache.CachedTable], in database: SQLiteDatabase) {
        guard !learned.isEmpty, !database.isInTransaction, let cache, let identity = lock.withLock({ identity }),
              DatabaseFileIdentity(path: identity.path) == identity else { return }
        cache.store(learned, for: identity)
    }

    /// A table's declared columns as the cache keeps them (`name TYPE`).
    private static func declared(_ table: ForeignCatalog.Table) -> [String] {
        table.columns.map { "\($0.name) \($0.declaredType)" } + ["key \(table.primaryKey)"]
    }

    // MARK: After Sift writes

    /// The types chosen for `table`, if it has been read.
    func types(of table: String) -> ColumnTypeInference.TableTypes? {
        lock.withLock { types[table] }
    }

    /// A value not in `column`'s one text date form was written into it (in the open write
    /// transaction): comparisons read it through `sift_date` from now on.
    func forgetTextDateForm(of column: String, in table: String) {
        lock.lock()
        guard var tableTypes = types[table], tableTypes.columns[column]?.textDates != nil else {
            lock.unlock()
            return
        }
        tableTypes.columns[column]?.textDates = nil
        lock.unlock()
        adopt([table: tableTypes])
    }

    /// A write transaction committed: the types of `rechosen` tables are chosen again with the
    /// rows it wrote (``ColumnTypeInference/types(of:in:isCoreDataStore:including:previous:)``;
    /// a nil filter: it only deleted), `dropped` tables (changed by the database itself: foreign
    /// key actions, triggers) are read again when next needed, and the cache keeps what is known
    /// for the file as it is now. Call with the store's lock held, outside a transaction.
    func committed(rechosen: [String: String?], dropped: Set<String>, in database: SQLiteDatabase) {
        var chosen: [String: ColumnTypeInference.TableTypes] = [:]
        var unread = dropped
        for (name, filter) in rechosen {
            guard let previous = types(of: name), let table = catalog.table(named: name) else { continue }
            // (Interrupted: the table is read again when next needed.)
            guard let types = try? ColumnTypeInference.types(of: table, in: database, isCoreDataStore: catalog.isCoreDataStore,
                                                             including: filter, previous: previous) else {
                unread.insert(name)
                continue
            }
            chosen[name] = types
        }
        lock.lock()
        for name in unread.subtracting(chosen.keys) { types[name] = nil }
        // What the cache held for the file before the write is stale now.
        cached = [:]
        let newIdentity = cache == nil ? nil : identity.flatMap { DatabaseFileIdentity(path: $0.path) }
        identity = newIdentity
        lock.unlock()
        adopt(chosen)
        guard let cache, let newIdentity else { return }
        let known = lock.withLock { types }
        cache.store(known.reduce(into: [:]) { entries, pair in
            guard !pair.value.couldNotBeRead, let table = catalog.table(named: pair.key) else { return }
            entries[pair.key] = SQLiteTypeCache.CachedTable(declared: Self.declared(table), types: pair.value)
        }, for: newIdentity)
    }

    // MARK: Checking text dates

    /// The largest table whose text date column is checked without an index (by its greatest
    /// key): reading 250,000 values costs about a tenth of a second, once.
    static let uncheckedTableLimit: Int64 = 250_000

    /// Whether `table` has at most `limit` rows, by its greatest key (cheap: the B-tree's end).
    private static func rowsAtMost(_ limit: Int64, in table: ForeignCatalog.Table, database: SQLiteDatabase) -> Bool {
        guard let value = try? database.scalar("SELECT max(\(table.keyExpression)) FROM \(SQLIdentifier.quoted(table.name))") else { return false }
        switch value {
        case .null: return true
        case .integer(let key): return key <= limit
        default: return false
        }
    }

    /// Whether every value of `column` is NULL or text of `form`: the least and greatest first
    /// (from the index, when there is one), then every value, by `sift_date_form` — the same
    /// check of the shape and the calendar as the sample's (``TextDateForm/of(bytes:)``), over
    /// the index where there is one.
    /// (Throws only when interrupted; another error is a no.)
    static func everyValue(of column: String, in table: ForeignCatalog.Table, isIn form: TextDateForm, database: SQLiteDatabase) throws(SQLiteError) -> Bool {
        let c = SQLIdentifier.quoted(column), t = SQLIdentifier.quoted(table.name)
        do {
            for end in ["min", "max"] {
                switch try database.scalar("SELECT \(end)(\(c)) FROM \(t)") {
                case .null: continue
                case .text(let text) where TextDateForm.of(text) == form: continue
                default: return false
                }
            }
            let sql = "SELECT 1 FROM \(t) WHERE \(c) IS NOT NULL AND \(SiftSQLFunctions.dateFormFunction)(\(c)) IS NOT ?1 LIMIT 1"
            return try database.rows(sql, [.integer(Int64(form.rawValue))]).isEmpty
        } catch {
            if error.isInterrupted { throw error }
            return false
        }
    }

    // MARK: Making the schema

    /// The schema of `catalog` with the types chosen so far (tables not read yet Undefined).
    private static func schema(of catalog: ForeignCatalog, types: [String: ColumnTypeInference.TableTypes]) throws(StoreError) -> SQLSchema {
        let introspected = catalog.tables.map { table in
            guard let chosen = types[table.name] else {
                var unread = IntrospectedTable(
                    name: table.name, primaryKey: table.primaryKey, columns: table.columns.map { ($0.name, AttributeType.undefined) },
                    foreignKeys: table.foreignKeys, collatedColumns: table.collatedColumns,
                    foreignColumns: Dictionary(table.columns.map { ($0.name, ForeignColumn(type: .undefined, reason: "not read yet")) },
                                               uniquingKeysWith: { first, _ in first }))
                unread.typesAreRead = false
                return unread
            }
            return IntrospectedTable(
                name: table.name, primaryKey: table.primaryKey,
                columns: table.columns.map { ($0.name, chosen.columns[$0.name]?.type ?? .undefined) },
                foreignKeys: table.foreignKeys, collatedColumns: table.collatedColumns, foreignColumns: chosen.columns)
        }
        return try IntrospectedSchema.schema(of: introspected, name: catalog.name)
    }
}
