import SiftEvaluation
import SiftLanguage

/// A folded copy of a searchable attribute's text (``AttributeDescription/isSearchable``): a
/// Sift store keeps one hidden, indexed column per fold beside the attribute's column, written
/// with every write of the attribute, holding `StringFolding.fold` of its text — the
/// evaluator's own folding, so a comparison of folded bytes is the evaluator's comparison
/// (`StringPredicates` compares the folded NFC forms byte by byte). NULL where the attribute is
/// nil (or, in a column sibling sub-entities share, not text).
///
/// The hidden columns are named `_cd_<column>` and `_c_<column>`: not attributes of the model
/// (object output, `sift schema` and introspection never show them), and the model may not
/// use those names for attributes of the same table.
package enum SearchFold: CaseIterable, Sendable {
    /// `[cd]`: case folded, nonspacing marks removed: `_cd_<column>`.
    case caseAndDiacritics
    /// `[c]`: case folded: `_c_<column>`.
    case caseOnly
    /// `localizedStandardCompare`'s sort key (`StringComparator.sortKey(_:)`): `_s_<column>`. Kept
    /// only by a store without Sift's collations (PostgreSQL), to sort by it in SQL; never a
    /// predicate's fold.
    case standardSortKey

    /// The folds that serve predicates (`[cd]`, `[c]`): the hidden columns the SQLite store keeps.
    package static let predicateFolds: [SearchFold] = [.caseAndDiacritics, .caseOnly]

    /// The fold whose column serves exactly these options (`[cd]`, `[c]`); nil for any other
    /// (`[d]` alone, `[n]`, none), which keep the registered functions.
    init?(_ options: ComparisonOptions) {
        switch options.intersection([.caseInsensitive, .diacriticInsensitive, .normalized]) {
        case [.caseInsensitive, .diacriticInsensitive]: self = .caseAndDiacritics
        case [.caseInsensitive]: self = .caseOnly
        default: return nil
        }
    }

    /// The options of the fold (the sort key starts from the `[cd]` fold).
    package var options: ComparisonOptions {
        switch self {
        case .caseAndDiacritics, .standardSortKey: [.caseInsensitive, .diacriticInsensitive]
        case .caseOnly: [.caseInsensitive]
        }
    }

    /// The hidden column holding this fold of attribute column `column`.
    package func column(_ column: String) -> String {
        switch self {
        case .caseAndDiacritics: "_cd_" + column
        case .caseOnly: "_c_" + column
        case .standardSortKey: Self.standardSortKeyColumn(column)
        }
    }

    /// The hidden column a store without Sift's collations (PostgreSQL) keeps beside a text
    /// attribute's, holding `StringComparator.localizedStandardCompare.sortKey(_:)` of it:
    /// `_s_<column>`.
    package static func standardSortKeyColumn(_ column: String) -> String { "_s_" + column }

    /// The folded text of a string.
    package func fold(_ text: String) -> String {
        switch self {
        case .caseAndDiacritics, .caseOnly: StringFolding.fold(text, options: options)
        case .standardSortKey: StringComparator.localizedStandardCompare.sortKey(text) ?? text
        }
    }

    /// What the hidden column holds for a stored attribute value: its folded text, or NULL.
    package func stored(_ value: SQLValue) -> SQLValue {
        guard case .text(let text) = value else { return .null }
        return .text(fold(text))
    }

    /// SQL computing the hidden column from the attribute column `column` (quoted), through the
    /// same folding registered in SQLite (`sift_fold`): for filling it in an existing store.
    package func sql(from column: String) -> String {
        "\(SiftSQLFunctions.foldFunction)(CASE WHEN typeof(\(column)) = 'text' THEN \(column) END, \(options.rawValue))"
    }
}
