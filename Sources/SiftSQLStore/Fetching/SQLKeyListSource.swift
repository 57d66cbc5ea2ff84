import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftStore

/// What a SQL store gives the core's ``SQLKeyListSource``: its rows read by key (the driver runs
/// the statement, the core decodes each row through ``SQLRowReading``), their objects, and a
/// batch's prefetching. The SQLite store's driver reads `IN (?1, …)` lists of at most 500 keys,
/// the PostgreSQL store's one `= ANY($1)` array per batch.
package protocol SQLKeyListDriver: Sendable {
    /// A row as the driver's statement or result holds it.
    associatedtype Row: SQLRowReading

    /// The store the objects read their relationships from (its lock guards every read).
    var store: any SQLObjectReadingStore { get }
    /// How rows of the listed table decode.
    var decoder: SQLRowDecoder { get }
    /// How many objects reading one by position reads at once, around the one asked for (a
    /// loop over positions then costs a query per window, not per object).
    var windowSize: Int { get }
    /// Whether a batch keeps, as an object without attributes, a key whose row is gone (else
    /// the batch leaves it out).
    var keepsGoneRows: Bool { get }

    /// Calls `body` with each row of the listed table whose key is among `keys` (in any order),
    /// in as many statements as the driver needs. Throws the store's errors, in words.
    func forEachRow(withKeys keys: ArraySlice<Int64>, _ body: (Row) throws -> Void) throws
    /// The objects of decoded rows whose values are in `values`.
    func objects(_ rows: [SQLDecodedRow], values: [Value]) throws -> [ManagedObject]
    /// Loads the prefetched relationships (and counts) of a batch's objects, replacing the
    /// previous batch's.
    func prefetch(_ objects: [ManagedObject]) throws
}

/// A fetch's objects as a list of row keys (and IDs), in order, the same for every SQL store:
/// the count and IDs are answered from the list; iteration reads a batch of keys per query and
/// then loads the batch's prefetched relationships (the driver's ``SQLKeyListDriver/prefetch(_:)``);
/// random access reads the objects around the one asked for (a window of keys per query) and
/// does not prefetch: each object reads its relationships when asked. Used when part of a fetch
/// ran in memory, for a section, and for a stream that cannot hold a cursor.
package final class SQLKeyListSource<Driver: SQLKeyListDriver>: FetchedObjectSource, @unchecked Sendable {
    package let driver: Driver
    package let keys: [(key: Int64, id: ObjectID)]
    package let failure: ReadFailure?
    /// The objects random access read last, from `windowStart`. Guarded by the store's lock.
    private var window: [ManagedObject] = []
    private var windowStart = 0

    /// (`failure`: where read errors are kept, another source's when it reads through this one.)
    package init(driver: Driver, keys: [(key: Int64, id: ObjectID)], failure: ReadFailure = ReadFailure()) {
        self.driver = driver
        self.keys = keys
        self.failure = failure
    }

    package var count: Int { keys.count }
    package func objectID(at index: Int) -> ObjectID { keys[index].id }

    /// The object at `index`; when the store cannot read it, an object without attributes
    /// (random access cannot throw) and the error in ``failure``.
    package func object(at index: Int) -> ManagedObject {
        let lock = driver.store.lock
        lock.lock(); defer { lock.unlock() }
        if index < windowStart || index >= windowStart + window.count {
            windowStart = index
            let entries = keys[index..<Swift.min(keys.count, index + Swift.max(1, driver.windowSize))]
            do {
                window = try objects(entries, keepingGone: true)
            } catch {
                failure?.record(error)
                window = entries.map(empty)
            }
        }
        return window[index - windowStart]
    }

    package func makeCursor() -> any FetchedObjectCursor { Cursor(source: self) }

    /// The objects of `entries`, in their order, read by key; a key whose row is gone is an
    /// object without attributes where `keepingGone`, else left out.
    package func objects(_ entries: ArraySlice<(key: Int64, id: ObjectID)>, keepingGone: Bool) throws -> [ManagedObject] {
        let lock = driver.store.lock
        lock.lock(); defer { lock.unlock() }
        let decoder = driver.decoder
        var rows: [SQLDecodedRow] = []
        var values: [Value] = []
        rows.reserveCapacity(entries.count)
        values.reserveCapacity(entries.count &* decoder.widestRow)
        try driver.forEachRow(withKeys: entries.map(\.key)[...]) { row in
            rows.append(decoder.decode(row, previous: rows.last?.entity, appendingTo: &values))
        }
        var found: [Int64: ManagedObject] = [:]
        found.reserveCapacity(rows.count)
        for object in try driver.objects(rows, values: values) { found[object.storageKey] = object }
        if keepingGone { return entries.map { found[$0.key] ?? empty($0) } }
        return entries.compactMap { found[$0.key] }
    }

    /// The object of a key whose row cannot be read: its ID, no attributes.
    private func empty(_ entry: (key: Int64, id: ObjectID)) -> ManagedObject {
        let entity = driver.decoder.table.entity.name
        return ManagedObject(objectID: entry.id, entityName: entity, names: AttributeNames([]), values: [],
                             storage: SQLObjectStorage(store: driver.store, entity: entity), storageKey: entry.key)
    }

    /// Reads the keys in order, a batch per query, each batch's relationships prefetched.
    package struct Cursor: FetchedObjectCursor {
        let source: SQLKeyListSource
        var position = 0

        package init(source: SQLKeyListSource) { self.source = source }

        package mutating func next(_ count: Int) throws -> [ManagedObject] {
            let keys = source.keys
            let end = Swift.min(keys.count, position + Swift.min(count, keys.count))
            guard position < end else { return [] }
            defer { position = end }
            let lock = source.driver.store.lock
            lock.lock(); defer { lock.unlock() }
            let objects = try source.objects(keys[position..<end], keepingGone: source.driver.keepsGoneRows)
            if !objects.isEmpty { try source.driver.prefetch(objects) }
            return objects
        }
    }
}

