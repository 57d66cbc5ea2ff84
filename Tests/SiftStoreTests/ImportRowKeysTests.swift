import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// An import looks the keys of a row up once for all the rows after it with the same keys
/// (`StoreImporter.RowKeys`): rows of another entity, or whose keys are the same in another
/// order, or whose `@entity` names another entity, are looked up again.
@Suite struct ImportRowKeysTests {
    /// Two entities with the same attribute names in opposite slots, and a sub-entity with an
    /// attribute of its own.
    static func model() throws -> DataModel {
        try DataModel(name: "Keys", entities: [
            EntityDescription(name: "Left", attributes: [AttributeDescription(name: "a", type: .string), AttributeDescription(name: "b", type: .integer64)]),
            EntityDescription(name: "Right", attributes: [AttributeDescription(name: "b", type: .integer64), AttributeDescription(name: "a", type: .string)]),
            EntityDescription(name: "Item", attributes: [AttributeDescription(name: "a", type: .string)]),
            EntityDescription(name: "Special", parent: "Item", attributes: [AttributeDescription(name: "extra", type: .integer64)]),
        ])
    }

    static let lines = """
        {"@entity": "Left", "@id": "L1", "a": "x", "b": 1}
        {"@entity": "Right", "@id": "R1", "a": "y", "b": 2}
        {"@entity": "Left", "@id": "L2", "b": 3, "a": "z"}
        {"@entity": "Left", "@id": "L3", "a": "w", "b": 4}
        {"@entity": "Right", "@id": "R2", "b": 5, "a": "v"}
        """

    @Test(arguments: StoreKind.allCases)
    func rowsOfTheSameKeysInOtherEntitiesOrOrdersGetTheirOwnSlots(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try kind.make(try Self.model(), name: "keys", in: directory)
        let summary = try StoreImporter.importJSONLines(Data(Self.lines.utf8), into: store)
        #expect(summary.counts.map(\.count) == [3, 2])
        let reopened = try kind.reopen(store) ?? store
        let expected: [(String, String, Int64)] = [("L1", "x", 1), ("R1", "y", 2), ("L2", "z", 3), ("L3", "w", 4), ("R2", "v", 5)]
        for (id, a, b) in expected {
            let object = reopened.object(with: ObjectID(id))
            #expect(object?[attribute: "a"].map(ValueText.text) == a, "\(id)")
            #expect(object?[attribute: "b"].map(ValueText.text) == String(b), "\(id)")
        }
    }

    @Test(arguments: [
        // The same keys, the second row of an entity without `extra`.
        (#"{"Item": [{"@id": "S1", "@entity": "Special", "extra": 1}, {"@id": "I1", "@entity": "Item", "extra": 2}]}"#,
         "Item 'I1': unknown key 'extra' on Item"),
        // A key of the rows before, then one the entity does not have, in the same place.
        (#"{"Left": [{"@id": "L1", "a": "x"}, {"@id": "L2", "c": "y"}]}"#, "Left 'L2': unknown key 'c' on Left"),
    ])
    func aKeyTheRowBeforeHadIsStillCheckedAgainstThisRowsEntity(_ json: String, _ message: String) throws {
        let store = AtomicStore.inMemory(model: try Self.model())
        let error = #expect(throws: StoreError.self) { try StoreImporter.importJSON(Data(json.utf8), into: store) }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
        #expect(!store.hasChanges)
    }

    @Test func aSubEntityRowAmongItsParentsGetsItsOwnAttributes() throws {
        let store = AtomicStore.inMemory(model: try Self.model())
        let json = #"{"Item": [{"@id": "I1", "@entity": "Item", "a": "p"}, {"@id": "S1", "@entity": "Special", "a": "q"}, {"@id": "I2", "@entity": "Item", "a": "r"}]}"#
        try StoreImporter.importJSON(Data(json.utf8), into: store)
        #expect(store.object(with: "S1")?.entityName == "Special")
        #expect(store.object(with: "S1")?[attribute: "a"].map(ValueText.text) == "q")
        #expect(store.object(with: "I2")?.entityName == "Item")
        #expect(store.object(with: "I2")?[attribute: "a"].map(ValueText.text) == "r")
    }
}
