import Foundation
import SiftLanguage
import SiftSQLite
import SiftStore
import Testing
@testable import SiftSQL

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
}
