import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
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
    /// The objects random access read last.
    private var window = SQLObjectWindow()
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
        return window.object(at: index, keys: keys, store: store, layout: layout, failure: failure)
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
        if let pending {
            self.pending = nil
            throw pending
        }
        guard let statement else { return [] }
        store.lock.lock(); defer { store.lock.unlock() }
        // The batch's rows decode into one buffer of values, which its objects share.
        var rows: [SQLDecodedRow] = []
        var values: [Value] = []
        values.reserveCapacity(Swift.min(count, 4096) &* layout.widestRow)
        var owners: [RelationshipPrefetch.Owner] = []
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
            let row = layout.decode(statement, previous: rows.last?.entity, appendingTo: &values)
            if !prefetch.isEmpty, let storage = row.entity.storage { owners.append(.init(storage: storage, key: row.key)) }
            rows.append(row)
        }
        let objects = store.managedObjects(rows, values: values)
        if !prefetch.isEmpty, !objects.isEmpty {
            for entity in layout.entities.values { entity.storage?.clearPrefetched() }
            prefetch.load(owners, store: store)
        }
        return objects
    }
}

/// A fetch's objects as a list of row keys (when part of the fetch ran in memory, or for a
/// section): objects are read by key when asked, a window of keys per query, and iteration
/// reads a batch of keys per query, then loads the batch's prefetched relationships and counts
/// (`RelationshipPrefetch`). Objects read by position are not prefetched: each reads its
/// relationships when asked.
final class SQLKeyListSource: FetchedObjectSource, @unchecked Sendable {
    let store: SQLiteStore
    let keys: [(key: Int64, id: ObjectID)]
    let layout: RowLayout
    /// The relationships loaded with each batch iteration reads.
    let prefetch: RelationshipPrefetch
    private var window = SQLObjectWindow()
    let failure: ReadFailure? = ReadFailure()

    init(store: SQLiteStore, keys: [(key: Int64, id: ObjectID)], layout: RowLayout,
         prefetch: RelationshipPrefetch = RelationshipPrefetch(keyPaths: [], counts: [])) {
        self.store = store
        self.keys = keys
        self.layout = layout
        self.prefetch = prefetch
    }

    var count: Int { keys.count }
    func objectID(at index: Int) -> ObjectID { keys[index].id }

    func object(at index: Int) -> ManagedObject {
        store.lock.lock(); defer { store.lock.unlock() }
        return window.object(at: index, keys: keys, store: store, layout: layout, failure: failure)
    }

    func makeCursor() -> any FetchedObjectCursor { KeyListCursor(source: self) }

    /// Reads the keys in order, a batch per query.
    struct KeyListCursor: FetchedObjectCursor {
        let source: SQLKeyListSource
        var position = 0

        mutating func next(_ count: Int) throws -> [ManagedObject] {
            let end = min(source.keys.count, position + min(count, source.keys.count))
            guard position < end else { return [] }
            defer { position = end }
            source.store.lock.lock(); defer { source.store.lock.unlock() }
            let objects = try SQLObjectWindow.objects(source.keys[position..<end], store: source.store, layout: source.layout)
            let prefetch = source.prefetch
            if !prefetch.isEmpty, !objects.isEmpty {
                let entities = source.layout.entities
                for entity in entities.values { entity.storage?.clearPrefetched() }
                let owners = objects.compactMap { object in
                    entities[object.entityName]?.storage.map { RelationshipPrefetch.Owner(storage: $0, key: object.storageKey) }
                }
                prefetch.load(owners, store: source.store)
            }
            return objects
        }
    }
}

/// The objects around the last one read by position: reading by position reads the objects
/// of `size` keys with one query, so a loop over positions costs a query per window, not per
/// object. Used under the store's lock.
struct SQLObjectWindow {
    static let size = 256
    private var start = 0
    private var objects: [ManagedObject] = []

    /// The object at `index`; when the store cannot read it, an object without attributes
    /// (random access cannot throw) and the error in `failure`.
    mutating func object(at index: Int, keys: [(key: Int64, id: ObjectID)], store: SQLiteStore, layout: RowLayout,
                         failure: ReadFailure?) -> ManagedObject {
        if index < start || index >= start + objects.count {
            start = index
            let window = keys[index..<min(keys.count, index + Self.size)]
            do {
                objects = try Self.objects(window, store: store, layout: layout)
            } catch {
                failure?.record(error)
                objects = window.map { Self.empty($0, store: store, layout: layout) }
            }
        }
        return objects[index - start]
    }

    /// The objects of `keys`, in their order: one query per `RowKeyLists.limit` keys,
    ///
    ///     SELECT <columns> FROM "Note" AS "t0" WHERE "t0"."_pk" IN (?1, ?2, …)
    ///
    /// A key whose row is gone reads as an object without attributes. Throws when the store
    /// cannot read them (translated: ``SQLiteStore/translated(_:)``).
    static func objects(_ keys: ArraySlice<(key: Int64, id: ObjectID)>, store: SQLiteStore, layout: RowLayout) throws -> [ManagedObject] {
        var found: [Int64: ManagedObject] = [:]
        var rows: [SQLDecodedRow] = []
        var values: [Value] = []
        do {
            for chunk in RowKeyLists.chunks(keys.map(\.key)) {
                let sql = "SELECT \(layout.columns.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(layout.table.table)) AS \"t0\" "
                    + "WHERE \(SQLIdentifier.qualified("t0", layout.table.primaryKey)) \(RowKeyLists.inList(chunk.count))"
                let statement = try store.database.prepare(sql)
                try statement.bind(sqlValues: chunk.bindings)
                while try statement.step() { rows.append(layout.decode(statement, previous: rows.last?.entity, appendingTo: &values)) }
            }
        } catch {
            throw store.translated(error)
        }
        for (row, object) in zip(rows, store.managedObjects(rows, values: values)) { found[row.key] = object }
        return keys.map { entry in found[entry.key] ?? empty(entry, store: store, layout: layout) }
    }

    /// The object of a key whose row cannot be read: its ID, no attributes.
    static func empty(_ entry: (key: Int64, id: ObjectID), store: SQLiteStore, layout: RowLayout) -> ManagedObject {
        ManagedObject(objectID: entry.id, entityName: layout.table.entity.name, names: AttributeNames([]), values: [],
                      storage: SQLObjectStorage(store: store, entity: layout.table.entity.name), storageKey: entry.key)
    }
}
