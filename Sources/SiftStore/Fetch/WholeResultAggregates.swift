import SiftLanguage

/// A dictionary fetch without GROUP BY whose properties are all aggregates (or constants)
/// aggregates its whole result into **one row**, as in SQL (`select sum(Total) from Invoice`)
/// and Core Data: `SELECT sum:(Total) AS revenue FROM Invoice` is one row, not one per invoice.
///
/// - The aggregates read every object the predicate matched, as the aggregates of a group read
///   its members (``GroupObject``: nil values left out, a to-many key path contributing all its
///   elements), in insertion order whatever the sort descriptors say (a double sum depends on
///   the order of its terms; the SQLite store's keyed aggregates follow the row key alike).
/// - Over no object at all the row is still there, with LANGUAGE.md §5's values of an empty
///   collection: `count:` 0, `sum:` 0, `average:`/`min:`/`max:` (and `median:`, `mode:`,
///   `stddev:`) nil — on every store (SQL's `sum` would be NULL; Sift's SQLite store computes
///   `sum:` with the evaluator's own arithmetic, so it says 0 too).
/// - HAVING tests the one row (so the result is that row or nothing), as SQL's HAVING without
///   GROUP BY tests the single group; distinct leaves the one row; offset and limit page it.
/// - Sort descriptors are checked as for any ungrouped fetch (key paths of the entity) and have
///   nothing left to order.
///
/// A property is an aggregate when it calls an aggregate function (`count: sum: average: min:
/// max: median: mode: stddev:`) and reads the object nowhere else (`sum:(a) / count:(a)`,
/// `max:(x) + 1`); a constant reads no object (`1`, `'x'`, `now()`). At least one aggregate is
/// needed: constants alone stay one row per object, as `select 1 from t` is.
///
/// Mixing aggregates with per-object properties (`SELECT name, count:(x) FROM E`) is left as
/// it was: one row per object, each aggregate evaluated on that one object (`count:(x)` is 1 or
/// 0, `sum:(x)` is x) — group by the per-object properties to aggregate.
extension DictionaryResults {
    /// Whether `request` aggregates its whole result into one row (see above): a dictionary
    /// fetch without grouping whose named properties are aggregates and constants, at least
    /// one of them an aggregate.
    package static func aggregatesWholeResult(_ request: FetchRequest) -> Bool {
        guard request.propertiesToGroupBy.isEmpty, !request.propertiesToFetch.isEmpty else { return false }
        var sawAggregate = false
        for property in request.propertiesToFetch {
            switch WholeResultShape(property.expression) {
            case .constant: continue
            case .aggregate: sawAggregate = true
            case .perObject: return false
            }
        }
        return sawAggregate
    }
}

/// What an expression reads of the fetched objects: nothing, only aggregates of them, or some
/// object's own values.
enum WholeResultShape {
    case constant, aggregate, perObject

    init(_ expression: ExpressionNode) {
        switch expression.kind {
        case .constant, .variable:
            self = .constant
        case .evaluatedObject, .subquery, .ternary:
            // A subquery or a ternary's predicate may read the object anywhere: per object.
            self = .perObject
        case .keyPath(let base, _):
            guard let base, base.kind != .evaluatedObject else { self = .perObject; return }
            self = WholeResultShape(base)
        case .function(let name, let arguments):
            self = BuiltinFunction(selector: name)?.isCollectionAggregate == true ? .aggregate : Self.combined(arguments)
        case .aggregate(let elements):
            self = Self.combined(elements)
        case .dictionary(let entries):
            self = Self.combined(entries.map(\.value))
        case .index(let base, _):
            self = WholeResultShape(base)
        case .functionExpression(let receiver, _, let arguments):
            self = Self.combined([receiver] + arguments)
        case .cast(let value, _), .assignment(_, let value), .unary(_, let value):
            self = WholeResultShape(value)
        case .binary(_, let a, let b):
            self = Self.combined([a, b])
        }
    }

    /// Per object if any part is; else an aggregate if any part is; else a constant.
    private static func combined(_ parts: [ExpressionNode]) -> WholeResultShape {
        var result = WholeResultShape.constant
        for part in parts {
            switch WholeResultShape(part) {
            case .perObject: return .perObject
            case .aggregate: result = .aggregate
            case .constant: break
            }
        }
        return result
    }
}
