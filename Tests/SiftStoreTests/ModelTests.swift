import Foundation
import SiftEvaluation
import Testing
@testable import SiftStore

@Suite struct ModelTests {
    static let notesJSON = #"""
    {"name": "Notes", "entities": [
      {"name": "Note", "attributes": [
         {"name": "title", "type": "String", "optional": false},
         {"name": "contents", "type": "String"},
         {"name": "createdAt", "type": "Date", "optional": false}],
       "relationships": [
         {"name": "category", "destination": "Category", "inverse": "notes"},
         {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "notes"}]},
      {"name": "Category", "attributes": [
         {"name": "name", "type": "String", "optional": false},
         {"name": "colorAsHex", "type": "String", "optional": false, "default": "FFFFFF"}],
       "relationships": [{"name": "notes", "destination": "Note", "toMany": true, "inverse": "category", "deleteRule": "deny"}]},
      {"name": "Tag", "attributes": [{"name": "name", "type": "String", "optional": false}],
       "relationships": [{"name": "notes", "destination": "Note", "toMany": true, "inverse": "tags"}]}
    ]}
    """#

    @Test func readsTheJSONFormat() throws {
        let model = try JSONModelFormat.read(Data(Self.notesJSON.utf8))
        #expect(model.name == "Notes")
        #expect(model.entities.map(\.name) == ["Note", "Category", "Tag"])
        let category = try #require(model.entity(named: "Category"))
        #expect(category.attribute(named: "colorAsHex")?.defaultValue.map(ValueText.text) == "FFFFFF")
        #expect(category.relationship(named: "notes")?.deleteRule == .deny)
        #expect(model.entity(named: "Note")?.relationship(named: "tags")?.isToMany == true)
        #expect(model.entity(named: "Note")?.attribute(named: "contents")?.isOptional == true)
    }

    @Test func writesWhatItReads() throws {
        let model = try JSONModelFormat.read(Data(Self.notesJSON.utf8))
        let text = JSONModelFormat.write(model)
        let again = try JSONModelFormat.read(Data(text.utf8))
        #expect(JSONModelFormat.write(again) == text)
    }

    @Test func inheritanceGivesSubentitiesTheParentsProperties() throws {
        let model = try DataModel(entities: [
            EntityDescription(name: "VideoItem", isAbstract: true, attributes: [
                AttributeDescription(name: "title", type: .string, isOptional: false),
                AttributeDescription(name: "rating", type: .double)]),
            EntityDescription(name: "Movie", parent: "VideoItem", attributes: [AttributeDescription(name: "duration", type: .integer32)]),
            EntityDescription(name: "Episode", parent: "VideoItem", attributes: [
                AttributeDescription(name: "season", type: .integer16, isOptional: false, defaultValue: .int(1))]),
        ])
        let movie = try #require(model.entity(named: "Movie"))
        #expect(movie.attributes.map(\.name) == ["title", "rating", "duration"])
        #expect(movie.slot(of: "rating") == .attribute(1))
        #expect(movie.rootEntity == "VideoItem")
        #expect(model.entity(named: "VideoItem")?.entityAndSubentities == ["VideoItem", "Movie", "Episode"])
        #expect(model.isKind("Episode", of: "VideoItem"))
        #expect(!model.isKind("VideoItem", of: "Episode"))
    }

    static let invalidModels: [(String, String)] = [
        (#"{"entities": [{"name": "A"}, {"name": "A"}]}"#, "entity A is declared twice"),
        (#"{"entities": [{"name": "A", "parent": "B"}]}"#, "entity A: parent entity 'B' does not exist"),
        (#"{"entities": [{"name": "A", "parent": "B"}, {"name": "B", "parent": "A"}]}"#, "entity A: inheritance cycle through 'A'"),
        (#"{"entities": [{"name": "A", "relationships": [{"name": "b", "destination": "B"}]}]}"#,
         "relationship A.b: destination entity 'B' does not exist"),
        (#"{"entities": [{"name": "A", "relationships": [{"name": "b", "destination": "B", "inverse": "a"}]}, {"name": "B"}]}"#,
         "relationship A.b: inverse 'a' is not a relationship of B"),
        (#"{"entities": [{"name": "A", "relationships": [{"name": "b", "destination": "B", "inverse": "c"}]}, {"name": "B", "relationships": [{"name": "c", "destination": "C"}]}, {"name": "C"}]}"#,
         "relationship A.b: its inverse B.c points to C, not A"),
        (#"{"entities": [{"name": "A", "relationships": [{"name": "b", "destination": "B", "inverse": "a"}]}, {"name": "B", "relationships": [{"name": "a", "destination": "A", "inverse": "x"}]}]}"#,
         "relationship A.b: its inverse B.a names 'x' as its inverse, not b"),
        (#"{"entities": [{"name": "A", "attributes": [{"name": "n", "type": "Integer 16", "default": 70000}]}]}"#,
         "model JSON: attribute A.n: invalid default: 70000 is out of range for Integer 16 (-32768...32767)"),
        (#"{"entities": [{"name": "A", "attributes": [{"name": "n", "type": "Integr 16"}]}]}"#,
         "model JSON: attribute A.n: unknown type 'Integr 16'"),
        (#"{"entities": [{"name": "A", "attributes": [{"name": "n", "type": "String", "optonal": true}]}]}"#,
         "model JSON: attribute A.n: unknown field \"optonal\"; did you mean \"optional\"?"),
        (#"{"entities": [{"name": "A", "attributes": [{"name": "n", "type": "String"}, {"name": "n", "type": "Date"}]}]}"#,
         "entity A: property 'n' is declared twice"),
        (#"{"entities": [{"name": "A", "uniquenessConstraints": [["missing"]]}]}"#,
         "entity A: uniqueness constraint names unknown property 'missing'"),
        (#"{"entities": [{"name": "A", "relationships": [{"name": "b", "destination": "A", "deleteRule": "explode"}]}]}"#,
         "model JSON: relationship A.b: unknown deleteRule 'explode'"),
    ]

    @Test(arguments: invalidModels)
    func invalidModelsAreErrorsThatSayWhy(_ json: String, _ expected: String) {
        #expect {
            _ = try JSONModelFormat.read(Data(json.utf8))
        } throws: { error in
            guard let error = error as? ModelError else { return false }
            if !error.message.hasPrefix(expected) { Issue.record("got: \(error.message)") }
            return error.message.hasPrefix(expected)
        }
    }
}
