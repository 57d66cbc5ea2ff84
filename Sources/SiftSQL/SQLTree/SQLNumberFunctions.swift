/// The number functions the compiler calls in a dialect that has them
/// (``SQLDialect/hasNumberFunctions``), installed by the store so that the server converts
/// numbers exactly as the evaluator does where no SQL cast does:
///
/// | function | the evaluator's |
/// |---|---|
/// | `sift_decimal_double(numeric)` | `NSDecimalNumber(decimal: d).doubleValue`, how a decimal meets a double |
/// | `sift_double_text(double precision)` | `d.description`, a double's text (`CAST(x, "NSString")`) |
/// (The names are ``SQLNumberFunction``'s.)
package enum SQLNumberFunctions {}
