import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftSQLStore
import SiftStore

/// Runs fetch requests on a PostgreSQL store: plans them (``PostgreSQLFetchPlan``), reads the
/// candidate rows through a server-side cursor a batch at a time, and does the rest with the
/// evaluator's code: the predicate (`CompiledPredicate`), the sort (`Sorting`), paging,
/// sections (`SectionedResults`) and dictionaries (`DictionaryResults`), as the in-memory
/// executor does them — unless the server computes the sections (a GROUP BY,
/// ``sectionsInServer(_:keyPath:ending:)``) or the dictionaries (``dictionariesInServer(_:_:properties:)``).
struct PostgreSQLFetchExecutor: SQLStoreFetchExecutor {
    let store: PostgreSQLStore

    /// Rows read per `FETCH` from the cursor.
    static let cursorBatch = 1000

    // MARK: Objects

    func objects(_ request: FetchRequest) throws -> FetchedObjects {
        store.lock.lock(); defer { store.lock.unlock() }
        return try planned(request) { plan in
            // No sort in memory (outside the write transaction), and a query the server cannot
            // refuse half way: the objects stream from one cursor as they are read, filtered
            // and paged as they come (PostgreSQLCursorSource).
            if !plan.sortsInMemory && !store.writing && !plan.mayBeRefused {
                return FetchedObjects(source: PostgreSQLCursorSource(store: store, plan: plan), batchSize: request.fetchBatchSize)
            }
            let keys = try matchingKeys(plan)
            return FetchedObjects(source: PostgreSQLKeyListSource(store: store, keys: keys, layout: plan.layout, request: plan.request),
                                  batchSize: request.fetchBatchSize)
        }
    }

    func count(_ request: FetchRequest) throws -> Int {
        store.lock.lock(); defer { store.lock.unlock() }
        return try planned(request) { plan in
            // Without a residual predicate the server counts; paging it did not do is arithmetic.
            guard plan.residual == nil else { return try matchingKeys(plan).count }
            let result = try inReadTransaction(plan) { try store.connection.query(plan.countSQL, plan.countParameters) }
            let total = Int(result.first?[0].int64Value ?? 0)
            return plan.countIsPaged ? total : plan.request.page(of: total).count
        }
    }

