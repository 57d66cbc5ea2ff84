import Foundation
import SiftLanguage
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// Opening a SQLite store to read never writes to its file: a Sift store someone switched to
/// the rollback journal stays in it (opening used to run `PRAGMA journal_mode=WAL`, rewriting
/// the header), and fetches leave every byte as it was, with no WAL file made beside it.
@Suite struct ReadingLeavesTheFileAloneTests {
    @Test func aStoreInRollbackJournalModeIsReadWithoutChangingAByte() throws {
        let url = try SQLiteChangesTests.temporaryURL()
        defer { SQLiteChangesTests.removeDirectory(of: url) }
        try SQLiteChangesTests.library(at: url, books: 30)
        do {
            let database = try SQLiteDatabase(path: url.path, options: [])
            try database.execute("PRAGMA journal_mode=DELETE")
        }
        let before = try Data(contentsOf: url)
        // Byte 18 and 19 of the header: 1 for the rollback journal, 2 for WAL.
        #expect(before[18] == 1 && before[19] == 1)
        do {
            let store = try SQLiteStore.open(at: url)
            #expect(try store.count(FetchRequest(statement: "Book WHERE ANY tags.name == 'classic'")) == 10)
            var sectioned = try FetchRequest(statement: "Book SORT BY author.name, title")
            sectioned.sectionNameKeyPath = "author.name"
            #expect(try store.fetchSections(sectioned).sections.count == 2)
            #expect(try store.fetch(FetchRequest(statement: "Book WHERE title MATCHES 'Book 1.' SORT BY title")).count == 10)
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    /// Stores are read through a memory map of `SQLiteStore.memoryMapBytes` (a first count of a
    /// million rows no longer copies every page), Sift's and other databases alike; reading so
    /// still leaves every byte of a database opened read-only as it was.
    @Test func storesAreReadThroughAMemoryMapThatLeavesTheFileAlone() throws {
        let url = try SQLiteChangesTests.temporaryURL()
        defer { SQLiteChangesTests.removeDirectory(of: url) }
        try SQLiteChangesTests.library(at: url, books: 30)
        let foreign = url.deletingLastPathComponent().appendingPathComponent("plain.db")
        do {
            let database = try SQLiteDatabase(path: foreign.path, options: [.create])
            try database.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t(name) VALUES ('a'), ('b'), ('c')")
        }
        for (file, statement, expected) in [(url, "Book WHERE ANY tags.name == 'classic'", 10), (foreign, "t WHERE name != 'b'", 2)] {
            let before = try Data(contentsOf: file)
            let store = try SQLiteStore.open(at: file, readOnly: true)
            #expect(try store.database.scalar("PRAGMA mmap_size") == .integer(Int64(SQLiteStore.memoryMapBytes)))
            #expect(try store.count(FetchRequest(statement: statement)) == expected)
            #expect(try Data(contentsOf: file) == before)
        }
    }
}
