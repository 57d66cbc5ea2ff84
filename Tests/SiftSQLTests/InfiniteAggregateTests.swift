import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// Aggregates of stored infinities can be NaN in the evaluator (`inf + -inf`), which SQLite
/// holds as NULL: the compiled predicates must still give the evaluator's answers (NaN is no
/// nil, and `NOT (NaN > 0)` holds).
@Suite struct InfiniteAggregateTests {
    static let statements = [
        "Author WHERE NOT (books.@sum.price > 0)",
        "Author WHERE books.@sum.price == nil",
        "Author WHERE NOT (books.@avg.price < 0)",
        "Author WHERE sum:(books.price) != nil",
        "Author WHERE NOT (average:(books.price) >= 0)",
        "Author WHERE median:(books.price) == nil",
        "Author WHERE NOT (stddev:(books.price) > 1)",
        "Author WHERE books.@max.price == nil",
    ]

    @Test(arguments: statements)
    func infinitiesAggregateAsInTheEvaluator(_ statement: String) throws {
        let request = try FetchRequest(statement: statement)
        let sqlite = try SQLiteStore.inMemory(model: try SQLTestModel.model())
        let reference = AtomicStore.inMemory(model: try SQLTestModel.model())
        for store in [sqlite as any PersistentStore, reference] {
            try store.insert("Author", id: "a1", ["name": .string("Inf")])
            try store.insert("Author", id: "a2", ["name": .string("Finite")])
            try store.insert("Book", id: "b1", ["title": .string("Up"), "price": .double(.infinity)], relationships: ["author": ["a1"]])
            try store.insert("Book", id: "b2", ["title": .string("Down"), "price": .double(-.infinity)], relationships: ["author": ["a1"]])
            try store.insert("Book", id: "b3", ["title": .string("One"), "price": .double(1)], relationships: ["author": ["a2"]])
            try store.save()
        }
        #expect(try sqlite.fetch(request).objectIDs == reference.fetch(request).objectIDs)
    }
}
