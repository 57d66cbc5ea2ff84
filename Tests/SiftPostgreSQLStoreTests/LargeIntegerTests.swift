import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQLStore
import SiftStore
import Testing

/// Integer 64 values beyond 2^53 against doubles in a PostgreSQL store (issue 29 §2,
/// ``LargeIntegerFixture``, the SQLite store's statements): PostgreSQL converts a `bigint`
/// compared with a `float8` (or a `numeric` with a `float8`) to a double, so the compiler writes
/// the comparison exactly, as the evaluator makes it — at the top level and nested.
@Suite struct LargeIntegerTests {
    @Test func comparisonsAreExact() async throws {
        let model = try LargeIntegerFixture.model()
        let test = try await StoreTestDatabase.make(model, label: "largeint")
        defer { test.database.drop() }
        try LargeIntegerFixture.fill(test.store)
        let store = try test.reopened()
        let memory = AtomicStore.inMemory(model: model)
        try LargeIntegerFixture.fill(memory)
        var mismatches: [String] = []
        var inServer = 0
        for statement in LargeIntegerFixture.statements {
            let request = try LargeIntegerFixture.request(statement)
            let got = LargeIntegerFixture.text(try store.execute(request)), expected = LargeIntegerFixture.text(try memory.execute(request))
            if got != expected { mismatches.append("\(statement): \(got), expected \(expected)") }
            if request.predicate != nil, try store.generatedSQL(for: request).inMemoryPredicate == nil { inServer += 1 }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(LargeIntegerFixture.statements.count) disagree:\n\(mismatches.prefix(30).joined(separator: "\n"))")
        // All but TERNARY of an integer and a double (which PostgreSQL would make a double) run in
        // the server: 343 of the 372 statements (the rest have no predicate).
        #expect(inServer >= 340, "\(inServer) of \(LargeIntegerFixture.statements.count) predicates wholly in the server")
    }

    /// The issue's cases, in the server.
    @Test func theIssuesCases() async throws {
        let model = try LargeIntegerFixture.model()
        let test = try await StoreTestDatabase.make(model, label: "largeint2")
        defer { test.database.drop() }
        try LargeIntegerFixture.fill(test.store)
        let above = try FetchRequest(statement: "Item WHERE grp > 9007199254740992.0")
        let ids = try test.store.fetch(above).objectIDs.map(\.rawValue)
        #expect(ids.contains("i1") && !ids.contains("i0"))
        let equal = try FetchRequest(statement: "Item WHERE grp == 9223372036854775808")
        #expect(try test.store.fetch(equal).isEmpty)
        #expect(try test.store.generatedSQL(for: above).inMemoryPredicate == nil)
        #expect(try test.store.generatedSQL(for: equal).inMemoryPredicate == nil)
    }
}
