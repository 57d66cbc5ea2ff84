import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLStore
import SiftSQLite

extension SiftSQLFunctions {
    /// The functions decimals are compared, sorted and converted with (SQLite has no decimal
    /// type: a decimal is its canonical TEXT, ``DecimalText``, or REAL in a store of layout 2):
    ///
    /// - `sift_order(a, b, kinds)`: the evaluator's order of two values (`ValueComparison.order`),
    ///   -1, 0 or 1, NULL when they have none (nil, kinds with no common order), each value read
    ///   back by its letter in the two-letter `kinds` (``SQLArgumentKind``): `price > 12.5` is
    ///   `sift_order("t0"."price", ?1, 'er') > 0`, comparing the decimal's double with the
    ///   double exactly as the evaluator does;
    /// - `sift_decimal_key(x)`: a decimal's sort key (``DecimalText/sortKey(_:)``), a BLOB
    ///   ordered as the decimals are; NULL stays NULL;
    /// - `sift_decimal_text(x)`: a value of a Decimal column as its canonical text (a layout-2
    ///   REAL through its shortest text, as the store reads it); NULL and values that are no
    ///   decimal stay as they are.
    static func registerDecimalFunctions(on database: SQLiteDatabase) throws(SQLiteError) {
        try database.createFunction(orderFunction, argumentCount: 3) { call in
            guard call.type(2) == .text, let kinds = pairKinds(call) else {
                throw EvaluationError(.invalidArgument, "\(orderFunction)(a, b, kinds): kinds must be two argument kind letters")
            }
            guard let order = ValueComparison.order(kinds.0.value(of: call.value(0)), kinds.1.value(of: call.value(1))) else { return .null }
            return .integer(Int64(order))
        }
        try database.createFunction(decimalKeyFunction, argumentCount: 1) { call in
            switch SQLArgumentKind.decimal.value(of: call.value(0)) {
            case .null: return .null
            case .decimal(let d): return .blob(DecimalText.sortKey(d))
            // Text that is no decimal: after every number, as the evaluator sorts strings.
            case .string(let s): return .blob([0xFF, 0xFF] + Array(s.utf8))
            default: return .blob([0xFF, 0xFF, 0xFF] + call.blob(0))
            }
        }
        try database.createFunction(decimalTextFunction, argumentCount: 1) { call in
            guard case .decimal(let d) = ColumnCodec.decode(call.value(0), as: .decimal) else { return call.value(0) }
            return .text(DecimalText.text(d))
        }
    }

    /// The `kinds` argument (2) of `sift_order` as two letters.
    private static func pairKinds(_ call: SQLiteFunctionCall) -> (SQLArgumentKind, SQLArgumentKind)? {
        call.withUTF8(2) { bytes in
            guard bytes.count == 2, let a = SQLArgumentKind(rawValue: Character(Unicode.Scalar(bytes[0]))),
                  let b = SQLArgumentKind(rawValue: Character(Unicode.Scalar(bytes[1]))) else { return nil }
            return (a, b)
        }
    }
}