    /// Runs `body` with the request's compiled plan; should the server refuse the compiled
    /// query (``CompiledQueryRefused``), again with a plan that does everything in memory.
    func planned<T>(_ request: FetchRequest, orderingRows: Bool = true, _ body: (PostgreSQLFetchPlan) throws -> T) throws -> T {
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

    /// The keys and IDs of the objects the request returns, in order: the candidate rows,
    /// filtered by the residual predicate, sorted, then paged.
    func matchingKeys(_ plan: PostgreSQLFetchPlan) throws -> [(key: Int64, id: ObjectID)] {
        // A sort in memory needs the objects; otherwise only their keys are kept.
        if plan.sortsInMemory { return try matchingObjects(plan).map { ($0.storageKey, $0.objectID) } }
        var rows: [(key: Int64, id: ObjectID)] = []
        try scan(plan) { object in
            if let residual = plan.residual, !(try residual.evaluate(.object(object))) { return }
            rows.append((object.storageKey, object.objectID))
        }
        return plan.pagesInMemory ? Array(rows[plan.request.page(of: rows.count)]) : rows
    }

    /// The objects the request returns, in order, as ``matchingKeys(_:)`` finds them.
    func matchingObjects(_ plan: PostgreSQLFetchPlan) throws -> [ManagedObject] {
        var objects: [ManagedObject] = []
        try scan(plan) { object in
            if let residual = plan.residual, !(try residual.evaluate(.object(object))) { return }
            objects.append(object)
        }
        if plan.sortsInMemory {
            let order = try Sorting.sortedIndices(objects.map { .object($0) }, by: plan.request.sortDescriptors)
            objects = order.map { objects[$0] }
        }
        return plan.pagesInMemory ? Array(objects[plan.request.page(of: objects.count)]) : objects
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
                for object in objects {
                    try store.interruption.check()
                    try body(object)
                }
                if batch.count < Self.cursorBatch { break }
            }
            try connection.execute("CLOSE \(cursor)")
        }
    }

    // MARK: Sections

    func sections(_ request: FetchRequest) throws -> SectionedFetchResults {
        guard let keyPath = request.sectionNameKeyPath else {
            throw StoreError(.invalidRequest, "the request has no section key path", entity: request.entityName)
        }
        store.lock.lock(); defer { store.lock.unlock() }
        let entity = try CheckedFetchRequest.entity(of: request, in: store.model)
        let ending = try ModelKeyPaths.checkSectionKeyPath(keyPath, entity: entity, model: store.model)
        store.fetchStatistics.sectioned += 1
        return try planned(request) { plan in
            // A page's sections are grouped from its rows (PageSections): one query.
            if !PageSections.areGroupedFromRows(request),
               let sections = try sectionsInServer(plan, keyPath: keyPath, ending: ending) { return sections }
            return try sections(plan, sectionKeyPath: keyPath)
        }
    }

    /// Sections grouped in memory from the matching objects, read once (their rows, through
    /// the plan's query); each section's objects are read again by key when it is read.
    private func sections(_ plan: PostgreSQLFetchPlan, sectionKeyPath keyPath: String) throws -> SectionedFetchResults {
        let request = plan.request
        let objects = try matchingObjects(plan)
        let values = objects.map { Value.object($0) }
        let grouped = try SectionedResults(values, order: Array(values.indices), sectionKeyPath: keyPath)
        let sections = grouped.sections.map { section in
            let keys = section.objectIndices.map { (key: objects[$0].storageKey, id: objects[$0].objectID) }
            return FetchedSection(name: section.name, indexTitle: section.indexTitle,
                                  objects: FetchedObjects(source: PostgreSQLKeyListSource(store: store, keys: keys, layout: plan.layout,
                                                                                          request: plan.request),
                                                          batchSize: request.fetchBatchSize))
        }
        return SectionedFetchResults(sections: sections, warning: grouped.warning)
    }

    // MARK: Dictionaries

    /// Dictionary results from the matching objects, by `DictionaryResults.make` as in the
    /// atomic stores (properties, grouping, HAVING, sort and paging of the rows).
    func dictionaries(_ request: FetchRequest) throws -> [ValueDictionary] {
        store.lock.lock(); defer { store.lock.unlock() }
        // Every matching object is read; offset and limit apply to the dictionaries (grouped
        // or not), in DictionaryResults.
        var unpaged = request
        // (A negative offset or limit stays, for the plan to refuse.)
        if request.fetchOffset > 0 { unpaged.fetchOffset = 0 }
        if request.fetchLimit > 0 { unpaged.fetchLimit = 0 }
        store.fetchStatistics.dictionaryFetches += 1
        return try planned(unpaged, orderingRows: false) { plan in try dictionaries(plan, offset: request.fetchOffset, limit: request.fetchLimit) }
    }

    private func dictionaries(_ plan: PostgreSQLFetchPlan, offset: Int, limit: Int) throws -> [ValueDictionary] {
        var typed = plan.request
        typed.fetchOffset = offset
        typed.fetchLimit = limit
        let properties = DictionaryResults.properties(typed, entity: plan.table.entity)
        // The evaluator's compile errors first, as in memory.
        for property in properties { _ = try CompiledExpression(property.expression) }
        if let rows = try dictionariesInServer(plan, typed, properties: properties) { return rows }
        var objects: [ManagedObject] = []
        try scan(plan) { object in
            if let residual = plan.residual, !(try residual.evaluate(.object(object))) { return }
            objects.append(object)
        }
        return try DictionaryResults.make(typed, objects: objects.map { .object($0) }, entity: plan.table.entity)
    }
}