/// A key list whose keys are read the first time anything but the count is asked (a section
/// of a fetch the server sectioned: its size is known from the GROUP BY query, its keys from a
/// query of its own), then read as a ``SQLKeyListSource``. An error reading the keys is kept in
/// ``failure`` and the list is then empty.
package final class SQLDeferredKeyListSource<Driver: SQLKeyListDriver>: FetchedObjectSource, @unchecked Sendable {
    package let count: Int
    private let driver: Driver
    private let readKeys: @Sendable () throws -> [(key: Int64, id: ObjectID)]
    private let readFailure = ReadFailure()
    package var failure: ReadFailure? { readFailure }
    /// The list, once read. Guarded by the store's lock.
    private var listed: SQLKeyListSource<Driver>?

    /// `count` objects, whose keys and IDs `readKeys` reads in order.
    package init(count: Int, driver: Driver, readKeys: @escaping @Sendable () throws -> [(key: Int64, id: ObjectID)]) {
        self.count = count
        self.driver = driver
        self.readKeys = readKeys
    }

    /// The list, its keys read once.
    private var list: SQLKeyListSource<Driver> {
        let lock = driver.store.lock
        lock.lock(); defer { lock.unlock() }
        if let listed { return listed }
        var keys: [(key: Int64, id: ObjectID)] = []
        do {
            keys = try readKeys()
        } catch {
            readFailure.record(error)
        }
        let list = SQLKeyListSource(driver: driver, keys: keys, failure: readFailure)
        listed = list
        return list
    }

    package func objectID(at index: Int) -> ObjectID {
        let list = self.list
        return index < list.count ? list.objectID(at: index) : ObjectID("")
    }

    package func object(at index: Int) -> ManagedObject {
        let list = self.list
        guard index < list.count else {
            let entity = driver.decoder.table.entity.name
            return ManagedObject(objectID: ObjectID(""), entityName: entity, names: AttributeNames([]), values: [],
                                 storage: SQLObjectStorage(store: driver.store, entity: entity), storageKey: 0)
        }
        return list.object(at: index)
    }

    package func makeCursor() -> any FetchedObjectCursor { list.makeCursor() }
}
