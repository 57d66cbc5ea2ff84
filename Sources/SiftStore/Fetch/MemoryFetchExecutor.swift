import SiftEvaluation
import SiftLanguage

/// Runs fetch requests on a graph snapshot with the in-memory evaluator: the engine of the
/// atomic stores, and the meaning the SQLite store must reproduce.
///
/// Order of work: objects of the entity (and its sub-entities unless excluded) in insertion
/// order → predicate → sort (ties keep insertion order) → offset and limit → the result type.
/// Dictionary results with grouping group first, then apply HAVING, sort, offset and limit to
/// the groups.
struct MemoryFetchExecutor {
    let snapshot: GraphSnapshot
    var model: DataModel { snapshot.graph.model }

    func execute(_ request: FetchRequest) throws -> FetchResult {
        switch request.resultType {
        case .objects: return .objects(try objects(request))
        case .objectIDs: return .objectIDs(try objects(request).objectIDs)
        case .count: return .count(try matchingPositions(request).count)
        case .dictionaries: return .dictionaries(try dictionaries(request))
        }
    }

    func objects(_ request: FetchRequest) throws -> FetchedObjects {
        let positions = try matchingPositions(request)
        return FetchedObjects(source: SnapshotObjectSource(snapshot: snapshot, positions: positions), batchSize: request.fetchBatchSize)
    }

    func sections(_ request: FetchRequest) throws -> SectionedFetchResults {
        guard let keyPath = request.sectionNameKeyPath else {
            throw StoreError(.invalidRequest, "the request has no section key path", entity: request.entityName)
        }
        let entity = try self.entity(request)
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let (ending, crossesToMany) = try ModelKeyPaths.resolve(keys, from: entity, model: model)
        if case .relationship = ending {
            throw StoreError(.invalidRequest, "cannot section by relationship '\(keyPath)'; use one of its attributes", entity: entity.name, key: keyPath)
        }
        if crossesToMany {
            throw StoreError(.invalidRequest, "cannot section by to-many key path '\(keyPath)'", entity: entity.name, key: keyPath)
        }
        let positions = try matchingPositions(request)
        let views = positions.map(snapshot.view)
        let grouped = try SectionedResults(views, order: Array(views.indices), sectionKeyPath: keyPath)
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
        if let predicate = request.predicate { try ModelKeyPaths.checkPredicate(predicate, entity: entity, model: model) }
        for key in request.sortDescriptors { try ModelKeyPaths.checkSortKey(key.keyPath, entity: entity, model: model) }
        var matched = try filter(request, entity: entity)
        if !request.sortDescriptors.isEmpty {
            let order = try Sorting.sortedIndices(matched.map(snapshot.view), by: request.sortDescriptors)
            matched = order.map { matched[$0] }
        }
        return page(matched, request)
    }

    private func filter(_ request: FetchRequest, entity: EntityDescription) throws -> [Int] {
        let members = Set((request.includesSubentities ? entity.entityAndSubentities : [entity.name]).compactMap(model.entityPosition(named:)))
        let predicate = try request.predicate.map { p throws(EvaluationError) in try CompiledPredicate(p) }
        var matched: [Int] = []
        for (position, object) in snapshot.graph.objects.enumerated() {
            guard let object, members.contains(object.entity) else { continue }
            if let predicate, !(try predicate.evaluate(snapshot.view(position))) { continue }
            matched.append(position)
        }
        return matched
    }

    private func page<T>(_ items: [T], _ request: FetchRequest) -> [T] {
        let start = min(request.fetchOffset, items.count)
        let end = request.fetchLimit > 0 ? min(items.count, start + request.fetchLimit) : items.count
        return Array(items[start..<end])
    }

    // MARK: Dictionaries

    private func dictionaries(_ request: FetchRequest) throws -> [ValueDictionary] {
        try check(request)
        let entity = try self.entity(request)
        if let predicate = request.predicate { try ModelKeyPaths.checkPredicate(predicate, entity: entity, model: model) }
        let matched = try filter(request, entity: entity)
        return try DictionaryResults.make(request, objects: matched.map(snapshot.view), entity: entity)
    }
}

