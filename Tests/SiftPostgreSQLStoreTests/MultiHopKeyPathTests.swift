import Foundation
import PostgreSQLTestSupport
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQLStore
import SiftStore
import Testing

/// Key paths across several to-many steps in PostgreSQL (``MultiHopFixture``, the SQLite
/// store's cases): the same compiler's SQL through PostgreSQL's dialect gives the evaluator's
/// answers, and what needs none of Sift's SQLite functions runs in the server.
@Suite struct MultiHopKeyPathTests {
    /// The statements that must run entirely in the server: qualifiers, membership, counts,
    /// SUBQUERY and elements by place (sums, averages and extremes of a collection are Sift's
    /// functions in SQLite, and partly in memory here).
    static let inServer: Set<String> = Set(MultiHopFixture.statements.filter { statement in
        !["@sum", "@avg", "@min", "@max", "sum:"].contains { statement.contains($0) }
    })

    @Test func runWithTheEvaluatorsAnswers() async throws {
        let test = try await StoreTestDatabase.make(try MultiHopFixture.model(), label: "multihop")
        defer { test.database.drop() }
        try MultiHopFixture.fill(test.store)
        let memory = AtomicStore.inMemory(model: try MultiHopFixture.model())
        try MultiHopFixture.fill(memory)
        for statement in MultiHopFixture.statements + MultiHopFixture.selects {
            let request = try MultiHopFixture.request(statement)
            #expect(MultiHopFixture.text(try test.store.execute(request)) == MultiHopFixture.text(try memory.execute(request)), "\(statement)")
            if Self.inServer.contains(statement) {
                let generated = try test.store.generatedSQL(for: request)
                #expect(generated.inMemoryPredicate == nil && !generated.sortsInMemory, "\(statement): \(generated.inMemoryReason ?? "")")
            }
        }
    }
}
