import Testing
@testable import SiftEvaluation
import SiftLanguage

/// Every collection operator of the catalogue (``CollectionOperator``) is evaluated, not read
/// as a plain key (which would be nil).
@Suite struct CollectionOperatorCoverageTests {
    /// A predicate using each operator on `person`, true only where it is applied.
    static let predicates: [CollectionOperator: String] = [
        .count: "items.@count == 3",
        .sum: "items.@sum.qty == 7",
        .avg: "items.@avg.qty > 2.3 AND items.@avg.qty < 2.4",
        .min: "items.@min.qty == 1",
        .max: "items.@max.qty == 4",
        .distinctUnionOfObjects: "tags.@distinctUnionOfObjects.name[SIZE] == 2",
        .unionOfObjects: "items.@unionOfObjects.price[SIZE] == 2",
    ]

    @Test func everyOperatorIsInTheTable() {
        #expect(Set(Self.predicates.keys) == Set(CollectionOperator.allCases))
    }

    @Test(arguments: CollectionOperator.allCases)
    func evaluates(_ op: CollectionOperator) throws {
        let format = try #require(Self.predicates[op], "\(op) has no predicate in the table")
        #expect(format.contains(op.key + ".") || format.contains(op.key + " "))
        #expect(holds(format, on: person) == true)
    }
}
