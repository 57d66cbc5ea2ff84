import SiftLanguage
import SiftStore

/// The entities a fetch request can read, so a database Sift did not create has only their
/// tables' column types chosen before it runs (``ForeignSchema``): the fetched entity, and every
/// entity reached from it through relationships the request names — in its predicate (SUBQUERY
/// and variables included), sort keys, section key path, properties, GROUP BY, HAVING and
/// prefetched key paths.
///
/// Names, not resolved paths: a relationship is followed wherever any key of the request has its
/// name, whatever comes before it (`$line.Invoice.Total` inside a SUBQUERY names `Invoice`). So
/// the set holds every entity the request can reach, perhaps a few more, and never fewer.
package struct FetchReach {
    /// Every key of every key path the request holds (and every dot-separated word of its
    /// string constants, which a function may read as a key path).
    private(set) var keys: Set<String> = []
    /// The keys of its predicates (WHERE, HAVING, SUBQUERY, ternary conditions): those whose
    /// comparisons may meet constants.
    package private(set) var predicateKeys: Set<String> = []

    package init(_ request: FetchRequest) {
        if let predicate = request.predicate { add(predicate) }
        if let having = request.havingPredicate { add(having) }
        for key in request.sortDescriptors { add(path: key.keyPath) }
        if let path = request.sectionNameKeyPath { add(path: path) }
        for property in request.propertiesToFetch + request.propertiesToGroupBy { add(property.expression, inPredicate: false) }
        for path in request.relationshipKeyPathsForPrefetching { add(path: path) }
        for name in request.relationshipCountsForPrefetching { keys.insert(name) }
    }

    /// The entities reached from `entity` through relationships these keys name, `entity`
    /// first.
    package func entities(from entity: String, in model: DataModel) -> [String] {
        var reached = [entity]
        var seen: Set<String> = [entity]
        var index = 0
        while index < reached.count {
            defer { index += 1 }
            guard let description = model.entity(named: reached[index]) else { continue }
            // A sub-entity shares its table; its own relationships count too.
            for name in description.entityAndSubentities where seen.insert(name).inserted { reached.append(name) }
            for relationship in description.relationships where keys.contains(relationship.name) {
                if seen.insert(relationship.destination).inserted { reached.append(relationship.destination) }
            }
        }
        return reached
    }

    // MARK: Collecting keys

    private mutating func add(path: String) {
        for key in path.split(separator: ".") { keys.insert(String(key)) }
    }

    private mutating func add(_ predicate: PredicateNode) {
        switch predicate.kind {
        case .constant: break
        case .comparison(let comparison):
            add(comparison.left, inPredicate: true)
            add(comparison.right, inPredicate: true)
        case .and(let parts), .or(let parts): for part in parts { add(part) }
        case .not(let inner): add(inner)
        }
    }

    private mutating func add(_ expression: ExpressionNode, inPredicate: Bool) {
        switch expression.kind {
        case .keyPath(let base, let path):
            if let base { add(base, inPredicate: inPredicate) }
            for key in path {
                keys.insert(key)
                if inPredicate { predicateKeys.insert(key) }
            }
        case .constant(let value):
            if case .string(let text) = value { add(path: text) }
        case .aggregate(let items): for item in items { add(item, inPredicate: inPredicate) }
        case .dictionary(let entries): for entry in entries { add(entry.value, inPredicate: inPredicate) }
        case .index(let base, let position):
            add(base, inPredicate: inPredicate)
            if case .expression(let item) = position { add(item, inPredicate: inPredicate) }
        case .function(_, let arguments): for argument in arguments { add(argument, inPredicate: inPredicate) }
        case .functionExpression(let receiver, _, let arguments):
            add(receiver, inPredicate: inPredicate)
            for argument in arguments { add(argument, inPredicate: inPredicate) }
        case .subquery(let collection, _, let predicate):
            add(collection, inPredicate: inPredicate)
            add(predicate)
        case .ternary(let condition, let then, let otherwise):
            add(condition)
            add(then, inPredicate: inPredicate)
            add(otherwise, inPredicate: inPredicate)
        case .cast(let value, _), .assignment(_, let value), .unary(_, let value): add(value, inPredicate: inPredicate)
        case .binary(_, let a, let b):
            add(a, inPredicate: inPredicate)
            add(b, inPredicate: inPredicate)
        case .evaluatedObject, .variable: break
        }
    }
}
