import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// Delete rules at scale and across join tables, on every kind of store: a cascade through a
/// chain of 10,000 objects (no recursion limit), and Deny and Nullify between to-many
/// relationships on both sides (join tables in the SQLite store).
@Suite struct DeleteRulesAcrossStoresTests {
    /// Items in a tree: deleting an item cascades to its children; its parent forgets it.
    static let treeModel = #"""
    {"name": "Tree", "entities": [
      {"name": "Item", "attributes": [{"name": "title", "type": "String"}],
       "relationships": [
         {"name": "parent", "destination": "Item", "inverse": "children", "deleteRule": "nullify"},
         {"name": "children", "destination": "Item", "toMany": true, "ordered": true, "inverse": "parent", "deleteRule": "cascade"}]}
    ]}
    """#

    /// Courses and students, many-to-many both ways: a course with students may not be deleted
    /// (Deny); deleting a student removes it from its courses (Nullify). Labels point at
    /// students without an inverse.
    static let schoolModel = #"""
    {"name": "School", "entities": [
      {"name": "Course", "attributes": [{"name": "name", "type": "String"}],
       "relationships": [{"name": "students", "destination": "Student", "toMany": true, "inverse": "courses", "deleteRule": "deny"}]},
      {"name": "Student", "attributes": [{"name": "name", "type": "String"}],
       "relationships": [{"name": "courses", "destination": "Course", "toMany": true, "inverse": "students", "deleteRule": "nullify"}]},
      {"name": "Label", "attributes": [{"name": "text", "type": "String"}],
       "relationships": [{"name": "students", "destination": "Student", "toMany": true, "deleteRule": "noAction"},
                         {"name": "favourite", "destination": "Student", "deleteRule": "noAction"}]}
    ]}
    """#

    static func ids(_ store: any PersistentStore, _ id: ObjectID, _ relationship: String) -> [ObjectID]? {
        store.object(with: id)?.relationshipIDs.first { $0.name == relationship }?.ids
    }

    @Test(arguments: StoreKind.allCases)
    func aCascadeFollowsAChainOfTenThousandObjects(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try kind.make(try JSONModelFormat.read(Data(Self.treeModel.utf8)), name: "tree", in: directory)
        let length = 10_000
        try store.performChanges {
            try store.insert("Item", id: "root", ["title": .string("root")])
            try store.insert("Item", id: "other", ["title": .string("other")])
            for n in 1...length {
                try store.insert("Item", id: ObjectID("i\(n)"), ["title": .string("item \(n)")],
                                 relationships: ["parent": [ObjectID(n == 1 ? "root" : "i\(n - 1)")]])
            }
        }
        try store.save()
        let live = try kind.reopen(store) ?? store
        #expect(try live.count(FetchRequest(entityName: "Item")) == length + 2)
        #expect(Self.ids(live, ObjectID("i\(length - 1)"), "children") == [ObjectID("i\(length)")])
        try live.delete("root")
        #expect(try live.count(FetchRequest(entityName: "Item")) == 1)
        #expect(live.object(with: ObjectID("i\(length)")) == nil)
        try live.save()
        let after = try kind.reopen(live) ?? live
        #expect(try after.count(FetchRequest(entityName: "Item")) == 1)
        #expect(after.object(with: "other") != nil)
    }

    @Test(arguments: StoreKind.allCases)
    func denyAndNullifyBetweenToManyRelationships(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var store = try kind.make(try JSONModelFormat.read(Data(Self.schoolModel.utf8)), name: "school", in: directory)
        try store.insert("Course", id: "math", ["name": .string("Math")])
        try store.insert("Course", id: "art", ["name": .string("Art")])
        try store.insert("Course", id: "empty", ["name": .string("Empty")])
        try store.insert("Student", id: "ann", ["name": .string("Ann")], relationships: ["courses": ["math", "art"]])
        try store.insert("Student", id: "bob", ["name": .string("Bob")], relationships: ["courses": ["math"]])
        try store.insert("Label", id: "l1", ["text": .string("honours")], relationships: ["students": ["ann", "bob"], "favourite": ["ann"]])
        try store.save()
        store = try kind.reopen(store) ?? store

        // Deny: a course with students stays, and the error names a blocking student.
        let denied = #expect(throws: StoreError.self) { try store.delete("math") }
        #expect(denied?.code == .deleteDenied)
        #expect(denied?.message == "cannot delete Course 'math': its relationship students still has Student 'ann' (delete rule Deny)")
        #expect(Self.ids(store, "math", "students") == ["ann", "bob"])
        #expect(!store.hasChanges)
        try store.delete("empty")

        // Nullify: the student leaves every course; the label without an inverse forgets it.
        try store.delete("ann")
        #expect(Self.ids(store, "math", "students") == ["bob"])
        #expect(Self.ids(store, "art", "students") == [])
        #expect(Self.ids(store, "l1", "students") == ["bob"])
        #expect(Self.ids(store, "l1", "favourite") == [])
        try store.save()
        store = try kind.reopen(store) ?? store
        #expect(Self.ids(store, "math", "students") == ["bob"])
        #expect(Self.ids(store, "l1", "students") == ["bob"])
        #expect(Self.ids(store, "bob", "courses") == ["math"])

        // With its students gone, the course can go; a batch deleting a course together with
        // its last student is not blocked by the student it also deletes.
        try store.delete("art")
        let deleted = try store.batchDelete(entity: "Student", predicate: nil)
        #expect(deleted == 1)
        try store.delete("math")
        try store.save()
        #expect(try store.count(FetchRequest(entityName: "Course")) == 0)
        #expect(try store.count(FetchRequest(entityName: "Student")) == 0)
    }
}
