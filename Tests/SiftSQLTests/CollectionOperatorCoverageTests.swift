import SiftEvaluation
import SiftLanguage
import SiftSQL
@testable import SiftStore
import Testing

/// Every collection operator of the catalogue (``CollectionOperator``) is typed and compiled
/// to SQL, or is one SQL is known not to compute (it runs in memory) — with the evaluator's
/// answer either way.
@Suite struct CollectionOperatorCoverageTests {
    /// A fetch using each operator, and whether SQL computes it.
    static let fetches: [CollectionOperator: (statement: String, inSQL: Bool)] = [
        .count: ("Author WHERE books.@count >= 1", true),
        .sum: ("Author WHERE books.@sum.year > 1900", true),
        .avg: ("Author WHERE books.@avg.year > 1900", true),
        .min: ("Author WHERE books.@min.year > 1900", true),
        .max: ("Author WHERE books.@max.year > 1900", true),
        .distinctUnionOfObjects: ("Author WHERE books.@distinctUnionOfObjects.year[SIZE] == 1", false),
        .unionOfObjects: ("Author WHERE books.@unionOfObjects.year[SIZE] == 1", false),
    ]

    @Test func everyOperatorIsInTheTable() {
        #expect(Set(Self.fetches.keys) == Set(CollectionOperator.allCases))
    }

    @Test(arguments: CollectionOperator.allCases)
    func typesAndCompiles(_ op: CollectionOperator) throws {
        let fetch = try #require(Self.fetches[op], "\(op) has no fetch in the table")
        #expect(fetch.statement.contains(op.key))
        let request = try FetchRequest(statement: fetch.statement)
        let store = try SQLTestModel.store()
        let generated = try store.generatedSQL(for: request)
        if fetch.inSQL {
            #expect(generated.inMemoryPredicate == nil, "\(op) does not compile to SQL")
        } else {
            #expect(generated.inMemoryPredicate != nil, "\(op) compiled to SQL")
        }
        let expected = try DictionarySQLTests.referenceStore().fetch(request).objectIDs
        #expect(!expected.isEmpty, "\(fetch.statement) matches nothing: it proves nothing")
        #expect(try store.fetch(request).objectIDs == expected)
    }
}
