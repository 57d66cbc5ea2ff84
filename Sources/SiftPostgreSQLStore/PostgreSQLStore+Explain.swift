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
        lock.lock(); defer { lock.unlock() }
        var (plan, sql, parameters) = try shownQuery(request)
        var reasons = [plan.inMemoryReason].compactMap { $0 }
        var sortsInMemory = request.resultType != .dictionaries && plan.sortsInMemory
        var sectionsQuery: (sql: String, bindings: [SQLValue])?
        if request.resultType == .dictionaries {
            switch serverDictionaryQuery(plan, request) {
            case .success(let (query, queryParameters)):
                (sql, parameters) = (query.sql, queryParameters)
                // Groups are sorted by their properties once they are made; one row of
                // aggregates is not sorted; ungrouped rows come sorted.
                if !request.propertiesToGroupBy.isEmpty && !request.sortDescriptors.isEmpty {
                    sortsInMemory = true
                    reasons.append("groups sort by their properties")
                }
            case .failure(let unsupported):
                reasons.append("dictionaries in memory" + (unsupported.reason.map { ": " + $0 } ?? ""))
            }
        }
        if PageSections.areGroupedFromRows(request) {
            reasons.append(PageSections.reason)
        } else if let keyPath = request.sectionNameKeyPath, request.resultType == .objects {
            if let query = try serverSectionQuery(plan, keyPath: keyPath) {
                sectionsQuery = query.runs ?? query.summary
            } else {
                reasons.append("sections in memory")
            }
        }
        var generated = GeneratedSQL(sql: sql, bindings: parameters.map(Self.shown),
                                     inMemoryPredicate: plan.residualPredicate?.description,
                                     inMemoryReason: reasons.isEmpty ? nil : reasons.joined(separator: "; "),
                                     sortsInMemory: sortsInMemory)
        generated.placeholderPrefix = "$"
        if let sectionsQuery { (generated.sectionsSQL, generated.sectionsBindings) = sectionsQuery }
        return generated
    }

    /// Why a dictionary fetch runs in memory (nil: the plan's own reason says).
    struct InMemory: Error {
        let reason: String?
    }

    /// A dictionary fetch's server query and its parameters, as the executor would run it.
    private func serverDictionaryQuery(_ plan: PostgreSQLFetchPlan, _ request: FetchRequest)
        -> Result<(DialectDictionaryQuery, [PostgreSQLValue]), InMemory> {
        guard plan.isCompiled else { return .failure(InMemory(reason: nil)) }
        var typed = plan.request
        (typed.fetchOffset, typed.fetchLimit) = (request.fetchOffset, request.fetchLimit)
        do {
            let query = try DialectDictionaryQuery(typed, properties: DictionaryResults.properties(typed, entity: plan.table.entity),
                                                   schema: schema, dialect: dialect)
            guard let parameters = PostgreSQLFetchPlan.sent(query.bindings) else {
                return .failure(InMemory(reason: "a bound text holds a NUL character"))
            }
            return .success((query, parameters))
        } catch {
            return .failure(InMemory(reason: String(describing: error)))
        }
    }

    /// A sectioned fetch's GROUP BY query, when the server sections it (nil: in memory).
    private func serverSectionQuery(_ plan: PostgreSQLFetchPlan, keyPath: String) throws -> DialectSectionQuery? {
        guard plan.isCompiled, plan.residual == nil, !plan.sortsInMemory, !plan.pagesInMemory else { return nil }
        let ending = try ModelKeyPaths.checkSectionKeyPath(keyPath, entity: plan.table.entity, model: model)
        guard case .attribute(let attribute) = ending else { return nil }
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return try? DialectSectionQuery(plan.request, keys: keys, attribute: attribute, schema: schema, dialect: dialect)
    }

    /// PostgreSQL's plan for a request's query (`EXPLAIN`), one line per row as `psql` prints it.
    public func queryPlan(for request: FetchRequest) throws -> [String] {
        lock.lock(); defer { lock.unlock() }
        var (plan, sql, parameters) = try shownQuery(request)
        if request.resultType == .dictionaries, case .success(let (query, queryParameters)) = serverDictionaryQuery(plan, request) {
            (sql, parameters) = (query.sql, queryParameters)
        }
        let result = try read { () throws(StoreError) in try query("EXPLAIN " + sql, parameters) }
        return result.map { $0[0].stringValue ?? "" }
    }

    /// A request's plan and the query it sends: the count's when the server counts, else the
    /// objects' (for dictionaries made in memory: every matching row, in insertion order).
    private func shownQuery(_ request: FetchRequest) throws -> (plan: PostgreSQLFetchPlan, sql: String, parameters: [PostgreSQLValue]) {
        var planned = request
        if request.resultType == .dictionaries {
            // As the executor plans them: offset and limit apply to the dictionaries.
            if request.fetchOffset > 0 { planned.fetchOffset = 0 }
            if request.fetchLimit > 0 { planned.fetchLimit = 0 }
        }
        let plan = try PostgreSQLFetchPlan(planned, store: self, orderingRows: request.resultType != .dictionaries)
        let counts = request.resultType == .count && plan.residual == nil
        return (plan, counts ? plan.countSQL : plan.sql, counts ? plan.countParameters : plan.parameters)
    }

    /// A parameter as `sift sql` shows it (in SQLite's spelling of values).
    static func shown(_ value: PostgreSQLValue) -> SQLValue {
        PostgreSQLColumnCodec.stored(value)
    }
}

extension PostgreSQLStore: SQLShowingStore {
    public var plansAsSQLiteSteps: Bool { false }
}
