import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftSQLite
import SiftStore

/// The SQL a fetch sends PostgreSQL, for `sift sql` and `sift explain`.
extension PostgreSQLStore {
    /// The query a request runs (checked as a fetch would be), without running it: the objects'
    /// query (or the count's, when the server counts), its `$N` values, and what runs in memory.
    /// Dictionaries and sections are made in memory from the objects the query returns.
    public func generatedSQL(for request: FetchRequest) throws -> GeneratedSQL {
        lock.lock(); defer { lock.unlock() }
        let (plan, sql, parameters) = try shownQuery(request)
        var reasons = [plan.inMemoryReason].compactMap { $0 }
        if request.resultType == .dictionaries { reasons.append("dictionaries in memory") }
        if request.sectionNameKeyPath != nil && request.resultType == .objects { reasons.append("sections in memory") }
        var generated = GeneratedSQL(sql: sql, bindings: parameters.map(Self.shown),
                                     inMemoryPredicate: plan.residualPredicate?.description,
                                     inMemoryReason: reasons.isEmpty ? nil : reasons.joined(separator: "; "),
                                     sortsInMemory: request.resultType != .dictionaries && plan.sortsInMemory)
        generated.placeholderPrefix = "$"
        return generated
    }

    /// PostgreSQL's plan for a request's query (`EXPLAIN`), one line per row as `psql` prints it.
    public func queryPlan(for request: FetchRequest) throws -> [String] {
        lock.lock(); defer { lock.unlock() }
        let (_, sql, parameters) = try shownQuery(request)
        let result = try read { () throws(StoreError) in try query("EXPLAIN " + sql, parameters) }
        return result.map { $0[0].stringValue ?? "" }
    }

    /// A request's plan and the query it sends: the count's when the server counts, else the
    /// objects' (dictionaries are made from rows in insertion order).
    private func shownQuery(_ request: FetchRequest) throws -> (plan: PostgreSQLFetchPlan, sql: String, parameters: [PostgreSQLValue]) {
        let plan = try PostgreSQLFetchPlan(request, store: self, orderingRows: request.resultType != .dictionaries)
        let counts = request.resultType == .count && plan.residual == nil
        return (plan, counts ? plan.countSQL : plan.sql, counts ? plan.countParameters : plan.parameters)
    }

    /// A parameter as `sift sql` shows it (in SQLite's spelling of values).
    static func shown(_ value: PostgreSQLValue) -> SQLiteValue {
        switch value {
        case .null: .null
        case .bool(let b): .integer(b ? 1 : 0)
        case .int64(let i): .integer(i)
        case .double(let d): .real(d)
        case .text(let s), .typed(let s, _): .text(s)
        case .bytes(let b), .binary(let b, _): .blob(b)
        case .timestamp(let t): .real(PostgreSQLColumnCodec.date(t).timeIntervalSinceReferenceDate)
        }
    }
}
