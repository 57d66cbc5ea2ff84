import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

extension SQLFetchExecutor {
    /// (The schema's model, whose entity the request must name.)
    func sectionKeyPathEnding(_ keyPath: String, of request: FetchRequest) throws -> ModelKeyPaths.Ending {
        let entity = try schema.model.requireEntity(request.entityName)
        return try ModelKeyPaths.checkSectionKeyPath(keyPath, entity: entity, model: schema.model)
    }

    /// Sections grouped in memory count ``sectionCost`` each (their key lists).
    var inMemorySectionCost: Int { Self.sectionCost }

    /// SQLite's GROUP BY (``sectionsInSQL(_:keys:attribute:)``) for a key path ending in an
    /// attribute.
    func sectionsInEngine(_ plan: SQLiteFetchPlan, keyPath: String, ending: ModelKeyPaths.Ending) throws -> SectionedFetchResults? {
        guard case .attribute(let attribute) = ending else { return nil }
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return try sectionsInSQL(plan, keys: keys, attribute: attribute)
    }

    /// Sections from one GROUP BY query, when the whole fetch runs in SQL (nil otherwise):
    /// names from the stored values (values of one ``SectionIdentity`` make one section, as `nil`
    /// and `""` do, and `0` and `0.0`), sizes and places from SQL, each section's objects queried
    /// when it is read.
    private func sectionsInSQL(_ fetchPlan: SQLiteFetchPlan, keys: [String], attribute: AttributeDescription) throws -> SectionedFetchResults? {
        let (request, plan) = (fetchPlan.request, fetchPlan.sql)
        let sectionSQL: SectionSQL
        do {
            sectionSQL = try SectionSQL(plan, keys: keys, schema: schema)
        } catch is SQLUnsupported {
            return nil
        }
        // Values decode as the fetched objects' attributes do (RowLayout).
        let type = schema.decodingType(attribute.type)
        var merged: [SectionSpan]
        var tally = MemoryTally()
        let keyPath = request.sectionNameKeyPath ?? keys.joined(separator: ".")
        func count(_ value: SQLValue, _ sections: Int) throws(EvaluationError) {
            guard tally.hold(Self.sectionCost + value.heapBytes) else { throw tally.sectionsError(keyPath, count: sections) }
        }
        if let runsQuery = sectionSQL.runsQuery(), let firstPlace = sectionSQL.firstPlace,
           let runs = try runs(runsQuery.sql, runsQuery.bindings, type: type, firstPlace: firstPlace, count: count) {
            merged = runs
        } else {
            let summary = sectionSQL.summaryQuery()
            merged = try spans((summary.sql, summary.bindings), type: type, count: count)
        }
        // Many sections: a query per section, each a scan where the key has no index, would be
        // quadratic (20,000 sections took 25 s); the objects read once, in order, and grouped
        // in memory (the core's sections, `SQLFetchDriver`) are linear.
        guard merged.count <= Self.sectionQueryLimit else { return nil }
        let contiguous = SectionSpan.areContiguous(merged)
        let layout = fetchPlan.layout
        let prefetch = SQLBatchPrefetch(request)
        let sections = merged.map { span in
            let objectsQuery = sectionSQL.objectsQuery(layout.expressions, values: span.values, first: span.first, last: span.last)
            return FetchedSection(name: span.name, indexTitle: Section.indexTitle(for: span.name),
                                  objects: FetchedObjects(source: SQLQuerySource(store: store, sql: objectsQuery.sql, bindings: objectsQuery.bindings, layout: layout, count: Int(span.count),
                                                                               prefetch: prefetch),
                                                          batchSize: request.fetchBatchSize))
        }
        return SectionedFetchResults(sections: sections, warning: contiguous ? nil : SectionedResults.notContiguousWarning(keyPath))
    }
}

extension SQLFetchExecutor {
    /// Sections from the summary query (``SectionSQL/summaryQuery()``): values with their
    /// sizes and places, in order of their first place.
    /// What one section costs in memory, roughly: its span, its objects' query and their
    /// source (about 1 KB each measured, at 200,000 sections), counted as each row is read
    /// (`count`) against ``EvaluationBudget/memoryLimit``.
    static let sectionCost = 1024

    /// The most sections whose objects are each queried when read (``sectionsInSQL``); past
    /// it, the objects' keys are read once and grouped in memory.
    static let sectionQueryLimit = 1_000

    fileprivate func spans(_ query: (sql: String, bindings: [SQLValue]), type: AttributeType?,
                           count: (SQLValue, Int) throws(EvaluationError) -> Void) throws -> [SectionSpan] {
        let statement = try database.prepare(query.sql)
        try statement.bind(sqlValues: query.bindings)
        var rows: [(value: SQLValue, count: Int64, first: Int64, last: Int64)] = []
        while try statement.step() {
            try count(statement.neutralValue(0), rows.count)
            rows.append((statement.neutralValue(0), statement.int64(1), statement.int64(2), statement.int64(3)))
        }
        return SectionSpan.fromSummary(rows, type: type)
    }

    /// Sections from the runs of equal first sort key (``SectionSQL/runsQuery()``), in result
    /// order; nil when the summary query must say (``SectionSpan/fromRuns(_:type:firstPlace:)``).
    fileprivate func runs(_ sql: String, _ bindings: [SQLValue], type: AttributeType?, firstPlace: Int64,
                          count: (SQLValue, Int) throws(EvaluationError) -> Void) throws -> [SectionSpan]? {
        let statement = try database.prepare(sql)
        try statement.bind(sqlValues: bindings)
        var rows: [(least: SQLValue, greatest: SQLValue, valued: Int64, count: Int64)] = []
        while try statement.step() {
            try count(statement.neutralValue(0), rows.count)
            rows.append((statement.neutralValue(0), statement.neutralValue(1), statement.int64(2), statement.int64(3)))
        }
        return SectionSpan.fromRuns(rows, type: type, firstPlace: firstPlace)
    }
}

extension SQLValue {
    /// The heap the value holds beyond its own slot, roughly (a text's or a blob's bytes).
    fileprivate var heapBytes: Int {
        switch self {
        case .text(let text): 32 + text.utf8.count
        case .blob(let bytes): 32 + bytes.count
        default: 0
        }
    }
}
