import SiftEvaluation
import SiftLanguage
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftSQLite
import SiftStore

/// How the SQLite store runs a batch prefetch's queries (the core's ``SQLBatchPrefetch``: the
/// relationships loaded with a batch of fetched objects, one query per relationship and group
/// of owners, in chunks of at most `RowKeyLists.limit` owner keys).
///
/// The owners' row keys are bound as parameters (`IN (?1, ?2, …)`); the destinations come back
/// with their owner's key in an extra last column, in the order
/// `SQLiteStore.destinations(of:from:key:)` gives them for one owner (both are the core's
/// ``SQLRelationshipRead``, which shows the queries), so a prefetched relationship reads
/// exactly as an unprefetched one. A destination row read for several owners is one object.
///
/// The destinations are kept merged in the owners' shared `SQLObjectStorage`, which the layout
/// clears before each batch (`RowLayout.loadPrefetched`), so memory stays bounded by a batch.
///
/// Only objects read a batch at a time by iteration (`SQLStatementCursor`, `SQLKeyListSource`'s
/// cursor) are prefetched: random access (`object(at:)`) reads each object's relationships
/// when asked. A prefetch query that fails is skipped (the driver never throws): those
/// relationships are then read per object, which reports the error.
struct SQLitePrefetchDriver: SQLBatchPrefetchDriver {
    let store: SQLiteStore

    var schema: SQLSchema { store.schema }

    func destinations(of group: SQLPrefetchGroup) -> SQLPrefetchedDestinations? {
        try? read(group)
    }

    func counts(of group: SQLPrefetchGroup) -> [Int64: Int]? {
        try? count(group)
    }

    private func read(_ group: SQLPrefetchGroup) throws -> SQLPrefetchedDestinations? {
        guard let layout = store.destinationLayout(of: group.relationship) else { return nil }
        // Each owner's destinations as positions in `rows`, whose values are decoded into
        // one buffer the objects share; a destination row read for several owners is one
        // object.
        var byOwnerRows: [Int64: [Int]] = [:]
        for key in group.keys { byOwnerRows[key] = [] }
        var decoded: [Int64: Int] = [:]
        var rows: [SQLDecodedRow] = []
        var values: [Value] = []
        var reached: [SQLBatchPrefetch.Owner] = []
        let ownerColumn = Int32(layout.columns.count)
        for chunk in RowKeyLists.chunks(group.keys) {
            let read = SQLRelationshipRead(group.relationship, of: group.table, held: group.held, destination: layout.table, selecting: layout.columns,
                                           owners: .many(keys: RowKeyLists.inList(chunk.count)), schema: store.schema, dialect: SQLiteDialect())
            assert(read.ownerColumn == Int(ownerColumn), "the owner's key follows the destination's columns")
            // (Cached: a batch's chunks mostly have the same number of keys, so the same SQL,
            // whose up to 1,000 numbered parameters cost SQLite a quadratic parse.)
            let statement = try store.database.cachedStatement(read.sql)
            defer { statement.reset() }
            try statement.bind(sqlValues: chunk.bindings)
            while try statement.step() {
                let owner = statement.int64(ownerColumn)
                guard byOwnerRows[owner] != nil else { continue }
                let key = statement.int64(0)
                let position: Int
                if let known = decoded[key] {
                    position = known
                } else {
                    let row = layout.decode(statement, previous: rows.last?.entity, appendingTo: &values)
                    position = rows.count
                    rows.append(row)
                    decoded[key] = position
                    if let storage = row.entity.storage { reached.append(SQLBatchPrefetch.Owner(storage: storage, key: key)) }
                }
                byOwnerRows[owner, default: []].append(position)
            }
        }
        let objects = store.managedObjects(rows, values: values)
        return SQLPrefetchedDestinations(byOwner: byOwnerRows.mapValues { positions in positions.map { objects[$0] } }, reached: reached)
    }

    private func count(_ group: SQLPrefetchGroup) throws -> [Int64: Int]? {
        var counts: [Int64: Int] = [:]
        let destination = store.destinationLayout(of: group.relationship)?.table
        for chunk in RowKeyLists.chunks(group.keys) {
            guard let sql = SQLRelationshipRead.countSQL(group.relationship, of: group.table, held: group.held,
                                                         destination: destination,
                                                         keys: RowKeyLists.inList(chunk.count), schema: store.schema, dialect: SQLiteDialect()) else { return nil }
            let statement = try store.database.cachedStatement(sql)
            defer { statement.reset() }
            try statement.bind(sqlValues: chunk.bindings)
            while try statement.step() { counts[statement.int64(0)] = Int(statement.int64(1)) }
        }
        return counts
    }
}
