import SiftEvaluation
import SiftLanguage

/// Checks key paths against the model before a fetch runs, so a misspelt key is an error even
/// when no object would have been evaluated (`unknown key 'name' on Note`), and sort keys are
/// ones a store can sort by (FETCH.md §3).
package enum ModelKeyPaths {
    /// What a key path reaches.
    package enum Ending {
        case attribute(AttributeDescription)
        case relationship(RelationshipDescription)
        /// A collection operator (`@count`, `@sum.price`): one value.
        case aggregate
    }

    /// Follows `keys` from `entity`; `crossesToMany` tells whether a to-many step comes before
    /// the last key (a path that ends in an aggregate never crosses).
    package static func resolve(_ keys: [String], from start: EntityDescription, model: DataModel) throws(StoreError) -> (Ending, crossesToMany: Bool) {
        var entity = start
        var ending: Ending?
        var index = 0
        while index < keys.count {
            let key = keys[index]
            if key.hasPrefix("@") {
                // The rest of the path is read from each element of the collection.
                if index + 1 < keys.count {
                    _ = try resolve(Array(keys[(index + 1)...]), from: entity, model: model)
                }
                return (.aggregate, false)
            }
            if case .attribute(let a)? = ending {
                throw StoreError(.unknownKey, "'\(keys[..<index].joined(separator: "."))' is a \(a.type.name) attribute; it has no key '\(key)'",
                                 entity: start.name, key: keys.joined(separator: "."))
            }
            switch entity.slot(of: key) {
            case .attribute(let slot):
                ending = .attribute(entity.attributes[slot])
            case .relationship(let slot):
                let relationship = entity.relationships[slot]
                ending = .relationship(relationship)
                guard let destination = model.entity(named: relationship.destination) else {
                    throw StoreError(.unknownEntity, "unknown entity '\(relationship.destination)'", entity: entity.name)
                }
                entity = destination
            case nil:
                throw StoreError(.unknownKey, entity.unknownKeyMessage(key), entity: entity.name, key: key)
            }
            index += 1
        }
        guard let ending else { throw StoreError(.unknownKey, "an empty key path", entity: start.name) }
        return (ending, crossesToManyBefore(keys, from: start, model: model))
    }

    private static func crossesToManyBefore(_ keys: [String], from start: EntityDescription, model: DataModel) -> Bool {
        var entity = start
        for key in keys.dropLast() {
            guard let relationship = entity.relationship(named: key), let next = model.entity(named: relationship.destination) else { return false }
            if relationship.isToMany { return true }
            entity = next
        }
        return false
    }

    /// Checks a request's sort keys: key paths of the entity (``checkSortKey(_:entity:model:)``),
    /// but in a grouped dictionary fetch, whose keys name its properties (checked when the
    /// groups are sorted), and a key of an ungrouped one that names a property that is not a
    /// key path (``DictionaryResults/sortedProperty(_:of:)``). The same in every store.
    package static func checkSortKeys(of request: FetchRequest, entity: EntityDescription, model: DataModel) throws(StoreError) {
        if request.resultType == .dictionaries && !request.propertiesToGroupBy.isEmpty { return }
        let request = DictionaryResults.resolvingSortAliases(request)
        for key in request.sortDescriptors where DictionaryResults.sortedProperty(key, of: request) == nil {
            try checkSortKey(key.keyPath, entity: entity, model: model)
        }
    }

    /// A sort key must reach a stored attribute through to-one steps, or end in an aggregate.
    /// Checks a section key path (FETCH.md §4): it must reach an attribute (or a collection
    /// operator's value) without crossing a to-many relationship. Returns what it reaches.
    package static func checkSectionKeyPath(_ keyPath: String, entity: EntityDescription, model: DataModel) throws(StoreError) -> Ending {
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let (ending, crossesToMany) = try resolve(keys, from: entity, model: model)
        if case .relationship = ending {
            throw StoreError(.invalidRequest, "cannot section by relationship '\(keyPath)'; use one of its attributes", entity: entity.name, key: keyPath)
        }
        if crossesToMany {
            throw StoreError(.invalidRequest, "cannot section by to-many key path '\(keyPath)'", entity: entity.name, key: keyPath)
        }
        return ending
    }

    package static func checkSortKey(_ keyPath: String, entity: EntityDescription, model: DataModel) throws(StoreError) {
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let (ending, crossesToMany) = try resolve(keys, from: entity, model: model)
        switch ending {
        case .aggregate: return
        case .relationship(let r):
            throw StoreError(.invalidRequest, "cannot sort \(entity.name) on '\(keyPath)': \(r.name) is a relationship, not an attribute",
                             entity: entity.name, key: keyPath)
        case .attribute:
            if crossesToMany {
                throw StoreError(.invalidRequest, "cannot sort \(entity.name) on to-many key path '\(keyPath)' (end it with an aggregate such as @count or @max.x)",
                                 entity: entity.name, key: keyPath)
            }
        }
    }

    /// A `relationshipKeyPathsForPrefetching` entry must be relationships all the way
    /// (`author`, `author.books`): an unknown key, an attribute, an operator or an empty step
    /// is an invalid request naming the key, in every store.
    package static func checkPrefetchKeyPath(_ keyPath: String, entity start: EntityDescription, model: DataModel) throws(StoreError) {
        var entity = start
        for key in keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            guard let relationship = entity.relationship(named: key) else {
                let reason: String
                if key.isEmpty {
                    reason = "it has an empty key"
                } else if let attribute = entity.attribute(named: key) {
                    reason = "'\(key)' is a \(attribute.type.name) attribute of \(entity.name), not a relationship"
                } else {
                    reason = entity.unknownKeyMessage(key)
                }
                throw StoreError(.invalidRequest, "cannot prefetch '\(keyPath)' on \(start.name): \(reason)", entity: start.name, key: keyPath)
            }
            guard let destination = model.entity(named: relationship.destination) else {
                throw StoreError(.unknownEntity, "unknown entity '\(relationship.destination)'", entity: entity.name)
            }
            entity = destination
        }
    }

    /// A `relationshipCountsForPrefetching` entry must name a to-many relationship of the
    /// entity: anything else is an invalid request naming the key, in every store.
    package static func checkPrefetchCount(_ name: String, entity: EntityDescription) throws(StoreError) {
        guard let relationship = entity.relationship(named: name) else {
            let reason: String
            if let attribute = entity.attribute(named: name) {
                reason = "'\(name)' is a \(attribute.type.name) attribute of \(entity.name), not a relationship"
            } else {
                reason = entity.unknownKeyMessage(name)
            }
            throw StoreError(.invalidRequest, "cannot prefetch the count of '\(name)' on \(entity.name): \(reason)", entity: entity.name, key: name)
        }
        guard relationship.isToMany else {
            throw StoreError(.invalidRequest, "cannot prefetch the count of '\(name)' on \(entity.name): it is a to-one relationship", entity: entity.name, key: name)
        }
    }

    /// The predicate a fetch runs: its key paths checked, LANGUAGE.md §3's typed rules applied
    /// (``TypedComparisons``) — the same for every store.
    package static func typedPredicate(_ predicate: PredicateNode, entity: EntityDescription, model: DataModel) throws(StoreError) -> PredicateNode {
        var rules = TypedComparisons()
        return try rules.apply(predicate, in: TypingScope(entity: entity, model: model))
    }

    /// An expression computed on objects of `entity` (a batch update's value): its key paths
    /// checked, the typed rules applied to the predicates inside it.
    package static func typedExpression(_ expression: ExpressionNode, entity: EntityDescription, model: DataModel) throws(StoreError) -> ExpressionNode {
        var rules = TypedComparisons()
        return try rules.applyChecking(expression, in: TypingScope(entity: entity, model: model))
    }
}
