import SiftEvaluation
import SiftLanguage

/// String tests with options in a dialect without Sift's functions but with the text functions
/// a PostgreSQL store installs (``SQLTextFunctions``): both sides prepared as the
/// evaluator prepares them (`StringPredicates`: folded under `[c]`/`[d]`, NFC without options,
/// as they are under `[n]`), then compared byte by byte — text is `COLLATE "C"` — as it does:
///
/// | test | SQL (`p(x)`: the prepared operand) |
/// |---|---|
/// | `x ==[d] y` | `sift_fold_d(x) = sift_fold_d(y)` |
/// | `x <[c] y` | `sift_fold_c(x) COLLATE "C" < sift_fold_c(y)` |
/// | `x BEGINSWITH[d] y` | `p(y) <> '' AND starts_with(p(x), p(y))` |
/// | `x ENDSWITH[d] y` | `p(y) <> '' AND right(p(x), char_length(p(y))) = p(y)` |
/// | `x CONTAINS[d] y` | `p(y) <> '' AND strpos(p(x), p(y)) > 0` |
///
/// A constant is prepared here, by the evaluator's own function, and bound; a constant needle
/// that prepares to empty never gets here (the compiler writes false), so its test has no
/// `p(y) <> ''`. Text in SQL is NFC (stored so, and the case mappings' results are composed), so
/// an operand without options is itself. `LIKE` is translated (``preparedLike(_:_:_:)``; a `?`,
/// one grapheme cluster, is counted on simple text and refused on other text); `MATCHES` when
/// its PCRE2 pattern is in the subset ``MatchesRegex`` translates to PostgreSQL's own dialect.
extension PredicateSQLCompiler {
    /// The string tests written this way.
    enum PreparedTextTest {
        case equals, order(SQLBinaryOperator), beginsWith, endsWith, contains
    }

    /// `test` of two string operands with `options` in plain SQL over the text functions; nil
    /// where the dialect lacks them (SQLite calls Sift's functions instead).
    func preparedTextTest(_ test: PreparedTextTest, _ options: ComparisonOptions, _ l: SQLFragment, _ r: SQLFragment) throws -> SQLExpression? {
        guard context.dialect.hasTextFunctions else { return nil }
        let x = try prepared(l, options), y = try prepared(r, options)
        let guarded = { (body: SQLExpression) -> SQLExpression in
            r.constant != nil ? body : .and([.binary(.notEqual, y, .string("")), body])
        }
        switch test {
        case .equals: return .binary(.equal, x, y)
        case .order(let op): return .binary(op, .collate(x, "BINARY"), y)
        case .beginsWith: return guarded(.function(.standard(.startsWith), [x, y]))
        case .endsWith: return guarded(.binary(.equal, .function(.standard(.right), [x, .function(.standard(.charLength), [y])]), y))
        case .contains: return guarded(.binary(.greaterThan, .function(.standard(.instr), [x, y]), .integer(0)))
        }
    }

    /// `x LIKE 'pattern'` in plain SQL over the text functions: without a star or `?`, the
    /// prepared operand equal to the prepared literal; with stars and plain literals, the prepared
    /// operand matching ``LikeRegex/regex(_:)``; with `?`, ``clusterLike(_:_:_:)``. Nil otherwise,
    /// and where the dialect lacks the text functions.
    func preparedLike(_ options: ComparisonOptions, _ l: SQLFragment, _ r: SQLFragment) throws -> SQLExpression? {
        guard context.dialect.hasTextFunctions, l.constant == nil, case .string(let pattern)? = r.constant else { return nil }
        let like = LikePattern(pattern, options: options)
        guard let runs = like.literalRuns else { return try clusterLike(like, options, l) }
        if runs.count == 1 { return .binary(.equal, try prepared(l, options), context.bind(.text(runs[0]))) }
        guard let regex = LikeRegex.regex(runs) else { return try clusterLike(like, options, l) }
        return .binary(.regexMatch, try prepared(l, options), context.bind(.text(regex)))
    }

