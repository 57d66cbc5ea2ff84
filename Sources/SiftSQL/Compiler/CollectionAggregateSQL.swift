import SiftEvaluation
import SiftLanguage

/// The aggregates of a to-many collection, written `@sum.price` or `sum:(books.price)`: one
/// scalar subquery over the elements, the same SQL whichever way the predicate wrote it.
enum CollectionAggregate {
    case count, sum, average, min, max, median, standardDeviation, mode

    /// The aggregate a collection operator names (`@count`, `@sum`, …); nil for the unions,
    /// which gather the elements rather than reduce them.
    init?(_ op: CollectionOperator) {
        switch op {
        case .count: self = .count
        case .sum: self = .sum
        case .avg: self = .average
        case .min: self = .min
        case .max: self = .max
        case .distinctUnionOfObjects, .unionOfObjects: return nil
        }
    }
}

extension ExpressionSQLCompiler {
    /// `aggregate` of the collection's elements, as a scalar subquery:
    ///
    ///     (SELECT count(*) FROM … WHERE <link>)
    ///     (SELECT sift_group_sum(<element>, <order>) FROM … WHERE <link>)     -- sum, average, median, stddev, mode
    ///     (SELECT min(<element>) FROM … WHERE <link>)                         -- min, max (of decimals too, in PostgreSQL)
    ///     (SELECT sift_group_sum(<element>, <order>, 'e') FROM … WHERE <link>)  -- sum, average, min, max of decimals
    ///
    /// `count` counts the elements (nil values included); the others skip nil values. Sums,
    /// means, medians, deviations and modes are the evaluator's own, over the elements in the
    /// collection's order (a double sum depends on the order of its terms, an integer sum turns
    /// into a double at the first overflow, the first of equally frequent values is the mode):
    /// a sum is 0 when empty, the others NULL. Stored infinities may make a sum, mean, median or
    /// deviation NaN, which SQL holds as NULL: the fragment says so. Decimals, which SQL holds as
    /// text, are read as decimals by the aggregates (their result a decimal's text, or the
    /// integer 0 of an empty sum), SQLite's `min`/`max` never seeing them; their median,
    /// deviation and mode are the evaluator's. `name` is how the predicate wrote it, for the
    /// reason when SQL cannot say it.
    func collectionAggregate(_ aggregate: CollectionAggregate, of path: CollectionPath, name: String) throws -> SQLFragment {
        let element = path.element
        let nan: SQLFragment.Divergence = Self.mayBeInfinite(element) ? .nanIsNull : []
        if !context.dialect.hasSiftFunctions, let plain = try plainAggregate(aggregate, of: path) { return plain }
        switch (aggregate, element.kind) {
        case (.count, _):
            return SQLFragment(expression: path.scalar(.countAll), kind: .number(.integer), nullable: false)
        case (let extreme, .number(.decimal)) where (extreme == .min || extreme == .max) && context.dialect.hasNumberFunctions:
            // A PostgreSQL store's decimals are `numeric` (never NaN in a store Sift made): its
            // `min`/`max` are the evaluator's, exactly.
            return SQLFragment(expression: path.scalar(.function(.standard(aggregate == .min ? .min : .max), [element.expression])), kind: .number(.decimal),
                               nullable: true)
        case (.sum, .number(.decimal)), (.average, .number(.decimal)), (.min, .number(.decimal)), (.max, .number(.decimal)):
            let function: SQLKeyedAggregateFunction = aggregate == .sum ? .sum : aggregate == .average ? .average : aggregate == .min ? .min : .max
            let sql = path.scalar(.function(.provided(.keyedAggregate(function)), [element.expression] + path.order.map(\.expression) + [.string(String(SQLArgumentKind.decimal.rawValue))]))
            return SQLFragment(expression: sql, kind: .number(.decimal), nullable: aggregate != .sum)
        case (.sum, .number(let n)) where n != .decimal:
            return SQLFragment(expression: path.scalar(path.orderedAggregate(.sum)), kind: .number(n == .real ? .real : .mixed), nullable: !nan.isEmpty,
                               divergence: nan)
        case (.average, .number(let n)) where n != .decimal:
            return SQLFragment(expression: path.scalar(path.orderedAggregate(.average)), kind: .number(.real), nullable: true, divergence: nan)
        case (.min, let kind) where kind.isOrdered && kind != .number(.decimal):
            return SQLFragment(expression: path.scalar(.function(.standard(.min), [element.expression])), kind: kind, nullable: true)
        case (.max, let kind) where kind.isOrdered && kind != .number(.decimal):
            return SQLFragment(expression: path.scalar(.function(.standard(.max), [element.expression])), kind: kind, nullable: true)
        case (.median, .number(let n)) where n != .decimal:
            return SQLFragment(expression: path.scalar(path.orderedAggregate(.median)), kind: .number(.real), nullable: true, divergence: nan)
        case (.standardDeviation, .number(let n)) where n != .decimal:
            return SQLFragment(expression: path.scalar(path.orderedAggregate(.standardDeviation)), kind: .number(.real), nullable: true, divergence: nan)
        case (.mode, .number(let n)) where n != .decimal:
            return SQLFragment(expression: path.scalar(path.orderedAggregate(.mode)), kind: .number(n), nullable: true)
        case (.mode, .date):
            return SQLFragment(expression: path.scalar(path.orderedAggregate(.mode)), kind: .date, nullable: true)
        default:
            throw SQLUnsupported("\(name) of \(element.kind)")
        }
    }

