import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
@testable import SiftStore
import Testing

/// Every function of the catalogue (``BuiltinFunction``) is handled by the evaluator, the typing
/// and the SQL compiler: it evaluates, it has a type, and it compiles to SQL or is one of the
/// functions SQL is known not to compute (they run in memory) — with the evaluator's answer.
@Suite struct BuiltinFunctionCoverageTests {
    /// A fetch calling each function, and whether SQL computes it.
    static let calls: [BuiltinFunction: (statement: String, inSQL: Bool)] = [
        .sum: ("Author WHERE sum:(books.year) > 1900", true),
        .count: ("Author WHERE count:(books.year) >= 1", true),
        .min: ("Author WHERE min:(books.year) > 1900", true),
        .max: ("Author WHERE max:(books.year) > 1900", true),
        .average: ("Author WHERE average:(books.year) > 1900", true),
        .median: ("Author WHERE median:(books.year) > 1900", true),
        .mode: ("Author WHERE mode:(books.year) > 1900", true),
        .stddev: ("Author WHERE stddev:(books.year) >= 0", true),
        .add: ("Book WHERE add:to:(year, 1) > 1975", true),
        .subtract: ("Book WHERE from:subtract:(year, 1) > 1975", true),
        .multiply: ("Book WHERE multiply:by:(year, 2) > 3950", true),
        .divide: ("Book WHERE divide:by:(year, 2) > 987", true),
        .modulus: ("Book WHERE modulus:by:(year, 2) == 0", true),
        .raise: ("Book WHERE raise:toPower:(year, 1) > 1975", true),
        .sqrt: ("Book WHERE sqrt:(year) > 44", true),
        .log: ("Book WHERE log:(year) > 3", true),
        .ln: ("Book WHERE ln:(year) > 7", true),
        .exp: ("Book WHERE exp:(price) > 1", true),
        .floor: ("Book WHERE floor:(price) > 1", true),
        .ceiling: ("Book WHERE ceiling:(price) > 1", true),
        .abs: ("Book WHERE abs:(year) > 1975", true),
        .trunc: ("Book WHERE trunc:(price) > 1", true),
        .uppercase: ("Book WHERE uppercase:(title) BEGINSWITH 'S'", true),
        .lowercase: ("Book WHERE lowercase:(title) BEGINSWITH 's'", true),
        .canonical: ("Book WHERE canonical:(title) BEGINSWITH 's'", true),
        .now: ("Book WHERE now() > CAST(0, 'NSDate')", false),
        .random: ("Book WHERE random() < 2", false),
        .randomBelow: ("Book WHERE random:(10) < 10", false),
        .bitwiseAnd: ("Book WHERE bitwiseAnd:with:(year, 1) == 0", true),
        .bitwiseOr: ("Book WHERE bitwiseOr:with:(year, 1) > 1975", true),
        .bitwiseXor: ("Book WHERE bitwiseXor:with:(year, 1) > 1975", true),
        .leftShift: ("Book WHERE leftshift:by:(year, 1) > 3950", true),
        .rightShift: ("Book WHERE rightshift:by:(year, 1) > 987", true),
        .onesComplement: ("Book WHERE onesComplement:(year) < -1975", true),
        .noindex: ("Book WHERE noindex:(year) > 1975", true),
    ]

    @Test func everyFunctionIsInTheTable() {
        #expect(Set(Self.calls.keys) == Set(BuiltinFunction.allCases))
        #expect(FunctionCatalog.all.map(\.selector) == BuiltinFunction.allCases.map(\.selector))
    }

    @Test(arguments: BuiltinFunction.allCases)
    func evaluatesTypesAndCompiles(_ function: BuiltinFunction) throws {
        let call = try #require(Self.calls[function], "\(function.selector) has no call in the table")
        let request = try FetchRequest(statement: call.statement)
        // The statement calls the function it stands for.
        #expect(call.statement.contains(function.selector.hasSuffix(":") ? "\(function.selector)(" : "\(function.selector)()"))

        // Typing: a call of arguments of known types has a known type.
        let argument = function.isCollectionAggregate ? TypedValue(.collection(.scalar(.integer)))
            : [.uppercase, .lowercase, .canonical].contains(function) ? TypedValue(.scalar(.string)) : TypedValue(.scalar(.integer))
        #expect(ExpressionTyping.function(function, Array(repeating: argument, count: function.arity)).type != .any)

        // SQL computes it, or leaves it (and only it) to the evaluator.
        let store = try SQLTestModel.store()
        let generated = try store.generatedSQL(for: request)
        if call.inSQL {
            #expect(generated.inMemoryPredicate == nil, "\(function.selector) does not compile to SQL")
        } else {
            #expect(generated.inMemoryPredicate != nil, "\(function.selector) compiled to SQL")
        }

        // The evaluator's answer (the reference store evaluates in memory), and the same from SQL.
        let expected = try DictionarySQLTests.referenceStore().fetch(request).objectIDs
        #expect(!expected.isEmpty, "\(call.statement) matches nothing: it proves nothing")
        #expect(try store.fetch(request).objectIDs == expected)
    }
}
