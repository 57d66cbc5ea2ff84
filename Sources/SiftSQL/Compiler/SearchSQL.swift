import SiftEvaluation
import SiftLanguage

/// Where a searchable attribute's folded text is, in the row aliased `alias`: the hidden
/// columns ``SearchFold`` names after the attribute's `column`.
struct SearchColumns {
    let alias: String
    let column: String

    /// The qualified hidden column holding `fold` of the attribute.
    func expression(_ fold: SearchFold) -> SQLExpression {
        .column(alias, fold.column(column))
    }

    /// What a comparator sorts the attribute by, in a store keeping its sort keys (PostgreSQL,
    /// ``SearchFold/standardSortKeyColumn(_:)``): `text` itself (`compare`), the `[c]` fold,
    /// the `[cd]` fold then `text` (`localizedCompare`), the `[cd]` fold, or the
    /// `localizedStandardCompare` key (`StringComparator.sortKey(_:)` orders as each does).
    func sortColumns(for comparator: StringComparator, text: SQLExpression) -> [SQLExpression] {
        switch comparator {
        case .compare: [text]
        case .caseInsensitiveCompare: [expression(.caseOnly)]
        case .localizedCompare: [expression(.caseAndDiacritics), text]
        case .localizedCaseInsensitiveCompare: [expression(.caseAndDiacritics)]
        case .localizedStandardCompare: [.column(alias, SearchFold.standardSortKeyColumn(column))]
        }
    }
}

/// `[cd]` and `[c]` tests of a searchable attribute against constants, on its folded column
/// (``SearchFold``) instead of through the registered functions row by row:
///
/// | predicate | SQL |
/// |---|---|
/// | `name ==[cd] "É"` | `"t0"."_cd_name" = ?1` (`?1` = `"e"`) |
/// | `name !=[cd] "É"` | `"t0"."_cd_name" IS NOT ?1` (true where name is nil) |
/// | `name IN[cd] {"A", "b", nil}` | `"t0"."_cd_name" IN (?1, ?2) OR "t0"."_cd_name" IS NULL` |
/// | `name BEGINSWITH[cd] "ab"` | `"t0"."_cd_name" >= ?1 AND "t0"."_cd_name" < ?2` (`"ab"`, `"ac"`) |
/// | `name CONTAINS[cd] "ab"` | `instr("t0"."_cd_name", ?1) > 0` |
/// | `name ENDSWITH[cd] "ab"` | `substr(CAST("t0"."_cd_name" AS BLOB), -length(CAST(?1 AS BLOB))) = CAST(?1 AS BLOB)` (`"ab"`) |
/// | `name <[c] "Ab"` | `"t0"."_c_name" < ?1` (`"ab"`) |
///
/// The constant is folded here by the same `StringFolding.fold` that wrote the column, so
/// both are NFC and the evaluator's tests — byte comparisons of the folded UTF-8
/// (`StringPredicates`) — are SQLite's: `=` and `IN` compare bytes (BINARY), UTF-8's byte order
/// is code-point order (the range), `instr` finds a byte sequence (a valid UTF-8 needle only
/// matches at a character boundary), and the text ends with the needle exactly when its bytes
/// end with the needle's (compared as blobs: SQLite's `substr` and `length` of a text stop at
/// its first NUL, ``SQLExpression/endsWith(_:suffix:characters:)``). The folded column is NULL
/// where the attribute is nil, as the attribute is, so nil rules and NOT are unchanged. A
/// needle that folds to empty never gets here (``PredicateSQLCompiler`` compiles it as false).
extension PredicateSQLCompiler {
    /// The searchable column and the folded constant text of a pair, when `options` are
    /// exactly those of a fold and one side is a searchable attribute, the other a string
    /// constant: (folded column SQL, folded constant).
    func searchPair(_ options: ComparisonOptions, _ l: SQLFragment, _ r: SQLFragment) -> (column: SQLExpression, text: String)? {
        guard let fold = SearchFold(options) else { return nil }
        if let search = l.search, case .string(let text)? = r.constant { return (search.expression(fold), fold.fold(text)) }
        if let search = r.search, case .string(let text)? = l.constant { return (search.expression(fold), fold.fold(text)) }
        return nil
    }

    /// `folded = ?` (`==`), or `folded IS NOT ?` (`!=`, true where the attribute is nil).
    func searchEquality(_ options: ComparisonOptions, _ l: SQLFragment, _ r: SQLFragment, negated: Bool) -> SQLCondition? {
        guard let (column, text) = searchPair(options, l, r) else { return nil }
        let value = context.bind(.text(text))
        return negated ? SQLCondition(expression: .binary(.isNot, column, value), nullable: false)
            : SQLCondition(expression: .binary(.equal, column, value), nullable: true)
    }

