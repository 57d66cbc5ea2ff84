import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// The disagreements the change-sequence differential test (``ChangeSequenceDifferentialTests``)
/// found, each as a minimal reproduction on a small model: the same calls on a JSON store and a
/// SQLite store must leave the same result or error, the same `hasChanges` and the same
/// objects. Each failed on the tree before 843a4f7, which fixed them all; they keep them fixed.
@Suite struct ChangeSequenceReproductionTests {
    /// Two rules' worth of model: a person owns items (a required to-one ↔ an unordered to-many,
    /// held by SQLite in the item's column) and belongs to a team of 2 to 4 members.
    static let smallModel = #"""
    {"name": "Small", "entities": [
      {"name": "Person",
       "attributes": [{"name": "name", "type": "String"}],
       "relationships": [
         {"name": "items", "destination": "Item", "toMany": true, "inverse": "owner", "deleteRule": "cascade"},
         {"name": "team", "destination": "Team", "inverse": "members"}]},
      {"name": "Item",
       "attributes": [
         {"name": "name", "type": "String"},
         {"name": "count", "type": "Integer 32", "optional": false, "default": 0},
         {"name": "price", "type": "Double"},
         {"name": "flag", "type": "Boolean", "optional": false, "default": false}],
       "relationships": [
         {"name": "owner", "destination": "Person", "inverse": "items", "optional": false}]},
      {"name": "Team",
       "relationships": [
         {"name": "members", "destination": "Person", "toMany": true, "inverse": "team", "minCount": 2, "maxCount": 4}]}
    ]}
    """#

    /// A to-many (a join table in SQLite) declared on `A` and inherited by `B` and by `B`'s
    /// sub-entity `C`.
    static let grandchildModel = #"""
    {"name": "Grandchild", "entities": [
      {"name": "A", "attributes": [{"name": "name", "type": "String"}],
       "relationships": [{"name": "tags", "destination": "Tag", "toMany": true, "inverse": "owners"}]},
      {"name": "B", "parent": "A"},
      {"name": "C", "parent": "B"},
      {"name": "Tag", "relationships": [{"name": "owners", "destination": "A", "toMany": true, "inverse": "tags"}]}
    ]}
    """#

    /// What `body` returns (or throws) on a new JSON store and a new SQLite store, then each
    /// store's `hasChanges` and objects, and (when `reopen`) its objects once closed and opened
    /// again.
    static func onBoth(_ modelJSON: String, reopen: Bool = false,
                       _ body: (any PersistentStore) throws -> String) throws -> (json: String, sqlite: String) {
        let model = try JSONModelFormat.read(Data(modelJSON.utf8), name: "Model")
        let directory = try DifferentialTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var observed: [String] = []
        for kind in [ChangeSequenceStore.Kind.json, .sqlite] {
            let side = try ChangeSequenceStore(kind: kind, url: directory.appendingPathComponent(kind == .json ? "s.json" : "s.sqlite"), model: model)
            defer { side.close() }
            var lines: [String] = []
            do {
                lines.append(try body(side.store!))
            } catch {
                lines.append("threw \(ChangeOutcome(error))")
            }
            lines.append("hasChanges: \(side.store!.hasChanges)")
            lines += side.contents(model: model)
            if reopen {
                try side.reopen()
                lines.append("reopened:")
                lines += side.contents(model: model)
            }
            observed.append(lines.joined(separator: "\n"))
        }
        return (observed[0], observed[1])
    }

    static func expectSame(_ observed: (json: String, sqlite: String), sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(observed.json == observed.sqlite, "\nJSON store:\n\(observed.json)\n\nSQLite store:\n\(observed.sqlite)", sourceLocation: sourceLocation)
    }

    // MARK: Schema

    /// Was (SQLite): an object of any entity of a hierarchy could not be deleted when a
    /// grandchild entity inherits a to-many kept in a join table: `"no such table: B.tags"`.
    /// The schema creates the join table `"A.tags"` (named for the declaring entity), but
    /// `SQLSchema.declaringEntity(of:from:)` looked only one parent up, so `C`'s layout named
    /// `"B.tags"`; deleting reaches every entity sharing the table, `C` included. (Inserting a
    /// `C` with tags failed the same way.)
    @Test func deleteInAHierarchyWhoseGrandchildInheritsAJoinTable() throws {
        Self.expectSame(try Self.onBoth(Self.grandchildModel) { store in
            try store.insert(entity: "B", id: "b1", attributes: ["name": .string("b")], relationships: [:])
            try store.delete("b1")
            return "deleted"
        })
        Self.expectSame(try Self.onBoth(Self.grandchildModel) { store in
            try store.insert(entity: "Tag", id: "t1", attributes: [:], relationships: [:])
            try store.insert(entity: "C", id: "c1", attributes: [:], relationships: ["tags": ["t1"]])
            try store.save()
            return "saved"
        })
    }

    // MARK: Validation at save

    /// Was (SQLite): moving a person from team T1 to T2 through T2's `members` (a to-many
    /// SQLite keeps in the person's `team` column) did not mark T1 changed, so `save()` did not
    /// check T1's minimum and committed a team of one member. The JSON store refuses:
    /// `Team 'T1': members has 1 objects, fewer than its minimum 2`. (The rule `link` wrote the
    /// destination first, after which the destination's to-one already named the new owner,
    /// so the "to-one inverse moves" step that detaches it from T1 never ran.)
    @Test func movingADestinationThroughAToManyRevalidatesItsPreviousOwner() throws {
        Self.expectSame(try Self.onBoth(Self.smallModel, reopen: true) { store in
            for id in ["P1", "P2", "P3"] { try store.insert(entity: "Person", id: ObjectID(id), attributes: [:], relationships: [:]) }
            try store.insert(entity: "Team", id: "T1", attributes: [:], relationships: ["members": ["P1", "P2"]])
            try store.save()
            try store.insert(entity: "Team", id: "T2", attributes: [:], relationships: ["members": ["P1", "P3"]])
            try store.save()
            return "saved"
        })
    }

    /// Was (SQLite): an object deleted inside a unit that is then undone came back, but no
    /// longer counted as changed, so `save()` skipped it: an item whose required owner was
    /// cleared was committed. The JSON store refuses: `Item 'I1': required relationship owner
    /// is nil`. (`SQLRowObjects.removeObjects` dropped the object from `updatedKeys`;
    /// `ROLLBACK TO` brings the row back but not the key.) A failed `batchDelete` inside a unit
    /// did the same.
    @Test func anObjectDeletedInAnUndoneUnitIsStillValidated() throws {
        Self.expectSame(try Self.onBoth(Self.smallModel, reopen: true) { store in
            try store.insert(entity: "Person", id: "P1", attributes: [:], relationships: [:])
            try store.insert(entity: "Item", id: "I1", attributes: [:], relationships: ["owner": ["P1"]])
            try store.save()
            try store.update("I1", attributes: [:], relationships: ["owner": []])
            _ = try? store.performChanges {
                try store.delete("I1")
                throw ChangeSequenceAbort()
            }
            try store.save()
            return "saved"
        })
    }

    // MARK: Units of changes

    /// Was (SQLite): with nothing pending, a unit whose only change is a nested unit that is
    /// undone left `hasChanges` true (the JSON store: false, as before the unit). The outer
    /// unit takes no savepoint, the inner one does; after `ROLLBACK TO` nothing reset the flag.
    @Test func anUndoneNestedUnitLeavesNoChanges() throws {
        Self.expectSame(try Self.onBoth(Self.smallModel) { store in
            try store.performChanges {
                _ = try? store.performChanges {
                    try store.insert(entity: "Person", id: "P1", attributes: [:], relationships: [:])
                    throw ChangeSequenceAbort()
                }
            }
            return "done"
        })
    }

    /// Was (SQLite): `save()` inside a unit, with changes pending before the unit, committed,
    /// and then the unit failed with `SQLite: no such savepoint: sift_unit` (the commit ended
    /// the savepoint), although everything was saved. The JSON store: no error.
    @Test func saveInsideAUnit() throws {
        Self.expectSame(try Self.onBoth(Self.smallModel) { store in
            try store.insert(entity: "Person", id: "P0", attributes: [:], relationships: [:])
            try store.performChanges {
                try store.insert(entity: "Person", id: "P1", attributes: [:], relationships: [:])
                try store.save()
            }
            return "done"
        })
    }

    /// Was: a unit that saves and then throws: the SQLite store kept what it committed; the
    /// JSON store undid the unit in memory (P1 gone, `hasChanges` false) while its file,
    /// written by the save, still held P1, so reopening brought P1 back.
    @Test func saveInsideAUnitThatThrows() throws {
        Self.expectSame(try Self.onBoth(Self.smallModel, reopen: true) { store in
            try store.performChanges {
                try store.insert(entity: "Person", id: "P1", attributes: [:], relationships: [:])
                try store.save()
                throw ChangeSequenceAbort()
            }
            return "done"
        })
    }

    /// Was (SQLite): `rollback()` inside a unit (changes pending before it) rolled the
    /// transaction back, and the unit then failed with `SQLite: no such savepoint: sift_unit`
    /// although its body succeeded (the change after the rollback stays pending). The JSON
    /// store: no error.
    @Test func rollbackInsideAUnit() throws {
        Self.expectSame(try Self.onBoth(Self.smallModel) { store in
            try store.insert(entity: "Person", id: "P0", attributes: [:], relationships: [:])
            try store.performChanges {
                try store.insert(entity: "Person", id: "P1", attributes: [:], relationships: [:])
                store.rollback()
                try store.insert(entity: "Person", id: "P2", attributes: [:], relationships: [:])
            }
            return "done"
        })
    }

    // MARK: Batch updates

    /// Was (both stores): a batch update setting several values that do not fit reported
    /// whichever the dictionary of values listed first, and a Swift dictionary's order differs
    /// between instances, so the same request failed with different errors from run to run and
    /// from store to store. `batchUpdate` says "keys in the entity's attribute order, so the
    /// same request always fails the same way": it sorted the keys, but then collected the
    /// values in a dictionary that `update` walked in hash order. Expected: always `count` (the
    /// first of them in the model).
    @Test func batchUpdateFailsOnTheFirstAttributeInModelOrder() throws {
        var messages: Set<String> = []
        for _ in 0..<12 {
            let observed = try Self.onBoth(Self.smallModel) { store in
                try store.insert(entity: "Person", id: "P1", attributes: [:], relationships: [:])
                try store.insert(entity: "Item", id: "I1", attributes: [:], relationships: ["owner": ["P1"]])
                try store.batchUpdate(entity: "Item", predicate: nil,
                                      set: ["count": ExpressionNode(format: "3000000000"), "price": ExpressionNode(format: "'x'"),
                                            "flag": ExpressionNode(format: "2")])
                return "updated"
            }
            messages.insert(observed.json.components(separatedBy: "\n")[0])
            messages.insert(observed.sqlite.components(separatedBy: "\n")[0])
        }
        #expect(messages == ["threw StoreError(.invalidValue): Item 'I1', count: 3000000000 is out of range for Integer 32 (-2147483648...2147483647)"],
                "\(messages.sorted().joined(separator: "\n"))")
    }
}
