import SiftEvaluation
import SiftLanguage
import SiftStore

/// What a store holds, read through fetches, as lines to compare two stores by: each entity's
/// count (its own objects, sub-entities apart) and each object, by ID, with its attributes and
/// every relationship's destinations (in order for an ordered to-many, sorted otherwise).
public enum StoreContents {
    public static func lines(of store: any PersistentStore, model: DataModel? = nil, attributes: Bool = true) throws -> [String] {
        let model = model ?? store.model
        var lines: [String] = []
        for entity in model.entities {
            var request = FetchRequest(entityName: entity.name)
            request.includesSubentities = false
            request.relationshipKeyPathsForPrefetching = entity.relationships.map(\.name)
            request.fetchBatchSize = 1000
            let objects = try store.fetch(request)
            var described: [String] = []
            try objects.forEachObject { object in
                var parts = ["\(entity.name) \(object.objectID)"]
                for attribute in entity.attributes where attributes {
                    var text = "nil"
                    if let value = object[attribute: attribute.name], !value.isNull { text = String(describing: value) }
                    parts.append("\(attribute.name)=\(text)")
                }
                for relationship in entity.relationships {
                    var ids = object.destinationIDs(of: relationship.name).map(\.description)
                    if !relationship.isOrdered { ids.sort() }
                    parts.append("\(relationship.name)->[\(ids.joined(separator: ","))]")
                }
                described.append(parts.joined(separator: " "))
            }
            lines.append("\(entity.name): \(described.count) objects")
            lines += described.sorted()
        }
        return lines
    }

    /// Where `copied` (lines of a copy) first differs from `expected` (its source's), the
    /// lines cut to a readable length around the difference; nil when they are the same.
    public static func firstDifference(_ copied: [String], _ expected: [String]) -> String? {
        func cut(_ line: String) -> String { line.count > 600 ? String(line.prefix(600)) + "…" : line }
        for (a, b) in zip(expected, copied) where a != b {
            let from = max(0, zip(a, b).prefix { $0 == $1 }.count - 100)
            return "from character \(from):\n  source: \(cut(String(a.dropFirst(from))))\n  target: \(cut(String(b.dropFirst(from))))"
        }
        return copied.count == expected.count ? nil : "\(expected.count) lines in the source, \(copied.count) in the copy"
    }

    /// How many relationship destinations the store's objects have in all (to show a copy had
    /// some to compare).
    public static func destinationCount(of store: any PersistentStore) throws -> Int {
        try lines(of: store).reduce(0) { total, line in
            total + line.split(separator: " ").filter { $0.contains("->[") && !$0.hasSuffix("->[]") }
                .reduce(0) { $0 + $1.split(separator: ",").count }
        }
    }
}
