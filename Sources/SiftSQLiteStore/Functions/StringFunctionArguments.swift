import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite

/// Reading the arguments of Sift's SQL string functions.
enum StringFunctionArguments {
    /// Every bit `ComparisonOptions` defines (`c d n l`).
    static let knownOptionBits: Int64 = 0x0F

    /// The options argument at `index`: an integer `ComparisonOptions.rawValue`.
    static func options(_ call: SQLiteFunctionCall, at index: Int, function: String) throws(EvaluationError) -> ComparisonOptions {
        let raw = call.int64(index)
        guard call.type(index) == .integer, raw & ~knownOptionBits == 0 else {
            throw EvaluationError(
                .invalidArgument,
                "\(function): the options argument must be an integer from 0 to 15 (ComparisonOptions.rawValue), not \(call.value(index))")
        }
        return ComparisonOptions(rawValue: UInt8(truncatingIfNeeded: raw))
    }

    /// How two operands stand: both text, or what the function returns instead.
    enum Operands {
        case text(String, String)
        case result(SQLiteValue)
    }

    /// Arguments 0 and 1 as strings; otherwise NULL when either is NULL, else `nonText`.
    static func operands(_ call: SQLiteFunctionCall, nonText: SQLiteValue) -> Operands {
        let first = call.type(0), second = call.type(1)
        if first == .null || second == .null { return .result(.null) }
        guard first == .text, second == .text else { return .result(nonText) }
        return .text(call.text(0), call.text(1))
    }

    /// Whether argument `index` is text whose UTF-8 bytes are exactly those of `string` (byte
    /// equality: String's own == is canonical equivalence, too loose under `[n]`).
    static func argument(_ call: SQLiteFunctionCall, _ index: Int, hasBytesOf string: String) -> Bool {
        guard call.type(index) == .text else { return false }
        return call.withUTF8(index) { bytes in string.utf8.elementsEqual(bytes) }
    }
}
