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
///
/// A predicate is evaluated over a large store's objects on several threads
/// (``FetchParallelism``): the same matches in the same order, and the same first error.
struct MemoryFetchExecutor {
    let snapshot: GraphSnapshot
    let interruption: FetchInterruption?
    let parallelism: FetchParallelism
    var model: DataModel { snapshot.graph.model }

    init(snapshot: GraphSnapshot, interruption: FetchInterruption? = nil, parallelism: FetchParallelism = .automatic) {
        self.snapshot = snapshot
        self.interruption = interruption
        self.parallelism = parallelism
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
        let count = snapshot.graph.objects.count
        let jobs = parallelism.jobs(forObjects: count)
        guard let predicate, jobs > 1 else {
            var matched: [Int] = []
            try Self.filter(0..<count, snapshot, members, predicate, interruption, into: &matched)
            return matched
        }
        // The objects in consecutive ranges on `jobs` threads (the compiled predicate and the
        // snapshot are shared, immutable), the ranges' matches joined in order; the first
        // range that failed fails the fetch with its first error, as one loop would.
        var matched: [Int] = []
        var failure: (any Error)?
        let snapshot = self.snapshot, interruption = self.interruption
        ParallelRanges.run(count: count, jobs: jobs, minimumLength: parallelism.minimumRange, work: { range -> RangeMatches in
            var result = RangeMatches()
            do {
                try Self.filter(range, snapshot, members, predicate, interruption, into: &result.positions)
            } catch {
                result.failure = error
            }
            return result
        }, take: { result in
            matched.append(contentsOf: result.positions)
            failure = result.failure
            return failure == nil
        })
        if let failure { throw failure }
        return matched
    }

    /// The matches among the objects at `positions`, appended to `matched` in order.
    private static func filter(_ positions: Range<Int>, _ snapshot: GraphSnapshot, _ members: Set<Int>, _ predicate: CompiledPredicate?,
                               _ interruption: FetchInterruption?, into matched: inout [Int]) throws {
        let objects = snapshot.graph.objects
        for position in positions {
            if position % FetchInterruption.checkInterval == 0 { try interruption?.check() }
            guard let object = objects[position], members.contains(object.entity) else { continue }
            if let predicate, !(try predicate.evaluate(snapshot.view(position))) { continue }
            matched.append(position)
        }
    }

    /// One range's matches, and the error that stopped it.
    private struct RangeMatches: Sendable {
        var positions: [Int] = []
        var failure: (any Error)?
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

/// On how many threads an in-memory fetch evaluates its predicate: one below `threshold`
/// objects (threads cost more than they save on small stores), else `jobs`.
struct FetchParallelism: Sendable {
    /// The threads for a large store.
    var jobs: Int
    /// The least number of objects (of every entity) worth more than one thread.
    var threshold: Int
    /// The least number of objects a thread is given at a time.
    var minimumRange: Int

    /// The processors this process may use (``UsableProcessors``), from 10,000 objects on, in
    /// ranges of at least 1,024 objects.
    static let automatic = FetchParallelism(jobs: UsableProcessors.count, threshold: 10_000, minimumRange: 1024)
    /// One thread always.
    static let one = FetchParallelism(jobs: 1, threshold: .max, minimumRange: 1024)

    func jobs(forObjects count: Int) -> Int {
        count >= threshold ? jobs : 1
    }
}
