import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftSQLiteStore
import Testing

/// `sift_call` and `sift_cast`: the evaluator's functions and CAST from SQL, each argument read
/// back by its kind letter (booleans from 0/1, dates from seconds), the result stored as a
/// column of its kind holds it.
@Suite struct SQLCallFunctionsTests {
    struct Call: Sendable, CustomTestStringConvertible {
        let sql: String
        let bindings: [SQLiteValue]
        let expected: SQLiteValue
        var testDescription: String { "\(sql) \(bindings)" }
    }

    static let calls: [Call] = [
        Call(sql: "SELECT sift_call('uppercase:', 's', ?1)", bindings: [.text("straße")], expected: .text("STRASSE")),
        Call(sql: "SELECT sift_call('canonical:', 's', ?1)", bindings: [.text("Café")], expected: .text("cafe")),
        Call(sql: "SELECT sift_call('abs:', 'i', ?1)", bindings: [.integer(.min)], expected: .real(9223372036854775808.0)),
        Call(sql: "SELECT sift_call('abs:', 'b', ?1)", bindings: [.integer(1)], expected: .integer(1)),
        Call(sql: "SELECT sift_call('floor:', 'r', ?1)", bindings: [.real(-1.5)], expected: .real(-2)),
        Call(sql: "SELECT sift_call('sqrt:', 'i', ?1)", bindings: [.integer(-1)], expected: .null),  // NaN: SQLite holds NULL
        Call(sql: "SELECT sift_call('modulus:by:', 'ii', ?1, ?2)", bindings: [.integer(-7), .integer(3)], expected: .integer(-1)),
        Call(sql: "SELECT sift_call('modulus:by:', 'ii', ?1, ?2)", bindings: [.integer(7), .integer(0)], expected: .null),
        Call(sql: "SELECT sift_call('raise:toPower:', 'ir', ?1, ?2)", bindings: [.integer(2), .real(0.5)], expected: .real(2.0.squareRoot())),
        Call(sql: "SELECT sift_call('bitwiseXor:with:', 'ii', ?1, ?2)", bindings: [.integer(6), .integer(3)], expected: .integer(5)),
        Call(sql: "SELECT sift_call('abs:', 'i', NULL)", bindings: [], expected: .null),
        Call(sql: "SELECT sift_cast(?1, 'b', 'NSString')", bindings: [.integer(1)], expected: .text(ValueText.text(.bool(true)))),
        Call(sql: "SELECT sift_cast(?1, 'r', 'NSString')", bindings: [.real(2)], expected: .text(ValueText.text(.double(2)))),
        Call(sql: "SELECT sift_cast(?1, 'i', 'NSDate')", bindings: [.integer(86400)], expected: .real(86400)),
        Call(sql: "SELECT sift_cast(NULL, 'n', 'NSString')", bindings: [], expected: .null),
    ]

    @Test(arguments: calls)
    func callsGiveTheEvaluatorsValue(_ call: Call) throws {
        let database = try siftDatabase()
        #expect(try database.scalar(call.sql, call.bindings) == call.expected)
    }

    /// Errors are the evaluator's; unknown or nondeterministic selectors and kinds that do not
    /// match the arguments are refused.
    @Test(arguments: [
        "SELECT sift_call('uppercase:', 'i', 5)",
        "SELECT sift_call('random', '')",
        "SELECT sift_call('now', '')",
        "SELECT sift_call('fooBar:', 'i', 1)",
        "SELECT sift_call('abs:', 'ii', 1)",
        "SELECT sift_call('abs:', 'q', 1)",
        "SELECT sift_call(1, 'i', 1)",
        "SELECT sift_cast('abc', 's', 'NSNumber')",
        "SELECT sift_cast(1, 'i', 'NSThing')",
    ])
    func refusedCalls(_ sql: String) throws {
        let database = try siftDatabase()
        #expect(throws: SQLiteError.self) { try database.scalar(sql) }
    }
}
