import Foundation
import Sift
import Testing

/// A store whose extension says nothing of its kind (none, or one Sift does not know) is
/// opened by its first bytes: SQLite's header, a binary property list's, or JSON's `{`.
@Suite struct StoreHeaderTests {
    /// The Notes fixture imported into a store of `kind` (an extension), then renamed `name`.
    static func notesStore(_ kind: String, renamedTo name: String, in directory: URL) throws -> String {
        let store = directory.appendingPathComponent("notes.\(kind)").path
        try SQLiteCommandTests.importNotes(store)
        let renamed = directory.appendingPathComponent(name).path
        try FileManager.default.moveItem(atPath: store, toPath: renamed)
        return renamed
    }

    @Test(arguments: [("sqlite", "data"), ("json", "data"), ("plist", "data"), ("sqlite", "notes.bak"), ("json", "notes.store")])
    func aStoreIsOpenedByItsHeader(kind: String, name: String) throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.notesStore(kind, renamedTo: name, in: directory)
        let result = try SiftBinary.run("query", "--store", store, "COUNT Note")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "{\"count\": 5}\n")
    }

    @Test func sqlAndExplainTakeASQLiteStoreByItsHeader() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.notesStore("sqlite", renamedTo: "data", in: directory)
        let result = try SiftBinary.run("sql", "--store", store, "Note WHERE title BEGINSWITH 'My'")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("SELECT"), "\(result.stdout)")
    }

    @Test func aStoreWithoutAnExtensionIsChangedInItsKind() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Self.notesStore("plist", renamedTo: "data", in: directory)
        let update = try SiftBinary.run("update", "--store", store, "Note SET title = 'x' WHERE title == 'My First Note'")
        #expect(update.status == 0, "\(update.stderr)")
        let head = try #require(FileManager.default.contents(atPath: store)?.prefix(8))
        #expect(Array(head) == Array("bplist00".utf8))
        #expect(try SiftBinary.run("query", "--store", store, "COUNT Note WHERE title == 'x'").stdout == "{\"count\": 1}\n")
    }

    @Test func aFileOfNoKnownHeaderIsRefusedAsBefore() throws {
        let directory = try SQLiteCommandTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("data").path
        try "name,age\nAnn,30\n".write(toFile: store, atomically: false, encoding: .utf8)
        let result = try SiftBinary.run("query", "--store", store, "COUNT Note")
        #expect(result.status == 1)
        #expect(result.stderr == "error: cannot tell the store kind of data: use .json (JSON store) or .plist (binary store)\n")
    }

    @Test func theKindOfHeaders() {
        #expect(StoreFileKind(header: Array("SQLite format 3".utf8) + [0, 16, 0]) == .sqlite)
        #expect(StoreFileKind(header: Array("bplist00\u{D4}".utf8)) == .binaryPropertyList)
        #expect(StoreFileKind(header: Array(" \n\t{\"sift\": \"store\"}".utf8)) == .json)
        #expect(StoreFileKind(header: Array("SQLite format 2".utf8)) == nil)
        #expect(StoreFileKind(header: Array("[1, 2]".utf8)) == nil)
        #expect(StoreFileKind(header: [UInt8]()) == nil)
        #expect(StoreFileKind(fileExtension: "SQLITE3") == .sqlite)
        #expect(StoreFileKind(fileExtension: "bak") == nil)
    }
}
