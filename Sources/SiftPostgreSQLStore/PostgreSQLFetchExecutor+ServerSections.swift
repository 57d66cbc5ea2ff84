import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftStore

extension PostgreSQLFetchExecutor {
    /// Sections from the server's GROUP BY (`DialectSectionQuery`), when the whole fetch runs
    /// there and its section key path is an attribute the dialect reads as the evaluator does;
    /// nil otherwise (the sections are made in memory).
    ///
    /// When the first sort key is the section key path, runs of equal sort key give the
    /// sections (names from their stored values, sizes counted, places summed); otherwise, or
    /// when a run holds several values, the row-numbering summary query does. Each section's
    /// objects are queried when it is read.
    func sectionsInServer(_ plan: PostgreSQLFetchPlan, keyPath: String, ending: ModelKeyPaths.Ending) throws -> SectionedFetchResults? {
        guard plan.isCompiled else { return nil }
        guard plan.residual == nil, !plan.sortsInMemory, !plan.pagesInMemory else {
            store.fetchStatistics.groupReasons["sections: part of the fetch runs in memory", default: 0] += 1
            return nil
        }
        guard case .attribute(let attribute) = ending else {
            store.fetchStatistics.groupReasons["sections: a key path ending in a collection operator", default: 0] += 1
            return nil
        }
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let query: DialectSectionQuery
        do {
            query = try DialectSectionQuery(plan.request, keys: keys, attribute: attribute, schema: store.schema, dialect: store.dialect)
        } catch {
            store.fetchStatistics.groupReasons["sections: \(error)", default: 0] += 1
            return nil
        }
        var spans: [SectionSpan]?
        if let runs = query.runs, let firstPlace = query.firstPlace, let parameters = PostgreSQLFetchPlan.sent(runs.bindings) {
            let result = try inReadTransaction(plan) { try store.connection.query(runs.sql, parameters) }
            let rows = result.map { row in
                (least: PostgreSQLColumnCodec.stored(row[0]), greatest: PostgreSQLColumnCodec.stored(row[1]),
                 valued: row[2].int64Value ?? 0, count: row[3].int64Value ?? 0)
            }
            spans = SectionSpan.fromRuns(rows, type: query.valueType, firstPlace: firstPlace)
        }
        if spans == nil {
            guard let parameters = PostgreSQLFetchPlan.sent(query.summary.bindings) else { return nil }
            let result = try inReadTransaction(plan) { try store.connection.query(query.summary.sql, parameters) }
            let rows = result.map { row in
                (value: PostgreSQLColumnCodec.stored(row[0]), count: row[1].int64Value ?? 0, first: row[2].int64Value ?? 0, last: row[3].int64Value ?? 0)
            }
            spans = SectionSpan.fromSummary(rows, type: query.valueType)
        }
        guard let spans else { return nil }
        // Each section's rows: their keys and IDs (the objects are read by key).
        let columns = Array(plan.layout.columns.prefix(2))
        var sections: [FetchedSection] = []
        for span in spans {
            let objects = try query.objectsQuery(columns, span: span)
            guard let parameters = PostgreSQLFetchPlan.sent(objects.bindings) else { return nil }
            let source = PostgreSQLSectionSource(store: store, sql: objects.sql, parameters: parameters, layout: plan.layout,
                                                 request: plan.request, count: Int(span.count))
            sections.append(FetchedSection(name: span.name, indexTitle: Section.indexTitle(for: span.name),
                                           objects: FetchedObjects(source: source, batchSize: plan.request.fetchBatchSize)))
        }
        store.fetchStatistics.sectionsInServer += 1
        let contiguous = SectionSpan.areContiguous(spans)
        return SectionedFetchResults(sections: sections, warning: contiguous ? nil : SectionedResults.notContiguousWarning(keyPath))
    }
}
