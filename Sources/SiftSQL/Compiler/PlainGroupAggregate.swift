import SiftEvaluation
import SiftLanguage
import SiftSQLite
import SiftStore

/// The aggregate functions of a grouped dictionary fetch (or of one aggregating its whole
/// result) in plain SQL, for a dialect without Sift's functions (PostgreSQL), where SQLite
/// uses ``SiftKeyedAggregate``: only those whose plain SQL gives the evaluator's value exactly,
/// of the same kind; nil for the others (the fetch runs in memory).
///
///     coalesce(CASE WHEN CAST(sum(abs(CAST(x AS numeric))) AS bigint) IS NOT NULL THEN CAST(sum(x) AS bigint) END, 0)  -- sum: of integers
///     CASE WHEN … THEN CAST(sum(x) AS double precision) / count(x) END                                                 -- average: of integers
///     min(x), max(x)                                                                                                   -- of integers, text, dates
///
/// Integers (and booleans, read as 0 and 1): while the sum of the magnitudes fits a bigint no
/// partial sum overflows, so the exact sum is the evaluator's integer one (0 for a group of
/// nils) and the mean its `Double(sum) / Double(count)`; past that the cast fails, the server
/// refuses the query, and the fetch runs in memory (where the evaluator's sum turns into a
/// double). `min`/`max` of integers, NFC text in code-point order (`COLLATE "C"` columns) and
/// dates (seconds since 2001) order them as the evaluator does, and leave nils out as it does.
/// Doubles and decimals (NaN, and a sum of no values that must be the integer 0) stay in memory.
enum PlainGroupAggregate {
    static func column(_ name: String, of x: SQLExpression, type: AttributeType) -> DictionaryColumn? {
        switch (name, type) {
        case ("sum:", .integer16), ("sum:", .integer32), ("sum:", .integer64), ("sum:", .boolean),
             ("average:", .integer16), ("average:", .integer32), ("average:", .integer64), ("average:", .boolean):
            let magnitudes = SQLExpression.cast(.function("sum", [.function("abs", [.cast(x, "numeric")])]), "bigint")
            let fits = SQLExpression.isNull(magnitudes, negated: true)
            if name == "sum:" {
                let sum = SQLExpression.case([(when: fits, then: .cast(.function("sum", [x]), "bigint"))], otherwise: nil)
                return DictionaryColumn(expression: .function("coalesce", [sum, .integer(0)]), decoding: .value(nil))
            }
            let mean = SQLExpression.binary(.divide, .cast(.function("sum", [x]), "double precision"), .function("count", [x]))
            return DictionaryColumn(expression: .case([(when: fits, then: mean)], otherwise: nil), decoding: .value(nil))
        case ("min:", .integer16), ("min:", .integer32), ("min:", .integer64), ("min:", .string), ("min:", .date),
             ("max:", .integer16), ("max:", .integer32), ("max:", .integer64), ("max:", .string), ("max:", .date):
            return DictionaryColumn(expression: .function(name == "min:" ? "min" : "max", [x]), decoding: .value(type))
        default:
            return nil
        }
    }
}
