import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQLStore
import SiftStore
import Testing

/// Text holding U+0000 against a PostgreSQL store (issue 29 §1, ``NULTextFixture``, the SQLite
/// store's statements): PostgreSQL's text cannot hold NUL, so the store refuses to write such a
/// text with a clear error (`ColumnCodecTests`), and a fetch whose constants hold one runs in
/// memory, with the evaluator's answers — never a constant cut short at its NUL (`"a\0b"`
/// bound as `"a"`). The store holds the fixture's texts with their NULs taken out, the
/// in-memory store the same.
@Suite struct NULTextTests {
    @Test func constantsHoldingNULGiveTheEvaluatorsAnswers() async throws {
        let model = try NULTextFixture.model()
        let test = try await StoreTestDatabase.make(model, label: "nultext")
        defer { test.database.drop() }
        try NULTextFixture.fill(test.store, withNUL: false)
        let store = try test.reopened()
        let memory = AtomicStore.inMemory(model: model)
        try NULTextFixture.fill(memory, withNUL: false)
        var inServer = 0
        for statement in NULTextFixture.statements {
            let request = try FetchRequest(statement: statement)
            #expect(NULTextFixture.text(try store.execute(request)) == NULTextFixture.text(try memory.execute(request)), "\(statement)")
            let generated = try store.generatedSQL(for: request)
            if statement.contains("\\0") {
                // (A constant with a NUL is never sent.)
                #expect(generated.inMemoryPredicate != nil || request.predicate == nil, "\(statement)")
            } else if generated.inMemoryPredicate == nil {
                inServer += 1
            }
        }
        // The statements without a NUL constant mostly run in the server.
        #expect(inServer > 20)
    }

    /// A change holding NUL is refused whole, naming the character, and leaves the store as it was.
    @Test func writingNULIsRefusedClearly() async throws {
        let test = try await StoreTestDatabase.make(try NULTextFixture.model(), label: "nulwrite")
        defer { test.database.drop() }
        try NULTextFixture.fill(test.store, withNUL: false)
        do {
            try test.store.update(ObjectID("i3"), attributes: ["title": .string("a\u{0}b")], relationships: [:])
            Issue.record("a text holding NUL was accepted")
        } catch {
            #expect(error.code == .invalidValue && error.message.contains("NUL"), "\(error)")
        }
        let reopened = try test.reopened()
        let titles = try reopened.fetch(FetchRequest(statement: #"Item WHERE title == "ab""#)).objectIDs.map(\.rawValue)
        #expect(titles == ["i0", "i3"])  // ("a\0b" stored without its NUL is "ab" too)
    }
}
