import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQLite

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
enum SearchFold: CaseIterable, Sendable {
    /// `[cd]`: case folded, nonspacing marks removed: `_cd_<column>`.
    case caseAndDiacritics
    /// `[c]`: case folded: `_c_<column>`.
    case caseOnly

    /// The fold whose column serves exactly these options (`[cd]`, `[c]`); nil for any other
    /// (`[d]` alone, `[n]`, none), which keep the registered functions.
    init?(_ options: ComparisonOptions) {
        switch options.intersection([.caseInsensitive, .diacriticInsensitive, .normalized]) {
        case [.caseInsensitive, .diacriticInsensitive]: self = .caseAndDiacritics
        case [.caseInsensitive]: self = .caseOnly
        default: return nil
        }
    }

    var options: ComparisonOptions {
        switch self {
        case .caseAndDiacritics: [.caseInsensitive, .diacriticInsensitive]
        case .caseOnly: [.caseInsensitive]
        }
    }

    /// The hidden column holding this fold of attribute column `column`.
    func column(_ column: String) -> String {
        switch self {
        case .caseAndDiacritics: "_cd_" + column
        case .caseOnly: "_c_" + column
        }
    }

    /// The folded text of a string.
    func fold(_ text: String) -> String { StringFolding.fold(text, options: options) }

    /// What the hidden column holds for a stored attribute value: its folded text, or NULL.
    func stored(_ value: SQLiteValue) -> SQLiteValue {
        guard case .text(let text) = value else { return .null }
        return .text(fold(text))
    }

    /// SQL computing the hidden column from the attribute column `column` (quoted), through the
    /// same folding registered in SQLite (`sift_fold`): for filling it in an existing store.
    func sql(from column: String) -> String {
        "\(SiftSQLFunctions.foldFunction)(CASE WHEN typeof(\(column)) = 'text' THEN \(column) END, \(options.rawValue))"
    }
}

/// Whether the hidden columns of a store's searchable attributes are in its database. They
/// are, in a store created with its model; a store whose stored model marks attributes
/// searchable that it lacks the columns of gains them in its next write transaction
/// (``StoreLayoutMigration``), and until then the compiler reads the attributes themselves.
final class SearchColumnPresence: @unchecked Sendable {
    private let lock = NSLock()
    private var present: Bool

    init(_ present: Bool) { self.present = present }

    var isPresent: Bool {
        get { lock.withLock { present } }
        set { lock.withLock { present = newValue } }
    }

    /// Whether every hidden column `schema` describes is in the database.
    static func check(_ schema: SQLSchema, in database: SQLiteDatabase) throws(SQLiteError) -> Bool {
        for (table, hidden) in schema.searchColumnsByTable {
            let existing = try columnNames(of: table, in: database)
            if hidden.contains(where: { !existing.contains($0.column) }) { return false }
        }
        return true
    }

    /// The names of a table's columns.
    static func columnNames(of table: String, in database: SQLiteDatabase) throws(SQLiteError) -> Set<String> {
        let statement = try database.prepare("SELECT name FROM pragma_table_info(?1)")
        try statement.bind([.text(table)])
        var names: Set<String> = []
        while try statement.step() { names.insert(statement.text(0)) }
        return names
    }
}
