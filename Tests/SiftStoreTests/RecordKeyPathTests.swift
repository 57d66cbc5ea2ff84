import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// `value(forKeyPath:)` on fetched objects follows relationships as predicates do.
@Suite("Records' value(forKeyPath:)")
struct RecordKeyPathTests {
    @Test(arguments: StoreKind.allCases)
    func followsToOneToManyAndOperators(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try kind.make(try NotesFixture.model(), name: "notes", in: directory)
        try StoreImporter.importJSON(Data(NotesFixture.dataJSON.utf8), into: store)
        try store.save()
        let notes = try store.fetch(FetchRequest(statement: "Note WHERE title == 'My First Note'"))
        let note = try #require(notes.first)
        #expect(try note.value(forKeyPath: "title").string == "My First Note")
        #expect(try note.value(forKeyPath: "category.name").string == "Work")
        #expect(try note.value(forKeyPath: "category.colorAsHex").string == "FC7870FF")
        let tagNames = try note.value(forKeyPath: "tags.name").array?.compactMap(\.string).sorted()
        #expect(tagNames == ["Family", "Monday"])
        #expect(try note.value(forKeyPath: "tags.@count").int == 2)
        #expect(try note.value(forKeyPath: "category.notes.@count").int == 2)
        // Across two to-many steps: every note of every tag, flattened.
        #expect(try note.value(forKeyPath: "tags.notes.@count").int == 4)
        // The same answers as the evaluator's.
        for path in ["category.name", "tags.@count", "category.notes.title"] {
            let expected = try CompiledExpression(format: path).evaluate(.object(note))
            #expect(ValueComparison.equals(try note.value(forKeyPath: path), expected), "\(path)")
        }
        // A record's unknown key is an error naming it, with the suggestion.
        do {
            _ = try note.value(forKeyPath: "category.nmae")
            Issue.record("no error")
        } catch {
            #expect(error.code == .unknownKey)
            #expect(error.message == "unknown key 'nmae' on Category; did you mean 'name'?")
        }
        // A note without a category: nil past it.
        let second = try #require(try store.fetch(FetchRequest(statement: "Note WHERE title == 'My Second Note'")).first)
        #expect(try second.value(forKeyPath: "category.name").isNull)
        #expect(try second.value(forKeyPath: "tags.@count").int == 0)
    }
}