/// Dictionary results (propertiesToFetch, distinct, group by, having) from the objects a
/// request's predicate matched, in insertion order: the one implementation every store uses.
///
/// Without grouping: sort, evaluate the properties on each object, distinct, HAVING, page.
/// With grouping: groups in order of their first object, values of group-by properties from
/// that object, other properties evaluated on the group (key paths read every member), then
/// HAVING, sort (by property names), distinct, page.
package enum DictionaryResults {
    package static func make(_ request: FetchRequest, objects: [Value], entity: EntityDescription) throws -> [ValueDictionary] {
        var properties = request.propertiesToFetch
        if properties.isEmpty {
            properties = entity.attributes.map { FetchedProperty(name: $0.name, expression: ExpressionNode(.keyPath(base: nil, keys: [$0.name]))) }
        }
        let compiled = try properties.map { property throws in (property.name, try CompiledExpression(property.expression)) }
        var matched = objects

        if request.propertiesToGroupBy.isEmpty {
            if !request.sortDescriptors.isEmpty {
                let order = try Sorting.sortedIndices(matched, by: request.sortDescriptors)
                matched = order.map { matched[$0] }
            }
            var rows: [ValueDictionary] = []
            rows.reserveCapacity(matched.count)
            for object in matched {
                var row = ValueDictionary()
                for (name, expression) in compiled { row[name] = detached(try expression.evaluate(object)) }
                rows.append(row)
            }
            if request.returnsDistinctResults { rows = distinct(rows) }
            if let having = request.havingPredicate { rows = try CompiledPredicate(having).filter(rows.map(Value.dictionary)).compactMap(\.asDictionary) }
            return page(rows, request)
        }

        let groupBy = try request.propertiesToGroupBy.map { try CompiledExpression($0.expression) }
        var groupOrder: [[ComparableKey]] = []
        var members: [[ComparableKey]: [Value]] = [:]
        for object in matched {
            let key = try groupBy.map { try ComparableKey(detached($0.evaluate(object))) }
            if members[key] == nil { groupOrder.append(key) }
            members[key, default: []].append(object)
        }
        let groupedExpressions = Set(request.propertiesToGroupBy.map(\.expression))
        var rows: [ValueDictionary] = []
        for key in groupOrder {
            let group = members[key] ?? []
            guard let first = group.first else { continue }
            var row = ValueDictionary()
            for (property, (name, expression)) in zip(properties, compiled) {
                if groupedExpressions.contains(property.expression) {
                    row[name] = detached(try expression.evaluate(first))
                } else {
                    let value = try expression.evaluate(.object(GroupObject(members: group)))
                    if value.collectionElements != nil {
                        throw StoreError(.invalidRequest, "'\(property.name)' is neither grouped nor an aggregate (use count:, sum:, average:, min: or max:)",
                                         entity: entity.name, key: property.name)
                    }
                    row[name] = detached(value)
                }
            }
            rows.append(row)
        }
        if let having = request.havingPredicate {
            rows = try CompiledPredicate(having).filter(rows.map(Value.dictionary)).compactMap(\.asDictionary)
        }
        if !request.sortDescriptors.isEmpty {
            let names = Set(properties.map(\.name))
            for key in request.sortDescriptors where !names.contains(key.keyPath) {
                throw StoreError(.invalidRequest, "a grouped fetch sorts by its properties; '\(key.keyPath)' is not one of \(properties.map(\.name).joined(separator: ", "))",
                                 entity: entity.name, key: key.keyPath)
            }
            rows = try Sorting.sorted(rows.map(Value.dictionary), by: request.sortDescriptors.map(rowKey)).compactMap(\.asDictionary)
        }
        if request.returnsDistinctResults { rows = distinct(rows) }
        return page(rows, request)
    }

    private static func page<T>(_ items: [T], _ request: FetchRequest) -> [T] {
        let start = min(request.fetchOffset, items.count)
        let end = request.fetchLimit > 0 ? min(items.count, start + request.fetchLimit) : items.count
        return Array(items[start..<end])
    }

    /// A sort key naming a result property, written so any name reads as one key.
    private static func rowKey(_ key: SortKey) -> SortKey {
        let printed = CanonicalPrinter.format(ExpressionNode(.keyPath(base: nil, keys: [key.keyPath])))
        return SortKey(printed, ascending: key.ascending, comparator: key.comparator)
    }

    private static func distinct(_ rows: [ValueDictionary]) -> [ValueDictionary] {
        var seen: Set<[ComparableKey]> = []
        return rows.filter { seen.insert($0.values.map(ComparableKey.init)).inserted }
    }

    /// Objects in results become references (their IDs), free of the store.
    static func detached(_ value: Value) -> Value {
        switch value {
        case .object(let object):
            if let view = object as? StoredObjectView, let id = view.snapshot.graph.objects[view.position]?.id { return .object(ObjectReference(id)) }
            if let object = object as? ManagedObject { return .object(ObjectReference(object.objectID)) }
            return value
        case .array(let items): return .array(items.map(detached))
        case .set(let items): return .set(items.map(detached))
        default: return value
        }
    }
}

/// A group of objects as one object: a key reads as the members' values (nil ones left out,
/// as SQL aggregates do), so `count:(title)` and `sum:(price)` aggregate the group.
struct GroupObject: KeyValueObject {
    let members: [Value]

    func value(forKey key: String) throws(EvaluationError) -> Value {
        var values: [Value] = []
        for member in members {
            guard case .object(let object) = member else { continue }
            let value = try object.value(forKey: key)
            if let inner = value.collectionElements { values.append(contentsOf: inner) } else if !value.isNull { values.append(value) }
        }
        return .array(values)
    }

    var objectIdentity: AnyHashable { AnyHashable(members.map { $0.objectIdentityKey }) }
}

extension Value {
    fileprivate var objectIdentityKey: AnyHashable {
        if case .object(let object) = self { return object.objectIdentity }
        return AnyHashable(0)
    }
}

extension Value {
    var asDictionary: ValueDictionary? {
        if case .dictionary(let d) = self { return d }
        return nil
    }
}
