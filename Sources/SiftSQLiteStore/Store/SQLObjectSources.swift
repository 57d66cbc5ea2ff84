import Foundation
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
    let prefetch: SQLBatchPrefetch
    private var cachedKeys: [(key: Int64, id: ObjectID)]?
    /// The keys as a list, which random access reads the objects of (a window at a time).
    private var keyList: SQLiteKeyListSource?
    /// How many rows the query returns, when that is known without running it.
    private let knownCount: Int?
    /// The error that ended reading early (iteration, the keys, random access).
    let failure: ReadFailure? = ReadFailure()

    init(store: SQLiteStore, sql: String, bindings: [SQLValue], layout: RowLayout, count: Int? = nil,
         prefetch: SQLBatchPrefetch = .none) {
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

/// Steps one statement for the core's object stream (``SQLObjectStream``, which decodes only
/// the rows asked for and, after each batch, loads the batch's prefetched relationships with
/// `SQLBatchPrefetch`, replacing the previous batch's). The cursor is the store's own type
/// around the core's stream so that the stream's loop is specialized for SQLite's rows.
struct SQLStatementCursor: FetchedObjectCursor {
    private var stream: SQLObjectStream<SQLiteStatementRows>

    init(store: SQLiteStore, sql: String, bindings: [SQLValue], layout: RowLayout, prefetch: SQLBatchPrefetch) {
        store.lock.lock(); defer { store.lock.unlock() }
        let rows = SQLiteStatementRows(store: store, layout: layout, relationshipPrefetch: prefetch)
        do {
            let statement = try store.database.prepare(sql)
            try statement.bind(sqlValues: bindings)
            rows.statement = statement
            stream = SQLObjectStream(driver: rows)
        } catch {
            stream = SQLObjectStream(driver: rows, failure: store.translated(error))
        }
    }

    mutating func next(_ count: Int) throws -> [ManagedObject] {
        try stream.next(count)
    }

    mutating func next(_ count: Int, appendingTo objects: inout [ManagedObject]) throws {
        try stream.next(count, appendingTo: &objects)
    }
}

/// The rows of one SQLite statement, stepped, for the core's object stream: the statement is
/// let go at its last row or its error (translated, ``SQLiteStore/translated(_:)``). (A class:
/// the stream's loop then holds one reference, not the layout's many.)
final class SQLiteStatementRows: SQLRowStreamDriver {
    let store: SQLiteStore
    let layout: RowLayout
    /// The relationships loaded with each batch.
    let relationshipPrefetch: SQLBatchPrefetch
    /// The statement, until its last row or its error.
    var statement: SQLiteStatement?

    init(store: SQLiteStore, layout: RowLayout, relationshipPrefetch: SQLBatchPrefetch) {
        self.store = store
        self.layout = layout
        self.relationshipPrefetch = relationshipPrefetch
    }

    var lock: NSRecursiveLock { store.lock }
    var decoder: SQLRowDecoder { layout.decoder }
    var prefetches: Bool { !relationshipPrefetch.isEmpty }

    func nextRow() throws -> SQLiteRowReader? {
        guard let statement else { return nil }
        let hasRow: Bool
        do {
            hasRow = try statement.step()
        } catch {
            self.statement = nil
            throw store.translated(error)
        }
        guard hasRow else {
            self.statement = nil
            return nil
        }
        return SQLiteRowReader(statement)
    }

    func endRows() {
        statement = nil
    }

    func object(_ row: consuming SQLDecodedRow, values: ArraySlice<Value>) throws(StoreError) -> ManagedObject {
        store.managedObject(row, values: values)
    }

    func prefetch(_ objects: ArraySlice<ManagedObject>) {
        layout.loadPrefetched(relationshipPrefetch, of: objects, store: store)
    }
}

/// A fetch's objects as a list of row keys (when part of the fetch ran in memory, or for a
/// section): the core's key list (``SQLKeyListSource``) over the SQLite store's rows. Objects
/// are read by key when asked, a window of keys per query, and iteration reads a batch of keys
/// per query, then loads the batch's prefetched relationships and counts
/// (`SQLBatchPrefetch`). Objects read by position are not prefetched: each reads its
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
    let relationshipPrefetch: SQLBatchPrefetch

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
        layout.loadPrefetched(relationshipPrefetch, of: objects[...], store: sqliteStore)
    }
}

extension SQLKeyListSource where Driver == SQLiteKeyListDriver {
    /// The list `keys` of `layout`'s table in `store`, loading `prefetch` with each batch.
    /// (`failure`: where read errors are kept, another source's when it reads through this one.)
    convenience init(store: SQLiteStore, keys: [(key: Int64, id: ObjectID)], layout: RowLayout,
                     prefetch: SQLBatchPrefetch = .none, failure: ReadFailure = ReadFailure()) {
        self.init(driver: SQLiteKeyListDriver(sqliteStore: store, layout: layout, relationshipPrefetch: prefetch), keys: keys, failure: failure)
    }

    /// The layout the list's rows are read with.
    var layout: RowLayout { driver.layout }
}
