import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// A fetch as a SQL store planned it, as the core's executor reads it: what the engine's query
/// leaves to the evaluator. The SQLite store's plan wraps its `FetchSQL`, the PostgreSQL
/// store's is `PostgreSQLFetchPlan`.
package protocol SQLPlannedFetch {
    /// The request, checked (``CheckedFetchRequest``), its predicate typed by the model.
    var request: FetchRequest { get }
    /// The fetched entity.
    var entity: EntityDescription { get }
    /// The part of the predicate the evaluator checks on each candidate row (nil: every row
    /// the engine returns matches). A store may compile it only when asked.
    var residual: CompiledPredicate? { get throws }
    /// Whether the evaluator sorts the matching rows (by the request's sort descriptors).
    var sortsInMemory: Bool { get }
    /// Whether the request's offset and limit are applied to the matching rows in memory.
    var pagesInMemory: Bool { get }
}

/// What a SQL store's fetch executor does its own way, under the core's executor (the
/// extension below: ``SQLStoreFetchExecutor``'s objects, count, sections and dictionaries,
/// written once for every engine).
///
/// The core's part, as both stores ran it: the request is planned (``planned(_:_:)``); its
/// objects stream from the engine when it pages them (``streamSource(_:)``), else are the
/// matching keys (``matchingKeys(_:)``: the candidate rows the driver scans, the residual
/// predicate by `CompiledPredicate`, a sort in memory by `Sorting`, paging) read through the
/// core's ``SQLKeyListSource`` (``keyLists(_:)``); the count is the engine's
/// (``countInEngine(_:)``) or the matching keys'; sections follow ``PageSections``, the engine's
/// GROUP BY when it has one (``sectionsInEngine(_:keyPath:ending:)``), else are grouped in
/// memory (`SectionedResults`) with a key list per section; dictionaries are the engine's
/// (``dictionariesInEngine(_:_:properties:)``), else `DictionaryResults.make` over the matching
/// objects.
///
/// The driver's part: making the plan (and retrying it, as the PostgreSQL store does when the
/// server refuses a compiled query), scanning the candidate rows, the stream, the count query,
/// the engine's sections and dictionaries, and the few settings where the two stores behave
/// differently (``inMemorySectionCost``, ``plannedDictionaries(_:_:)``,
/// ``inMemoryDictionaryPlan(_:for:)``).
package protocol SQLFetchDriver: SQLStoreFetchExecutor {
    associatedtype Plan: SQLPlannedFetch
    associatedtype KeyLists: SQLKeyListDriver

    /// The store's lock, held while a fetch is planned and its rows read.
    var lock: NSRecursiveLock { get }
    /// The store's interruption, checked before each candidate row is evaluated.
    var interruption: FetchInterruption { get }

    /// Runs `body` with the request's plan (checked as ``CheckedFetchRequest`` checks it); a
    /// driver may run `body` again with another plan when the engine refuses the first.
    func planned<T>(_ request: FetchRequest, _ body: (Plan) throws -> T) throws -> T
    /// Calls `body` with the object of each candidate row of the plan's query, in order. The
    /// relationships the residual predicate reads may be loaded a batch of rows at a time first.
    func scan(_ plan: Plan, _ body: (ManagedObject) throws -> Void) throws
    /// The objects streamed from the engine when it does the whole fetch the stream's way (nil:
    /// the objects are the matching keys, read by key).
    func streamSource(_ plan: Plan) throws -> (any FetchedObjectSource)?
    /// How the plan's objects are read by key (the matching keys, a section's keys).
    func keyLists(_ plan: Plan) -> KeyLists
    /// The engine's count of what the request returns (nil: the matching keys are counted).
    func countInEngine(_ plan: Plan) throws -> Int?

    /// Checks a sectioned fetch's entity and section key path against the store's model (before
    /// the request is planned); where the key path ends.
    func sectionKeyPathEnding(_ keyPath: String, of request: FetchRequest) throws -> ModelKeyPaths.Ending
    /// The sections the engine groups (a GROUP BY), or nil to group them in memory.
    func sectionsInEngine(_ plan: Plan, keyPath: String, ending: ModelKeyPaths.Ending) throws -> SectionedFetchResults?
    /// What one section grouped in memory costs beyond `SectionedResults`' own (counted against
    /// the evaluator's memory limit).
    var inMemorySectionCost: Int { get }
    /// Runs `body` (which groups `objects`, the plan's matching objects, by `keyPath`) with the
    /// relationships `keyPath` crosses (`author` of `author.name`) loaded for all of them first,
    /// a query per relationship rather than one per object as each is grouped.
    func withRelationships<T>(readBy keyPath: String, loadedFor objects: [ManagedObject], of plan: Plan,
                              _ body: () throws -> T) throws -> T

    /// Runs `body` with the plan of a dictionary fetch and the request as the dictionaries are
    /// made from it (typed, with the request's offset and limit).
    func plannedDictionaries<T>(_ request: FetchRequest, _ body: (Plan, FetchRequest) throws -> T) throws -> T
    /// The dictionaries the engine computes, finished by `DictionaryResults`' last stages; nil
    /// when part of them is made in memory.
    func dictionariesInEngine(_ plan: Plan, _ request: FetchRequest, properties: [FetchedProperty]) throws -> [ValueDictionary]?
    /// The plan whose matching objects `DictionaryResults.make` makes the dictionaries of
    /// `request` (as given to `dictionaries(_:)`) from, when the engine does not.
    func inMemoryDictionaryPlan(_ plan: Plan, for request: FetchRequest) throws -> Plan
}

