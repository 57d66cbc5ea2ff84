import Foundation
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftSQLStore
import SiftStore

/// Runs fetch requests on a PostgreSQL store: the driver of the SQL stores' executor
/// (``SQLFetchDriver``, which filters, sorts, pages, sections and makes dictionaries in memory
/// the same way for every engine). The driver plans requests (``PostgreSQLFetchPlan``, again
/// in memory when the server refuses the compiled query: ``planned(_:orderingRows:_:)``),
/// reads the candidate rows through a server-side cursor a batch at a time (``scan(_:_:)``),
/// streams objects (``PostgreSQLCursorSource``), counts, and computes sections (a GROUP BY,
/// ``sectionsInServer(_:keyPath:ending:)``) and dictionaries
/// (``dictionariesInServer(_:_:properties:)``) on the server when it can.
struct PostgreSQLFetchExecutor: SQLFetchDriver {
    let store: PostgreSQLStore

    /// Rows read per `FETCH` from the cursor.
    static let cursorBatch = 1000

    // MARK: The core's driver hooks

    var lock: NSRecursiveLock { store.lock }
    var interruption: FetchInterruption { store.interruption }

    func planned<T>(_ request: FetchRequest, _ body: (PostgreSQLFetchPlan) throws -> T) throws -> T {
        try planned(request, orderingRows: true, body)
    }

    /// No sort in memory (outside the write transaction), and a query the server cannot refuse
    /// half way: the objects stream from one cursor as they are read, filtered and paged as
    /// they come (PostgreSQLCursorSource).
    func streamSource(_ plan: PostgreSQLFetchPlan) throws -> (any FetchedObjectSource)? {
        guard !plan.sortsInMemory && !store.writing && !plan.mayBeRefused else { return nil }
        return PostgreSQLCursorSource(store: store, plan: plan)
    }

    func keyLists(_ plan: PostgreSQLFetchPlan) -> PostgreSQLKeyListDriver {
        PostgreSQLKeyListDriver(postgreSQLStore: store, layout: plan.layout, prefetch: SQLBatchPrefetch(plan.request))
    }

    /// Without a residual predicate the server counts; paging it did not do is arithmetic.
    func countInEngine(_ plan: PostgreSQLFetchPlan) throws -> Int? {
        guard plan.residual == nil else { return nil }
        let result = try inReadTransaction(plan) { try store.connection.query(plan.countSQL, plan.countParameters) }
        let total = Int(result.first?[0].int64Value ?? 0)
        return plan.countIsPaged ? total : plan.request.page(of: total).count
    }

    /// Runs `body` with the request's compiled plan; should the server refuse the compiled
    /// query (``CompiledQueryRefused``), again with a plan that does everything in memory.
    func planned<T>(_ request: FetchRequest, orderingRows: Bool, _ body: (PostgreSQLFetchPlan) throws -> T) throws -> T {
        let plan = try PostgreSQLFetchPlan(request, store: store, orderingRows: orderingRows)
        store.fetchStatistics.count(plan)
        do {
            return try body(plan)
        } catch is CompiledQueryRefused {
            store.fetchStatistics.refused += 1
            return try body(try PostgreSQLFetchPlan(request, store: store, compiled: false, orderingRows: orderingRows))
        }
    }

    /// The server refused a compiled query with an error the evaluator does not have: an
    /// integer overflow or a division by zero (class 22, which the evaluator answers with a
    /// double, infinity or nil), an operator it lacks for the operands' types (class 42), or a
    /// limit of the server or the protocol (class 54: more than 65,535 bound values, `54023`,
    /// which the connection refuses before sending; a statement too complex, `54001`).
    struct CompiledQueryRefused: Error, CustomStringConvertible {
        let error: PostgreSQLError
        var description: String { "the server refused the compiled query: \(error)" }
    }

    /// Runs `body` in a read-only transaction (inside the write transaction: a savepoint), the
    /// connection's errors made store errors, or ``CompiledQueryRefused``.
    func inReadTransaction<T>(_ plan: PostgreSQLFetchPlan, _ body: () throws -> T) throws -> T {
        let connection = store.connection
        let inTransaction = connection.isInTransaction
        do {
            try connection.execute(inTransaction ? "SAVEPOINT sift_fetch" : "BEGIN READ ONLY")
            let result = try body()
            try connection.execute(inTransaction ? "RELEASE SAVEPOINT sift_fetch" : "COMMIT")
            return result
        } catch {
            if inTransaction {
                try? connection.execute("ROLLBACK TO SAVEPOINT sift_fetch; RELEASE SAVEPOINT sift_fetch")
            } else if connection.isInTransaction {
                try? connection.execute("ROLLBACK")
            }
            if plan.isCompiled, let error = error as? PostgreSQLError, ["22", "42", "54"].contains(error.sqlStateClass) {
                throw CompiledQueryRefused(error: error)
            }
            throw error is PostgreSQLError ? PostgreSQLStore.storeError(error) : error
        }
    }

