import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

@Suite struct NotesStoreTests {
    @Test func seedFetchesN1toN9() throws {
        let store = try NotesFixture.store()
        func run(_ statement: String, _ arguments: [Any?] = []) throws -> [String?] {
            try titles(store.fetch(FetchRequest(statement: statement, arguments: arguments)))
        }
        #expect(try run("Note SORT BY updatedAt DESC") == ["meeting notes", "Groceries", "My First Note", "My Second Note", "Café ideas"])
        #expect(throws: StoreError.self) { try run("Note SORT BY name") }
        #expect(try run("Note WHERE title BEGINSWITH[cd] 'my' SORT BY updatedAt DESC") == ["My First Note", "My Second Note"])
        #expect(try run("Note WHERE NOT (category.name == 'Work') SORT BY updatedAt DESC") == ["Groceries", "My Second Note", "Café ideas"])
        #expect(try run("Note WHERE ANY tags.name == 'Family' SORT BY updatedAt DESC") == ["Groceries", "My First Note"])
        #expect(try run("Note WHERE contents == nil") == ["My Second Note"])
        #expect(try run("Note WHERE contents == ''") == ["Café ideas"])
        #expect(try titles(store.fetch(FetchRequest(statement: "Category SORT BY name")), key: "name") == ["Personal", "Work", "errands"])
        #expect(try titles(store.fetch(FetchRequest(statement: "Category SORT BY name USING caseInsensitiveCompare")), key: "name") == ["errands", "Personal", "Work"])
        #expect(try run("Note SORT BY updatedAt DESC LIMIT 2 OFFSET 1") == ["Groceries", "My First Note"])

        let sections = try store.fetchSections(FetchRequest(statement: "Note SORT BY category.name, updatedAt DESC SECTION BY category.name"))
        #expect(sections.sections.map(\.name) == ["", "Personal", "Work", "errands"])
        #expect(sections.sectionIndexTitles == ["", "P", "W", "E"])
        #expect(sections.sections.map { titles($0.objects) } == [["My Second Note"], ["Groceries"], ["meeting notes", "My First Note"], ["Café ideas"]])
        #expect(sections.warning == nil)
    }

    @Test func unknownKeysAreErrorsThatSuggest() throws {
        let store = try NotesFixture.store()
        do {
            _ = try store.fetch(FetchRequest(statement: "Note SORT BY name"))
            Issue.record("no error")
        } catch let error as StoreError {
            #expect(error.message == "unknown key 'name' on Note")
        }
        do {
            _ = try store.fetch(FetchRequest(statement: "Note WHERE titel == 'x'"))
            Issue.record("no error")
        } catch let error as StoreError {
            #expect(error.message == "unknown key 'titel' on Note; did you mean 'title'?")
        }
    }

    @Test func objectArgumentsAndCounts() throws {
        let store = try NotesFixture.store()
        let work = try #require(store.object(with: "C1"))
        #expect(try titles(store.fetch(FetchRequest(statement: "Note WHERE category == %@ SORT BY title", arguments: [work]))) == ["My First Note", "meeting notes"])
        #expect(try store.count(FetchRequest(statement: "COUNT Note WHERE category == %@", arguments: [ObjectID("C2")])) == 1)
        #expect(try store.count(FetchRequest(statement: "Note WHERE category == nil")) == 1)
        guard case .objectIDs(let ids) = try store.execute({ var r = FetchRequest(entityName: "Tag"); r.resultType = .objectIDs; return r }()) else {
            Issue.record("not IDs"); return
        }
        #expect(ids == ["T1", "T2", "T3"])
    }

    @Test func dictionariesGroupingAndDistinct() throws {
        let store = try NotesFixture.store()
        guard case .dictionaries(let rows) = try store.execute(FetchRequest(statement:
            "SELECT category.name AS category, count:(title) AS n FROM Note WHERE category != nil GROUP BY category.name HAVING n >= 1 SORT BY n DESC, category"))
        else { Issue.record("not dictionaries"); return }
        #expect(rows.map { JSONWriter.string(.dictionary($0)) } == [
            #"{"category":"Work","n":2}"#, #"{"category":"Personal","n":1}"#, #"{"category":"errands","n":1}"#,
        ])
        guard case .dictionaries(let distinct) = try store.execute(FetchRequest(statement: "SELECT DISTINCT category.colorAsHex AS c FROM Note SORT BY category.colorAsHex")) else {
            Issue.record("not dictionaries"); return
        }
        #expect(distinct.map { JSONWriter.string(.dictionary($0)) } == [#"{"c":null}"#, #"{"c":"FC7870FF"}"#, #"{"c":"FFFFFF"}"#])
    }

    @Test func deleteRulesAndInverses() throws {
        let store = try NotesFixture.store()
        // Nullify: deleting a category clears its notes' category.
        try store.delete("C1")
        #expect(store.object(with: "N1").flatMap { $0.relationshipIDs.first { $0.name == "category" }?.ids } == [])
        // The inverse of a to-many is kept in sync.
        try store.update("N3", attributes: [:], relationships: ["tags": ["T1"]])
        #expect(store.object(with: "T2")?.relationshipIDs.first?.ids == ["N1"])
        #expect(store.object(with: "T1")?.relationshipIDs.first?.ids == ["N1", "N3", "N4"])  // unordered: insertion order
        // A to-one moved to another object leaves its old inverse.
        try store.update("N2", attributes: [:], relationships: ["category": ["C2"]])
        #expect(store.object(with: "C2")?.relationshipIDs.first?.ids == ["N2", "N3"])
        try store.save()
    }
}
