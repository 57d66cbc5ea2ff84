import SiftEvaluation
import SiftLanguage

/// The aggregates of a to-many collection, written `@sum.price` or `sum:(books.price)`: one
/// scalar subquery over the elements, the same SQL whichever way the predicate wrote it.
enum CollectionAggregate {
    case count, sum, average, min, max, median, standardDeviation, mode

    /// The aggregate a collection operator names (`@count`, `@sum`, …).
    init?(operator name: String) {
        switch name {
        case "@count": self = .count
        case "@sum": self = .sum
        case "@avg": self = .average
        case "@min": self = .min
        case "@max": self = .max
        default: return nil
        }
    }

    /// The aggregate a function names (`count:`, `sum:`, …).
    init?(function selector: String) {
        switch selector {
        case "count:": self = .count
        case "sum:": self = .sum
        case "average:": self = .average
        case "min:": self = .min
        case "max:": self = .max
        case "median:": self = .median
        case "stddev:": self = .standardDeviation
        case "mode:": self = .mode
        default: return nil
        }
    }
}

extension ExpressionSQLCompiler {
    /// `aggregate` of the collection's elements, as a scalar subquery:
    ///
    ///     (SELECT count(*) FROM … WHERE <link>)
    ///     (SELECT sift_group_sum(<element>, <order>) FROM … WHERE <link>)     -- sum, average, median, stddev, mode
    ///     (SELECT min(<element>) FROM … WHERE <link>)                         -- min, max
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
        // (Sums, means, medians and deviations are Sift's functions: no dialect without them
        // computes a NaN here.)
        switch (aggregate, element.kind) {
        case (.count, _):
            return SQLFragment(expression: path.scalar(.countAll), kind: .number(.integer), nullable: false)
        case (.sum, .number(.decimal)), (.average, .number(.decimal)), (.min, .number(.decimal)), (.max, .number(.decimal)):
            let function: SiftKeyedAggregate.Function = aggregate == .sum ? .sum : aggregate == .average ? .average : aggregate == .min ? .min : .max
            let sql = path.scalar(.function(function.rawValue, [element.expression, path.order, .string(String(SQLArgumentKind.decimal.rawValue))]))
            return SQLFragment(expression: sql, kind: .number(.decimal), nullable: aggregate != .sum)
        case (.sum, .number(let n)) where n != .decimal:
            return SQLFragment(expression: path.scalar(path.orderedAggregate(.sum)), kind: .number(n == .real ? .real : .mixed), nullable: !nan.isEmpty,
                               divergence: nan)
        case (.average, .number(let n)) where n != .decimal:
            return SQLFragment(expression: path.scalar(path.orderedAggregate(.average)), kind: .number(.real), nullable: true, divergence: nan)
        case (.min, let kind) where kind.isOrdered && kind != .number(.decimal):
            return SQLFragment(expression: path.scalar(.function("min", [element.expression])), kind: kind, nullable: true)
        case (.max, let kind) where kind.isOrdered && kind != .number(.decimal):
            return SQLFragment(expression: path.scalar(.function("max", [element.expression])), kind: kind, nullable: true)
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
}
