import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftSQLStore
import SiftStore

/// A fetch's results as the row keys (and IDs) of its objects, in order: IDs and the count are
/// answered from the list; objects are read a batch at a time (one query per batch, by key) while
/// iterating, or one at a time by position.
///
/// While iterating, the relationships the request prefetches (the first relationship of each
/// `relationshipKeyPathsForPrefetching` path) are read for the whole batch with one query each
/// and answered from memory (``SQLObjectStorage``).
struct PostgreSQLKeyListSource: FetchedObjectSource, @unchecked Sendable {
    let store: PostgreSQLStore
    let keys: [(key: Int64, id: ObjectID)]
    let layout: PostgreSQLRowLayout
    /// The relationship key paths prefetched for each batch.
    var prefetch: [String] = []
    let failure: ReadFailure?

    /// (`failure`: where read errors are kept, another source's when it reads through this one.)
    init(store: PostgreSQLStore, keys: [(key: Int64, id: ObjectID)], layout: PostgreSQLRowLayout, request: FetchRequest? = nil,
         failure: ReadFailure = ReadFailure()) {
        self.failure = failure
        self.store = store
        self.keys = keys
        self.layout = layout
        prefetch = request.map(Self.prefetchedRelationships) ?? []
    }

    /// The relationship key paths a request prefetches for each batch: its
    /// `relationshipKeyPathsForPrefetching`, once each, every step of a dotted path loaded
    /// (``PostgreSQLStore/prefetch(_:of:)``).
    static func prefetchedRelationships(_ request: FetchRequest) -> [String] {
        var paths: [String] = []
        for path in request.relationshipKeyPathsForPrefetching where !path.isEmpty && !paths.contains(path) { paths.append(path) }
        return paths
    }

    var count: Int { keys.count }
    func objectID(at index: Int) -> ObjectID { keys[index].id }

    /// The object at a position; an object without data (its ID only) if its row is gone or
    /// cannot be read (the error is kept in ``failure``).
    func object(at index: Int) -> ManagedObject {
        do {
            if let object = try objects(for: [keys[index].key]).first { return object }
        } catch {
            failure?.record(error)
        }
        return ManagedObject(objectID: keys[index].id, entityName: layout.table.entity.name, names: AttributeNames([]), values: [],
                             storage: SQLObjectStorage(store: store, entity: layout.table.entity.name), storageKey: keys[index].key)
    }

    func makeCursor() -> any FetchedObjectCursor { Cursor(source: self) }

    /// The objects of rows with these keys, in the keys' order (rows gone since are left out).
    func objects(for batch: [Int64]) throws(StoreError) -> [ManagedObject] {
        store.lock.lock(); defer { store.lock.unlock() }
        let sql = "SELECT \(layout.columns.joined(separator: ", ")) FROM \(q(layout.table.table)) AS \"t0\" WHERE \"t0\".\(q(layout.table.primaryKey)) = ANY($1)"
        let result = try store.read { () throws(StoreError) in try store.query(sql, [PostgreSQLRowObjects.keyArray(batch)]) }
        var byKey: [Int64: ManagedObject] = [:]
        byKey.reserveCapacity(result.count)
        for object in try layout.objects(result, rows: 0..<result.count) { byKey[object.storageKey] = object }
        return batch.compactMap { byKey[$0] }
    }

    /// Reads the prefetched relationships of a batch's objects.
    func prefetchRelationships(of objects: [ManagedObject]) throws(StoreError) {
        try store.prefetch(prefetch, of: objects)
    }

    /// Reads the list in order, one query per batch.
    struct Cursor: FetchedObjectCursor {
        let source: PostgreSQLKeyListSource
        var position = 0

        mutating func next(_ count: Int) throws -> [ManagedObject] {
            let end = Swift.min(source.keys.count, position + Swift.min(count, source.keys.count))
            guard position < end else { return [] }
            defer { position = end }
            let objects = try source.objects(for: source.keys[position..<end].map(\.key))
            try source.prefetchRelationships(of: objects)
            return objects
        }
    }
}