    /// Calls `body` with the object of each row of the plan's query, in order, read through a
    /// cursor ``cursorBatch`` rows at a time (between batches the connection is free, so `body`
    /// may read relationships). Inside the write transaction the cursor lives in a savepoint;
    /// otherwise in a read-only transaction of its own.
    func scan(_ plan: PostgreSQLFetchPlan, _ body: (ManagedObject) throws -> Void) throws {
        let connection = store.connection
        store.cursorCounter += 1
        let cursor = q("sift_cursor_\(store.cursorCounter)")
        try inReadTransaction(plan) {
            _ = try connection.run("DECLARE \(cursor) NO SCROLL CURSOR FOR \(plan.sql)", plan.parameters)
            while true {
                let batch = try connection.query("FETCH \(Self.cursorBatch) FROM \(cursor)")
                let objects = try plan.layout.objects(batch, rows: 0..<batch.count)
                try store.prefetch(plan.scanPrefetch, of: objects)
                for object in objects { try body(object) }
                if batch.count < Self.cursorBatch { break }
            }
            try connection.execute("CLOSE \(cursor)")
        }
    }

    // MARK: Sections

    /// (The model as given, whose entity the request must name; the fetch is counted.)
    func sectionKeyPathEnding(_ keyPath: String, of request: FetchRequest) throws -> ModelKeyPaths.Ending {
        let entity = try CheckedFetchRequest.entity(of: request, in: store.model)
        let ending = try ModelKeyPaths.checkSectionKeyPath(keyPath, entity: entity, model: store.model)
        store.fetchStatistics.sectioned += 1
        return ending
    }

    /// (Sections grouped in memory count as `SectionedResults` counts them.)
    var inMemorySectionCost: Int { 0 }

    /// The relationships the section key path crosses, loaded for every grouped object at once
    /// (`PostgreSQLStore.prefetch(_:of:)`: a query per relationship and group of owners).
    func withRelationships<T>(readBy keyPath: String, loadedFor objects: [ManagedObject], of plan: PostgreSQLFetchPlan,
                              _ body: () throws -> T) throws -> T {
        try store.prefetch(SQLBatchPrefetch(keyPaths: PredicateRelationshipPaths.paths(ofKeyPath: keyPath, entity: plan.table.entity, model: store.model)), of: objects)
        return try body()
    }

    func sectionsInEngine(_ plan: PostgreSQLFetchPlan, keyPath: String, ending: ModelKeyPaths.Ending) throws -> SectionedFetchResults? {
        try sectionsInServer(plan, keyPath: keyPath, ending: ending)
    }

    // MARK: Dictionaries

    /// Every matching object is read, in insertion order (the dictionaries are sorted once
    /// made); offset and limit apply to the dictionaries (grouped or not), in
    /// DictionaryResults: the plan is made without them, the dictionaries with them.
    func plannedDictionaries<T>(_ request: FetchRequest, _ body: (PostgreSQLFetchPlan, FetchRequest) throws -> T) throws -> T {
        var unpaged = request
        // (A negative offset or limit stays, for the plan to refuse.)
        if request.fetchOffset > 0 { unpaged.fetchOffset = 0 }
        if request.fetchLimit > 0 { unpaged.fetchLimit = 0 }
        store.fetchStatistics.dictionaryFetches += 1
        return try planned(unpaged, orderingRows: false) { plan in
            var typed = plan.request
            typed.fetchOffset = request.fetchOffset
            typed.fetchLimit = request.fetchLimit
            return try body(plan, typed)
        }
    }

    func dictionariesInEngine(_ plan: PostgreSQLFetchPlan, _ request: FetchRequest, properties: [FetchedProperty]) throws -> [ValueDictionary]? {
        try dictionariesInServer(plan, request, properties: properties)
    }

    /// (The dictionaries' own plan: every matching row, unsorted and unpaged.)
    func inMemoryDictionaryPlan(_ plan: PostgreSQLFetchPlan, for request: FetchRequest) throws -> PostgreSQLFetchPlan { plan }
}
