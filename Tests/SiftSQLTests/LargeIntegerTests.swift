import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// Integer 64 values beyond 2^53 against doubles in the SQLite store (issue 29 §2,
/// ``LargeIntegerFixture``): compared exactly, as the evaluator compares them, at the top level
/// and nested. (SQLite compares an integer with a real exactly itself.)
@Suite struct LargeIntegerTests {
    let memory: AtomicStore
    let sqlite: SQLiteStore

    init() throws {
        let model = try LargeIntegerFixture.model()
        memory = AtomicStore.inMemory(model: model)
        try LargeIntegerFixture.fill(memory)
        sqlite = try SQLiteStore.inMemory(model: model)
        try LargeIntegerFixture.fill(sqlite)
    }

    @Test(arguments: LargeIntegerFixture.statements)
    func sqliteGivesTheEvaluatorsAnswer(_ statement: String) throws {
        let request = try LargeIntegerFixture.request(statement)
        let expected = LargeIntegerFixture.text(try memory.execute(request))
        #expect(LargeIntegerFixture.text(try sqlite.execute(request)) == expected, "\(statement)")
    }

    /// The issue's cases, against the evaluator's answers written out.
    @Test func theIssuesCases() throws {
        let above = try sqlite.fetch(FetchRequest(statement: "Item WHERE grp > 9007199254740992.0")).objectIDs.map(\.rawValue)
        #expect(above.contains("i1") && !above.contains("i0"))
        #expect(try sqlite.fetch(FetchRequest(statement: "Item WHERE grp == 9223372036854775808")).isEmpty)
    }
}
