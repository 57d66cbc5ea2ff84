import Foundation
import SiftEvaluation
import SiftLanguage
@testable import SiftStore

/// The Notes model of SEED-APPS.md (version 2) and its fixture, built in code.
enum NotesFixture {
    static let modelJSON = #"""
    {"name": "Notes", "entities": [
      {"name": "Note", "attributes": [
         {"name": "title", "type": "String", "optional": false},
         {"name": "contents", "type": "String"},
         {"name": "createdAt", "type": "Date", "optional": false},
         {"name": "updatedAt", "type": "Date", "optional": false}],
       "relationships": [
         {"name": "category", "destination": "Category", "inverse": "notes"},
         {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "notes"}]},
      {"name": "Category", "attributes": [
         {"name": "name", "type": "String", "optional": false},
         {"name": "colorAsHex", "type": "String", "optional": false, "default": "FFFFFF"}],
       "relationships": [{"name": "notes", "destination": "Note", "toMany": true, "inverse": "category"}]},
      {"name": "Tag", "attributes": [{"name": "name", "type": "String", "optional": false}],
       "relationships": [{"name": "notes", "destination": "Note", "toMany": true, "inverse": "tags"}]}
    ]}
    """#

    static let dataJSON = #"""
    {"Category": [{"@id": "C1", "name": "Work", "colorAsHex": "FC7870FF"}, {"@id": "C2", "name": "Personal"}, {"@id": "C3", "name": "errands"}],
     "Tag": [{"@id": "T1", "name": "Monday"}, {"@id": "T2", "name": "Family"}, {"@id": "T3", "name": "Ideas"}],
     "Note": [
      {"@id": "N1", "title": "My First Note", "contents": "Some text ...", "createdAt": "2017-07-06T07:22:18Z", "updatedAt": "2017-07-07T09:15:08Z", "category": "C1", "tags": ["T1", "T2"]},
      {"@id": "N2", "title": "My Second Note", "contents": null, "createdAt": "2017-07-05T12:25:59Z", "updatedAt": "2017-07-05T12:25:59Z", "category": null},
      {"@id": "N3", "title": "Groceries", "contents": "Milk, eggs", "createdAt": "2017-07-08T08:00:00Z", "updatedAt": "2017-07-08T08:00:00Z", "category": "C2", "tags": ["T2"]},
      {"@id": "N4", "title": "meeting notes", "contents": "Q3 planning", "createdAt": "2017-07-03T09:00:00Z", "updatedAt": "2017-07-09T17:30:00Z", "category": "C1", "tags": ["T1", "T3"]},
      {"@id": "N5", "title": "Cafe\u0301 ideas", "contents": "", "createdAt": "2017-07-01T10:00:00Z", "updatedAt": "2017-07-02T10:00:00Z", "category": "C3", "tags": ["T3"]}]}
    """#

    static func model() throws -> DataModel { try JSONModelFormat.read(Data(modelJSON.utf8)) }

    static func store() throws -> AtomicStore {
        let store = AtomicStore.inMemory(model: try model())
        try StoreImporter.importJSON(Data(dataJSON.utf8), into: store)
        return store
    }
}

func titles(_ objects: FetchedObjects, key: String = "title") -> [String?] {
    objects.map { object in
        if case .string(let s)? = object[attribute: key] { return s }
        return nil
    }
}

func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-store-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
