import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// Sibling sub-entities that each have a to-one of one name (`Cat.owner`, `Dog.owner`, the
/// inverses of `Owner.cats` and `Owner.dogs`): in Sift's layout they share the root table's
/// `owner` column, so a to-many read through it must tell the entities apart. Shared by the
/// SQLite and PostgreSQL tests, which compare every read, predicate and write with the
/// evaluator's (an in-memory store).
///
/// Ann owns cat Tom and dogs Rex and Fido; Bob owns dog Max; Cid owns nothing.
public enum SiblingColumnFixture {
    public static let json = #"""
    {"name": "Pets", "entities": [
      {"name": "Owner", "attributes": [{"name": "name", "type": "String"}],
       "relationships": [{"name": "cats", "destination": "Cat", "toMany": true, "inverse": "owner", "maxCount": 1},
                         {"name": "dogs", "destination": "Dog", "toMany": true, "inverse": "owner"}]},
      {"name": "Animal", "abstract": true, "attributes": [{"name": "name", "type": "String"}]},
      {"name": "Cat", "parent": "Animal", "relationships": [{"name": "owner", "destination": "Owner", "inverse": "cats"}]},
      {"name": "Dog", "parent": "Animal", "relationships": [{"name": "owner", "destination": "Owner", "inverse": "dogs"}]}
    ]}
    """#

    public static func model() throws -> DataModel { try JSONModelFormat.read(Data(json.utf8)) }

    /// The same objects in any store.
    public static func fill(_ store: any PersistentStore) throws {
        for (id, name) in [("o1", "Ann"), ("o2", "Bob"), ("o3", "Cid")] {
            try store.insert("Owner", id: ObjectID(id), ["name": .string(name)])
        }
        try store.insert("Cat", id: ObjectID("c1"), ["name": .string("Tom")], relationships: ["owner": [ObjectID("o1")]])
        for (id, name, owner) in [("d1", "Rex", "o1"), ("d2", "Fido", "o1"), ("d3", "Max", "o2")] {
            try store.insert("Dog", id: ObjectID(id), ["name": .string(name)], relationships: ["owner": [ObjectID(owner)]])
        }
        try store.save()
    }

    /// Fetches through the shared column: the evaluator's answers are the only right ones.
    public static let statements = [
        "Owner WHERE cats.@count == 1",
        "Owner WHERE dogs.@count == 2",
        "Owner WHERE ANY dogs.name == 'Tom'",
        "Owner WHERE ANY cats.name == 'Rex'",
        "Owner WHERE SUBQUERY(cats, $c, $c.name BEGINSWITH 'T').@count == 1",
        "Owner WHERE NONE dogs.name == 'Tom'",
        "Owner WHERE ALL cats.name == 'Tom'",
        "Cat WHERE owner.dogs.@count == 2",
        "Dog WHERE ANY owner.cats.name == 'Tom'",
        "Owner WHERE ANY dogs.owner.cats.name == 'Tom'",
    ]

    /// A statement's objects' IDs, in the store's order (every statement sorts by nothing, so
    /// sorted here).
    public static func ids(_ statement: String, in store: any PersistentStore) throws -> [String] {
        try store.fetch(FetchRequest(statement: statement)).map(\.objectID.rawValue).sorted()
    }

    /// Each owner's cats and dogs by ID, as a line per owner (`o1: cats c1; dogs d1, d2`).
    public static func relationships(_ store: any PersistentStore, prefetching: Bool) throws -> String {
        var request = FetchRequest(entityName: "Owner", sortDescriptors: [SortKey("name")])
        if prefetching { request.relationshipKeyPathsForPrefetching = ["cats", "dogs"] }
        return try store.fetch(request).map { owner in
            func ids(_ key: String) -> String { owner.destinationIDs(of: key).map(\.rawValue).sorted().joined(separator: ", ") }
            return "\(owner.objectID.rawValue): cats \(ids("cats")); dogs \(ids("dogs"))"
        }.joined(separator: "\n")
    }
}
