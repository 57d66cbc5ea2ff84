import SiftEvaluation
import SiftLanguage
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftSQLite
import SiftStore

/// A fetch's objects as one SQL query: iterating streams them from one statement (a batch at a
/// time, each batch's prefetched relationships loaded with it); the count and the IDs run the
/// query once more for the rows' keys, and random access reads the objects around the one
/// asked for by those keys, a window at a time (objects read by position are not prefetched).
final class SQLQuerySource: FetchedObjectSource, @unchecked Sendable {
    let store: SQLiteStore
    let sql: String
    let bindings: [SQLValue]
    let layout: RowLayout
    /// The relationships loaded with each batch iteration reads.
    let prefetch: RelationshipPrefetch
    private var cachedKeys: [(key: Int64, id: ObjectID)]?
    /// The keys as a list, which random access reads the objects of (a window at a time).
    private var keyList: SQLiteKeyListSource?
    /// How many rows the query returns, when that is known without running it.
    private let knownCount: Int?
    /// The error that ended reading early (iteration, the keys, random access).
    let failure: ReadFailure? = ReadFailure()

    init(store: SQLiteStore, sql: String, bindings: [SQLValue], layout: RowLayout, count: Int? = nil,
         prefetch: RelationshipPrefetch = RelationshipPrefetch(keyPaths: [], counts: [])) {
        self.store = store
        self.sql = sql
        self.bindings = bindings
        self.layout = layout
        self.knownCount = count
        self.prefetch = prefetch
    }

    /// The rows' keys and IDs, in order (read once, on first need). When the query fails,
    /// the keys before the failure, and the error in ``failure``.
    func keys() -> [(key: Int64, id: ObjectID)] {
        store.lock.lock(); defer { store.lock.unlock() }
        if let cachedKeys { return cachedKeys }
        var keys: [(key: Int64, id: ObjectID)] = []
        do {
            let statement = try store.database.prepare(sql)
            try statement.bind(sqlValues: bindings)
            while try statement.step() { keys.append(layout.keyAndID(statement)) }
        } catch {
            failure?.record(store.translated(error))
        }
        if let knownCount, keys.count < knownCount {
            // Another process deleted rows between the count and this read: positions up to
            // the count stay valid (objects without attributes), and the error says why.
            if failure?.error == nil {
                failure?.record(StoreError(.conflict, "the store changed while this result was read (another process committed between its count and its rows); fetch again"))
            }
            keys += repeatElement((key: Int64.min, id: ObjectID("")), count: knownCount - keys.count)
        }
        cachedKeys = keys
        return keys
    }

    /// The rows' keys and IDs, or the error that stopped reading them.
    func checkedKeys() throws -> [(key: Int64, id: ObjectID)] {
        let keys = keys()
        if let error = failure?.error { throw error }
        return keys
    }

    var count: Int { knownCount ?? keys().count }
    func objectID(at index: Int) -> ObjectID { keys()[index].id }
    func object(at index: Int) -> ManagedObject {
        let keys = keys()
        store.lock.lock(); defer { store.lock.unlock() }
        if keyList == nil { keyList = SQLiteKeyListSource(store: store, keys: keys, layout: layout, failure: failure ?? ReadFailure()) }
        return keyList!.object(at: index)
    }

    func makeCursor() -> any FetchedObjectCursor {
        SQLStatementCursor(store: store, sql: sql, bindings: bindings, layout: layout, prefetch: prefetch)
    }
}

/// Steps one statement, decoding only the rows asked for; after each batch, loads the
/// batch's prefetched relationships (`RelationshipPrefetch`), replacing the previous batch's.
struct SQLStatementCursor: FetchedObjectCursor {
    let store: SQLiteStore
    let layout: RowLayout
    let prefetch: RelationshipPrefetch
    private var statement: SQLiteStatement?
    /// An error met after some objects of a batch (or in preparing the statement): the next
    /// `next` throws it.
    private var pending: (any Error)?
    /// The batch's decoded rows, values and prefetch owners, kept for the next batch.
    private var rows = DecodedRows()
    private var values: [Value] = []
    private var owners: [RelationshipPrefetch.Owner] = []

    init(store: SQLiteStore, sql: String, bindings: [SQLValue], layout: RowLayout, prefetch: RelationshipPrefetch) {
        self.store = store
        self.layout = layout
        self.prefetch = prefetch
        store.lock.lock(); defer { store.lock.unlock() }
        do {
            let statement = try store.database.prepare(sql)
            try statement.bind(sqlValues: bindings)
            self.statement = statement
        } catch {
            pending = store.translated(error)
        }
    }

    mutating func next(_ count: Int) throws -> [ManagedObject] {
        var objects: [ManagedObject] = []
        try next(count, appendingTo: &objects)
        return objects
    }

