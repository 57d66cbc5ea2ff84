import SiftEvaluation
import SiftLanguage
import SiftStore

/// The aggregate functions of a grouped dictionary fetch (or of one aggregating its whole
/// result) in plain SQL, for a dialect without Sift's functions (PostgreSQL), where SQLite
/// uses ``SiftKeyedAggregate``: only those whose plain SQL gives the evaluator's value exactly,
/// of the same kind; nil for the others (the fetch runs in memory).
///
///     coalesce(CASE WHEN CAST(sum(abs(CAST(x AS numeric))) AS bigint) IS NOT NULL THEN CAST(sum(x) AS bigint) END, 0)  -- sum: of integers
///     CASE WHEN … THEN CAST(sum(x) AS double precision) / count(x) END                                                 -- average: of integers
///     sum(x ORDER BY "t0"."_pk") + CAST(0 AS double precision)                                                         -- sum: of doubles
///     (sum(x ORDER BY "t0"."_pk") + CAST(0 AS double precision)) / count(x)                                            -- average: of doubles
///     min(x), max(x)                                                                                                   -- of integers, booleans, text, dates
///
/// Integers (and booleans, read as 0 and 1): while the sum of the magnitudes fits a bigint no
/// partial sum overflows, so the exact sum is the evaluator's integer one (0 for a group of
/// nils) and the mean its `Double(sum) / Double(count)`; past that the cast fails, the server
/// refuses the query, and the fetch runs in memory (where the evaluator's sum turns into a
/// double). `min`/`max` of integers, NFC text in code-point order (`COLLATE "C"` columns) and
/// dates (seconds since 2001) order them as the evaluator does, and leave nils out as it does.
/// Doubles are added in insertion order, NaN and infinities as stored, as the evaluator adds
/// them (a sum of no values is its integer 0: ``DictionaryColumn/Decoding/sumOfDoubles``); a
/// finite sum that overflows is an error there, and the fetch runs in memory. The least and
/// greatest double (NaN orders above every number in the server, nowhere in the evaluator) and
/// decimals stay in memory.
enum PlainGroupAggregate {
    /// `x` is the value as stored (NaN too), `rowKey` the fetched row's key (insertion order).
    static func column(_ aggregate: GroupAggregateFunction, of x: SQLExpression, type: AttributeType, rowKey: SQLExpression) -> DictionaryColumn? {
        switch (aggregate, type) {
        case (.sum, .integer16), (.sum, .integer32), (.sum, .integer64), (.sum, .boolean),
             (.average, .integer16), (.average, .integer32), (.average, .integer64), (.average, .boolean):
            let magnitudes = SQLExpression.cast(.function(.standard(.sum), [.function(.standard(.abs), [.cast(x, "numeric")])]), "bigint")
            let fits = SQLExpression.isNull(magnitudes, negated: true)
            if aggregate == .sum {
                let sum = SQLExpression.case([(when: fits, then: .cast(.function(.standard(.sum), [x]), "bigint"))], otherwise: nil)
                return DictionaryColumn(expression: .function(.standard(.coalesce), [sum, .integer(0)]), decoding: .value(nil))
            }
            let mean = SQLExpression.binary(.divide, .cast(.function(.standard(.sum), [x]), "double precision"), .function(.standard(.count), [x]))
            return DictionaryColumn(expression: .case([(when: fits, then: mean)], otherwise: nil), decoding: .value(nil))
        case (.sum, .double), (.sum, .float), (.average, .double), (.average, .float):
            // In insertion order from the first value; `+ 0.0` makes a sum of -0.0s 0.0, as the
            // evaluator's, which starts from 0.0 (every other partial sum is the same).
            let sum = SQLExpression.binary(.add, .orderedAggregate(.standard(.sum), x, orderBy: [SQLOrdering(expression: rowKey, isNeverNull: true)]),
                                           .cast(.integer(0), "double precision"))
            if aggregate == .sum { return DictionaryColumn(expression: sum, decoding: .sumOfDoubles) }
            return DictionaryColumn(expression: .binary(.divide, sum, .function(.standard(.count), [x])), decoding: .value(nil))
        case (.min, .integer16), (.min, .integer32), (.min, .integer64), (.min, .string), (.min, .date), (.min, .boolean),
             (.max, .integer16), (.max, .integer32), (.max, .integer64), (.max, .string), (.max, .date), (.max, .boolean):
            return DictionaryColumn(expression: .function(.standard(aggregate == .min ? .min : .max), [x]), decoding: .value(type))
        default:
            return nil
        }
    }
}
