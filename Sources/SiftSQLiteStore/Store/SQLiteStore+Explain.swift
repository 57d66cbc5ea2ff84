import SiftEvaluation
import SiftLanguage
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftSQLite
import SiftStore

extension SQLiteStore {
    /// The query a request runs (checked as a fetch would be), without running it.
    public func generatedSQL(for request: FetchRequest) throws -> GeneratedSQL {
        try SQLFetchExecutor(store: self, reading: request).generatedSQL(for: request)
    }

    /// SQLite's query plan for a request's query (`EXPLAIN QUERY PLAN`), one line per step.
    public func queryPlan(for request: FetchRequest) throws -> [String] {
        try SQLFetchExecutor(store: self, reading: request).queryPlan(for: request)
    }

    /// Runs SQL directly (for tests and tools): the rows, as stored values.
    public func rawRows(_ sql: String, _ bindings: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        lock.lock(); defer { lock.unlock() }
        return try database.rows(sql, bindings)
    }
}

extension SQLiteStore {
    /// Why each attribute of a database Sift did not create has its type, by entity and
    /// attribute (`"declared STRING"`, `"declared INT; holds integer, text"`): what
    /// `sift schema` prints beside it. Every table is read first (as ``model`` reads them);
    /// empty for a store Sift created.
    public var columnTypeReasons: [String: [String: String]] {
        _ = model
        return readColumnTypeReasons
    }

    /// ``columnTypeReasons`` of one entity (its table read first, not the others').
    public func columnTypeReasons(of entity: String) -> [String: String] {
        _ = model(reading: [entity])
        return readColumnTypeReasons[entity] ?? [:]
    }

    /// The reasons of the tables read so far.
    private var readColumnTypeReasons: [String: [String: String]] {
        let schema = self.schema
        var reasons: [String: [String: String]] = [:]
        for entity in schema.model.entities {
            guard let table = schema.table(for: entity.name), table.typesAreRead else { continue }
            for (attribute, column) in table.columns {
                if let foreign = table.foreignColumns[column] { reasons[entity.name, default: [:]][attribute] = foreign.reason }
            }
        }
        return reasons
    }

    /// What was read to choose the types of each entity whose table was not read whole (`"the
    /// first and last 1000 rows"`), by entity: of the tables read so far.
    public var columnTypeSampling: [String: String] {
        guard let foreign else { return [:] }
        let sampled = foreign.sampledTables
        var notes: [String: String] = [:]
        for (entity, table) in schema.tables where sampled.contains(table.table) { notes[entity] = ColumnTypeInference.sampleDescription }
        return notes
    }
}

extension SQLiteStore: SQLShowingStore {
    public var plansAsSQLiteSteps: Bool { true }
}

/// A SQLite fetch as `sift sql` shows it: the compiled request and, for a sectioned fetch, the
/// sections' query — compiled first, as the section key path may join a table the objects'
/// query then shows (nil when the sections are not grouped in SQL).
struct SQLiteExplainPlan {
    let sql: FetchSQL
    let sections: SectionSQL?
}

/// What SQLite shows of a fetch: its queries with `?N` placeholders, `EXPLAIN QUERY PLAN`.
extension SQLFetchExecutor: SQLExplainDriver {
    func explainPlan(_ request: FetchRequest) throws -> SQLiteExplainPlan {
        let plan = try plan(request)
        let sections = request.sectionNameKeyPath.flatMap { keyPath in
            try? SectionSQL(plan, keys: keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init), schema: schema)
        }
        return SQLiteExplainPlan(sql: plan, sections: sections)
    }

    func objectsQuery(_ plan: SQLiteExplainPlan) -> SQLShownQuery<SQLValue> {
        queryShown(plan.sql.select(RowLayout(table: plan.sql.table, schema: schema, alias: plan.sql.alias).expressions))
    }

    /// (SQL counts when it does the whole fetch.)
    func countQuery(_ plan: SQLiteExplainPlan) -> SQLShownQuery<SQLValue>? {
        plan.sql.pagesInSQL ? queryShown(plan.sql.countQuery()) : nil
    }

    /// (The columns up to the object's ID.)
    func objectIDsQuery(_ plan: SQLiteExplainPlan) -> SQLShownQuery<SQLValue>? {
        let layout = RowLayout(table: plan.sql.table, schema: schema, alias: plan.sql.alias)
        return queryShown(plan.sql.select(Array(layout.expressions.prefix(layout.decoder.idIndex.map { $0 + 1 } ?? 1))))
    }

    func dictionaryQuery(_ plan: SQLiteExplainPlan, _ request: FetchRequest) throws -> Result<SQLShownQuery<SQLValue>, SQLDictionariesInMemory> {
        do {
            let properties = DictionaryResults.properties(plan.sql.request, entity: plan.sql.table.entity)
            return .success(queryShown(try dictionarySQL(plan.sql, properties: properties).query()))
        } catch let unsupported as SQLUnsupported {
            return .failure(SQLDictionariesInMemory(reason: unsupported.reason))
        }
    }

    /// (The objects as ``objectsRequest(for:)`` fetches them.)
    func dictionaryObjectsQuery(_ plan: SQLiteExplainPlan, _ request: FetchRequest) throws -> SQLShownQuery<SQLValue> {
        let objectsPlan = try self.plan(Self.objectsRequest(for: request))
        return queryShown(objectsPlan.select(RowLayout(table: objectsPlan.table, schema: schema, alias: objectsPlan.alias).expressions))
    }

    /// (The runs of equal first sort key when they say, else the summary.)
    func sectionsQuery(_ plan: SQLiteExplainPlan, keyPath: String) throws -> (sql: String, bindings: [SQLValue])? {
        plan.sections.map { sections in
            let query = sections.runsQuery() ?? sections.summaryQuery()
            return (query.sql, query.bindings)
        }
    }

    func residualPredicate(_ plan: SQLiteExplainPlan) -> String? { plan.sql.residual?.description }
    func planReason(_ plan: SQLiteExplainPlan) -> String? { plan.sql.residualReason }
    func sortReason(_ plan: SQLiteExplainPlan) -> String? { plan.sql.sortReason }
    /// (No ORDER BY: the request's sort runs in memory.)
    func sortsInMemory(_ plan: SQLiteExplainPlan) -> Bool { plan.sql.orderBy == nil }

    func shown(_ binding: SQLValue) -> SQLValue { binding }
    var placeholderPrefix: String { "?" }

    func queryPlan(of query: SQLShownQuery<SQLValue>) throws -> [String] {
        do {
            return try database.explainQueryPlan(query.sql, query.bindings.map(SQLiteValue.init))
        } catch {
            throw store.translated(error)
        }
    }

    /// (The residual predicate's reason, or else the sort's.)
    var planReasonHidesSortReason: Bool { true }
    var showsGroupSortOfDictionariesInMemory: Bool { true }
    /// (No reason is shown for sections without a query.)
    var explainsSectionsWithoutQuery: Bool { false }

    private func queryShown(_ query: (sql: String, bindings: [SQLValue])) -> SQLShownQuery<SQLValue> {
        SQLShownQuery(sql: query.sql, bindings: query.bindings)
    }
}
