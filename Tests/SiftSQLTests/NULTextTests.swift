import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// Text holding U+0000 in the SQLite store (issue 29 §1, ``NULTextFixture``): every string test,
/// sort and grouping gives the evaluator's answer, at the top level and nested, on a searchable
/// attribute's folded columns and on a plain one; and a JSON store keeps such text whole.
@Suite struct NULTextTests {
    let memory: AtomicStore
    let sqlite: SQLiteStore

    init() throws {
        let model = try NULTextFixture.model()
        memory = AtomicStore.inMemory(model: model)
        try NULTextFixture.fill(memory)
        sqlite = try SQLiteStore.inMemory(model: model)
        try NULTextFixture.fill(sqlite)
    }

    @Test(arguments: NULTextFixture.statements)
    func sqliteGivesTheEvaluatorsAnswer(_ statement: String) throws {
        let request = try FetchRequest(statement: statement)
        let expected = NULTextFixture.text(try memory.execute(request))
        #expect(NULTextFixture.text(try sqlite.execute(request)) == expected, "\(statement)")
    }

    /// The issue's case, written as it was reported: plain and `[cd]` on a searchable attribute,
    /// in SQL (nothing left to the evaluator).
    @Test func endsWithReadsPastANUL() throws {
        for statement in [#"Item WHERE name ENDSWITH "b""#, #"Item WHERE title ENDSWITH "b""#, #"Item WHERE name ENDSWITH[cd] "B""#] {
            let request = try FetchRequest(statement: statement)
            let ids = try sqlite.fetch(request).objectIDs.map(\.rawValue)
            #expect(ids.contains("i0") && ids.contains("i9") && ids.contains("i10"), "\(statement): \(ids)")
            #expect(try sqlite.generatedSQL(for: request).inMemoryPredicate == nil, "\(statement)")
        }
    }

    /// A JSON store written and read back holds the same NUL text, and answers alike.
    @Test func jsonStoreKeepsNULText() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-nul-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("items.json")
        let created = try AtomicStore.create(at: url, model: try NULTextFixture.model(), kind: .json)
        try NULTextFixture.fill(created)
        let json = try AtomicStore.open(at: url)
        for statement in NULTextFixture.statements {
            let request = try FetchRequest(statement: statement)
            #expect(NULTextFixture.text(try json.execute(request)) == NULTextFixture.text(try memory.execute(request)), "\(statement)")
        }
    }
}
