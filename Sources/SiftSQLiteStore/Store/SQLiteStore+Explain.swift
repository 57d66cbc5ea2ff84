import SiftEvaluation
import SiftLanguage
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftSQLite
import SiftStore

extension SQLiteStore {
    /// The query a request runs (checked as a fetch would be), without running it.
    public func generatedSQL(for request: FetchRequest) throws -> GeneratedSQL {
        lock.lock(); defer { lock.unlock() }
        let executor = try SQLFetchExecutor(store: self, reading: request)
        let plan = try executor.plan(request)
        // Compiled first: the section key path may join a table the objects' query then shows.
        let sections = request.sectionNameKeyPath.flatMap { keyPath in
            try? SectionSQL(plan, keys: keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init), schema: schema)
        }
        let sql: (sql: String, bindings: [SQLValue])
        var dictionaryReason: String?
        var sortsInMemory = plan.orderBy == nil
        var sortReason = plan.sortReason
        switch request.resultType {
        case .dictionaries:
            do {
                let properties = DictionaryResults.properties(plan.request, entity: plan.table.entity)
                sql = try executor.dictionarySQL(plan, properties: properties).query()
            } catch let unsupported as SQLUnsupported {
                // The objects are fetched, and the evaluator makes the dictionaries.
                dictionaryReason = "dictionaries in memory: \(unsupported.reason)"
                let objectsPlan = try executor.plan(SQLFetchExecutor.objectsRequest(for: request))
                sql = objectsPlan.select(RowLayout(table: objectsPlan.table, schema: schema, alias: objectsPlan.alias).expressions)
            }
            if !request.propertiesToGroupBy.isEmpty {
                // Groups are sorted by their properties once they are made.
                sortsInMemory = !request.sortDescriptors.isEmpty
                sortReason = sortsInMemory ? "groups sort by their properties" : nil
            } else if DictionaryResults.aggregatesWholeResult(request) {
                // One row of aggregates: nothing to sort.
                sortsInMemory = false
                sortReason = nil
            }
        case .count where plan.pagesInSQL:
            sql = plan.countQuery()
        case .objectIDs:
            let layout = RowLayout(table: plan.table, schema: schema, alias: plan.alias)
            sql = plan.select(Array(layout.expressions.prefix(layout.decoder.idIndex.map { $0 + 1 } ?? 1)))
        default:
            sql = plan.select(RowLayout(table: plan.table, schema: schema, alias: plan.alias).expressions)
        }
        // Both reasons where the dictionaries are made in memory and the groups sorted there:
        // the sort's alone would hide why the objects' query is shown.
        // A page's sections are grouped from its rows (`PageSections`).
        let groupsPage = sections != nil && PageSections.areGroupedFromRows(request)
        let pageReason = groupsPage ? PageSections.reason : nil
        let reasons = [plan.residualReason ?? sortReason, dictionaryReason, pageReason].compactMap { $0 }
        var generated = GeneratedSQL(sql: sql.sql, bindings: sql.bindings, inMemoryPredicate: plan.residual?.description,
                                     inMemoryReason: reasons.isEmpty ? nil : reasons.joined(separator: "; "), sortsInMemory: sortsInMemory)
        if let sections, request.resultType == .objects, !groupsPage {
            let query = sections.runsQuery() ?? sections.summaryQuery()
            (generated.sectionsSQL, generated.sectionsBindings) = (query.sql, query.bindings)
        }
        return generated
    }

    /// SQLite's query plan for a request's query (`EXPLAIN QUERY PLAN`), one line per step.
    public func queryPlan(for request: FetchRequest) throws -> [String] {
        let generated = try generatedSQL(for: request)
        lock.lock(); defer { lock.unlock() }
        do {
            return try database.explainQueryPlan(generated.sql, generated.bindings.map(SQLiteValue.init))
        } catch {
            throw translated(error)
        }
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
