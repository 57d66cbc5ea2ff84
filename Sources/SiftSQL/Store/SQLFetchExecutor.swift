import SiftEvaluation
import SiftLanguage
import SiftSQLite
import SiftStore

/// Runs fetch requests on a SQLite store: checks them as the atomic stores do, compiles them
/// (`FetchSQL`), runs what SQL can do in SQLite and the rest in the evaluator.
struct SQLFetchExecutor {
    let store: SQLiteStore
    var schema: SQLSchema { store.schema }
    var database: SQLiteDatabase { store.database }

    /// Checks a request exactly as the in-memory executor does, so both stores reject the same
    /// requests with the same errors, then compiles it.
    func plan(_ request: FetchRequest) throws -> FetchSQL {
        guard request.fetchLimit >= 0 else { throw StoreError(.invalidRequest, "fetchLimit is negative (\(request.fetchLimit))") }
        guard request.fetchOffset >= 0 else { throw StoreError(.invalidRequest, "fetchOffset is negative (\(request.fetchOffset))") }
        guard request.fetchBatchSize >= 0 else { throw StoreError(.invalidRequest, "fetchBatchSize is negative (\(request.fetchBatchSize))") }
        let entity: EntityDescription
        do throws(ModelError) {
            entity = try schema.model.requireEntity(request.entityName)
        } catch {
            throw StoreError(.unknownEntity, error.message, entity: request.entityName)
        }
        if let predicate = request.predicate {
            try ModelKeyPaths.checkPredicate(predicate, entity: entity, model: schema.model)
            // Errors that do not depend on the data (an invalid constant regex, …) come first,
            // from the evaluator itself.
            _ = try CompiledPredicate(predicate)
        }
        if request.resultType != .dictionaries || request.propertiesToGroupBy.isEmpty {
            for key in request.sortDescriptors { try ModelKeyPaths.checkSortKey(key.keyPath, entity: entity, model: schema.model) }
        }
        return try FetchSQL(request, schema: schema)
    }

    // MARK: Objects

    func objects(_ request: FetchRequest) throws -> FetchedObjects {
        store.lock.lock(); defer { store.lock.unlock() }
        try store.writePendingChanges()
        let plan = try self.plan(request)
        let layout = RowLayout(table: plan.table, schema: schema, alias: plan.alias)
        if plan.pagesInSQL {
            let (sql, bindings) = plan.select(layout.columns)
            // Prepared now, so an error is the fetch's error (not an empty result later).
            try database.prepare(sql).bind(bindings)
            return FetchedObjects(source: SQLQuerySource(store: store, sql: sql, bindings: bindings, layout: layout),
                                  batchSize: request.fetchBatchSize)
        }
        let keys = try matchingKeys(plan, layout: layout)
        return FetchedObjects(source: SQLKeyListSource(store: store, keys: keys, layout: layout), batchSize: request.fetchBatchSize)
    }

    /// The rows the request returns when part of it runs in memory: SQL's rows, filtered by
    /// the evaluator, sorted (in memory if SQL could not), then paged.
    private func matchingKeys(_ plan: FetchSQL, layout: RowLayout) throws -> [(key: Int64, id: ObjectID)] {
        let request = plan.request
        let residual = try plan.residual.map { p throws(EvaluationError) in try CompiledPredicate(p) }
        let (sql, bindings) = plan.select(layout.columns)
        let statement = try database.prepare(sql)
        try statement.bind(bindings)
        var objects: [ManagedObject] = []
        var rows: [(key: Int64, id: ObjectID)] = []
        while try statement.step() {
            let row = layout.decode(statement)
            let object = store.managedObject(row)
            if let residual, !(try residual.evaluate(.object(object))) { continue }
            rows.append((row.key, row.id))
            if plan.orderBy == nil { objects.append(object) }
        }
        if plan.orderBy == nil, !request.sortDescriptors.isEmpty {
            let order = try Sorting.sortedIndices(objects.map { .object($0) }, by: request.sortDescriptors)
            rows = order.map { rows[$0] }
        }
        let start = min(request.fetchOffset, rows.count)
        let end = request.fetchLimit > 0 ? min(rows.count, start + request.fetchLimit) : rows.count
        return Array(rows[start..<end])
    }

    // MARK: Count

    func count(_ request: FetchRequest) throws -> Int {
        store.lock.lock(); defer { store.lock.unlock() }
        try store.writePendingChanges()
        let plan = try self.plan(request)
        if plan.pagesInSQL {
            let (sql, bindings) = plan.countQuery()
            guard case .integer(let n) = try database.scalar(sql, bindings) else { return 0 }
            return Int(n)
        }
        return try matchingKeys(plan, layout: RowLayout(table: plan.table, schema: schema, alias: plan.alias)).count
    }

    // MARK: Sections

    func sections(_ request: FetchRequest) throws -> SectionedFetchResults {
        guard let keyPath = request.sectionNameKeyPath else {
            throw StoreError(.invalidRequest, "the request has no section key path", entity: request.entityName)
        }
        let entity = try schema.model.requireEntity(request.entityName)
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let (ending, crossesToMany) = try ModelKeyPaths.resolve(keys, from: entity, model: schema.model)
        if case .relationship = ending {
            throw StoreError(.invalidRequest, "cannot section by relationship '\(keyPath)'; use one of its attributes", entity: entity.name, key: keyPath)
        }
        if crossesToMany {
            throw StoreError(.invalidRequest, "cannot section by to-many key path '\(keyPath)'", entity: entity.name, key: keyPath)
        }
        // The objects in order (their keys only), then the sections over them.
        let objects = try self.objects(request)
        let views = objects.map { Value.object($0) }
        let grouped = try SectionedResults(views, order: Array(views.indices), sectionKeyPath: keyPath)
        store.lock.lock(); defer { store.lock.unlock() }
        // The sections' objects are read by key, with the layout the fetch used.
        let keyList: [(key: Int64, id: ObjectID)]
        let layout: RowLayout
        if let source = objects.source as? SQLQuerySource {
            (keyList, layout) = (source.keys(), source.layout)
        } else if let source = objects.source as? SQLKeyListSource {
            (keyList, layout) = (source.keys, source.layout)
        } else {
            return SectionedFetchResults(sections: [], warning: grouped.warning)
        }
        let sections = grouped.sections.map { section in
            FetchedSection(name: section.name, indexTitle: section.indexTitle,
                           objects: FetchedObjects(source: SQLKeyListSource(store: store, keys: section.objectIndices.map { keyList[$0] }, layout: layout),
                                                   batchSize: request.fetchBatchSize))
        }
        return SectionedFetchResults(sections: sections, warning: grouped.warning)
    }

    // MARK: Dictionaries

    func dictionaries(_ request: FetchRequest) throws -> [ValueDictionary] {
        // The matching objects in order come from SQL; the properties, grouping and HAVING are
        // the in-memory executor's own.
        var objectRequest = request
        objectRequest.resultType = .objects
        objectRequest.fetchLimit = 0
        objectRequest.fetchOffset = 0
        objectRequest.propertiesToFetch = []
        objectRequest.propertiesToGroupBy = []
        objectRequest.havingPredicate = nil
        objectRequest.sectionNameKeyPath = nil
        if !request.propertiesToGroupBy.isEmpty { objectRequest.sortDescriptors = [] }
        let objects = try self.objects(objectRequest)
        return try DictionaryResults.make(request, objects: objects.map { Value.object($0) }, entity: try schema.model.requireEntity(request.entityName))
    }
}
