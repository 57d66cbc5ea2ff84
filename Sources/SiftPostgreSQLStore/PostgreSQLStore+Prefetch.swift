import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftStore

extension PostgreSQLStore {
    /// Loads what `batch` asks for `objects` (one batch of a fetch, a run of candidates of the
    /// residual predicate, objects grouped in sections): the core's ``SQLBatchPrefetch``, one
    /// `= ANY` query per relationship and group of owners, kept in the objects' storages
    /// (``SQLObjectStorage``) in place of an earlier batch's and answered from memory while the
    /// rows have not changed. Keys an object's entity does not have are passed over.
    func prefetch(_ batch: SQLBatchPrefetch, of objects: [ManagedObject]) throws(StoreError) {
        guard !batch.isEmpty, !objects.isEmpty else { return }
        lock.lock(); defer { lock.unlock() }
        let owners = objects.compactMap { object in
            (object.storage as? SQLObjectStorage).map { SQLBatchPrefetch.Owner(storage: $0, key: object.storageKey) }
        }
        try batch.load(owners, keeping: .replaced, through: PostgreSQLPrefetchDriver(store: self))
    }
}

/// How the PostgreSQL store runs a batch prefetch's queries: one query per group of owners,
/// their keys sent as one `= ANY($1)` array (``SQLRelationshipRead``); a failed query throws.
struct PostgreSQLPrefetchDriver: SQLBatchPrefetchDriver {
    let store: PostgreSQLStore

    var schema: SQLSchema { store.schema }

    func destinations(of group: SQLPrefetchGroup) throws(StoreError) -> SQLPrefetchedDestinations? {
        let byOwner = try store.destinations(of: group.relationship, from: group.table, keys: group.keys)
        // (Each destination once, as the owners first reach it: a next step's owners.)
        var reached: [SQLBatchPrefetch.Owner] = []
        var seen: Set<Int64> = []
        for key in group.keys {
            for object in byOwner[key] ?? [] where seen.insert(object.storageKey).inserted {
                guard let storage = object.storage as? SQLObjectStorage else { continue }
                reached.append(SQLBatchPrefetch.Owner(storage: storage, key: object.storageKey))
            }
        }
        return SQLPrefetchedDestinations(byOwner: byOwner, reached: reached)
    }

    func counts(of group: SQLPrefetchGroup) throws(StoreError) -> [Int64: Int]? {
        let store = self.store
        guard let sql = SQLRelationshipRead.countSQL(group.relationship, of: group.table, held: group.held, destination: store.destinationRoot(of: group.relationship),
                                                     keys: "= ANY($1)", schema: store.schema, dialect: store.dialect) else { return nil }
        let result = try store.read { () throws(StoreError) in try store.query(sql, [PostgreSQLRowObjects.keyArray(group.keys)]) }
        var counts: [Int64: Int] = [:]
        for row in result {
            guard let owner = row[0].int64Value, let count = row[1].int64Value else { continue }
            counts[owner] = Int(count)
        }
        return counts
    }
}
