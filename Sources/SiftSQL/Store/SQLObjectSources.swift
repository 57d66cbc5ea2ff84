import SiftEvaluation
import SiftLanguage
import SiftSQLite
import SiftStore

/// A fetch's objects as one SQL query: iterating streams them from one statement (a batch at a
/// time, each batch's prefetched relationships loaded with it); the count, the IDs and random
/// access run their own queries when asked (objects read by position are not prefetched).
final class SQLQuerySource: FetchedObjectSource, @unchecked Sendable {
    let store: SQLiteStore
    let sql: String
    let bindings: [SQLiteValue]
    let layout: RowLayout
    /// The relationships loaded with each batch iteration reads.
    let prefetch: RelationshipPrefetch
    private var cachedKeys: [(key: Int64, id: ObjectID)]?
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
            while (try? statement.step()) == true {
                let row = layout.decode(statement)
                keys.append((row.key, row.id))
            }
        }
        cachedKeys = keys
        return keys
    }

    var count: Int { knownCount ?? keys().count }
    func objectID(at index: Int) -> ObjectID { keys()[index].id }
    func object(at index: Int) -> ManagedObject {
        SQLKeyListSource.object(key: keys()[index].key, id: keys()[index].id, store: store, layout: layout)
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
/// section): objects are read by key when asked. Their relationships are not prefetched
/// (`relationshipKeyPathsForPrefetching`): each object reads them when asked.
struct SQLKeyListSource: FetchedObjectSource, @unchecked Sendable {
    let store: SQLiteStore
    let keys: [(key: Int64, id: ObjectID)]
    let layout: RowLayout

    var count: Int { keys.count }
    func objectID(at index: Int) -> ObjectID { keys[index].id }
    func object(at index: Int) -> ManagedObject { Self.object(key: keys[index].key, id: keys[index].id, store: store, layout: layout) }

    static func object(key: Int64, id: ObjectID, store: SQLiteStore, layout: RowLayout) -> ManagedObject {
        store.lock.lock(); defer { store.lock.unlock() }
        let sql = "SELECT \(layout.columns.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(layout.table.table)) AS \"t0\" WHERE \(SQLIdentifier.qualified("t0", layout.table.primaryKey)) = ?1"
        if let statement = try? store.database.cachedStatement(sql), (try? statement.bind([.integer(key)])) != nil, (try? statement.step()) == true {
            return store.managedObject(layout.decode(statement))
        }
        return ManagedObject(objectID: id, entityName: layout.table.entity.name, names: AttributeNames([]), values: [],
                             storage: SQLObjectStorage(store: store, entity: layout.table.entity.name), storageKey: key)
    }
}