    /// `folded IN (?, …)` for the string elements (no other kind equals a string), `OR folded IS
    /// NULL` when nil is among them; nil unless `l` is searchable and a string is among them.
    func searchMembership(_ options: ComparisonOptions, _ l: SQLFragment, _ elements: [Value]) -> SQLCondition? {
        guard let fold = SearchFold(options), let search = l.search, l.constant == nil else { return nil }
        let texts = elements.compactMap { element -> String? in
            if case .string(let text) = element { return fold.fold(text) }
            return nil
        }
        guard !texts.isEmpty else { return nil }
        let column = search.expression(fold)
        let list = SQLCondition(expression: .in(column, texts.map { context.bind(.text($0)) }), nullable: true)
        guard elements.contains(where: \.isNull) else { return list }
        // (The folded column is NULL exactly where the attribute is: the index serves both.)
        return combine([list, SQLCondition(expression: .isNull(column, negated: false), nullable: false)], with: .or)
    }

    /// `sift_fold(x, options) IN (…)` for a long list of strings (64 or more) and a text `x`
    /// that is no searchable attribute, with `[c]` or `[cd]`: the elements folded here, by the
    /// same `StringFolding.fold` the registered `sift_fold` applies to `x`, so the test is the
    /// searchable column's (``searchMembership(_:_:_:)``) on a fold computed row by row. One
    /// list (a single JSON parameter on SQLite) in place of an equality per element: SQLite
    /// prepares a statement of 70,000 parameters in seconds (its parameter list is searched
    /// linearly), and tests each row against every element. Nil for anything else.
    func foldedMembership(_ options: ComparisonOptions, _ l: SQLFragment, _ elements: [Value]) throws -> SQLCondition? {
        guard context.dialect.hasSiftFunctions, let fold = SearchFold(options), l.kind == .string, l.constant == nil, l.search == nil,
              elements.count >= Self.foldedMembershipMinimum else { return nil }
        let texts = elements.compactMap { element -> String? in
            if case .string(let text) = element { return fold.fold(text) }
            return nil
        }
        guard !texts.isEmpty else { return nil }
        let x = try expressions.materialised(l)
        let folded = SQLExpression.function(.provided(.registered(.fold)), [x.expression, .integer(Int64(fold.options.rawValue))])
        let list = SQLCondition(expression: .in(folded, texts.map { context.bind(.text($0)) }), nullable: true)
        guard elements.contains(where: \.isNull) else { return list }
        guard let isNil = Self.nilTest(x) else { return nil }
        return combine([list, SQLCondition(expression: isNil, nullable: false)], with: .or)
    }

    /// The shortest list ``foldedMembership(_:_:_:)`` takes (shorter ones keep an equality per
    /// element).
    static let foldedMembershipMinimum = 64

    /// BEGINSWITH as a range of the folded column, CONTAINS as `instr`, ENDSWITH as the
    /// folded column's last bytes, for a searchable attribute and a constant needle that
    /// is not empty once folded.
    func searchStringTest(_ op: ComparisonOperator, _ options: ComparisonOptions, _ l: SQLFragment, _ r: SQLFragment) -> SQLCondition? {
        guard let fold = SearchFold(options), let search = l.search, case .string(let needle)? = r.constant,
              [.beginsWith, .contains, .endsWith].contains(op) else { return nil }
        let column = search.expression(fold)
        let text = fold.fold(needle)
        // (Only these: `LIKE[c] ""` is no needle, and matches "".)
        guard !text.isEmpty else { return .false }
        switch op {
        case .beginsWith:
            let low = context.bind(.text(text))
            // Only a prefix of U+10FFFFs has no successor: every string at or above it begins with it.
            guard let high = Self.successor(of: text) else { return SQLCondition(expression: .binary(.greaterThanOrEqual, column, low), nullable: true) }
            return SQLCondition(expression: .and([.binary(.greaterThanOrEqual, column, low), .binary(.lessThan, column, context.bind(.text(high)))]),
                                nullable: true)
        case .contains:
            return SQLCondition(expression: .binary(.greaterThan, .function(.standard(.instr), [column, context.bind(.text(text))]), .integer(0)), nullable: true)
        case .endsWith:
            return SQLCondition(expression: .endsWith(column, suffix: context.bind(.text(text)), characters: Int64(text.unicodeScalars.count)),
                                nullable: true)
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .like, .matches, .in, .between,
             .utiConformsTo, .utiEquals:
            return nil
        }
    }

    /// `< <= > >=` under `[c]` or `[cd]` of a searchable attribute and a constant: the folded
    /// column against the folded constant (the evaluator orders the folded texts by code point).
    func searchOrdering(_ op: ComparisonOperator, _ options: ComparisonOptions, _ l: SQLFragment, _ r: SQLFragment) -> SQLCondition? {
        guard let fold = SearchFold(options), let sqlOperator = try? Self.orderOperator(op) else { return nil }
        if let search = l.search, case .string(let text)? = r.constant {
            return SQLCondition(expression: .binary(sqlOperator, search.expression(fold), context.bind(.text(fold.fold(text)))), nullable: true)
        }
        if let search = r.search, case .string(let text)? = l.constant {
            return SQLCondition(expression: .binary(sqlOperator, context.bind(.text(fold.fold(text))), search.expression(fold)), nullable: true)
        }
        return nil
    }

    /// `"ab" IN[cd] name` (a substring test, the needle on the left): `instr` on the folded column.
    func searchSubstring(_ options: ComparisonOptions, needle l: SQLFragment, in r: SQLFragment) -> SQLCondition? {
        searchStringTest(.contains, options, r, l)
    }
}
