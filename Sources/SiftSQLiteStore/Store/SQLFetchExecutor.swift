import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftSQLite
import SiftStore

/// Runs fetch requests on a SQLite store: the driver of the SQL stores' executor
/// (``SQLFetchDriver``, which filters, sorts, pages, sections and makes dictionaries in memory
/// the same way for every engine). The driver checks and compiles requests (`FetchSQL`,
/// ``plan(_:)``, choosing between an index and a key-order scan: ``choosePlan(_:)``), steps the
/// candidate rows from one statement (``scan(_:_:)``), streams objects (`SQLQuerySource`),
/// counts, and computes sections (a GROUP BY) and dictionaries (`DictionarySQL`) in SQL when
/// it can.
struct SQLFetchExecutor: SQLFetchDriver {
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

    // MARK: The core's driver hooks

    var lock: NSRecursiveLock { store.lock }
    var interruption: FetchInterruption { store.interruption }

    /// The request's plan (``plan(_:)``) with the layout of its rows.
    func fetchPlan(_ request: FetchRequest) throws -> SQLiteFetchPlan {
        let sql = try plan(request)
        return SQLiteFetchPlan(sql: sql, layout: RowLayout(table: sql.table, schema: schema, alias: sql.alias, store: store))
    }

    /// (SQLite's plan is made once: nothing is retried.)
    func planned<T>(_ request: FetchRequest, _ body: (SQLiteFetchPlan) throws -> T) throws -> T {
        try body(try fetchPlan(request))
    }

    /// The plan's query as one statement, its objects read by SQLQuerySource, when SQL does
    /// the whole fetch (``FetchSQL/pagesInSQL``).
    func streamSource(_ plan: SQLiteFetchPlan) throws -> (any FetchedObjectSource)? {
        guard plan.sql.pagesInSQL else { return nil }
        let (sql, bindings) = plan.sql.select(plan.layout.expressions)
        // Prepared now, so an error is the fetch's error (not an empty result later).
        try database.prepare(sql).bind(sqlValues: bindings)
        return SQLQuerySource(store: store, sql: sql, bindings: bindings, layout: plan.layout, prefetch: SQLBatchPrefetch(plan.request))
    }

    func keyLists(_ plan: SQLiteFetchPlan) -> SQLiteKeyListDriver {
        SQLiteKeyListDriver(sqliteStore: store, layout: plan.layout, relationshipPrefetch: SQLBatchPrefetch(plan.request))
    }

    /// How many rows the evaluator filters at a time when the part of the predicate it checks
    /// reads relationships: the batch's relationships are loaded first.
    static let residualBatch = 500

    /// The rows of the plan's query, stepped from one statement.
    ///
    /// The relationships the residual predicate reads (``PredicateRelationshipPaths``, every
    /// step of a path like `playlists.tracks.album`) are loaded for ``residualBatch`` rows at a
    /// time (``SQLBatchPrefetch``: one query per step for the batch, each object reached
    /// once), rather than read by each object as it is evaluated, a query per object and step.
    func scan(_ plan: SQLiteFetchPlan, _ body: (ManagedObject) throws -> Void) throws {
        let layout = plan.layout
        let prefetch = SQLBatchPrefetch(keyPaths: plan.sql.residual.map { PredicateRelationshipPaths.paths(of: $0, entity: plan.entity, model: schema.model) } ?? [])
        let (sql, bindings) = plan.sql.select(layout.expressions)
        let statement = try database.prepare(sql)
        try statement.bind(sqlValues: bindings)
        var batch: [ManagedObject] = []
        func filterBatch() throws {
            guard !batch.isEmpty else { return }
            layout.loadPrefetched(prefetch, of: batch[...], store: store)
            for object in batch { try body(object) }
            batch.removeAll(keepingCapacity: true)
        }
        // (What was loaded for the last batch is not kept with the results.)
        defer { if !prefetch.isEmpty { layout.clearPrefetched() } }
        while try statement.step() {
            let object = store.managedObject(decoding: statement, with: layout)
            if prefetch.isEmpty {
                try body(object)
                continue
            }
            batch.append(object)
            if batch.count == Self.residualBatch { try filterBatch() }
        }
        try filterBatch()
    }

    /// The relationships the section key path crosses, loaded for every grouped object at once
    /// (``SQLBatchPrefetch``, in chunks of owner keys), and let go once they are grouped.
    func withRelationships<T>(readBy keyPath: String, loadedFor objects: [ManagedObject], of plan: SQLiteFetchPlan,
                              _ body: () throws -> T) throws -> T {
        let prefetch = SQLBatchPrefetch(keyPaths: PredicateRelationshipPaths.paths(ofKeyPath: keyPath, entity: plan.entity, model: schema.model))
        guard !prefetch.isEmpty, !objects.isEmpty else { return try body() }
        let layout = plan.layout
        prefetch.load(layout.prefetchOwners(objects), keeping: .merged, through: SQLitePrefetchDriver(store: store))
        defer { layout.clearPrefetched() }
        return try body()
    }

    /// SQL's count when SQL does the whole fetch (paging included).
    func countInEngine(_ plan: SQLiteFetchPlan) throws -> Int? {
        guard plan.sql.pagesInSQL else { return nil }
        let (sql, bindings) = plan.sql.countQuery()
        guard case .integer(let n) = try database.scalar(sql, bindings.map(SQLiteValue.init)) else { return 0 }
        return Int(n)
    }
}

/// A SQLite fetch's plan as the core reads it: the compiled request (``FetchSQL``) and the
/// layout of its rows. The residual predicate is compiled when the rows are scanned.
struct SQLiteFetchPlan: SQLPlannedFetch {
    let sql: FetchSQL
    let layout: RowLayout

    var request: FetchRequest { sql.request }
    var entity: EntityDescription { sql.table.entity }
    var residual: CompiledPredicate? {
        get throws { try sql.residual.map { p throws(EvaluationError) in try CompiledPredicate(p) } }
    }
    /// SQL's order is the request's unless no ORDER BY could say it.
    var sortsInMemory: Bool { sql.orderBy == nil && !sql.request.sortDescriptors.isEmpty }
    /// The rows are paged in memory whenever SQL does not do the whole fetch.
    var pagesInMemory: Bool { !sql.pagesInSQL }
}