    /// `@sum` and `@avg` of integers (and booleans) or doubles in plain SQL, for a dialect
    /// without Sift's functions (PostgreSQL), giving the evaluator's values exactly
    /// (`Aggregates`); nil for other aggregates and kinds (left to the evaluator).
    ///
    ///     coalesce((SELECT CASE WHEN CAST(sum(abs(CAST(x AS numeric))) AS bigint) IS NOT NULL THEN CAST(sum(x) AS bigint) END FROM …), 0)  -- @sum of integers
    ///     (SELECT CASE WHEN … THEN CAST(sum(x) AS double precision) / count(x) END FROM …)                                       -- @avg of integers
    ///     nullif(coalesce((SELECT sum(x ORDER BY <order>) FROM …), 0), 'NaN')                                                    -- @sum of doubles
    ///     nullif((SELECT sum(x ORDER BY <order>) / count(x) FROM …), 'NaN')                                                      -- @avg of doubles
    ///
    /// Integers: while the sum of the magnitudes fits a bigint no partial sum overflows, so the
    /// exact sum is the evaluator's integer one and the mean its `Double(sum) / Double(count)`;
    /// past that the cast fails and the fetch runs in memory (where the evaluator's sum turns
    /// into a double). Doubles: added in the collection's order, as the evaluator adds them,
    /// NaN included (read as stored), the result's NaN then read as NULL (``SQLFragment/
    /// Divergence/nanIsNull``); a finite sum that overflows is an error, and the fetch runs in
    /// memory.
    private func plainAggregate(_ aggregate: CollectionAggregate, of path: CollectionPath) throws -> SQLFragment? {
        guard aggregate == .sum || aggregate == .average, case .number(let kind) = path.element.kind else { return nil }
        switch kind {
        case .integer, .boolean:
            let x = path.element.expression
            let magnitudes = SQLExpression.cast(.function(.standard(.sum), [.function(.standard(.abs), [.cast(x, "numeric")])]), "bigint")
            let value: SQLExpression = aggregate == .sum ? .cast(.function(.standard(.sum), [x]), "bigint")
                : .binary(.divide, .cast(.function(.standard(.sum), [x]), "double precision"), .function(.standard(.count), [x]))
            let guarded = path.scalar(.case([(when: .isNull(magnitudes, negated: true), then: value)], otherwise: nil))
            return aggregate == .sum
                ? SQLFragment(expression: .function(.standard(.coalesce), [guarded, .integer(0)]), kind: .number(.integer), nullable: false)
                : SQLFragment(expression: guarded, kind: .number(.real), nullable: true)
        case .real:
            guard let x = path.element.storedWithNaN else { return nil }
            let sum = SQLExpression.orderedAggregate(.standard(.sum), x, orderBy: path.order)
            let value = aggregate == .sum ? .function(.standard(.coalesce), [path.scalar(sum), .integer(0)])
                : path.scalar(.binary(.divide, sum, .function(.standard(.count), [x])))
            return SQLFragment(expression: .function(.standard(.nullif), [value, .string("NaN")]), kind: .number(.real), nullable: true, divergence: .nanIsNull)
        default:
            return nil
        }
    }
}
