import SiftEvaluation
import SiftLanguage
import SiftSQLite
import SiftStore

/// A fetch's objects as one SQL query: iterating streams them from one statement (a batch at a
/// time, each batch's prefetched relationships loaded with it); the count and the IDs run the
/// query once more for the rows' keys, and random access reads the objects around the one
/// asked for by those keys, a window at a time (objects read by position are not prefetched).
final class SQLQuerySource: FetchedObjectSource, @unchecked Sendable {
    let store: SQLiteStore
    let sql: String
    let bindings: [SQLiteValue]
    let layout: RowLayout
    /// The relationships loaded with each batch iteration reads.
    let prefetch: RelationshipPrefetch
    private var cachedKeys: [(key: Int64, id: ObjectID)]?
    /// The objects random access read last.
    private var window = SQLObjectWindow()
    /// How many rows the query returns, when that is known without running it.
    private let knownCount: Int?

    init(store: SQLiteStore, sql: String, bindings: [SQLiteValue], layout: RowLayout, count: Int? = nil,
         prefetch: RelationshipPrefetch = RelationshipPrefetch(keyPaths: [])) {
        self.store = store
        self.sql = sql
        self.bindings = bindings
        self.layout = layout
        self.knownCount = count
        self.prefetch = prefetch
    }

    /// The rows' keys and IDs, in order (read once, on first need).
    func keys() -> [(key: Int64, id: ObjectID)] {
        store.lock.lock(); defer { store.lock.unlock() }
        if let cachedKeys { return cachedKeys }
        var keys: [(key: Int64, id: ObjectID)] = []
        if let statement = try? store.database.prepare(sql), (try? statement.bind(bindings)) != nil {
            while (try? statement.step()) == true { keys.append(layout.keyAndID(statement)) }
        }
        cachedKeys = keys
        return keys
    }

    var count: Int { knownCount ?? keys().count }
    func objectID(at index: Int) -> ObjectID { keys()[index].id }
    func object(at index: Int) -> ManagedObject {
        let keys = keys()
        store.lock.lock(); defer { store.lock.unlock() }
        return window.object(at: index, keys: keys, store: store, layout: layout)
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

    init(store: SQLiteStore, sql: String, bindings: [SQLiteValue], layout: RowLayout, prefetch: RelationshipPrefetch) {
        self.store = store
        self.layout = layout
        self.prefetch = prefetch
        store.lock.lock(); defer { store.lock.unlock() }
        if let statement = try? store.database.prepare(sql), (try? statement.bind(bindings)) != nil { self.statement = statement }
    }

    mutating func next(_ count: Int) -> [ManagedObject] {
        guard let statement else { return [] }
        store.lock.lock(); defer { store.lock.unlock() }
        var objects: [ManagedObject] = []
        var owners: [RelationshipPrefetch.Owner] = []
        while objects.count < count {
            guard (try? statement.step()) == true else {
                self.statement = nil
                break
            }
            let row = layout.decode(statement)
            if !prefetch.isEmpty, let storage = row.storage { owners.append(.init(storage: storage, key: row.key)) }
            objects.append(store.managedObject(row))
        }
        if !prefetch.isEmpty, !objects.isEmpty {
            for entity in layout.entities.values { entity.storage?.clearPrefetched() }
            prefetch.load(owners, store: store)
        }
        return objects
    }
}

/// A fetch's objects as a list of row keys (when part of the fetch ran in memory, or for a
/// section): objects are read by key when asked, a window of keys per query, and iteration
/// reads a batch of keys per query. Their relationships are not prefetched
/// (`relationshipKeyPathsForPrefetching`): each object reads them when asked.
final class SQLKeyListSource: FetchedObjectSource, @unchecked Sendable {
    let store: SQLiteStore
    let keys: [(key: Int64, id: ObjectID)]
    let layout: RowLayout
    private var window = SQLObjectWindow()

    init(store: SQLiteStore, keys: [(key: Int64, id: ObjectID)], layout: RowLayout) {
        self.store = store
        self.keys = keys
        self.layout = layout
    }

    var count: Int { keys.count }
    func objectID(at index: Int) -> ObjectID { keys[index].id }

    func object(at index: Int) -> ManagedObject {
        store.lock.lock(); defer { store.lock.unlock() }
        return window.object(at: index, keys: keys, store: store, layout: layout)
    }

    func makeCursor() -> any FetchedObjectCursor { KeyListCursor(source: self) }

    /// Reads the keys in order, a batch per query.
    struct KeyListCursor: FetchedObjectCursor {
        let source: SQLKeyListSource
        var position = 0

        mutating func next(_ count: Int) -> [ManagedObject] {
            let end = min(source.keys.count, position + min(count, source.keys.count))
            guard position < end else { return [] }
            defer { position = end }
            source.store.lock.lock(); defer { source.store.lock.unlock() }
            return SQLObjectWindow.objects(source.keys[position..<end], store: source.store, layout: source.layout)
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

    mutating func object(at index: Int, keys: [(key: Int64, id: ObjectID)], store: SQLiteStore, layout: RowLayout) -> ManagedObject {
        if index < start || index >= start + objects.count {
            start = index
            objects = Self.objects(keys[index..<min(keys.count, index + Self.size)], store: store, layout: layout)
        }
        return objects[index - start]
    }

    /// The objects of `keys`, in their order: one query per `RowKeyLists.limit` keys,
    ///
    ///     SELECT <columns> FROM "Note" AS "t0" WHERE "t0"."_pk" IN (?1, ?2, …)
    ///
    /// A key whose row is gone reads as an object without attributes.
    static func objects(_ keys: ArraySlice<(key: Int64, id: ObjectID)>, store: SQLiteStore, layout: RowLayout) -> [ManagedObject] {
        var found: [Int64: ManagedObject] = [:]
        for chunk in RowKeyLists.chunks(keys.map(\.key)) {
            let sql = "SELECT \(layout.columns.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(layout.table.table)) AS \"t0\" "
                + "WHERE \(SQLIdentifier.qualified("t0", layout.table.primaryKey)) \(RowKeyLists.inList(chunk.count))"
            guard let statement = try? store.database.prepare(sql), (try? statement.bind(chunk.bindings)) != nil else { continue }
            while (try? statement.step()) == true {
                let row = layout.decode(statement)
                found[row.key] = store.managedObject(row)
            }
        }
        return keys.map { entry in
            found[entry.key] ?? ManagedObject(objectID: entry.id, entityName: layout.table.entity.name, names: AttributeNames([]), values: [],
                                              storage: SQLObjectStorage(store: store, entity: layout.table.entity.name), storageKey: entry.key)
        }
    }
}
