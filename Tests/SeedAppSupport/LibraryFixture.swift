import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// A model with every kind of relationship and a store of it, to copy between stores
/// (``StoreCopy`` tests): folders of ordered notes (an ordered to-many with a to-one inverse),
/// notes with tags (many-to-many), related notes (a reflexive many-to-many, its own inverse),
/// a pinned tag (a to-one without inverse), a sub-entity, an attribute of most types.
public enum LibraryFixture {
    public static let model = read(modelJSON)

    public static let modelJSON = """
            {"name": "Library", "entities": [
              {"name": "Folder", "attributes": [{"name": "name", "type": "string", "optional": false}],
               "relationships": [{"name": "notes", "destination": "Note", "toMany": true, "ordered": true, "inverse": "folder"}]},
              {"name": "Note", "attributes": [{"name": "title", "type": "string"}, {"name": "rank", "type": "integer64"},
                                              {"name": "score", "type": "double"}, {"name": "created", "type": "date"},
                                              {"name": "blob", "type": "binary"}, {"name": "done", "type": "boolean"}],
               "relationships": [{"name": "folder", "destination": "Folder", "inverse": "notes"},
                                 {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "notes"},
                                 {"name": "related", "destination": "Note", "toMany": true, "inverse": "related"},
                                 {"name": "pinnedTag", "destination": "Tag"}]},
              {"name": "Memo", "parent": "Note", "attributes": [{"name": "pinned", "type": "boolean"}]},
              {"name": "Tag", "attributes": [{"name": "label", "type": "string"}],
               "relationships": [{"name": "notes", "destination": "Note", "toMany": true, "inverse": "tags"}]}
            ]}
            """

    public static func read(_ json: String) -> DataModel {
        do {
            return try JSONModelFormat.read(Data(json.utf8))
        } catch {
            preconditionFailure("test model: \(error)")
        }
    }

    /// A store of ``model`` holding 3 folders, 40 notes and memos, 5 tags, their relationships
    /// in orders that are not the insertion order.
    public static func fill(_ store: any PersistentStore) throws {
        for t in 0..<5 { try store.insert("Tag", id: ObjectID("T\(t)"), ["label": .string("tag \(t)")]) }
        for f in 0..<3 { try store.insert("Folder", id: ObjectID("F\(f)"), ["name": .string("folder \(f)")]) }
        for n in 0..<40 {
            var attributes: [String: Value] = ["title": .string("note \(n) — é"), "rank": .int(Int64(n * 7 % 11)), "score": .double(Double(n) / 4),
                                               "created": .date(Date(timeIntervalSinceReferenceDate: Double(n) * 86_400)),
                                               "blob": .data(Data([UInt8(n), 0, 255])), "done": .bool(n % 3 == 0)]
            if n % 5 == 0 { attributes["title"] = nil }
            if n % 4 == 1 { attributes["pinned"] = .bool(n % 8 == 1) }
            try store.insert(n % 4 == 1 ? "Memo" : "Note", id: ObjectID("N\(n)"), attributes)
        }
        // Each folder's notes, newest first: the ordered relationship's order is not the notes'.
        for f in 0..<3 {
            let notes = stride(from: 39, through: 0, by: -1).filter { $0 % 4 == f }.map { ObjectID("N\($0)") }
            try store.update(ObjectID("F\(f)"), attributes: [:], relationships: ["notes": notes])
        }
        for n in 0..<40 {
            var relationships: [String: [ObjectID]] = ["tags": (0..<5).filter { (n + $0) % 3 == 0 }.map { ObjectID("T\($0)") }]
            if n % 6 == 0 { relationships["related"] = [ObjectID("N\((n + 7) % 40)"), ObjectID("N\((n + 13) % 40)")] }
            if n % 2 == 0 { relationships["pinnedTag"] = [ObjectID("T\(n % 5)")] }
            try store.update(ObjectID("N\(n)"), attributes: [:], relationships: relationships)
        }
        try store.save()
    }

}
