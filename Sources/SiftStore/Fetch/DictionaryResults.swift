import SiftEvaluation
import SiftLanguage

/// Dictionary results (propertiesToFetch, distinct, group by, having) from the objects a
/// request's predicate matched, in insertion order: the one implementation every store uses.
///
/// Without grouping: sort, evaluate the properties on each object, distinct, HAVING, page —
/// unless every property is an aggregate (or a constant): then one row of aggregates over all
/// the objects (``aggregatesWholeResult(_:)``), then HAVING and paging.
/// With grouping: groups in order of their first object, values of group-by properties from
/// that object, other properties evaluated on the group (key paths read every member), then
/// HAVING, sort (by property names), distinct, page.
///
/// The steps after the per-object work are stages of their own (``finishUngrouped(_:_:paging:)``,
/// ``finishGrouped(_:_:properties:entity:paging:)``), so a store that computes the rows itself
/// (the SQLite store, with SQL) finishes them with the very same code.
package enum DictionaryResults {
    /// The properties a request fetches: its `propertiesToFetch`, or every attribute of the
    /// entity when it names none.
    package static func properties(_ request: FetchRequest, entity: EntityDescription) -> [FetchedProperty] {
        if !request.propertiesToFetch.isEmpty { return request.propertiesToFetch }
        return entity.attributes.map { FetchedProperty(name: $0.name, expression: ExpressionNode(.keyPath(base: nil, keys: [$0.name]))) }
    }

    package static func make(_ request: FetchRequest, objects: [Value], entity: EntityDescription) throws -> [ValueDictionary] {
        let properties = self.properties(request, entity: entity)
        let compiled = try properties.map { property throws in (property.name, try CompiledExpression(property.expression)) }
        var matched = objects

        if aggregatesWholeResult(request) {
            // One row: the objects as one group, in insertion order (not sorted).
            let whole = Value.object(GroupObject(members: objects))
            var row = ValueDictionary()
            for (name, expression) in compiled { row[name] = detached(try expression.evaluate(whole)) }
            return try finishUngrouped([row], request)
        }
        if request.propertiesToGroupBy.isEmpty {
            if !request.sortDescriptors.isEmpty {
                // A key naming a property sorts by its value (SQL's ORDER BY an alias).
                let expressions = request.sortDescriptors.map { key in
                    properties.first { $0.name == key.keyPath }?.expression ?? key.expression
                }
                let order = try Sorting.sortedIndices(matched, by: request.sortDescriptors, reading: expressions)
                matched = order.map { matched[$0] }
            }
            var rows: [ValueDictionary] = []
            rows.reserveCapacity(matched.count)
            for object in matched {
                var row = ValueDictionary()
                for (name, expression) in compiled { row[name] = detached(try expression.evaluate(object)) }
                rows.append(row)
            }
            return try finishUngrouped(rows, request)
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
        return try finishGrouped(rows, request, properties: properties, entity: entity)
    }

    /// Ungrouped rows (sorted, one per object) to results: distinct, HAVING, then offset and
    /// limit unless `paging` is false (they were applied already).
    package static func finishUngrouped(_ rows: [ValueDictionary], _ request: FetchRequest, paging: Bool = true) throws -> [ValueDictionary] {
        var rows = rows
        if request.returnsDistinctResults { rows = distinct(rows) }
        rows = try having(rows, request)
        return paging ? page(rows, request) : rows
    }

    /// Grouped rows (one per group, in order of the groups' first objects) to results: HAVING,
    /// sort by property names, distinct, then offset and limit unless `paging` is false.
    package static func finishGrouped(_ rows: [ValueDictionary], _ request: FetchRequest, properties: [FetchedProperty],
                                      entity: EntityDescription, paging: Bool = true) throws -> [ValueDictionary] {
        var rows = try having(rows, request)
        if !request.sortDescriptors.isEmpty {
            let names = Set(properties.map(\.name))
            for key in request.sortDescriptors where !names.contains(key.keyPath) {
                throw StoreError(.invalidRequest, "a grouped fetch sorts by its properties; '\(key.keyPath)' is not one of \(properties.map(\.name).joined(separator: ", "))",
                                 entity: entity.name, key: key.keyPath)
            }
            // A property's name is one key of the row, whatever it holds (`category.name`).
            let values = rows.map(Value.dictionary)
            let order = try Sorting.sortedIndices(values, by: request.sortDescriptors,
                                                  reading: request.sortDescriptors.map { ExpressionNode(.keyPath(base: nil, keys: [$0.keyPath])) })
            rows = order.map { rows[$0] }
        }
        if request.returnsDistinctResults { rows = distinct(rows) }
        return paging ? page(rows, request) : rows
    }

    private static func having(_ rows: [ValueDictionary], _ request: FetchRequest) throws -> [ValueDictionary] {
        guard let having = request.havingPredicate else { return rows }
        return try CompiledPredicate(having).filter(rows.map(Value.dictionary)).compactMap(\.asDictionary)
    }

    private static func page<T>(_ items: [T], _ request: FetchRequest) -> [T] {
        Array(items[request.page(of: items.count)])
    }

    // MARK: Sorting by result properties

    /// The property of an ungrouped dictionary fetch that `key` names, when that property is
    /// not a plain key path (`SELECT Milliseconds / 1000 AS secs … SORT BY secs`): the rows
    /// sort by its value, as SQL's ORDER BY an alias does, in memory. A property that is a key
    /// path (`#2B AS doubles`) sorts by that key path instead (``resolvingSortAliases(_:)``),
    /// which SQL can do.
    package static func sortedProperty(_ key: SortKey, of request: FetchRequest) -> FetchedProperty? {
        guard request.resultType == .dictionaries, request.propertiesToGroupBy.isEmpty else { return nil }
        return request.propertiesToFetch.first { $0.name == key.keyPath && FetchStatement.keys(of: $0.expression) == nil }
    }

    /// Whether an ungrouped dictionary fetch sorts by a property that is not a key path.
    package static func sortsByPropertyValue(_ request: FetchRequest) -> Bool {
        request.sortDescriptors.contains { sortedProperty($0, of: request) != nil }
    }

    /// An ungrouped dictionary fetch with each sort key that names a property holding a key
    /// path sorting by that key path (`SELECT #2B AS doubles … SORT BY doubles` sorts by `2B`);
    /// any other request as it is. Aliases take precedence over the entity's keys, as in SQL.
    package static func resolvingSortAliases(_ request: FetchRequest) -> FetchRequest {
        guard request.resultType == .dictionaries, request.propertiesToGroupBy.isEmpty, !request.sortDescriptors.isEmpty,
              !request.propertiesToFetch.isEmpty else { return request }
        var resolved = request
        for index in resolved.sortDescriptors.indices {
            let name = resolved.sortDescriptors[index].keyPath
            if let property = request.propertiesToFetch.first(where: { $0.name == name }), let keys = FetchStatement.keys(of: property.expression) {
                resolved.sortDescriptors[index].keyPath = keys.joined(separator: ".")
            }
        }
        return resolved
    }

    private static func distinct(_ rows: [ValueDictionary]) -> [ValueDictionary] {
        var seen: Set<[ComparableKey]> = []
        return rows.filter { seen.insert($0.values.map(ComparableKey.init)).inserted }
    }

    /// Objects in results become references (their IDs), free of the store.
    package static func detached(_ value: Value) -> Value {
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
