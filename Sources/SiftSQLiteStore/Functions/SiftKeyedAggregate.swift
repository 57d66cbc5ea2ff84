import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLStore
import SiftSQLite

/// `sift_group_sum(x, key)`, `sift_group_average(x, key)`, `sift_group_min(x, key)` and
/// `sift_group_max(x, key)`: the aggregate functions of a grouped dictionary fetch (`sum:`,
/// `average:`, `min:`, `max:`) and of a to-many collection in a predicate (`@sum`, `@avg`,
/// `sum:`, `average:`), computed by the evaluator's own `Aggregates` over the values in the
/// order of `key` (the row key, or the collection's `_position`), whatever order SQLite feeds
/// the rows in; `sift_group_median`, `sift_group_mode` and `sift_group_stddev` likewise
/// compute `median:`, `mode:` and `stddev:` of a to-many collection with the evaluator's
/// `Functions`:
///
///     SELECT "t0"."kind", sift_group_sum("t0"."price", "t0"."_pk") FROM "Item" AS "t0" GROUP BY "t0"."kind" …
///     … WHERE (SELECT sift_group_average("t1"."price", "t1"."_pk") FROM "Book" AS "t1" WHERE "t1"."author" = "t0"."_pk") > ?1
///     … WHERE (SELECT sift_group_mode("t1"."year", "t1"."_pk") FROM "Book" AS "t1" WHERE "t1"."author" = "t0"."_pk") = ?1
///
/// The order matters: a double sum depends on the order of its terms, an integer sum turns
/// into a double at the first overflow, `min:`/`max:` keep the first of values that do not
/// order (UUIDs, data), and `mode:` the first of equally frequent values. SQLite's own `sum`,
/// `avg`, `min` and `max` promise none of that.
///
/// A collection reached across several to-many steps is ordered by one key per step, compared
/// in turn (the evaluator's flattened collection: the first step's order, then the next one's
/// within each element): `sift_group_sum("t3"."price", "t1"."_position", "t2"."_pk")`.
///
/// NULL values are skipped (as the evaluator's groups skip nil values); integers, reals, text
/// and blobs reach the evaluator as `.int`, `.double`, `.string` and `.data` — or, with a last
/// argument that is text, a kind letter (``SQLArgumentKind``), as values of that kind: decimals
/// are `sift_group_sum("t0"."price", "t0"."_pk", 'e')`. The result is the evaluator's value as
/// stored (an integer or real sum, a real average, a decimal as its canonical text, the extreme
/// value as it came), NULL when the evaluator's is nil.
final class SiftKeyedAggregate: SQLiteAggregate {
    typealias Function = SQLKeyedAggregateFunction


    private let function: Function
    private var values: [(key: Int64, value: Value)] = []
    /// The keys after the first of each value, `keyCount - 1` a value, in the order of `values`.
    private var laterKeys: [Int64] = []
    /// How many keys order the values (1 when the first call is made).
    private var keyCount = 0
    /// How values are read, from the last argument when it is text (nil: as stored).
    private var kind: SQLArgumentKind?

    /// A sum or average of decimals, kept as it goes (``OrderFreeSum``): when no order of the
    /// values could change it, or SQLite fed them in key order, it is the answer, and the
    /// values are kept only up to ``keptLimit`` — so a money sum over millions of rows takes
    /// constant memory and no sort. Nil for the other functions and kinds.
    private var running: OrderFreeSum?
    /// Whether the keys came in order so far (each at least the one before).
    private var keysInOrder = true
    private var lastKey = Int64.min
    /// The stored values a running sum keeps, with their keys, to sum in key order should the
    /// order matter and not be kept (read as decimals only then).
    private var kept: [(key: Int64, value: SQLiteValue)] = []
    /// Whether values were left out of `kept` (past ``keptLimit``).
    private var valuesDropped = false
    /// How many values a running sum keeps, to sum in key order should neither hold.
    static let keptLimit = 100_000

    init(_ function: Function) {
        self.function = function
    }