extension SQLFetchDriver {
    // MARK: Objects

    package func objects(_ request: FetchRequest) throws -> FetchedObjects {
        lock.lock(); defer { lock.unlock() }
        return try planned(request) { plan in
            if let stream = try streamSource(plan) { return FetchedObjects(source: stream, batchSize: request.fetchBatchSize) }
            let keys = try matchingKeys(plan)
            return FetchedObjects(source: SQLKeyListSource(driver: keyLists(plan), keys: keys), batchSize: request.fetchBatchSize)
        }
    }

    /// The keys and IDs of the objects the plan's request returns, in order: the candidate rows
    /// (``scan(_:_:)``), filtered by the residual predicate, sorted in memory if the engine did
    /// not, then paged if it did not. Only the objects a sort needs are kept.
    package func matchingKeys(_ plan: Plan) throws -> [(key: Int64, id: ObjectID)] {
        let residual = try plan.residual
        let sorts = plan.sortsInMemory
        let interruption = self.interruption
        var rows: [(key: Int64, id: ObjectID)] = []
        var objects: [ManagedObject] = []
        try scan(plan) { object in
            try interruption.check()
            // (Not `if let`: that copies the predicate for each row.)
            if try residual?.evaluate(.object(object)) == false { return }
            rows.append((object.storageKey, object.objectID))
            if sorts { objects.append(object) }
        }
        if sorts {
            let order = try Sorting.sortedIndices(objects.map { .object($0) }, by: plan.request.sortDescriptors)
            rows = order.map { rows[$0] }
        }
        return plan.pagesInMemory ? Array(rows[plan.request.page(of: rows.count)]) : rows
    }

    /// The objects the plan's request returns, in order, as ``matchingKeys(_:)`` finds them.
    package func matchingObjects(_ plan: Plan) throws -> [ManagedObject] {
        let residual = try plan.residual
        let interruption = self.interruption
        var objects: [ManagedObject] = []
        try scan(plan) { object in
            try interruption.check()
            // (Not `if let`: that copies the predicate for each row.)
            if try residual?.evaluate(.object(object)) == false { return }
            objects.append(object)
        }
        if plan.sortsInMemory {
            let order = try Sorting.sortedIndices(objects.map { .object($0) }, by: plan.request.sortDescriptors)
            objects = order.map { objects[$0] }
        }
        return plan.pagesInMemory ? Array(objects[plan.request.page(of: objects.count)]) : objects
    }

    // MARK: Count

    package func count(_ request: FetchRequest) throws -> Int {
        lock.lock(); defer { lock.unlock() }
        return try planned(request) { plan in
            if let count = try countInEngine(plan) { return count }
            return try matchingKeys(plan).count
        }
    }

    // MARK: Sections

    package func sections(_ request: FetchRequest) throws -> SectionedFetchResults {
        guard let keyPath = request.sectionNameKeyPath else {
            throw StoreError(.invalidRequest, "the request has no section key path", entity: request.entityName)
        }
        lock.lock(); defer { lock.unlock() }
        let ending = try sectionKeyPathEnding(keyPath, of: request)
        return try planned(request) { plan in
            // A page's sections are grouped from its rows (PageSections): one query.
            if !PageSections.areGroupedFromRows(request),
               let sections = try sectionsInEngine(plan, keyPath: keyPath, ending: ending) { return sections }
            return try sectionsInMemory(plan, keyPath: keyPath)
        }
    }

    /// Sections grouped in memory from the matching objects, read once (the candidate rows of
    /// the plan's query, with the relationships the key path crosses); each section's objects
    /// are read again by key when it is read.
    private func sectionsInMemory(_ plan: Plan, keyPath: String) throws -> SectionedFetchResults {
        let objects = try matchingObjects(plan)
        let values = objects.map { Value.object($0) }
        var tally = MemoryTally()
        let grouped = try withRelationships(readBy: keyPath, loadedFor: objects, of: plan) {
            try SectionedResults(values, order: Array(values.indices), sectionKeyPath: keyPath, tally: &tally,
                                 sectionCost: inMemorySectionCost)
        }
        let keyLists = self.keyLists(plan)
        let sections = grouped.sections.map { section in
            let keys = section.objectIndices.map { (key: objects[$0].storageKey, id: objects[$0].objectID) }
            return FetchedSection(name: section.name, indexTitle: section.indexTitle,
                                  objects: FetchedObjects(source: SQLKeyListSource(driver: keyLists, keys: keys),
                                                          batchSize: plan.request.fetchBatchSize))
        }
        return SectionedFetchResults(sections: sections, warning: grouped.warning)
    }

    // MARK: Dictionaries

    /// Dictionary results: the engine's when it computes them exactly as the evaluator, else
    /// `DictionaryResults.make` over the matching objects, as the atomic stores make them
    /// (properties, grouping, HAVING, sort and paging of the rows).
    package func dictionaries(_ request: FetchRequest) throws -> [ValueDictionary] {
        lock.lock(); defer { lock.unlock() }
        return try plannedDictionaries(request) { plan, typed in
            let properties = DictionaryResults.properties(typed, entity: plan.entity)
            // The evaluator's compile errors first, as in memory.
            for property in properties { _ = try CompiledExpression(property.expression) }
            if let rows = try dictionariesInEngine(plan, typed, properties: properties) { return rows }
            let objects = try matchingObjects(inMemoryDictionaryPlan(plan, for: request))
            return try DictionaryResults.make(typed, objects: objects.map { .object($0) }, entity: plan.entity)
        }
    }
}
