#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQLiteStore
import Testing
@testable import SiftStore

/// JSON Lines read and checked on several threads (`ImportOptions.jobs`, `sift import --jobs`):
/// the same rows in the same order, and the same errors naming the same lines, as one thread,
/// whatever the chunks the input is cut into.
@Suite struct JSONLinesJobsTests {
    /// 400 records: forward references, blank lines, and values pretty-printed over lines (which
    /// small chunks cut inside).
    static let lines: String = {
        var text = ""
        for i in 1...400 {
            switch i % 4 {
            case 0:
                text += #"{"@entity": "Category", "@id": "C\#(i)", "name": "Category \#(i)"}"# + "\n"
            case 1:
                text += #"{"@entity": "Note", "@id": "N\#(i)", "title": "Note \#(i) é", "createdAt": "2017-07-06T07:22:18Z", "#
                    + #""updatedAt": "2017-07-06T07:22:18Z", "category": "C\#(i + 3)", "tags": ["T\#(i + 1)", "U\#(i + 2)"]}"# + "\n"
            case 2:
                text += #"{"@entity": "Tag", "@id": "T\#(i)", "name": "Tag \#(i)"}"# + "\n\n"
            default:
                text += "{\n  \"@entity\": \"Tag\",\n  \"@id\": \"U\(i)\",\n  \"name\": \"Pretty \(i)\"\n}\n"
            }
        }
        return text
    }()

    /// Imports `text` from a file into a new store of `kind` with `jobs` threads and chunks of
    /// `chunkBytes`; the store, or the error's message.
    static func importFile(_ text: String, _ kind: StoreKind, jobs: Int, chunkBytes: Int = StoreImporter.parallelChunkBytes,
                           in directory: URL) throws -> Result<any PersistentStore, StoreError> {
        let file = directory.appendingPathComponent("data-\(jobs)-\(chunkBytes).jsonl")
        try Data(text.utf8).write(to: file)
        let descriptor = open(file.path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let store = try kind.make(try NotesFixture.model(), name: "notes-\(jobs)-\(chunkBytes)", in: directory)
        do throws(StoreError) {
            _ = try StoreImporter.importJSONLines(fileDescriptor: descriptor, into: store, options: ImportOptions(jobs: jobs),
                                                  chunkBytes: chunkBytes, progress: nil)
        } catch {
            #expect(!store.hasChanges)
            #expect(try store.count(FetchRequest(entityName: "Category")) == 0)
            return .failure(error)
        }
        return .success(try kind.reopen(store) ?? store)
    }

    @Test(arguments: [2, 3], [1, 64, 300, 1 << 20])
    func jobsStoreTheRowsOfOneThread(_ jobs: Int, _ chunkBytes: Int) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for kind in [StoreKind.sqlite, .inMemory] {
            let one = try Self.importFile(Self.lines, kind, jobs: 1, in: directory).get()
            let many = try Self.importFile(Self.lines, kind, jobs: jobs, chunkBytes: chunkBytes, in: directory).get()
            let expected = try StoreFileTests.dump(one)
            #expect(expected.count == 400)
            #expect(expected.first { $0.hasPrefix("Note N1:") }?.contains("tags->[T2,U3]") == true)
            #expect(try StoreFileTests.dump(many) == expected, "\(kind)")
        }
    }

    /// 249 good lines, the line given, then 100 more good lines.
    static func withLine250(_ line: String) -> String {
        var text = ""
        for i in 1...249 { text += #"{"@entity": "Category", "@id": "C\#(1000 + i)", "name": "Category \#(i)"}"# + "\n" }
        text += line + "\n"
        for i in 1...100 { text += #"{"@entity": "Tag", "@id": "T\#(i)", "name": "Tag \#(i)"}"# + "\n" }
        return text
    }

    @Test(arguments: [
        (#"{"@entity": "Note", "@id": "N9", "titel": "x"}"#, "line 250: Note 'N9': unknown key 'titel' on Note; did you mean 'title'?"),
        (#"{"@id": "N9"}"#, #"line 250: each line needs "@entity": the name of the object's entity"#),
        (#"{"@entity": "Notes", "@id": "N9"}"#, "line 250: unknown entity 'Notes'; did you mean 'Note'?"),
        (#"7"#, #"line 250: expected an object with "@entity", not integer"#),
        (#"{"@entity": "Note", "@id": "N9", "title": "x", "createdAt": "2017-07-06T07:22:18Z", "updatedAt": "2017-07-06T07:22:18Z", "category": "C7"}"#,
         "line 250: Note 'N9', category: no object with ID 'C7'"),
        (#"{"@entity": "Category", "@id": "C1003", "name": "Again"}"#, "line 250: object ID 'C1003' is already used"),
        (#"{"@entity": "Tag", "@id": "T0", "name": }"#, "import data is not valid JSON Lines: line 250, column 41: unexpected character '}'"),
        (#"{"@entity": "Tag", "@id": "T0", "#, "import data is not valid JSON Lines: line 251, column 1: expected a string key"),
    ])
    func jobsReportTheErrorOfOneThread(_ line: String, _ message: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = Self.withLine250(line)
        for kind in [StoreKind.sqlite, .inMemory] {
            for (jobs, chunkBytes) in [(1, StoreImporter.parallelChunkBytes), (2, 1), (3, 100), (2, 4096), (2, 1 << 20)] {
                let result = try Self.importFile(text, kind, jobs: jobs, chunkBytes: chunkBytes, in: directory)
                guard case .failure(let error) = result else {
                    Issue.record("\(kind), --jobs \(jobs), chunks of \(chunkBytes): no error")
                    continue
                }
                #expect(error.message == message, "\(kind), --jobs \(jobs), chunks of \(chunkBytes)")
            }
        }
    }

    /// The options' new entities are in the model the jobs check the rows against.
    @Test func jobsCheckRowsOfANewEntity() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("people.jsonl")
        try Data((1...300).map { #"{"@entity": "Person", "@id": "P\#($0)", "name": "Ann \#($0)"}"# + "\n" }.joined().utf8).write(to: file)
        let store = try SQLiteStore.create(at: directory.appendingPathComponent("grown.sqlite"), model: try NotesFixture.model())
        let descriptor = open(file.path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let person = EntityDescription(name: "Person", attributes: [AttributeDescription(name: "name", type: .string)])
        let summary = try StoreImporter.importJSONLines(fileDescriptor: descriptor, into: store, options: ImportOptions(newEntities: [person], jobs: 2),
                                                        chunkBytes: 512, progress: nil)
        #expect(summary.total == 300)
        #expect(try store.count(FetchRequest(statement: "Person WHERE name == 'Ann 300'")) == 1)
    }

    /// A top-level array is read on one thread: its elements are the records.
    @Test func aTopLevelArrayIsReadAsOneThreadReadsIt() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "  [" + #"{"@entity": "Tag", "@id": "T1", "name": "a"}, {"@entity": "Tag", "@id": "T2", "name": "b"}"# + "]\n"
        let store = try Self.importFile(text, .sqlite, jobs: 2, chunkBytes: 8, in: directory).get()
        #expect(try store.fetch(FetchRequest(entityName: "Tag")).map(\.objectID) == ["T1", "T2"])
    }
}