    /// `x LIKE 'pattern'` for a pattern with `?` (or literals ``LikeRegex/regex(_:)`` does not
    /// take): the prepared operand matching ``LikeRegex/clusterRegex(_:)`` (false where that is
    /// `never`) when it is simple text (``SimpleClusters``), and a division by zero otherwise —
    /// the server refuses the query (class 22) and the fetch reruns in memory, where the
    /// evaluator counts the clusters itself:
    ///
    ///     CASE WHEN p(x) ~ '<not simple>' THEN char_length(p(x)) / 0 = 0 ELSE p(x) ~ '<regex>' END
    private func clusterLike(_ like: LikePattern, _ options: ComparisonOptions, _ l: SQLFragment) throws -> SQLExpression? {
        guard let match = LikeRegex.clusterRegex(like.segmentElements) else { return nil }
        let subject = try prepared(l, options)
        let refused = SQLExpression.binary(.equal, .binary(.divide, .function(.standard(.charLength), [subject]), .integer(0)), .integer(0))
        let test: SQLExpression
        switch match {
        case .regex(let regex): test = .binary(.regexMatch, subject, context.bind(.text(regex)))
        case .never: test = .boolean(false)
        }
        return .case([(when: .binary(.regexMatch, subject, context.bind(.text(LikeRegex.notSimple))), then: refused)], otherwise: test)
    }

    /// `x MATCHES 'pattern'` in plain SQL: the operand prepared as the evaluator prepares a
    /// MATCHES subject (NFC as SQL holds it, `[d]` through its fold, literal under `[n]`) matching
    /// the ARE ``MatchesRegex`` translates the pattern to. Nil where it does not (`[c]`, PCRE2
    /// outside the subset), for a pattern read from a row, and where the dialect lacks the text
    /// functions.
    func preparedMatches(_ options: ComparisonOptions, _ l: SQLFragment, _ r: SQLFragment) throws -> SQLExpression? {
        guard context.dialect.hasTextFunctions, l.constant == nil, case .string(let pattern)? = r.constant,
              let regex = MatchesRegex.regex(pattern, options: options) else { return nil }
        var subject = try expressions.materialised(l).expression
        if !options.contains(.normalized), options.contains(.diacriticInsensitive),
           let fold = SQLTextFunctions.fold([.diacriticInsensitive]) {
            subject = .function(.provided(.text(fold)), [subject])
        }
        return .binary(.regexMatch, subject, context.bind(.text(regex)))
    }

    /// What a comparator sorts a computed string by, through the text functions (as
    /// ``SearchColumns`` sorts a stored attribute by its stored folds): the value itself
    /// (`compare`), its `[c]` fold, its `[cd]` fold then the value (`localizedCompare`), its `[cd]`
    /// fold; nil for `localizedStandardCompare`, whose key has no function.
    static func preparedSortTerms(for comparator: StringComparator, text: SQLExpression) -> [SQLExpression]? {
        func folded(_ options: ComparisonOptions) -> SQLExpression? {
            SQLTextFunctions.fold(options).map { .collate(.function(.provided(.text($0)), [text]), "BINARY") }
        }
        switch comparator {
        case .compare: return [text]
        case .caseInsensitiveCompare: return folded([.caseInsensitive]).map { [$0] }
        case .localizedCompare: return folded([.caseInsensitive, .diacriticInsensitive]).map { [$0, text] }
        case .localizedCaseInsensitiveCompare: return folded([.caseInsensitive, .diacriticInsensitive]).map { [$0] }
        case .localizedStandardCompare: return nil
        }
    }

    /// The operand as the evaluator prepares it for `options`: a constant prepared here and
    /// bound, anything else through the text function of its fold (if any).
    private func prepared(_ f: SQLFragment, _ options: ComparisonOptions) throws -> SQLExpression {
        if case .string(let text)? = f.constant { return context.bind(.text(StringPredicates.prepared(text, options: options))) }
        let x = try expressions.materialised(f).expression
        guard let fold = SQLTextFunctions.fold(options) else { return x }
        return .function(.provided(.text(fold)), [x])
    }
}
