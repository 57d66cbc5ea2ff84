import Foundation
import SiftEvaluation
@testable import SiftPostgreSQLStore
@testable import SiftSQL
@testable import SiftSQLStore
import SiftSQLite
@testable import SiftSQLiteStore
import SiftStore
import Testing

/// A decimal meeting a double in PostgreSQL's dialect: converted as the evaluator converts it
/// (`sift_decimal_double`, a PostgreSQL store's number function) and compared, computed or passed
/// to a function as a double; a decimal constant converted in Swift; a decimal with an integer
/// compared exactly as `numeric`. Without the number functions (a store made before them), the
/// same requests leave the test to the evaluator.
@Suite struct PostgreSQLDecimalSQLTests {
    static let json = #"""
    {"name": "Ledger", "entities": [
      {"name": "Item", "attributes": [
        {"name": "amount", "type": "Decimal"}, {"name": "weight", "type": "Double"}, {"name": "count", "type": "Integer 64"}]}
    ]}
    """#

    struct Case: Sendable, CustomTestStringConvertible {
        let statement: String
        let sql: String
        let bindings: [String]
        var testDescription: String { statement }
    }

    static let cases: [Case] = [
        // A double literal meeting a Decimal attribute is the decimal it spells (typed rules):
        // compared exactly, as numeric.
        Case(statement: "Item WHERE amount >= 2.5",
             sql: #"WHERE nullif("t0"."amount", 'NaN') >= CAST($1 AS numeric)"#, bindings: ["'2.5'"]),
        // A computed double stays a double.
        Case(statement: "Item WHERE amount >= 2.5 + 0",
             sql: #"WHERE nullif(sift_decimal_double("t0"."amount"), 'NaN') >= $1"#, bindings: ["2.5"]),
        Case(statement: "Item WHERE amount < weight",
             sql: #"WHERE nullif(sift_decimal_double("t0"."amount"), 'NaN') < nullif("t0"."weight", 'NaN')"#, bindings: []),
        // Nil-safe: equal, or both nil (tested on the stored columns, where NaN is not NULL).
        Case(statement: "Item WHERE weight == amount",
             sql: #"WHERE coalesce(nullif("t0"."weight", 'NaN') = nullif(sift_decimal_double("t0"."amount"), 'NaN'), "t0"."weight" IS NULL AND sift_decimal_double("t0"."amount") IS NULL)"#,
             bindings: []),
        // A decimal constant is converted here, by Foundation.
        Case(statement: #"Item WHERE weight > CAST("0.1", "NSDecimalNumber")"#,
             sql: #"WHERE nullif("t0"."weight", 'NaN') > $1"#, bindings: ["0.1"]),
        // Foundation's negation leaves a zero as it is: 0 - d, never -0.0 (against a computed
        // double; a double literal meeting the negated decimal is a decimal, compared exactly).
        Case(statement: "Item WHERE -amount <= 1.5 + 0",
             sql: #"WHERE 0 - nullif(sift_decimal_double("t0"."amount"), 'NaN') <= $1"#, bindings: ["1.5"]),
        Case(statement: "Item WHERE -amount <= 1.5",
             sql: #"WHERE -nullif("t0"."amount", 'NaN') <= CAST($1 AS numeric)"#, bindings: ["'1.5'"]),
        // Arithmetic on a value that may be NaN: computed with NaN kept, then NaN read as NULL.
        Case(statement: "Item WHERE amount * 2.0 > 3",
             sql: #"WHERE nullif(sift_decimal_double("t0"."amount") * $1, 'NaN') > $2"#, bindings: ["2.0", "3"]),
        // … so the nil test of the result is its NaN-kept value's (a division by zero is nil).
        Case(statement: "Item WHERE weight / count == amount",
             sql: #"WHERE coalesce(nullif("t0"."weight" / nullif("t0"."count", 0), 'NaN') = nullif(sift_decimal_double("t0"."amount"), 'NaN'), "t0"."weight" / nullif("t0"."count", 0) IS NULL AND sift_decimal_double("t0"."amount") IS NULL)"#,
             bindings: []),
        Case(statement: "Item WHERE floor:(amount) == 2",
             sql: #"WHERE nullif(floor(sift_decimal_double("t0"."amount")), 'NaN') = $1"#, bindings: ["2"]),
        // ** of a stored double as it is stored: pow(NaN, 0) is 1, as in the evaluator.
        Case(statement: "Item WHERE weight ** 0 == 1",
             sql: #"WHERE nullif(power(CAST("t0"."weight" AS double precision), CAST($1 AS double precision)), 'NaN') = $2"#, bindings: ["0", "1"]),
        // A product that could be NaN (an infinity times zero) is NULL for it, as a stored NaN is.
        Case(statement: "Item WHERE weight * count < 1",
             sql: #"WHERE nullif("t0"."weight" * "t0"."count", 'NaN') < $1"#, bindings: ["1"]),
        Case(statement: #"Item WHERE CAST(amount, "NSString") == "1.5""#,
             sql: #"WHERE CAST("t0"."amount" AS text) COLLATE "C" = $1"#, bindings: ["'1.5'"]),
        // Shifts by a constant with Swift's rules; exclusive or.
        Case(statement: "Item WHERE count << 1 == 4 AND count >> -2 == 8 AND count << 64 == 0 AND count >> 70 == -1 AND count ^ 3 == 1",
             sql: #"WHERE CAST("t0"."count" AS bigint) << CAST($1 AS integer) = $2 AND CAST("t0"."count" AS bigint) << CAST($3 AS integer) = $4 AND CAST("t0"."count" AS bigint) * 0 = $5 AND CAST("t0"."count" AS bigint) >> 63 = $6 AND CAST("t0"."count" AS bigint) # CAST($7 AS bigint) = $8"#,
             bindings: ["1", "4", "2", "8", "0", "-1", "3", "1"]),
        // A decimal and an integer: exactly, as numbers.
        Case(statement: "Item WHERE amount BETWEEN {1, 3}",
             sql: #"WHERE nullif("t0"."amount", 'NaN') >= $1 AND nullif("t0"."amount", 'NaN') <= $2"#, bindings: ["1", "3"]),
    ]

    static func query(_ statement: String, numberFunctions: Bool) throws -> DialectFetchQuery {
        let store = try SQLiteStore.inMemory(model: try JSONModelFormat.read(Data(json.utf8)))
        let typed = try SQLFetchExecutor(store: store).plan(try FetchRequest(statement: statement)).request
        return try DialectFetchQuery(typed, schema: store.schema, dialect: PostgreSQLDialect(hasTextFunctions: true, hasNumberFunctions: numberFunctions),
                                     columns: [#""t0"."_pk""#])
    }

    @Test(arguments: cases)
    func convertsDecimalsAsTheEvaluator(_ c: Case) throws {
        let query = try Self.query(c.statement, numberFunctions: true)
        #expect(query.sql == #"SELECT "t0"."_pk" FROM "Item" AS "t0" "# + c.sql + #" ORDER BY "t0"."_pk""#)
        #expect(query.bindings.map(\.description) == c.bindings)
        #expect(query.residual == nil)
        #expect(query.reason == nil)
    }

    @Test func withoutTheNumberFunctionsTheEvaluatorCompares() throws {
        let query = try Self.query("Item WHERE amount >= 2.5 + 0", numberFunctions: false)
        #expect(query.residual.map { String(describing: $0) } == "amount >= 2.5 + 0")
        #expect(query.reason == "PostgreSQL has no sift_order")
    }
}