    func step(_ call: SQLiteFunctionCall) throws {
        if keyCount == 0 {
            let last = call.argumentCount - 1
            guard last >= 1 else { throw EvaluationError(.invalidArgument, "\(function.rawValue)(x, key, …): a key is needed") }
            if last >= 2, call.type(last) == .text {
                guard let letters = SQLArgumentKind.parse(call.text(last)), letters.count == 1 else {
                    throw EvaluationError(.invalidArgument, "\(function.rawValue)(x, key, …, kind): kind must be one argument kind letter")
                }
                kind = letters[0]
                keyCount = last - 1
                if kind == .decimal, keyCount == 1, function == .sum || function == .average { running = OrderFreeSum() }
            } else {
                keyCount = last
            }
        }
        if running != nil { return stepRunning(call) }
        let value: Value
        switch (call.type(0), kind) {
        case (.null, _): return
        case (_, let kind?): value = kind.value(of: call.value(0))
        case (.integer, nil): value = .int(call.int64(0))
        case (.real, nil): value = .double(call.double(0))
        case (.text, nil): value = .string(call.text(0))
        case (.blob, nil): value = .data(Data(call.blob(0)))
        }
        values.append((call.int64(1), value))
        if keyCount > 1 { for index in 2...keyCount { laterKeys.append(call.int64(index)) } }
    }

    /// A step of a running decimal sum or average: the value added from its digits where it
    /// can be (a REAL's shortest text, the canonical text), else as the evaluator reads it; the
    /// stored value kept while fewer than ``keptLimit`` are.
    private func stepRunning(_ call: SQLiteFunctionCall) {
        let key = call.int64(1)
        let digits: (significand: Int64, exponent: Int)?
        switch call.type(0) {
        case .null: return
        case .integer:
            digits = (call.int64(0), 0)
        case .real:
            digits = DecimalDigits.of(call.double(0))
        case .text:
            digits = call.withUTF8(0) { DecimalDigits.parse($0) }
        case .blob:
            digits = nil
        }
        if let digits {
            running!.add(significand: digits.significand, exponent: digits.exponent)
        } else {
            running!.add(SQLArgumentKind.decimal.value(of: call.value(0)))
        }
        if key < lastKey { keysInOrder = false }
        lastKey = key
        guard !valuesDropped else { return }
        guard kept.count < Self.keptLimit else {
            valuesDropped = true
            kept = []
            return
        }
        kept.append((key, call.value(0)))
    }

    func finish() throws -> SQLiteValue {
        if let running, keysInOrder || running.isOrderFree {
            return Self.stored(function == .sum ? running.sum : Aggregates.average(sum: running.sum, count: running.count))
        }
        if running != nil {
            values = kept.map { ($0.key, SQLArgumentKind.decimal.value(of: $0.value)) }
        }
        if valuesDropped {
            throw EvaluationError(.invalidArgument, "the \(function == .sum ? "sum" : "average") of these decimals needs more than the 38 digits a decimal holds, so it depends on the order of its terms, and SQLite read more than \(Self.keptLimit) of them out of order; sum fewer rows at a time, or CAST them to double")
        }
        let ordered: [Value]
        if keyCount > 1 {
            // Key by key; a value's later keys are `laterKeys[offset * stride ..< (offset + 1) * stride]`.
            let stride = keyCount - 1
            ordered = values.indices.sorted { a, b in
                if values[a].key != values[b].key { return values[a].key < values[b].key }
                for k in 0..<stride where laterKeys[a * stride + k] != laterKeys[b * stride + k] {
                    return laterKeys[a * stride + k] < laterKeys[b * stride + k]
                }
                return a < b
            }.map { values[$0].value }
        } else {
            // Stable: rows with the same key (never two, for a row key) keep SQLite's order.
            ordered = values.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element.value)
        }
        let result: Value
        switch function {
        case .sum: result = Aggregates.sum(ordered)
        case .average: result = Aggregates.average(ordered)
        case .min: result = Aggregates.extreme(ordered, wantMax: false)
        case .max: result = Aggregates.extreme(ordered, wantMax: true)
        case .median: result = Functions.median(ordered)
        case .mode: result = try Functions.mode(ordered)
        case .standardDeviation: result = Functions.standardDeviation(ordered)
        }
        return Self.stored(result)
    }

    /// The evaluator's `result` as this aggregate returns it.
    private static func stored(_ result: Value) -> SQLiteValue {
        switch result {
        case .int(let i): return .integer(i)
        case .double(let d): return .real(d)
        case .string(let s): return .text(s)
        case .data(let d): return .blob([UInt8](d))
        case .decimal(let d): return .text(DecimalText.text(d))
        default: return .null
        }
    }
}

extension SiftSQLFunctions {
    /// Registers the `sift_group_…` aggregates of ``SiftKeyedAggregate``.
    static func registerKeyedAggregates(on database: SQLiteDatabase) throws(SQLiteError) {
        for function in SiftKeyedAggregate.Function.allCases {
            // (x, key, …, kind): one key per to-many step of a collection.
            try database.createAggregate(function.rawValue, argumentCount: -1) { SiftKeyedAggregate(function) }
        }
    }
}
