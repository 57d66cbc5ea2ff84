import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// Changing a SQLite store file that already holds objects: the first change reads the objects
/// and their relationships into the object graph, so the store rules run as in the atomic
/// stores, and only the rows that changed are written. Nothing the change did not touch may
/// be lost or altered.
@Suite struct SQLiteWriteTests {
    static func temporaryStore() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-writes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("library.sqlite")
    }

    /// Every object's attributes and relationships (to-many destinations in the order read).
    static func snapshot(_ store: SQLiteStore) throws -> [String] {
        var lines: [String] = []
        for entity in ["Author", "Tag", "Book"] {
            for object in try store.fetch(FetchRequest(statement: entity)) {
                let attributes = object.attributeValues.pairs.map { "\($0.0)=\(ValueText.text($0.1))" }.joined(separator: ",")
                let relationships = object.relationshipIDs.map { "\($0.name)=\($0.ids.map(\.rawValue))" }.joined(separator: ",")
                lines.append("\(object.entityName) \(object.objectID.rawValue) [\(attributes)] [\(relationships)]")
            }
        }
        return lines
    }

    static func filledStore(at url: URL) throws {
        let store = try SQLiteStore.create(at: url, model: try SQLTestModel.model())
        try store.insert("Author", id: "a1", ["name": .string("Le Guin")])
        try store.insert("Author", id: "a2", ["name": .string("Banks")])
        for (id, name) in [("t1", "sci-fi"), ("t2", "classic"), ("t3", "space")] { try store.insert("Tag", id: ObjectID(id), ["name": .string(name)]) }
        try store.insert("Book", id: "b1", ["title": .string("The Dispossessed"), "year": .int(1974)], relationships: ["author": ["a1"], "tags": ["t3", "t1", "t2"]])
        try store.insert("Book", id: "b2", ["title": .string("Excession")], relationships: ["author": ["a2"], "tags": ["t1"]])
        try store.insert("Ebook", id: "e1", ["title": .string("Star Maker"), "format": .string("epub")], relationships: ["tags": ["t2", "t3"]])
        try store.insert("Book", id: "b3", ["title": .string("The Left Hand of Darkness")], relationships: ["author": ["a1"]])
        try store.save()
    }

    @Test func aChangeToAReopenedStoreKeepsEveryRelationship() throws {
        let url = try Self.temporaryStore()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try Self.filledStore(at: url)
        let before = try Self.snapshot(try SQLiteStore.open(at: url))
        #expect(before.contains { $0.hasPrefix("Author a1 ") && $0.contains("books=[\"b1\", \"b3\"]") })
        do {
            let store = try SQLiteStore.open(at: url)
            try store.insert("Tag", id: "t4", ["name": .string("new")])
            try store.save()
        }
        let after = try Self.snapshot(try SQLiteStore.open(at: url))
        #expect(after.filter { !$0.hasPrefix("Tag t4 ") } == before)
        #expect(after.contains { $0.hasPrefix("Tag t4 [name=new]") })
    }

    @Test func changesToRelationshipsOfAReopenedStoreAreWrittenAndRulesRun() throws {
        let url = try Self.temporaryStore()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try Self.filledStore(at: url)
        do {
            let store = try SQLiteStore.open(at: url)
            try store.update("b2", attributes: [:], relationships: ["author": ["a1"], "tags": ["t3", "t2"]])
            try store.delete("t1")
            try store.save()
        }
        let store = try SQLiteStore.open(at: url)
        let lines = try Self.snapshot(store)
        // The inverse moved with the to-one; the deleted tag left every book's tags.
        #expect(lines.contains { $0.hasPrefix("Author a1 ") && $0.contains("books=[\"b1\", \"b2\", \"b3\"]") })
        #expect(lines.contains { $0.hasPrefix("Author a2 ") && $0.contains("books=[]") })
        #expect(lines.contains { $0.hasPrefix("Book b1 ") && $0.contains("tags=[\"t2\", \"t3\"]") })
        #expect(!lines.contains { $0.contains("t1") })
        #expect(try store.count(FetchRequest(statement: "Book WHERE ANY tags.name == 'sci-fi'")) == 0)
        // No row of the join table points at the deleted tag.
        #expect(try store.rawRows(#"SELECT count(*) FROM "Book.tags" WHERE "_target" NOT IN (SELECT "_pk" FROM "Tag") OR "_owner" NOT IN (SELECT "_pk" FROM "Book")"#)
                == [[.integer(0)]])
        #expect(try store.rawRows(#"SELECT count(*) FROM "Book.tags""#) == [[.integer(6)]])  // b1: t2 t3; b2: t2 t3; e1: t2 t3
    }

    @Test func aRolledBackChangeLeavesTheFileAsItWas() throws {
        let url = try Self.temporaryStore()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try Self.filledStore(at: url)
        let before = try Self.snapshot(try SQLiteStore.open(at: url))
        let store = try SQLiteStore.open(at: url)
        try store.update("b1", attributes: ["title": .string("Changed")], relationships: ["tags": []])
        try store.delete("a2")
        #expect(try store.count(FetchRequest(statement: "Book WHERE title == 'Changed'")) == 1)  // fetches see pending changes
        store.rollback()
        #expect(try Self.snapshot(store) == before)
        #expect(try Self.snapshot(try SQLiteStore.open(at: url)) == before)
    }
}
