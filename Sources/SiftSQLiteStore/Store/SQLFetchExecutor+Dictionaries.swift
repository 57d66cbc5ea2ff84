import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

extension SQLFetchExecutor {
    /// (The request as planned: SQLite's plan keeps its sort and paging.)
    func plannedDictionaries<T>(_ request: FetchRequest, _ body: (SQLiteFetchPlan, FetchRequest) throws -> T) throws -> T {
        let plan = try fetchPlan(request)
        return try body(plan, plan.request)
    }

    /// Dictionary results computed by SQLite (`DictionarySQL`) when it computes them exactly as
    /// the evaluator, finished by `DictionaryResults`' stages; nil when part of them must run in
    /// memory.
    func dictionariesInEngine(_ plan: SQLiteFetchPlan, _ request: FetchRequest, properties: [FetchedProperty]) throws -> [ValueDictionary]? {
        let compiled: DictionarySQL
        do {
            compiled = try dictionarySQL(plan.sql, properties: properties)
        } catch is SQLUnsupported {
            return nil
        }
        let (sql, bindings) = compiled.query()
        let statement = try database.prepare(sql)
        try statement.bind(sqlValues: bindings)
        var rows: [ValueDictionary] = []
        while try statement.step() { rows.append(compiled.row { statement.neutralValue(Int32($0)) }) }
        if request.propertiesToGroupBy.isEmpty {
            return try DictionaryResults.finishUngrouped(rows, request, paging: !compiled.pagesInSQL)
        }
        return try DictionaryResults.finishGrouped(rows, request, properties: properties, entity: plan.entity, paging: !compiled.pagesInSQL)
    }

    /// The matching objects in order come from SQL, fetched as ``objectsRequest(for:)`` says;
    /// the properties, grouping and HAVING are the in-memory executor's own.
    func inMemoryDictionaryPlan(_ plan: SQLiteFetchPlan, for request: FetchRequest) throws -> SQLiteFetchPlan {
        try fetchPlan(Self.objectsRequest(for: request))
    }

    /// The request's dictionary query; `SQLUnsupported` when part of it must run in memory. A
    /// grouped fetch is compiled again without its sort descriptors (they name result
    /// properties, and sort the groups), and so is one that aggregates its whole result (one
    /// row: nothing to sort).
    func dictionarySQL(_ plan: FetchSQL, properties: [FetchedProperty]) throws -> DictionarySQL {
        let request = plan.request
        guard !request.propertiesToGroupBy.isEmpty || DictionaryResults.aggregatesWholeResult(request) else {
            return try DictionarySQL(request, plan: plan, properties: properties, schema: schema)
        }
        var unsorted = request
        unsorted.sortDescriptors = []
        return try DictionarySQL(request, plan: try FetchSQL(unsorted, schema: schema, dialect: SQLiteDialect()), properties: properties, schema: schema)
    }

    /// The fetch of the objects a dictionary fetch made in memory reads: every matching
    /// object, not paged, sorted unless grouped (groups are sorted by their properties),
    /// aggregated whole (the aggregates read the objects in insertion order) or sorted by a
    /// property's value (the rows are sorted once made).
    static func objectsRequest(for request: FetchRequest) -> FetchRequest {
        var objectRequest = DictionaryResults.resolvingSortAliases(request)
        if DictionaryResults.sortsByPropertyValue(objectRequest) { objectRequest.sortDescriptors = [] }
        objectRequest.resultType = .objects
        objectRequest.fetchLimit = 0
        objectRequest.fetchOffset = 0
        objectRequest.propertiesToFetch = []
        objectRequest.propertiesToGroupBy = []
        objectRequest.havingPredicate = nil
        objectRequest.sectionNameKeyPath = nil
        if !request.propertiesToGroupBy.isEmpty || DictionaryResults.aggregatesWholeResult(request) { objectRequest.sortDescriptors = [] }
        return objectRequest
    }
}
