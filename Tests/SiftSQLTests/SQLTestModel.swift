import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore

/// A small library model for the SQL tests: books (indexed title and year) by an author, with
/// tags (many-to-many), and a sub-entity.
enum SQLTestModel {
    static let json = #"""
    {
      "name": "Library",
      "entities": [
        {"name": "Book",
         "attributes": [
           {"name": "title", "type": "String", "optional": false},
           {"name": "year", "type": "Integer 64"},
           {"name": "price", "type": "Double"},
           {"name": "published", "type": "Date"}
         ],
         "relationships": [
           {"name": "author", "destination": "Author", "inverse": "books"},
           {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "books"}
         ],
         "indexes": [["title"], ["year"]]},
        {"name": "Ebook", "parent": "Book", "attributes": [{"name": "format", "type": "String"}]},
        {"name": "Author",
         "attributes": [{"name": "name", "type": "String", "optional": false}],
         "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "author"}]},
        {"name": "Tag",
         "attributes": [{"name": "name", "type": "String", "optional": false}],
         "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "tags"}]}
      ]
    }
    """#

    static func model() throws -> DataModel { try JSONModelFormat.read(Data(json.utf8)) }

    /// A store with a few books.
    static func store() throws -> SQLiteStore {
        let store = try SQLiteStore.inMemory(model: try model())
        try fill(store)
        return store
    }

    /// The same books in any store (the in-memory store gives the reference answers).
    static func fill(_ store: any PersistentStore) throws {
        try store.insert("Author", id: "a1", ["name": .string("Le Guin")])
        try store.insert("Author", id: "a2", ["name": .string("Banks")])
        try store.insert("Tag", id: "t1", ["name": .string("sci-fi")])
        try store.insert("Tag", id: "t2", ["name": .string("classic")])
        try store.insert("Book", id: "b1", ["title": .string("The Dispossessed"), "year": .int(1974), "price": .double(9.5)],
                         relationships: ["author": ["a1"], "tags": ["t1", "t2"]])
        try store.insert("Book", id: "b2", ["title": .string("Excession"), "year": .int(1996)],
                         relationships: ["author": ["a2"], "tags": ["t1"]])
        try store.insert("Ebook", id: "e1", ["title": .string("Star Maker"), "format": .string("epub")])
        try store.insert("Book", id: "b3", ["title": .string("Stár Trek"), "year": .int(1966)], relationships: ["tags": []])
        try store.save()
    }
}
