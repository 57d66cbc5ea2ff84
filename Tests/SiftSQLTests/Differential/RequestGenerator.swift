import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// Makes a random fetch request for a data set from a seed: the entity (Item with or without
/// its sub-entity, SpecialItem, Person, Tag), a predicate from ``PredicateGenerator``, 0 to 3
/// sort descriptors (attributes, to-one key paths, to-many aggregates; every comparator, both
/// directions), limit and offset (0, small, around and beyond the number of objects), batch
/// size, result type (objects, object IDs, count), and sometimes a section key path.
///
/// A few requests (about one in sixty) sort or section by a key a store must refuse: a to-many
/// key path without an aggregate, a relationship, an unknown key.
struct RequestGenerator {
    let model: DataModel

    /// A generated request, with what went wrong generating it (a predicate that did not parse,
    /// or whose canonical text parses to a different predicate: bugs of the generator or of
    /// the language, reported separately from mismatches between stores).
    struct Generated {
        var request: FetchRequest
        /// The predicate as the generator wrote it.
        var generatedPredicate: String?
        var problems: [String] = []
    }

    func make(dataSet: DifferentialDataSet, seed: UInt64) -> Generated {
        var random = DifferentialRandom(seed: seed)
        let entity = random.weighted([(10, "Item"), (3, "SpecialItem"), (3, "Person"), (4, "Tag")], or: "Item")
        var request = FetchRequest(entityName: entity)
        var generated = Generated(request: request)
        if entity == "Item", random.chance(1, in: 4) { request.includesSubentities = false }

        // The predicate: generated text, parsed, printed canonically and parsed again, so the
        // request holds exactly what the report will print.
        if random.chance(9, in: 10) {
            var predicates = PredicateGenerator(model: model, dataSet: dataSet, seed: random.fork())
            let text = predicates.predicate(entity: entity)
            generated.generatedPredicate = text
            do {
                let parsed = try PredicateNode(format: text)
                let canonical = CanonicalPrinter.format(parsed)
                do {
                    let reparsed = try PredicateNode(format: canonical)
                    if reparsed != parsed {
                        generated.problems.append("canonical text parses to a different predicate:\n  generated: \(text)\n  canonical: \(canonical)\n  reprinted: \(CanonicalPrinter.format(reparsed))")
                    }
                    request.predicate = reparsed
                } catch {
                    generated.problems.append("canonical text does not parse: \(error)\n  generated: \(text)\n  canonical: \(canonical)")
                    request.predicate = parsed
                }
            } catch {
                generated.problems.append("generated predicate does not parse: \(error)\n  generated: \(text)")
            }
        }

        let sortCount = random.weighted([(3, 0), (4, 1), (2, 2), (1, 3)], or: 0)
        for _ in 0..<sortCount {
            request.sortDescriptors.append(sortKey(entity, &random))
        }

        let objects = dataSet.objects.count
        request.fetchLimit = random.weighted([(10, 0), (3, 1), (2, 2), (2, 3), (3, random.int(in: 1...objects + 2)), (1, 1000), (1, -1)], or: 0)
        request.fetchOffset = random.weighted([(12, 0), (3, 1), (2, 2), (3, random.int(in: 0...objects + 2)), (1, 100), (1, -2)], or: 0)
        // Negative limits and offsets are errors; keep them rare.
        if request.fetchLimit < 0, random.chance(2, in: 3) { request.fetchLimit = 0 }
        if request.fetchOffset < 0, random.chance(2, in: 3) { request.fetchOffset = 0 }
        request.fetchBatchSize = random.weighted([(8, 0), (1, 1), (1, 3), (1, 7)], or: 0)
        request.resultType = random.weighted([(5, .objects), (3, .objectIDs), (2, .count)], or: .objects)

        if request.resultType != .count, random.chance(1, in: 4) {
            let keyPath = sectionKeyPath(entity, &random)
            request.sectionNameKeyPath = keyPath
            // Half the time sorted by the section key first, so the sections are contiguous.
            if random.chance(1, in: 2) {
                let comparator = random.weighted([(3, StringComparator.compare), (1, .caseInsensitiveCompare), (1, .localizedStandardCompare)], or: .compare)
                request.sortDescriptors.insert(SortKey(keyPath, ascending: random.chance(1, in: 2), comparator: comparator), at: 0)
            }
        }
        // About one request in five asks for dictionaries (drawn last, so the rest of a
        // seed's request is what it was before dictionaries were generated).
        if random.chance(1, in: 5) {
            DictionaryRequestGenerator().apply(to: &request, random: &random)
        }
        generated.request = request
        return generated
    }

    // MARK: Sort keys and section keys

    /// Key paths a fetch of `entity` can sort by: its attributes, to-one key paths, and
    /// aggregates of to-many relationships.
    static func sortKeyPaths(_ entity: String) -> [String] {
        let toOne = ["owner.name", "owner.age", "parent.name", "parent.count", "parent.when", "parent.owner.name", "parent.price"]
        let itemAggregates = [
            "tags.@count", "children.@count", "tags.@sum.weight", "tags.@max.weight", "tags.@min.name", "children.@avg.price",
            "children.@max.when", "children.@sum.count", "owner.items.@count",
        ]
        let item = ["name", "title", "count", "small", "price", "ratio", "flag", "when", "code"]
        switch entity {
        case "Item": return item + toOne + itemAggregates
        case "SpecialItem": return item + ["extra", "level"] + toOne + itemAggregates
        case "Person": return ["name", "age", "items.@count", "items.@sum.count", "items.@max.price", "items.@avg.small", "items.@min.name"]
        default: return ["name", "weight", "items.@count", "items.@avg.small", "items.@max.when"]
        }
    }

    /// Key paths a store must refuse as sort keys (or section keys).
    static func invalidKeyPaths(_ entity: String) -> [String] {
        switch entity {
        case "Item", "SpecialItem": ["tags.name", "owner", "children", "nope", "owner.items.name"]
        case "Person": ["items.name", "items", "weight"]
        default: ["items.count", "items", "age"]
        }
    }

    private func sortKey(_ entity: String, _ random: inout DifferentialRandom) -> SortKey {
        let keyPath = random.chance(1, in: 60)
            ? random.pick(Self.invalidKeyPaths(entity), or: "nope")
            : random.pick(Self.sortKeyPaths(entity), or: "name")
        let comparator = random.weighted([
            (5, StringComparator.compare), (2, .caseInsensitiveCompare), (1, .localizedCompare),
            (2, .localizedCaseInsensitiveCompare), (2, .localizedStandardCompare),
        ], or: .compare)
        return SortKey(keyPath, ascending: random.chance(3, in: 5), comparator: comparator)
    }

    /// A section key path: an attribute or a to-one key path, now and then an aggregate
    /// (`tags.@count`), or one a store must refuse.
    private func sectionKeyPath(_ entity: String, _ random: inout DifferentialRandom) -> String {
        if random.chance(1, in: 40) { return random.pick(Self.invalidKeyPaths(entity), or: "nope") }
        let aggregates = random.chance(1, in: 8)
        let candidates = Self.sortKeyPaths(entity).filter { $0.contains("@") == aggregates }
        return random.pick(candidates, or: "name")
    }
}
