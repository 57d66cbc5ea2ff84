/// The number functions the compiler calls in a dialect that has them
/// (``SQLDialect/hasNumberFunctions``), installed by the store so that the server converts
/// numbers exactly as the evaluator does where no SQL cast does:
///
/// | function | the evaluator's |
/// |---|---|
/// | `sift_decimal_double(numeric)` | `NSDecimalNumber(decimal: d).doubleValue`, how a decimal meets a double |
/// | `sift_double_text(double precision)` | `d.description`, a double's text (`CAST(x, "NSString")`) |
package enum SQLNumberFunctions {
    package static let decimalDouble = "sift_decimal_double"
    package static let doubleText = "sift_double_text"

    /// Every function's name.
    package static let names: Set<String> = [decimalDouble, doubleText]
}
