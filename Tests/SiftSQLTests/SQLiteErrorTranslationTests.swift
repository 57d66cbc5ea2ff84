import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftSQLiteStore
import SiftStore
import Testing

/// SQLite's errors reach users in words (``SQLiteStore/storeError(_:file:)``): a damaged file
/// is named with what to do about it, never `database disk image is malformed (code 11) in:
/// SELECT …`; a MATCHES that fails inside SQL is the evaluator's own error, with its message;
/// and a store that fails while its objects are read says so instead of ending the results
/// early as if there were no more.
@Suite struct SQLiteErrorTranslationTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-sqlite-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A store of 4000 books (some 60 pages of rows) at `url`.
    static func library(at url: URL) throws {
        let store = try SQLiteStore.create(at: url, model: try SQLTestModel.model())
        try store.performChanges {
            for n in 0..<4000 {
                try store.insert("Book", id: ObjectID("b\(n)"), ["title": .string("book \(n) " + String(repeating: "x", count: 60)), "year": .int(Int64(n))])
            }
        }
        try store.save()
    }

    /// Overwrites `count` pages of 4096 bytes from page `first` with 0xFF.
    static func damage(_ url: URL, first: Int, count: Int) throws {
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: UInt64(first * 4096))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: count * 4096))
        try handle.close()
    }

    static func expectDamaged(_ error: (any Error)?, _ url: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error = error as? StoreError else {
            Issue.record("not a StoreError: \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(error.code == .corruptStore, sourceLocation: sourceLocation)
        #expect(error.message.contains("\(url.path) is damaged (SQLite: database disk image is malformed)"), "\(error.message)", sourceLocation: sourceLocation)
        #expect(error.message.contains("sqlite3 \(url.path) .recover"), "\(error.message)", sourceLocation: sourceLocation)
        #expect(!error.message.contains("SELECT") && !error.message.contains("code 11"), "\(error.message)", sourceLocation: sourceLocation)
    }

    @Test func aDamagedFileIsNamedWithWhatToDo() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("library.sqlite")
        try Self.library(at: url)
        try Self.damage(url, first: 20, count: 30)
        let store = try SQLiteStore.open(at: url)
        Self.expectDamaged(#expect(throws: (any Error).self) { try store.count(FetchRequest(statement: "Book")) }, url)
        Self.expectDamaged(#expect(throws: (any Error).self) { try store.execute(FetchRequest(statement: "SELECT title FROM Book WHERE year >= 0")) }, url)
        Self.expectDamaged(#expect(throws: (any Error).self) { try store.fetchSections(FetchRequest(statement: "Book SORT BY year SECTION BY year")) }, url)
        // Objects streamed from the query: the ones before the damage, then the error.
        let objects = try store.fetch(FetchRequest(statement: "Book"))
        var read = 0
        Self.expectDamaged(#expect(throws: (any Error).self) { try objects.forEachObject { _ in read += 1 } }, url)
        #expect(read < 4000)
        // Iteration, which cannot throw, stops there too and leaves the error.
        let again = try store.fetch(FetchRequest(statement: "Book"))
        #expect(again.reduce(0) { n, _ in n + 1 } < 4000)
        Self.expectDamaged(again.readError, url)
        var ids = try FetchRequest(statement: "Book")
        ids.resultType = .objectIDs
        Self.expectDamaged(#expect(throws: (any Error).self) { try store.execute(ids) }, url)
    }

    @Test func aFileDamagedAtItsStartOrCutShortIsRefusedWhenOpened() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("library.sqlite")
        try Self.library(at: url)
        let truncated = directory.appendingPathComponent("cut.sqlite")
        try Data(try Data(contentsOf: url).prefix(50_000)).write(to: truncated)
        Self.expectDamaged(#expect(throws: StoreError.self) { try SQLiteStore.open(at: truncated) }, truncated)
        let text = directory.appendingPathComponent("notes.sqlite")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: text)
        let error = #expect(throws: StoreError.self) { try SQLiteStore.open(at: text) }
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("\(text.path) is not a SQLite database") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("code") == false, "\(error?.message ?? "")")
    }

    /// MATCHES past its backtracking limit inside SQL: the evaluator's error and message.
    @Test func aMatchesLimitInSQLIsTheEvaluatorsError() throws {
        let subject = String(repeating: "a", count: 40) + "b"
        let store = try SQLTestModel.store()
        try store.update("b1", ["title": .string(subject)])
        try store.save()
        let evaluatorError = #expect(throws: EvaluationError.self) {
            try CompiledPredicate(format: #"title MATCHES "(a+)+$""#).evaluate(.dictionary(ValueDictionary([("title", .string(subject))])))
        }
        let expected = try #require(evaluatorError?.message)
        for statement in [#"COUNT Book WHERE title MATCHES "(a+)+$""#, #"Book WHERE title MATCHES "(a+)+$""#,
                          #"SELECT title FROM Book WHERE title MATCHES "(a+)+$""#,
                          #"Book WHERE title MATCHES "(a+)+$" SORT BY title SECTION BY title"#] {
            let request = try FetchRequest(statement: statement)
            #expect(try store.generatedSQL(for: request).inMemoryPredicate == nil, "\(statement) runs in SQL")
            let error = #expect(throws: EvaluationError.self, "\(statement)") {
                if request.sectionNameKeyPath != nil {
                    for section in try store.fetchSections(request).sections { try section.objects.forEachObject { _ in } }
                } else if case .objects(let objects) = try store.execute(request) {
                    try objects.forEachObject { _ in }
                }
            }
            #expect(error?.code == .regularExpressionLimit)
            #expect(error?.message == expected, "\(statement)")
        }
    }

    /// Every primary code reads as words; none shows SQL or a bare code.
    @Test(arguments: [Int32(1), 5, 7, 8, 10, 11, 13, 14, 18, 19, 26, 3, 23, 17, 9, 999])
    func everyCodeReadsAsWords(_ code: Int32) {
        let error = SQLiteError(code: code, message: "something happened", sql: "SELECT secret FROM t")
        let translated = SQLiteStore.storeError(error, file: URL(fileURLWithPath: "/data/notes.sqlite"))
        #expect(!translated.message.contains("SELECT"))
        #expect(code == 9 || translated.message.contains("something happened") || translated.message.contains("notes.sqlite"), "\(translated.message)")
    }
}
