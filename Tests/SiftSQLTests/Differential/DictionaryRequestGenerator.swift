import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// Turns a generated request into a dictionary fetch (FETCH.md §3): properties to fetch
/// (attributes, to-one key paths and relationships, to-many `@count`/`@min`/`@max`, now and
/// then one only the evaluator computes), distinct, and half the time grouping: group-by key
/// paths, aggregates (`count:`, `sum:`, `average:`, `min:`, `max:` of attributes and to-one key
/// paths), a HAVING predicate on the result's names, sorting by them. A sixth of the time,
/// aggregates without grouping: one row for the whole result (now and then with a constant, or
/// a per-object property that makes it one row per object again). The request keeps its
/// predicate, limit and offset; a grouped one sorts by property names instead of key paths.
/// Now and then a request a store must refuse: a property neither grouped nor an aggregate, a
/// sort by a name that is not a property.
struct DictionaryRequestGenerator {
    /// Key paths with one value per object: attributes, to-one key paths, to-one relationships.
    static func valueKeyPaths(_ entity: String) -> [String] {
        let item = ["name", "title", "count", "small", "price", "ratio", "flag", "when", "code",
                    "owner", "owner.name", "owner.age", "parent", "parent.name", "parent.flag", "parent.when", "parent.owner", "parent.code"]
        switch entity {
        case "Item": return item
        case "SpecialItem": return item + ["extra", "level"]
        case "Person": return ["name", "age"]
        default: return ["name", "weight"]
        }
    }

    /// Numeric key paths (for `sum:` and `average:`).
    static func numericKeyPaths(_ entity: String) -> [String] {
        switch entity {
        case "Item": return ["count", "small", "price", "ratio", "flag", "owner.age", "parent.price", "parent.small"]
        case "SpecialItem": return ["count", "small", "price", "ratio", "flag", "level", "owner.age"]
        case "Person": return ["age"]
        default: return ["weight"]
        }
    }

    /// To-many key paths ending in an aggregate.
    static func collectionKeyPaths(_ entity: String) -> [String] {
        switch entity {
        case "Item", "SpecialItem": return ["tags.@count", "children.@count", "tags.@min.name", "tags.@max.weight", "children.@max.when", "children.@min.flag"]
        case "Person": return ["items.@count", "items.@max.price", "items.@min.name", "items.@max.when"]
        default: return ["items.@count", "items.@min.when", "items.@max.small"]
        }
    }

    /// Properties only the evaluator computes (or that it refuses), for the fallback.
    static func otherProperties(_ entity: String) -> [String] {
        switch entity {
        case "Item", "SpecialItem": return ["uppercase:(name)", "small * 2", "tags.@avg.weight", "tags", "tags.@sum.weight", "'x'", "count:(tags)"]
        case "Person": return ["lowercase:(name)", "age + 1", "items", "items.@sum.count"]
        default: return ["uppercase:(name)", "items.@avg.price", "weight * 2"]
        }
    }

    static let havingConstants = ["nil", "0", "1", "2", "3", "5", "-1", "10.5", "'m'", "true", "false"]
    static let havingOperators = ["==", "!=", "<", "<=", ">", ">="]

    func apply(to request: inout FetchRequest, random: inout DifferentialRandom) {
        let entity = request.entityName
        request.resultType = .dictionaries
        request.sectionNameKeyPath = nil
        request.returnsDistinctResults = random.chance(1, in: 3)
        // Generated predicates and offsets often leave nothing to group: drop them half the time.
        if random.chance(1, in: 2) { request.predicate = nil }
        if random.chance(1, in: 2) { request.fetchOffset = 0 }
        var names: [String] = []
        var properties: [String] = []
        func add(_ expression: String) {
            let name = "p\(names.count)"
            names.append(name)
            properties.append("\(expression) AS \(name)")
        }

        func addAggregate() {
            let function = random.weighted([(3, "count:"), (3, "sum:"), (2, "average:"), (3, "min:"), (3, "max:"), (1, "")], or: "count:")
            switch function {
            case "sum:", "average:": add("\(function)(\(random.pick(Self.numericKeyPaths(entity), or: "name")))")
            case "": add(random.chance(1, in: 2) ? random.pick(Self.valueKeyPaths(entity), or: "name") : random.pick(Self.otherProperties(entity), or: "name"))
            default: add("\(function)(\(random.pick(Self.valueKeyPaths(entity), or: "name")))")
            }
        }

        let shape = random.weighted([(3, "ungrouped"), (1, "whole"), (2, "grouped")], or: "ungrouped")
        if shape == "whole" {
            // Aggregates without grouping: one row for the whole result; the generated sort
            // keys stay (checked, with nothing to order).
            let aggregateCount = random.weighted([(4, 1), (3, 2), (2, 3)], or: 1)
            for _ in 0..<aggregateCount { addAggregate() }
            if random.chance(1, in: 4) { add(random.pick(["1", "'x'", "2.5", "count:(name) + 1", "sum:(\(random.pick(Self.numericKeyPaths(entity), or: "name"))) * 2"], or: "1")) }
        } else if shape == "ungrouped" {
            // Ungrouped: 0 (every attribute) to 4 properties; the generated sort keys stay.
            let count = random.weighted([(1, 0), (4, 1), (4, 2), (3, 3), (2, 4)], or: 1)
            for _ in 0..<count {
                let kind = random.weighted([(12, 0), (3, 1), (1, 2)], or: 0)
                switch kind {
                case 0: add(random.pick(Self.valueKeyPaths(entity), or: "name"))
                case 1: add(random.pick(Self.collectionKeyPaths(entity), or: "name"))
                default: add(random.pick(Self.otherProperties(entity), or: "name"))
                }
            }
        } else {
            // Grouped: 1 or 2 group-by key paths, fetched (mostly) under a name, and aggregates.
            let groupCount = random.weighted([(3, 1), (2, 2)], or: 1)
            var groupBy: [String] = []
            for _ in 0..<groupCount {
                let keyPath = random.pick(Self.valueKeyPaths(entity), or: "name")
                groupBy.append(keyPath)
                if random.chance(5, in: 6) { add(keyPath) }
            }
            request.propertiesToGroupBy = groupBy.compactMap { try? FetchedProperty($0) }
            let aggregateCount = random.weighted([(1, 0), (4, 1), (3, 2), (2, 3)], or: 1)
            for _ in 0..<aggregateCount { addAggregate() }
            // Sorting by result names (now and then one that is not: an error).
            let sortCount = random.weighted([(3, 0), (3, 1), (1, 2)], or: 0)
            request.sortDescriptors = (0..<sortCount).map { _ in
                let name = random.chance(1, in: 30) ? "nope" : random.pick(names, or: "p0")
                let comparator = random.weighted([(5, StringComparator.compare), (1, .caseInsensitiveCompare), (1, .localizedStandardCompare)], or: .compare)
                return SortKey(name, ascending: random.chance(1, in: 2), comparator: comparator)
            }
        }
        request.propertiesToFetch = properties.compactMap { try? FetchedProperty($0) }

        if !names.isEmpty, random.chance(1, in: 4) {
            let name = random.pick(names, or: "p0")
            let text = "\(name) \(random.pick(Self.havingOperators, or: "==")) \(random.pick(Self.havingConstants, or: "nil"))"
            request.havingPredicate = try? PredicateNode(format: text)
        }
    }
}
