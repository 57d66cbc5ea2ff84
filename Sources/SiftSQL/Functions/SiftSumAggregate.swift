import Foundation
import SiftEvaluation
import SiftSQLite

/// `sift_sum(x)`: one group's `@sum`, through the evaluator's own `SumAccumulator`. Integers and
/// reals are added; NULL, text and blobs are skipped (the evaluator skips non-numbers).
final class SiftSumAggregate: SQLiteAggregate {
    private var accumulator = SumAccumulator()

    func step(_ call: SQLiteFunctionCall) throws {
        switch call.type(0) {
        case .integer: accumulator.add(.int(call.int64(0)))
        case .real: accumulator.add(.double(call.double(0)))
        case .text, .blob, .null: break
        }
    }

    func finish() throws -> SQLiteValue {
        switch accumulator.sum {
        case .int(let i): return .integer(i)
        case .double(let d): return .real(d)
        // Only decimal inputs make a decimal sum, and SQLite values are never decimals.
        case .decimal(let d): return .real(NSDecimalNumber(decimal: d).doubleValue)
        default: return .null
        }
    }
}
