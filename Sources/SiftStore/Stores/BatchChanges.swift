import SiftEvaluation
import SiftLanguage

/// Changes to every object a predicate matches (Core Data's `NSBatchUpdateRequest` and
/// `NSBatchDeleteRequest`). The objects are found by the store's own fetch (compiled to SQL on
/// SQLite, evaluated in memory on the atomic stores); the changes are pending changes like any
/// other, under the same rules, validated and written by `save()`.
extension PersistentStore {
    /// Sets attributes of every object of `entity` (sub-entities included) that `predicate`
    /// matches (nil: every object) to the values of expressions evaluated on that object before
    /// any of them changes (a constant, or `price * 1.1`, `title + "!"`, `FUNCTION(...)`):
    ///
    ///     try store.batchUpdate(entity: "Note", predicate: PredicateNode(format: "category == nil"),
    ///                           set: ["title": .constant("Untitled"), "updatedAt": ExpressionNode(format: "now()")])
    ///
    /// All or nothing: a value that does not fit its attribute, or an unknown key, changes
    /// nothing; nor does the store's `interrupt()` while the batch runs (it throws
    /// ``StoreError/interrupted``). Returns how many objects were changed.
    @discardableResult
    public func batchUpdate(entity: String, predicate: PredicateNode?, set assignments: [String: ExpressionNode]) throws -> Int {
        // Only the tables the predicate and the expressions reach (a database Sift did not
        // create reads no other); the entity is one of them.
        var reach = FetchRequest(entityName: entity, predicate: predicate)
        reach.propertiesToFetch = assignments.sorted { $0.key < $1.key }.map { FetchedProperty(name: $0.key, expression: $0.value) }
        let reachedModel = try model(for: reach)
        let description = try BatchChanges.requireEntity(entity, in: reachedModel)
        // Keys in the entity's attribute order, so the same request always fails the same way.
        var keys: [String] = []
        for key in assignments.keys {
            switch description.slot(of: key) {
            case .attribute: keys.append(key)
            case .relationship:
                throw StoreError(.invalidValue, "\(description.name): batch updates set attributes; '\(key)' is a relationship",
                                 entity: description.name, key: key)
            case nil:
                throw StoreError(.unknownKey, description.unknownKeyMessage(key), entity: description.name, key: key)
            }
        }
        let order = Dictionary(description.attributes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        keys.sort { order[$0, default: 0] < order[$1, default: 0] }
        // Constants are computed once; other expressions on each object.
        var constants: [String: Value] = [:]
        var computed: [(key: String, expression: CompiledExpression)] = []
        for key in keys {
            guard let expression = assignments[key] else { continue }
            if let value = try CompiledExpression.constantValue(of: expression) {
                constants[key] = value
            } else {
                let typed = try ModelKeyPaths.typedExpression(expression, entity: description, model: reachedModel)
                computed.append((key, try CompiledExpression(typed)))
            }
        }
        let interruption = (self as? any InterruptibleStore)?.interruption
        return try interruption.whileRunning {
            // Every matching ID, or the error that stopped the store reading them (never a part).
            let ids = try fetch(FetchRequest(entityName: entity, predicate: predicate)).checkedObjectIDs()
            guard !ids.isEmpty, !keys.isEmpty else { return ids.count }
            try performChanges {
                // Every computed value first, inside the change (so on the store as it is now,
                // another process's saves included), on the objects as they are before any of
                // them changes (one after another, an expression reading another object would
                // see it changed, and an atomic store would copy its whole graph for every
                // object read between changes). Expression k on object i is
                // `computedValues[i * computed.count + k]`; an object gone since the fetch is left out.
                var computedValues: [Value] = []
                var gone: Set<Int> = []
                if !computed.isEmpty {
                    computedValues.reserveCapacity(ids.count * computed.count)
                    for (index, id) in ids.enumerated() {
                        try interruption?.check()
                        guard let object = self.object(with: id) else {
                            gone.insert(index)
                            computedValues.append(contentsOf: repeatElement(.null, count: computed.count))
                            continue
                        }
                        for (_, expression) in computed { computedValues.append(try expression.evaluate(.object(object))) }
                    }
                }
                for (index, id) in ids.enumerated() where !gone.contains(index) {
                    // Interrupted: the unit undoes the objects changed so far.
                    try interruption?.check()
                    var values = constants
                    for (offset, (key, _)) in computed.enumerated() {
                        values[key] = computedValues[index * computed.count + offset]
                    }
                    try self.update(id, attributes: values, relationships: [:])
                }
            }
            return ids.count
        }
    }

    /// Deletes every object of `entity` (sub-entities included) that `predicate` matches (nil:
    /// every object), with the delete rules of single deletes: Cascade deletes what they reach,
    /// Nullify detaches, and a Deny rule whose destination survives the whole batch refuses it
    /// (naming the blocking object), deleting nothing; so does the store's `interrupt()` while
    /// the batch runs (it throws ``StoreError/interrupted``). Returns how many matching objects
    /// were deleted (not counting those deleted by cascade).
    @discardableResult
    public func batchDelete(entity: String, predicate: PredicateNode?) throws -> Int {
        _ = try model(for: FetchRequest(entityName: entity, predicate: predicate))
        let interruption = (self as? any InterruptibleStore)?.interruption
        return try interruption.whileRunning {
            // Every matching ID, or the error that stopped the store reading them (never a part).
            let ids = try fetch(FetchRequest(entityName: entity, predicate: predicate)).checkedObjectIDs()
            guard !ids.isEmpty else { return 0 }
            try performChanges {
                if let store = self as? any BatchDeletingStore {
                    try store.delete(ids)
                } else {
                    for id in ids where self.object(with: id) != nil {
                        try interruption?.check()
                        try self.delete(id)
                    }
                }
                // Interrupted: the unit undoes the deletes.
                try interruption?.check()
            }
            return ids.count
        }
    }
}

/// A store that deletes many objects as one delete (the delete rules see the whole batch as
/// deleted, so a Deny between two of them does not block): the atomic and SQLite stores.
package protocol BatchDeletingStore: PersistentStore {
    func delete(_ ids: [ObjectID]) throws(StoreError)
}

package enum BatchChanges {
    package static func requireEntity(_ name: String, in model: DataModel) throws(StoreError) -> EntityDescription {
        do throws(ModelError) {
            return try model.requireEntity(name)
        } catch {
            throw StoreError(.unknownEntity, error.message, entity: name)
        }
    }
}
