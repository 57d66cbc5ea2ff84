import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// Fetch results decode into Decodable records, relationships as object IDs.
@Suite("Fetching Decodable records")
struct DecodedFetchTests {
    struct Note: Decodable, Equatable {
        var objectID: String
        var title: String
        var contents: String?
        var createdAt: Date
        var category: String?
        var tags: [String]
    }

    @Test(arguments: StoreKind.allCases)
    func notesDecodeWithRelationshipsAsIDs(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try kind.make(try NotesFixture.model(), name: "notes", in: directory)
        try StoreImporter.importJSON(Data(NotesFixture.dataJSON.utf8), into: store)
        try store.save()
        let notes = try store.fetch(FetchRequest(statement: "Note WHERE title BEGINSWITH 'My' SORT BY title"), as: Note.self)
        #expect(notes.map(\.objectID) == ["N1", "N2"])
        #expect(notes.map(\.title) == ["My First Note", "My Second Note"])
        #expect(notes.map(\.contents) == ["Some text ...", nil])
        #expect(notes.map(\.category) == ["C1", nil])
        #expect(notes.map { $0.tags.sorted() } == [["T1", "T2"], []])
        #expect(notes.first?.createdAt == ISO8601DateFormatter().date(from: "2017-07-06T07:22:18Z"))
    }

    struct Tag: Decodable, Equatable {
        var name: String
        var notes: [String]
    }

    struct Category: Decodable, Equatable {
        var objectID: String
        var name: String
    }

    struct NestedNote: Decodable, Equatable {
        var title: String
        var category: Category?
        var tags: [Tag]
    }

    @Test(arguments: StoreKind.allCases)
    func prefetchedRelationshipsDecodeAsNestedRecords(_ kind: StoreKind) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try kind.make(try NotesFixture.model(), name: "notes", in: directory)
        try StoreImporter.importJSON(Data(NotesFixture.dataJSON.utf8), into: store)
        try store.save()
        var request = try FetchRequest(statement: "Note WHERE title BEGINSWITH 'My' SORT BY title")
        request.relationshipKeyPathsForPrefetching = ["category", "tags"]
        let notes = try store.fetch(request, as: NestedNote.self)
        #expect(notes.map(\.title) == ["My First Note", "My Second Note"])
        #expect(notes.map(\.category) == [Category(objectID: "C1", name: "Work"), nil])
        #expect(notes.map { $0.tags.map(\.name).sorted() } == [["Family", "Monday"], []])
        // Inside a nested record, relationships not prefetched further are IDs.
        #expect(notes.first?.tags.first { $0.name == "Family" }?.notes.sorted() == ["N1", "N3"])
    }

    /// The README's lines for reading fetched objects, as written there.
    @Test func readmeLines() throws {
        let store = try NotesFixture.store()
        var request = try FetchRequest(entityName: "Note", predicate: "title BEGINSWITH[cd] %@", arguments: ["my"])
        request.sortDescriptors = [SortKey("updatedAt", ascending: false)]
        // --- README: begin ---
        for note in try store.fetch(request) { print(note.objectID, note[attribute: "title"]?.string ?? "", try note.value(forKeyPath: "category.name")) }

        // Or as your own Decodable records: relationships as object IDs, the object's own as objectID.
        struct Note: Decodable { var objectID: String; var title: String; var updatedAt: Date; var category: String?; var tags: [String] }
        let notes = try store.fetch(request, as: Note.self)
        // --- README: end ---
        #expect(notes.map(\.title) == ["My First Note", "My Second Note"])
        #expect(notes.map(\.category) == ["C1", nil])
    }

    @Test func aRecordThatDoesNotFitIsADecodingErrorNamingTheKey() throws {
        struct Wrong: Decodable { var title: Int }
        struct Missing: Decodable { var subtitle: String }
        let store = try NotesFixture.store()
        let request = try FetchRequest(statement: "Note WHERE title == 'Groceries'")
        do {
            _ = try store.fetch(request, as: Wrong.self)
            Issue.record("no error")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["title"])
            #expect(context.debugDescription == "expected Int, found string \"Groceries\"")
        }
        do {
            _ = try store.fetch(request, as: Missing.self)
            Issue.record("no error")
        } catch DecodingError.keyNotFound(let key, _) {
            #expect(key.stringValue == "subtitle")
        }
    }
}
