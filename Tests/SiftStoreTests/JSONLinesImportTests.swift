import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// Importing JSON Lines (one object a line, naming its entity) into every kind of store: rows
/// in file order, forward references, sub-entities, errors that name the line, all or nothing.
@Suite struct JSONLinesImportTests {
    static let notes = """
        {"@entity": "Note", "@id": "N1", "title": "First", "createdAt": "2017-07-06T07:22:18Z", "updatedAt": "2017-07-06T07:22:18Z", "category": "C1", "tags": ["T1", "T2"]}
        {"@entity": "Category", "@id": "C1", "name": "Work"}

        {"@entity": "Tag", "@id": "T1", "name": "Monday"}
        {"@entity": "Tag", "@id": "T2", "name": "Family"}
        {"@entity": "Note", "@id": "N2", "title": "Second", "createdAt": "2017-07-07T07:22:18Z", "updatedAt": "2017-07-07T07:22:18Z"}
        """

    @Test(arguments: StoreKind.allCases)
    func linesImportInFileOrderWithForwardReferences(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try kind.make(try NotesFixture.model(), name: "notes", in: directory)
        var reported: [Int] = []
        let summary = try StoreImporter.importJSONLines(Data(Self.notes.utf8), into: store, progress: { reported.append($0) })
        #expect(summary.counts.map(\.entity) == ["Note", "Category", "Tag"])
        #expect(summary.counts.map(\.count) == [2, 1, 2])
        #expect(reported.last == 5)
        let reopened = try kind.reopen(store) ?? store
        #expect(reopened.object(with: "C1")?.relationshipIDs.first { $0.name == "notes" }?.ids == ["N1"])
        #expect(reopened.object(with: "T2")?.relationshipIDs.first { $0.name == "notes" }?.ids == ["N1"])
        #expect(reopened.object(with: "C1")?[attribute: "colorAsHex"].map(ValueText.text) == "FFFFFF")  // the default
        #expect(try reopened.fetch(FetchRequest(entityName: "Note")).map(\.objectID) == ["N1", "N2"])
    }

    @Test(arguments: [
        (#"{"@entity": "Note", "@id": "N9", "titel": "x"}"#, "line 2: Note 'N9': unknown key 'titel' on Note; did you mean 'title'?"),
        (#"{"@id": "N9"}"#, #"line 2: each line needs "@entity": the name of the object's entity"#),
        (#"{"@entity": "Notes", "@id": "N9"}"#, "line 2: unknown entity 'Notes'; did you mean 'Note'?"),
        // A top-level array is opened (its elements are the records): the first is the bad one.
        (#"["not", "an", "object"]"#, #"line 2: expected an object with "@entity", not string"#),
        (#"7"#, #"line 2: expected an object with "@entity", not integer"#),
        (#"{"@entity": "Note", "@id": "N9", "title": "x", "category": "C7"}"#, "line 2: Note 'N9', category: no object with ID 'C7'"),
        (#"{"@entity": "Category", "@id": "C1", "name": "Again"}"#, "line 2: object ID 'C1' is already used"),
        (#"{"@entity": "Note", "@id": "N9", "title": 7}"#, "line 2: Note 'N9', title: expected a value of type String, got integer"),
    ])
    func aBadLineIsAnErrorNamingItAndNothingIsImported(_ line: String, _ message: String) throws {
        for kind in StoreKind.allCases {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try kind.make(try NotesFixture.model(), name: "notes", in: directory)
            let data = Data((#"{"@entity": "Category", "@id": "C1", "name": "Work"}"# + "\n" + line + "\n").utf8)
            let error = #expect(throws: StoreError.self, "\(kind)") { try StoreImporter.importJSONLines(data, into: store) }
            #expect(error?.message == message, "\(kind)")
            #expect(!store.hasChanges)
            #expect(try store.count(FetchRequest(entityName: "Category")) == 0, "\(kind)")
        }
    }
}