    mutating func next(_ count: Int, appendingTo objects: inout [ManagedObject]) throws {
        if let pending {
            self.pending = nil
            throw pending
        }
        guard let statement else { return }
        store.lock.lock(); defer { store.lock.unlock() }
        // The batch's rows decode into one buffer of values, which its objects share. The
        // buffers are the cursor's, kept from batch to batch: once the previous batch's objects
        // are gone the values buffer is this cursor's alone and is emptied in place, so a batch
        // allocates (and frees) no large block. (A kept object keeps its batch's buffer, and
        // this batch gets a new one.)
        values.removeAll(keepingCapacity: true)
        values.reserveCapacity(Swift.min(count, 4096) &* layout.widestRow)
        owners.removeAll(keepingCapacity: true)
        let start = objects.count
        // The previous row's entity, to tell the next row's without a look-up (kept without
        // counting a reference per row).
        var previous: SQLRowDecoder.Entity?
        while rows.count < count {
            let hasRow: Bool
            do {
                hasRow = try statement.step()
            } catch {
                self.statement = nil
                // The objects read before the failure first; the error at the next call.
                guard rows.isEmpty else {
                    pending = store.translated(error)
                    break
                }
                throw store.translated(error)
            }
            guard hasRow else {
                self.statement = nil
                break
            }
            let row = layout.decode(statement, previous: previous, appendingTo: &values)
            if row.entity !== previous { previous = row.entity }
            if !prefetch.isEmpty, let storage = row.entity.storage { owners.append(.init(storage: storage, key: row.key)) }
            rows.append(row)
        }
        objects.reserveCapacity(objects.count &+ rows.count)
        rows.moveAll { row in objects.append(store.managedObject(row, values: values[row.values])) }
        if !prefetch.isEmpty, objects.count > start {
            layout.clearPrefetched()
            prefetch.load(owners, store: store)
        }
        if self.statement == nil {
            // The last batch: what it decoded lives in its objects only.
            rows = DecodedRows()
            values = []
            owners = []
        }
    }
}

/// A batch's decoded rows, kept by a cursor from batch to batch: rows are appended as they are
/// decoded and moved (not copied) into their objects, so a row's ID and entity are not counted
/// and released again, and no row is destroyed twice.
final class DecodedRows {
    private var base: UnsafeMutablePointer<SQLDecodedRow>?
    private var capacity = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    func append(_ row: consuming SQLDecodedRow) {
        if count == capacity {
            let grown = Swift.max(16, capacity &* 2)
            let new = UnsafeMutablePointer<SQLDecodedRow>.allocate(capacity: grown)
            if let base {
                new.moveInitialize(from: base, count: count)
                base.deallocate()
            }
            base = new
            capacity = grown
        }
        (base! + count).initialize(to: row)
        count &+= 1
    }

    /// Moves every row, in order, into `body`, leaving none.
    func moveAll(_ body: (consuming SQLDecodedRow) -> Void) {
        guard let base else { return }
        let rows = count
        count = 0
        for index in 0..<rows { body((base + index).move()) }
    }

    deinit {
        base?.deinitialize(count: count)
        base?.deallocate()
    }
}

/// A fetch's objects as a list of row keys (when part of the fetch ran in memory, or for a
/// section): the core's key list (``SQLKeyListSource``) over the SQLite store's rows. Objects
/// are read by key when asked, a window of keys per query, and iteration reads a batch of keys
/// per query, then loads the batch's prefetched relationships and counts
/// (`RelationshipPrefetch`). Objects read by position are not prefetched: each reads its
/// relationships when asked.
typealias SQLiteKeyListSource = SQLKeyListSource<SQLiteKeyListDriver>

/// How the core's key list reads a SQLite store: rows by key, one query per
/// `RowKeyLists.limit` keys,
///
///     SELECT <columns> FROM "Note" AS "t0" WHERE "t0"."_pk" IN (?1, ?2, …)
///
/// A key whose row is gone reads as an object without attributes; errors are translated
/// (``SQLiteStore/translated(_:)``).
struct SQLiteKeyListDriver: SQLKeyListDriver {
    /// How many objects reading by position reads with one query: a loop over positions costs
    /// a query per window, not per object.
    static let windowSize = 256

    let sqliteStore: SQLiteStore
    let layout: RowLayout
    /// The relationships loaded with each batch iteration reads.
    let relationshipPrefetch: RelationshipPrefetch

    var store: any SQLObjectReadingStore { sqliteStore }
    var decoder: SQLRowDecoder { layout.decoder }
    var windowSize: Int { Self.windowSize }
    var keepsGoneRows: Bool { true }

    func forEachRow(withKeys keys: ArraySlice<Int64>, _ body: (SQLiteRowReader) throws -> Void) throws {
        do {
            for chunk in RowKeyLists.chunks(keys) {
                let sql = "SELECT \(layout.columns.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(layout.table.table)) AS \"t0\" "
                    + "WHERE \(SQLIdentifier.qualified("t0", layout.table.primaryKey)) \(RowKeyLists.inList(chunk.count))"
                let statement = try sqliteStore.database.prepare(sql)
                try statement.bind(sqlValues: chunk.bindings)
                while try statement.step() { try body(SQLiteRowReader(statement)) }
            }
        } catch {
            throw sqliteStore.translated(error)
        }
    }

    func objects(_ rows: [SQLDecodedRow], values: [Value]) -> [ManagedObject] {
        sqliteStore.managedObjects(rows, values: values)
    }

    func prefetch(_ objects: [ManagedObject]) {
        guard !relationshipPrefetch.isEmpty else { return }
        layout.clearPrefetched()
        relationshipPrefetch.load(layout.prefetchOwners(objects), store: sqliteStore)
    }
}

extension SQLKeyListSource where Driver == SQLiteKeyListDriver {
    /// The list `keys` of `layout`'s table in `store`, loading `prefetch` with each batch.
    /// (`failure`: where read errors are kept, another source's when it reads through this one.)
    convenience init(store: SQLiteStore, keys: [(key: Int64, id: ObjectID)], layout: RowLayout,
                     prefetch: RelationshipPrefetch = RelationshipPrefetch(keyPaths: [], counts: []), failure: ReadFailure = ReadFailure()) {
        self.init(driver: SQLiteKeyListDriver(sqliteStore: store, layout: layout, relationshipPrefetch: prefetch), keys: keys, failure: failure)
    }

    /// The layout the list's rows are read with.
    var layout: RowLayout { driver.layout }
}
