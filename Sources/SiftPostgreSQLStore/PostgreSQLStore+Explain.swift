import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftSQLStore
import SiftStore

/// The SQL a fetch sends PostgreSQL, for `sift sql` and `sift explain`.
extension PostgreSQLStore {
    /// The query a request runs (checked as a fetch would be), without running it: the objects'
    /// query (or the count's, when the server counts; the dictionaries' when the server makes
    /// them), its `$N` values, and what runs in memory. A sectioned fetch the server sections
    /// shows its GROUP BY query too (each section's objects are queried when it is read).
    public func generatedSQL(for request: FetchRequest) throws -> GeneratedSQL {
        try PostgreSQLFetchExecutor(store: self).generatedSQL(for: request)
    }

    /// PostgreSQL's plan for a request's query (`EXPLAIN`), one line per row as `psql` prints it.
    public func queryPlan(for request: FetchRequest) throws -> [String] {
        try PostgreSQLFetchExecutor(store: self).queryPlan(for: request)
    }

    /// A parameter as `sift sql` shows it (in SQLite's spelling of values).
    static func shown(_ value: PostgreSQLValue) -> SQLValue {
        PostgreSQLColumnCodec.stored(value)
    }
}

extension PostgreSQLStore: SQLShowingStore {
    public var plansAsSQLiteSteps: Bool { false }
}

/// What PostgreSQL shows of a fetch: its queries with `$N` placeholders, `EXPLAIN`.
extension PostgreSQLFetchExecutor: SQLExplainDriver {
    /// (For dictionaries: every matching row, in insertion order, offset and limit applying to
    /// the dictionaries, as ``plannedDictionaries(_:_:)`` plans them; the fetch is not counted.)
    func explainPlan(_ request: FetchRequest) throws -> PostgreSQLFetchPlan {
        var planned = request
        if request.resultType == .dictionaries {
            // As the executor plans them: offset and limit apply to the dictionaries.
            if request.fetchOffset > 0 { planned.fetchOffset = 0 }
            if request.fetchLimit > 0 { planned.fetchLimit = 0 }
        }
        return try PostgreSQLFetchPlan(planned, store: store, orderingRows: request.resultType != .dictionaries)
    }

    func objectsQuery(_ plan: PostgreSQLFetchPlan) -> SQLShownQuery<PostgreSQLValue> {
        SQLShownQuery(sql: plan.sql, bindings: plan.parameters)
    }

    /// (The server counts without a residual predicate.)
    func countQuery(_ plan: PostgreSQLFetchPlan) -> SQLShownQuery<PostgreSQLValue>? {
        plan.residual == nil ? SQLShownQuery(sql: plan.countSQL, bindings: plan.countParameters) : nil
    }

    /// (The objects' query is shown.)
    func objectIDsQuery(_ plan: PostgreSQLFetchPlan) -> SQLShownQuery<PostgreSQLValue>? { nil }

    /// (As ``dictionariesInServer(_:_:properties:)`` would run it.)
    func dictionaryQuery(_ plan: PostgreSQLFetchPlan, _ request: FetchRequest)
        throws -> Result<SQLShownQuery<PostgreSQLValue>, SQLDictionariesInMemory> {
        guard plan.isCompiled else { return .failure(SQLDictionariesInMemory(reason: nil)) }
        var typed = plan.request
        (typed.fetchOffset, typed.fetchLimit) = (request.fetchOffset, request.fetchLimit)
        do {
            let query = try DialectDictionaryQuery(typed, properties: DictionaryResults.properties(typed, entity: plan.table.entity),
                                                   schema: store.schema, dialect: store.dialect)
            guard let parameters = PostgreSQLFetchPlan.sent(query.bindings) else {
                return .failure(SQLDictionariesInMemory(reason: "a bound text holds a NUL character"))
            }
            return .success(SQLShownQuery(sql: query.sql, bindings: parameters))
        } catch {
            return .failure(SQLDictionariesInMemory(reason: String(describing: error)))
        }
    }

    /// (The plan's own rows: every matching row, in insertion order.)
    func dictionaryObjectsQuery(_ plan: PostgreSQLFetchPlan, _ request: FetchRequest) throws -> SQLShownQuery<PostgreSQLValue> {
        objectsQuery(plan)
    }

    /// (As ``sectionsInServer(_:keyPath:ending:)`` would run it: the runs of equal first sort
    /// key when they say, else the summary.)
    func sectionsQuery(_ plan: PostgreSQLFetchPlan, keyPath: String) throws -> (sql: String, bindings: [SQLValue])? {
        guard plan.isCompiled, plan.residual == nil, !plan.sortsInMemory, !plan.pagesInMemory else { return nil }
        let ending = try ModelKeyPaths.checkSectionKeyPath(keyPath, entity: plan.table.entity, model: store.model)
        guard case .attribute(let attribute) = ending else { return nil }
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let query = try? DialectSectionQuery(plan.request, keys: keys, attribute: attribute, schema: store.schema, dialect: store.dialect) else {
            return nil
        }
        return query.runs ?? query.summary
    }

    func residualPredicate(_ plan: PostgreSQLFetchPlan) -> String? { plan.residualPredicate?.description }
    func planReason(_ plan: PostgreSQLFetchPlan) -> String? { plan.inMemoryReason }
    /// (The plan's reason says.)
    func sortReason(_ plan: PostgreSQLFetchPlan) -> String? { nil }
    /// (A dictionary fetch's rows come unsorted: the dictionaries are sorted once made.)
    func sortsInMemory(_ plan: PostgreSQLFetchPlan) -> Bool { plan.request.resultType != .dictionaries && plan.sortsInMemory }

    func shown(_ binding: PostgreSQLValue) -> SQLValue { PostgreSQLStore.shown(binding) }
    var placeholderPrefix: String { "$" }

    func queryPlan(of query: SQLShownQuery<PostgreSQLValue>) throws -> [String] {
        let result = try store.read { () throws(StoreError) in try store.query("EXPLAIN " + query.sql, query.bindings) }
        return result.map { $0[0].stringValue ?? "" }
    }

    /// (The plan's reason and the groups' sort are both shown.)
    var planReasonHidesSortReason: Bool { false }
    /// (The groups' sort is shown only when the server makes the dictionaries.)
    var showsGroupSortOfDictionariesInMemory: Bool { false }
    var explainsSectionsWithoutQuery: Bool { true }
}
