import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

extension SQLFetchExecutor {
    func sections(_ request: FetchRequest) throws -> SectionedFetchResults {
        guard let keyPath = request.sectionNameKeyPath else {
            throw StoreError(.invalidRequest, "the request has no section key path", entity: request.entityName)
        }
        let entity = try schema.model.requireEntity(request.entityName)
        let ending = try ModelKeyPaths.checkSectionKeyPath(keyPath, entity: entity, model: schema.model)
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if case .attribute(let attribute) = ending, !PageSections.areGroupedFromRows(request),
           let sections = try sectionsInSQL(request, keys: keys, attribute: attribute) {
            return sections
        }
        // The objects in order (their keys only), then the sections over them.
        let objects = try self.objects(request)
        let views = objects.map { Value.object($0) }
        if let error = objects.readError { throw error }
        var tally = MemoryTally()
        let grouped = try SectionedResults(views, order: Array(views.indices), sectionKeyPath: keyPath, tally: &tally,
                                           sectionCost: Self.sectionCost)
        store.lock.lock(); defer { store.lock.unlock() }
        // The sections' objects are read by key, with the layout the fetch used.
        let keyList: [(key: Int64, id: ObjectID)]
        let layout: RowLayout
        if let source = objects.source as? SQLQuerySource {
            (keyList, layout) = (try source.checkedKeys(), source.layout)
        } else if let source = objects.source as? SQLiteKeyListSource {
            (keyList, layout) = (source.keys, source.layout)
        } else {
            return SectionedFetchResults(sections: [], warning: grouped.warning)
        }
        let sections = grouped.sections.map { section in
            FetchedSection(name: section.name, indexTitle: section.indexTitle,
                           objects: FetchedObjects(source: SQLiteKeyListSource(store: store, keys: section.objectIndices.map { keyList[$0] }, layout: layout,
                                                                                    prefetch: RelationshipPrefetch(request)),
                                                   batchSize: request.fetchBatchSize))
        }
        return SectionedFetchResults(sections: sections, warning: grouped.warning)
    }

    /// Sections from one GROUP BY query, when the whole fetch runs in SQL (nil otherwise):
    /// names from the stored values (values of one ``SectionIdentity`` make one section, as `nil`
    /// and `""` do, and `0` and `0.0`), sizes and places from SQL, each section's objects queried
    /// when it is read.
    private func sectionsInSQL(_ request: FetchRequest, keys: [String], attribute: AttributeDescription) throws -> SectionedFetchResults? {
        store.lock.lock(); defer { store.lock.unlock() }
        let plan = try self.plan(request)
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
        // quadratic (20,000 sections took 25 s); the objects' keys read once, in order, and
        // grouped in memory (the path below) are linear.
        guard merged.count <= Self.sectionQueryLimit else { return nil }
        let contiguous = SectionSpan.areContiguous(merged)
        let layout = RowLayout(table: plan.table, schema: schema, alias: plan.alias, store: store)
        let prefetch = RelationshipPrefetch(request)
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
