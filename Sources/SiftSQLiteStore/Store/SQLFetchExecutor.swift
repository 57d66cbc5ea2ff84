import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

/// Runs fetch requests on a SQLite store: checks them as the atomic stores do, compiles them
/// (`FetchSQL`), runs what SQL can do in SQLite and the rest in the evaluator.
struct SQLFetchExecutor: SQLStoreFetchExecutor {
    let store: SQLiteStore
    /// The schema the executor compiles against (in a database Sift did not create, with the
    /// tables its request reads read, ``SQLiteStore/schema(for:)``).
    let schema: SQLSchema
    var database: SQLiteDatabase { store.database }

    /// An executor for `request`: the tables it reads are read first.
    init(store: SQLiteStore, reading request: FetchRequest) throws {
        self.store = store
        store.lock.lock(); defer { store.lock.unlock() }
        schema = try store.schema(for: request)
    }

    /// An executor for a plan made already (with the schema as read so far).
    init(store: SQLiteStore) {
        self.store = store
        schema = store.schema
    }

    /// Checks a request exactly as the in-memory executor does (``CheckedFetchRequest``, as
    /// every SQL store checks it), then compiles it.
    func plan(_ request: FetchRequest) throws -> FetchSQL {
        let request = try CheckedFetchRequest(request, model: schema.model).request
        var plan = try FetchSQL(request, schema: schema, dialect: SQLiteDialect())
        try choosePlan(&plan)
        return plan
    }

    /// Tables with fewer rows than this are read as SQLite chooses: either way is quick.
    static let rangeCountMinimumRows: Int64 = 20_000
    /// The share of a table's rows (1 in this many) from which a one-sided range reads faster by
    /// scanning the table in key order than by searching its index (measured with the sqlite3
    /// shell on a million rows: the two cost the same at about 2 %).
    static let rangeCountShare: Int64 = 40

    /// Chooses between searching an index and scanning in key order where SQLite cannot know
    /// (``FetchSQL/keyOrderRange``): counts the range's matches from the index, up to a 40th of
    /// the table's rows (the largest row key, read from the table's B-tree, stands for their
    /// number); reaching that, the table is scanned. A count of at most 25,000 index entries for a
    /// million rows, about a millisecond, against a fetch that would otherwise read each of
    /// hundreds of thousands of rows from a random page.
    func choosePlan(_ plan: inout FetchSQL) throws {
        guard schema.isSiftLayout, let range = plan.keyOrderRange else { return }
        let key = SQLIdentifier.quoted(plan.table.primaryKey), table = SQLIdentifier.quoted(plan.table.table)
        guard case .integer(let rows) = try database.scalar("SELECT max(\(key)) FROM \(table)"),
              rows >= Self.rangeCountMinimumRows else { return }
        let limit = rows / Self.rangeCountShare
        let (sql, bindings) = plan.rangeCount(range, upTo: limit)
        guard case .integer(let matches) = try database.scalar(sql, bindings.map(SQLiteValue.init)) else { return }
        plan.scansInKeyOrder = matches >= limit
    }

    // MARK: Objects

    func objects(_ request: FetchRequest) throws -> FetchedObjects {
        store.lock.lock(); defer { store.lock.unlock() }
        let plan = try self.plan(request)
        let layout = RowLayout(table: plan.table, schema: schema, alias: plan.alias, store: store)
        if plan.pagesInSQL {
            let (sql, bindings) = plan.select(layout.expressions)
            // Prepared now, so an error is the fetch's error (not an empty result later).
            try database.prepare(sql).bind(sqlValues: bindings)
            let prefetch = RelationshipPrefetch(request)
            return FetchedObjects(source: SQLQuerySource(store: store, sql: sql, bindings: bindings, layout: layout, prefetch: prefetch),
                                  batchSize: request.fetchBatchSize)
        }
        let keys = try matchingKeys(plan, layout: layout)
        return FetchedObjects(source: SQLiteKeyListSource(store: store, keys: keys, layout: layout, prefetch: RelationshipPrefetch(request)), batchSize: request.fetchBatchSize)
    }

    /// How many rows the evaluator filters at a time when the part of the predicate it checks
    /// reads relationships: the batch's relationships are loaded first.
    static let residualBatch = 500

    /// The rows the request returns when part of it runs in memory: SQL's rows, filtered by
    /// the evaluator, sorted (in memory if SQL could not), then paged.
    ///
    /// The relationships the evaluator reads (``PredicateRelationshipPaths``, every step of a
    /// path like `playlists.tracks.album`) are loaded for ``residualBatch`` rows at a time
    /// (``RelationshipPrefetch``: one query per step for the batch, each object reached once),
    /// rather than read by each object as it is evaluated, a query per object and step.
    func matchingKeys(_ plan: FetchSQL, layout: RowLayout) throws -> [(key: Int64, id: ObjectID)] {
        let request = plan.request
        let residual = try plan.residual.map { p throws(EvaluationError) in try CompiledPredicate(p) }
        let prefetch = RelationshipPrefetch(keyPaths: plan.residual.map { PredicateRelationshipPaths.paths(of: $0, entity: plan.table.entity, model: schema.model) } ?? [])
        let (sql, bindings) = plan.select(layout.expressions)
        let statement = try database.prepare(sql)
        try statement.bind(sqlValues: bindings)
        var objects: [ManagedObject] = []
        var rows: [(key: Int64, id: ObjectID)] = []
        var batch: [ManagedObject] = []
        func keep(_ object: ManagedObject) throws {
            try store.interruption.check()
            if let residual, !(try residual.evaluate(.object(object))) { return }
            rows.append((object.storageKey, object.objectID))
            if plan.orderBy == nil { objects.append(object) }
        }
        func filterBatch() throws {
            guard !batch.isEmpty else { return }
            for entity in layout.entities.values { entity.storage?.clearPrefetched() }
            prefetch.load(batch.compactMap { object in
                layout.entities[object.entityName]?.storage.map { RelationshipPrefetch.Owner(storage: $0, key: object.storageKey) }
            }, store: store)
            for object in batch { try keep(object) }
            batch.removeAll(keepingCapacity: true)
        }
        // (What was loaded for the last batch is not kept with the results.)
        defer { if !prefetch.isEmpty { for entity in layout.entities.values { entity.storage?.clearPrefetched() } } }
        while try statement.step() {
            let object = store.managedObject(decoding: statement, with: layout)
            if prefetch.isEmpty {
                try keep(object)
                continue
            }
            batch.append(object)
            if batch.count == Self.residualBatch { try filterBatch() }
        }
        try filterBatch()
        if plan.orderBy == nil, !request.sortDescriptors.isEmpty {
            let order = try Sorting.sortedIndices(objects.map { .object($0) }, by: request.sortDescriptors)
            rows = order.map { rows[$0] }
        }
        return Array(rows[request.page(of: rows.count)])
    }

    // MARK: Count

    func count(_ request: FetchRequest) throws -> Int {
        store.lock.lock(); defer { store.lock.unlock() }
        let plan = try self.plan(request)
        if plan.pagesInSQL {
            let (sql, bindings) = plan.countQuery()
            guard case .integer(let n) = try database.scalar(sql, bindings.map(SQLiteValue.init)) else { return 0 }
            return Int(n)
        }
        return try matchingKeys(plan, layout: RowLayout(table: plan.table, schema: schema, alias: plan.alias, store: store)).count
    }
}
