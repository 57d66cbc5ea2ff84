import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftStore

/// A fetch's results as the row keys (and IDs) of its objects, in order: the core's key list
/// (``SQLKeyListSource``) over the PostgreSQL store's rows. IDs and the count are answered from
/// the list; objects are read a batch at a time (one `= ANY($1)` query per batch) while
/// iterating, or one at a time by position.
typealias PostgreSQLKeyListSource = SQLKeyListSource<PostgreSQLKeyListDriver>

/// How the core's key list reads a PostgreSQL store: a batch's rows with one query,
///
///     SELECT <columns> FROM "Note" AS "t0" WHERE "t0"."_pk" = ANY($1)
///
/// decoded column by column as the result's types say (``PostgreSQLRowLayout``); a key whose
/// row is gone is left out of a batch. While iterating, the relationships the request
/// prefetches (each `relationshipKeyPathsForPrefetching` path, and the counts of its
/// `relationshipCountsForPrefetching`: ``SQLBatchPrefetch``) are read for the whole batch
/// with one query each and answered from memory (``SQLObjectStorage``).
struct PostgreSQLKeyListDriver: SQLKeyListDriver {
    let postgreSQLStore: PostgreSQLStore
    let layout: PostgreSQLRowLayout
    /// What is loaded with each batch.
    let prefetch: SQLBatchPrefetch

    var store: any SQLObjectReadingStore { postgreSQLStore }
    var decoder: SQLRowDecoder { layout.decoder }
    /// (Reading by position reads the one object asked for.)
    var windowSize: Int { 1 }
    var keepsGoneRows: Bool { false }

    func forEachRow(withKeys keys: ArraySlice<Int64>, _ body: (PostgreSQLRowLayout.BatchRow) throws -> Void) throws {
        let sql = "SELECT \(layout.columns.joined(separator: ", ")) FROM \(q(layout.table.table)) AS \"t0\" WHERE \"t0\".\(q(layout.table.primaryKey)) = ANY($1)"
        let store = postgreSQLStore
        let result = try store.read { () throws(StoreError) in try store.query(sql, [PostgreSQLRowObjects.keyArray(Array(keys))]) }
        try layout.forEachRow(result, rows: 0..<result.count, body)
    }

    func objects(_ rows: [SQLDecodedRow], values: [Value]) throws -> [ManagedObject] {
        try layout.objects(rows, values: values)
    }

    func prefetch(_ objects: [ManagedObject]) throws {
        try postgreSQLStore.prefetch(prefetch, of: objects)
    }
}

extension SQLKeyListSource where Driver == PostgreSQLKeyListDriver {
    /// The list `keys` of `layout`'s table in `store`, prefetching what `request` asks for.
    /// (`failure`: where read errors are kept, another source's when it reads through this one.)
    convenience init(store: PostgreSQLStore, keys: [(key: Int64, id: ObjectID)], layout: PostgreSQLRowLayout, request: FetchRequest? = nil,
                     failure: ReadFailure = ReadFailure()) {
        let prefetch = request.map(SQLBatchPrefetch.init) ?? .none
        self.init(driver: PostgreSQLKeyListDriver(postgreSQLStore: store, layout: layout, prefetch: prefetch), keys: keys, failure: failure)
    }
}

extension PostgreSQLStore: RowMadeToOneStore {
    public func makesDestinationIDFromRow(_ relationship: String, of entity: String) -> Bool {
        SQLRowLayoutPlan.rowMakesDestinationID(relationship, of: entity, schema: schema)
    }
}
