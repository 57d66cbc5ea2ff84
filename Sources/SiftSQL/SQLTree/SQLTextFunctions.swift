import SiftLanguage

/// The text functions the compiler calls in a dialect that has them
/// (``SQLDialect/hasTextFunctions``): the evaluator's folds and case mappings, installed by the
/// store (a PostgreSQL store tabulates them from Swift when it is made).
///
/// | function | the evaluator's |
/// |---|---|
/// | `sift_fold_c(t)`, `sift_fold_d(t)`, `sift_fold_cd(t)` | `StringFolding.fold(t, options: [c] / [d] / [cd])` |
/// | `sift_lowercase(t)`, `sift_uppercase(t)` | `t.lowercased()`, `t.uppercased()`, in NFC (the form SQL holds text in) |
package enum SQLTextFunctions {
    /// The function preparing text for `options` (`[c]`, `[d]`, `[cd]`; `[n]` and none need none).
    package static func fold(_ options: ComparisonOptions) -> SQLTextFunction? {
        guard !options.contains(.normalized) else { return nil }
        switch options.intersection([.caseInsensitive, .diacriticInsensitive]) {
        case [.caseInsensitive]: return .foldCase
        case [.diacriticInsensitive]: return .foldDiacritics
        case [.caseInsensitive, .diacriticInsensitive]: return .foldCaseAndDiacritics
        default: return nil
        }
    }
}
