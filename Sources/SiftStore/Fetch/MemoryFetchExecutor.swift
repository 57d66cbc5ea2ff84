import SiftEvaluation
import SiftLanguage

/// Runs fetch requests on a graph snapshot with the in-memory evaluator: the engine of the
/// atomic stores, and the meaning the SQLite store must reproduce.
///
/// Order of work: objects of the entity (and its sub-entities unless excluded) in insertion
/// order → predicate → sort (ties keep insertion order) → offset and limit → the result type.
/// Dictionary results with grouping group first, then apply HAVING, sort, offset and limit to
/// the groups.
///
/// With an `interruption`, its `interrupt()` stops a fetch between objects (see
/// ``FetchInterruption``).
struct MemoryFetchExecutor {
    let snapshot: GraphSnapshot
    let interruption: FetchInterruption?
    var model: DataModel { snapshot.graph.model }

    init(snapshot: GraphSnapshot, interruption: FetchInterruption? = nil) {
        self.snapshot = snapshot
        self.interruption = interruption
    }

    func execute(_ request: FetchRequest) throws -> FetchResult {
        try interruptible {
            switch request.resultType {
            case .objects: .objects(try objects(request))
            case .objectIDs: .objectIDs(try objects(request).objectIDs)
            case .count: .count(try matchingPositions(request).count)
            case .dictionaries: .dictionaries(try dictionaries(request))
            }
        }
    }

    func objects(_ request: FetchRequest) throws -> FetchedObjects {
        let positions = try interruptible { try matchingPositions(request) }
        return FetchedObjects(source: SnapshotObjectSource(snapshot: snapshot, positions: positions), batchSize: request.fetchBatchSize)
    }

    /// Runs a fetch that `interruption` can stop.
    private func interruptible<T>(_ fetch: () throws -> T) throws -> T {
        guard let interruption else { return try fetch() }
        return try interruption.whileRunning(fetch)
    }

    func sections(_ request: FetchRequest) throws -> SectionedFetchResults {
        try interruptible { try sectionsWhileRunning(request) }
    }

    private func sectionsWhileRunning(_ request: FetchRequest) throws -> SectionedFetchResults {
        guard let keyPath = request.sectionNameKeyPath else {
            throw StoreError(.invalidRequest, "the request has no section key path", entity: request.entityName)
        }
        _ = try ModelKeyPaths.checkSectionKeyPath(keyPath, entity: try self.entity(request), model: model)
        let positions = try matchingPositions(request)
        let views = positions.map(snapshot.view)
        // Each section's objects (a source and its positions) cost about 256 bytes beyond the
        // grouping's own.
        var tally = MemoryTally()
        let grouped = try SectionedResults(views, order: Array(views.indices), sectionKeyPath: keyPath, tally: &tally, sectionCost: 256)
        let sections = grouped.sections.map { section in
            FetchedSection(name: section.name, indexTitle: section.indexTitle,
                           objects: FetchedObjects(source: SnapshotObjectSource(snapshot: snapshot, positions: section.objectIndices.map { positions[$0] }),
                                                   batchSize: request.fetchBatchSize))
        }
        return SectionedFetchResults(sections: sections, warning: grouped.warning)
    }

    // MARK: Matching, sorting, paging

    private func entity(_ request: FetchRequest) throws(StoreError) -> EntityDescription {
        do throws(ModelError) {
            return try model.requireEntity(request.entityName)
        } catch {
            throw StoreError(.unknownEntity, error.message, entity: request.entityName)
        }
    }

    private func check(_ request: FetchRequest) throws(StoreError) {
        guard request.fetchLimit >= 0 else { throw StoreError(.invalidRequest, "fetchLimit is negative (\(request.fetchLimit))") }
        guard request.fetchOffset >= 0 else { throw StoreError(.invalidRequest, "fetchOffset is negative (\(request.fetchOffset))") }
        guard request.fetchBatchSize >= 0 else { throw StoreError(.invalidRequest, "fetchBatchSize is negative (\(request.fetchBatchSize))") }
    }

    /// The positions of the objects the request returns (objects, IDs, count), in order.
    func matchingPositions(_ request: FetchRequest) throws -> [Int] {
        try check(request)
        let entity = try self.entity(request)
        let request = try TypedRequest(request, entity: entity, model: model).request
        try ModelKeyPaths.checkSortKeys(of: request, entity: entity, model: model)
        // Every object is already loaded here; the paths are checked as the SQLite store checks them.
        for path in request.relationshipKeyPathsForPrefetching { try ModelKeyPaths.checkPrefetchKeyPath(path, entity: entity, model: model) }
        for name in request.relationshipCountsForPrefetching { try ModelKeyPaths.checkPrefetchCount(name, entity: entity) }
        var matched = try filter(request, entity: entity)
        if !request.sortDescriptors.isEmpty {
            try interruption?.check()
            let order = try Sorting.sortedIndices(matched.map(snapshot.view), by: request.sortDescriptors)
            try interruption?.check()
            matched = order.map { matched[$0] }
        }
        return page(matched, request)
    }

    private func filter(_ request: FetchRequest, entity: EntityDescription) throws -> [Int] {
        let members = Set((request.includesSubentities ? entity.entityAndSubentities : [entity.name]).compactMap(model.entityPosition(named:)))
        let predicate = try request.predicate.map { p throws(EvaluationError) in try CompiledPredicate(p) }
        var matched: [Int] = []
        for (position, object) in snapshot.graph.objects.enumerated() {
            if position % FetchInterruption.checkInterval == 0 { try interruption?.check() }
            guard let object, members.contains(object.entity) else { continue }
            if let predicate, !(try predicate.evaluate(snapshot.view(position))) { continue }
            matched.append(position)
        }
        return matched
    }

    private func page<T>(_ items: [T], _ request: FetchRequest) -> [T] {
        Array(items[request.page(of: items.count)])
    }

    // MARK: Dictionaries

    private func dictionaries(_ request: FetchRequest) throws -> [ValueDictionary] {
        try check(request)
        let entity = try self.entity(request)
        let request = try TypedRequest(request, entity: entity, model: model).request
        // Without grouping the objects are sorted by key paths, checked as for objects, or by
        // the properties the keys name (a grouped fetch sorts its rows by property names).
        try ModelKeyPaths.checkSortKeys(of: request, entity: entity, model: model)
        for path in request.relationshipKeyPathsForPrefetching { try ModelKeyPaths.checkPrefetchKeyPath(path, entity: entity, model: model) }
        for name in request.relationshipCountsForPrefetching { try ModelKeyPaths.checkPrefetchCount(name, entity: entity) }
        let matched = try filter(request, entity: entity)
        return try DictionaryResults.make(request, objects: matched.map(snapshot.view), entity: entity)
    }
}
