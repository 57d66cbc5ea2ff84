import SiftEvaluation
import SiftLanguage
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
        if case .attribute(let attribute) = ending, let sections = try sectionsInSQL(request, keys: keys, attribute: attribute) {
            return sections
        }
        // The objects in order (their keys only), then the sections over them.
        let objects = try self.objects(request)
        let views = objects.map { Value.object($0) }
        if let error = objects.readError { throw error }
        let grouped = try SectionedResults(views, order: Array(views.indices), sectionKeyPath: keyPath)
        store.lock.lock(); defer { store.lock.unlock() }
        // The sections' objects are read by key, with the layout the fetch used.
        let keyList: [(key: Int64, id: ObjectID)]
        let layout: RowLayout
        if let source = objects.source as? SQLQuerySource {
            (keyList, layout) = (try source.checkedKeys(), source.layout)
        } else if let source = objects.source as? SQLKeyListSource {
            (keyList, layout) = (source.keys, source.layout)
        } else {
            return SectionedFetchResults(sections: [], warning: grouped.warning)
        }
        let sections = grouped.sections.map { section in
            FetchedSection(name: section.name, indexTitle: section.indexTitle,
                           objects: FetchedObjects(source: SQLKeyListSource(store: store, keys: section.objectIndices.map { keyList[$0] }, layout: layout,
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
        let type = schema.isSiftLayout || attribute.type == .date || attribute.type == .boolean ? attribute.type : nil
        var merged: [SectionSpan]
        if let (sql, bindings) = sectionSQL.runsQuery(), let firstPlace = sectionSQL.firstPlace,
           let runs = try runs(sql, bindings, type: type, firstPlace: firstPlace) {
            merged = runs
        } else {
            merged = try spans(sectionSQL.summaryQuery(), type: type)
        }
        let contiguous = merged.allSatisfy { $0.last - $0.first + 1 == $0.count }
        let layout = RowLayout(table: plan.table, schema: schema, alias: plan.alias, store: store)
        let prefetch = RelationshipPrefetch(request)
        let sections = merged.map { span in
            let (sql, bindings) = sectionSQL.objectsQuery(layout.expressions, values: span.values, first: span.first, last: span.last)
            return FetchedSection(name: span.name, indexTitle: Section.indexTitle(for: span.name),
                                  objects: FetchedObjects(source: SQLQuerySource(store: store, sql: sql, bindings: bindings, layout: layout, count: Int(span.count),
                                                                               prefetch: prefetch),
                                                          batchSize: request.fetchBatchSize))
        }
        let keyPath = request.sectionNameKeyPath ?? keys.joined(separator: ".")
        return SectionedFetchResults(sections: sections, warning: contiguous ? nil : SectionedResults.notContiguousWarning(keyPath))
    }
}

extension SQLFetchExecutor {
    /// Sections from the summary query (``SectionSQL/summaryQuery()``): values with their
    /// sizes and places, in order of their first place.
    fileprivate func spans(_ query: (sql: String, bindings: [SQLiteValue]), type: AttributeType?) throws -> [SectionSpan] {
        var merged: [SectionSpan] = []
        var indexByKey: [String: Int] = [:]
        let statement = try database.prepare(query.sql)
        try statement.bind(query.bindings)
        // Rows come in order of their first place: the first value of a section names it.
        while try statement.step() {
            let stored = statement.value(0)
            let value = ColumnCodec.decode(stored, as: type)
            let key = SectionIdentity.key(of: value)
            let count = statement.int64(1), first = statement.int64(2), last = statement.int64(3)
            if let index = indexByKey[key] {
                merged[index].values.append(stored)
                merged[index].count += count
                merged[index].first = min(merged[index].first, first)
                merged[index].last = max(merged[index].last, last)
            } else {
                indexByKey[key] = merged.count
                merged.append(SectionSpan(name: ValueText.text(value), values: [stored], count: count, first: first, last: last))
            }
        }
        merged.sort { $0.first < $1.first }
        return merged
    }

    /// Sections from the runs of equal first sort key (``SectionSQL/runsQuery()``), in result
    /// order: each run one stored value (or only nils), placed after the runs before it, and
    /// consecutive runs of one ``SectionIdentity`` (nil then `""`) one section. Nil when a run
    /// holds several values, or a section's runs are apart: the summary query must say then.
    fileprivate func runs(_ sql: String, _ bindings: [SQLiteValue], type: AttributeType?, firstPlace: Int64) throws -> [SectionSpan]? {
        var merged: [SectionSpan] = []
        var seen: Set<String> = []
        var lastKey: String?
        var place = firstPlace
        let statement = try database.prepare(sql)
        try statement.bind(bindings)
        while try statement.step() {
            let least = statement.value(0), greatest = statement.value(1)
            let valued = statement.int64(2), count = statement.int64(3)
            let stored: SQLiteValue
            if valued == 0 {
                stored = .null
            } else if valued == count, least == greatest {
                stored = least
            } else {
                return nil
            }
            let (next, overflow) = place.addingReportingOverflow(count)
            guard !overflow else { return nil }
            let value = ColumnCodec.decode(stored, as: type)
            let key = SectionIdentity.key(of: value)
            if key == lastKey, let index = merged.indices.last {
                if !merged[index].values.contains(stored) { merged[index].values.append(stored) }
                merged[index].count += count
                merged[index].last = next - 1
            } else {
                guard seen.insert(key).inserted else { return nil }
                merged.append(SectionSpan(name: ValueText.text(value), values: [stored], count: count, first: place, last: next - 1))
            }
            lastKey = key
            place = next
        }
        return merged
    }
}

/// One section as the GROUP BY query describes it: its stored values, size, and first and
/// last places in the results.
private struct SectionSpan {
    let name: String
    var values: [SQLiteValue]
    var count: Int64
    var first: Int64
    var last: Int64
}
