import SiftEvaluation

/// The names of the SQL functions, aggregates and collations the compiler calls (SQLite's
/// store registers them: `SiftSQLiteStore`), implemented by
/// the very Swift functions the in-memory evaluator uses (`StringFolding`, `StringPredicates`,
/// `LikePattern`, `RegularExpression`, `StringComparator.compare`, `SumAccumulator`), so both
/// engines give the same answers by construction.
///
/// String functions take the comparison options as their last argument, as the integer
/// `ComparisonOptions.rawValue` (`[c]` 1, `[d]` 2, `[n]` 4, `[l]` 8); `[n]` wins over `[c]`/`[d]`
/// and `[l]` changes nothing, exactly as in the evaluator. An options argument that is not such an
/// integer is an error (`EvaluationError.invalidArgument`).
///
/// | function | result |
/// | --- | --- |
/// | `sift_fold(text, options)` | `StringFolding.fold`; NULL stays NULL, other non-text values are returned as they are |
/// | `sift_equals(a, b, options)` | 1/0: `StringPredicates.equals` |
/// | `sift_compare(a, b, options)` | -1/0/1: `StringPredicates.compare`; NULL unless both are text |
/// | `sift_beginswith(a, b, options)` | 1/0: `StringPredicates.beginsWith` |
/// | `sift_endswith(a, b, options)` | 1/0: `StringPredicates.endsWith` |
/// | `sift_contains(a, b, options)` | 1/0: `StringPredicates.contains` (substring) |
/// | `sift_like(a, pattern, options)` | 1/0: `LikePattern.matches` |
/// | `sift_matches(a, pattern, options)` | 1/0: `RegularExpression.matches` |
/// | `sift_call(selector, kinds, argument…)` | `Functions.implementation(selector)` on the arguments, each read back by its kind letter (`SQLArgumentKind`) |
/// | `sift_cast(value, kind, type)` | `Cast.convert(value, to: type)` |
/// | `sift_date(value, encoding)` | a date column of a database Sift did not create, as seconds since 2001 (`ForeignDateEncoding`) |
/// | `sift_nfc(value)` | text in NFC, other values as they are (text of databases Sift did not create) |
/// | `sift_date_form(text)` | the fixed-width ISO 8601 form of a text date (`TextDateForm`, 1 to 5), 6 for another spelling, 0 for no date (choosing a column's type) |
/// | `sift_group_sum/average/min/max(x, key[, kind])` (aggregates) | `@sum`/`sum:`, `@avg`/`average:`, `min:`, `max:` of a collection or a group, in key order (`SiftKeyedAggregate`): sums are integers until an overflow, then a double (a decimal, as its text, over decimals); non-numbers skipped; an empty sum is 0; `kind` a letter saying how to read `x` (`'e'`: decimals) |
/// | `sift_order(a, b, kinds)` | -1/0/1: `ValueComparison.order`, NULL when there is none; how decimals compare with numbers |
/// | `sift_decimal_key(x)` | a BLOB ordered as the decimals are (`DecimalText.sortKey(_:)`): how decimals sort |
/// | `sift_decimal_text(x)` | a Decimal column's value as its canonical text (`DecimalText`) |
///
/// Except `sift_fold` and `sift_compare`, the string functions give NULL when either operand is
/// NULL, and 0 when either is not text (as the evaluator's operators are false on non-strings).
/// A `MATCHES` pattern PCRE2 cannot compile fails the statement with the evaluator's own
/// `EvaluationError` as the `SQLiteError`'s `underlying` error.
///
/// The collations `sift_case_insensitive`, `sift_localized`, `sift_localized_case_insensitive` and
/// `sift_localized_standard` are `StringComparator.compare`; `.compare` is SQLite's own `BINARY`
/// on the NFC text the store keeps (UTF-8 byte order is code-point order).
public enum SiftSQLFunctions {
    public static let foldFunction = SQLRegisteredFunction.fold.rawValue
    public static let equalsFunction = SQLRegisteredFunction.equals.rawValue
    public static let compareFunction = SQLRegisteredFunction.compare.rawValue
    public static let beginsWithFunction = SQLRegisteredFunction.beginsWith.rawValue
    public static let endsWithFunction = SQLRegisteredFunction.endsWith.rawValue
    public static let containsFunction = SQLRegisteredFunction.contains.rawValue
    public static let likeFunction = SQLRegisteredFunction.like.rawValue
    public static let matchesFunction = SQLRegisteredFunction.matches.rawValue
    public static let callFunction = SQLRegisteredFunction.call.rawValue
    public static let castFunction = SQLRegisteredFunction.cast.rawValue
    public static let orderFunction = SQLRegisteredFunction.order.rawValue
    public static let decimalKeyFunction = SQLRegisteredFunction.decimalKey.rawValue
    public static let decimalTextFunction = SQLRegisteredFunction.decimalText.rawValue
    public static let dateFunction = SQLRegisteredFunction.date.rawValue
    public static let nfcFunction = SQLRegisteredFunction.nfc.rawValue
    public static let dateFormFunction = SQLRegisteredFunction.dateForm.rawValue
    /// `sift_group_first(x, key)`: the value of `x` on the row with the least `key`.
    public static let groupFirstFunction = SQLRegisteredFunction.groupFirst.rawValue

    /// The collation that orders like `comparator` (`ORDER BY x COLLATE name`), or nil for
    /// `.compare`, which is SQLite's own `BINARY`: UTF-8 byte order, which on NFC text is
    /// `compare`'s code-point order.
    public static func collationName(for comparator: StringComparator) -> String? {
        switch comparator {
        case .compare: nil
        case .caseInsensitiveCompare: "sift_case_insensitive"
        case .localizedCompare: "sift_localized"
        case .localizedCaseInsensitiveCompare: "sift_localized_case_insensitive"
        case .localizedStandardCompare: "sift_localized_standard"
        }
    }
}
