import SiftLanguage

/// Checks the key paths a predicate, sort key or section key reads against the keys a
/// ``PredicateQueryable`` type lists, before anything is evaluated: a misspelt key is an error
/// (`unknown key 'nmae' on Person; did you mean 'name'?`), as it is on a store's entity, rather
/// than a nil that makes every comparison false.
///
/// A path is followed through keys whose type is queryable (or an optional, array or set of a
/// queryable type); past a key whose keys are not known (a dictionary, a ``Value``, a computed
/// key) anything may follow. Collection operators (`@count`, `@sum.price`) read the rest of the
/// path from the elements reached so far.
extension PredicateQueryable {
    /// Throws ``EvaluationError/Code/unknownKey`` for the first key path of `predicate` that
    /// names a key the type does not have.
    public static func checkKeyPaths(of predicate: PredicateNode) throws(EvaluationError) {
        var checker = QueryableKeyCheck(root: queryableKeys.table)
        try checker.check(predicate)
    }

    /// Throws ``EvaluationError/Code/unknownKey`` when `keyPath` (keys separated by `.`, as
    /// sort and section keys are written) names a key the type does not have.
    public static func checkKeyPath(_ keyPath: String) throws(EvaluationError) {
        let keys = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        _ = try QueryableKeyCheck.follow(keys, from: queryableKeys.table)
    }
}

extension QueryableKeyTable {
    /// The keys of a property type: a queryable type's, or its elements' for an optional, an
    /// array or a set of one; nil for any other type.
    static func keys(of type: Any.Type) -> QueryableKeyTable? {
        if let queryable = type as? any PredicateQueryable.Type { return table(of: queryable) }
        if let container = type as? any QueryableKeyContainer.Type { return keys(of: container.queryableElementType) }
        return nil
    }

    private static func table<T: PredicateQueryable>(of type: T.Type) -> QueryableKeyTable { T.queryableKeys.table }

    /// The message for a key the type does not have, with the closest key as a suggestion.
    func unknownKeyMessage(_ key: String) -> String {
        var message = "unknown key '\(key)' on \(typeName)"
        if let suggestion = Suggestions.closest(to: key, in: keyNames) { message += "; did you mean '\(suggestion)'?" }
        return message
    }
}

/// A type whose values hold values of another type as far as key paths go: an optional, an
/// array, a set.
protocol QueryableKeyContainer {
    static var queryableElementType: Any.Type { get }
}

extension Optional: QueryableKeyContainer { static var queryableElementType: Any.Type { Wrapped.self } }
extension Array: QueryableKeyContainer { static var queryableElementType: Any.Type { Element.self } }
extension Set: QueryableKeyContainer { static var queryableElementType: Any.Type { Element.self } }

/// Walks a predicate, knowing the keys of `SELF` and of SUBQUERY variables bound to
/// collections of queryable values.
struct QueryableKeyCheck {
    let root: QueryableKeyTable
    /// The keys of each variable a SUBQUERY binds (nil: not known).
    var variables: [String: QueryableKeyTable?] = [:]

    /// Follows `keys` from `table`: the keys of what the path reaches, nil if not known.
    static func follow(_ keys: [String], from table: QueryableKeyTable?) throws(EvaluationError) -> QueryableKeyTable? {
        var current = table
        for key in keys {
            guard let table = current else { return nil }
            // A collection operator: the rest of the path is read from the same elements.
            if key.hasPrefix("@"), let op = CollectionOperator(rawValue: key) {
                if op == .count { return nil }
                continue
            }
            guard let position = table.index[key] else {
                throw EvaluationError(.unknownKey, table.unknownKeyMessage(key), keyPath: keys.joined(separator: "."))
            }
            current = table.destinations[position]()
        }
        return current
    }

    mutating func check(_ predicate: PredicateNode) throws(EvaluationError) {
        switch predicate.kind {
        case .constant: break
        case .comparison(let c):
            _ = try reach(c.left)
            _ = try reach(c.right)
        case .and(let ps), .or(let ps): for p in ps { try check(p) }
        case .not(let p): try check(p)
        }
    }

    /// Checks the key paths of `expression`; returns the keys of what it reaches when known.
    mutating func reach(_ expression: ExpressionNode) throws(EvaluationError) -> QueryableKeyTable? {
        switch expression.kind {
        case .evaluatedObject: return root
        case .variable(let name): return variables[name] ?? nil
        case .keyPath(nil, let keys): return try Self.follow(keys, from: root)
        case .keyPath(let base?, let keys): return try Self.follow(keys, from: try reach(base))
        case .index(let base, _):
            // An element of an array (or a dictionary's value): the same keys as the elements.
            return try reach(base)
        case .subquery(let collection, let variable, let predicate):
            let elements = try reach(collection)
            let saved = variables[variable]
            variables[variable] = .some(elements)
            defer { variables[variable] = saved }
            try check(predicate)
            return nil
        case .aggregate(let items):
            for e in items { _ = try reach(e) }
            return nil
        case .dictionary(let entries):
            for entry in entries { _ = try reach(entry.value) }
            return nil
        case .function(_, let arguments):
            for e in arguments { _ = try reach(e) }
            return nil
        case .functionExpression(let receiver, _, let arguments):
            _ = try reach(receiver)
            for e in arguments { _ = try reach(e) }
            return nil
        case .ternary(let condition, let a, let b):
            try check(condition)
            let first = try reach(a)
            let second = try reach(b)
            return first === second ? first : nil
        case .cast(let value, _):
            _ = try reach(value)
            return nil
        case .assignment(_, let value):
            _ = try reach(value)
            return nil
        case .unary(_, let e):
            _ = try reach(e)
            return nil
        case .binary(_, let a, let b):
            _ = try reach(a)
            _ = try reach(b)
            return nil
        case .constant: return nil
        }
    }
}
