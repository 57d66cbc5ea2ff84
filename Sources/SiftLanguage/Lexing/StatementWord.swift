/// The words of fetch and change statements (Grammar/statement.ebnf), beside the predicate
/// language's reserved ``Keyword``s. They are not reserved (an entity or key may be called
/// `Order` or `Group`): the statement parser reads them by position. Every list of them —
/// where a predicate ends, what a statement cannot end with, what carries a script's statement
/// on to the next line, what the REPL completes — derives from this one table, so a new
/// clause word is added here once.
public enum StatementWord: String, Sendable, CaseIterable {
    case fetch = "FETCH", count = "COUNT", select = "SELECT", update = "UPDATE", delete = "DELETE"
    case from = "FROM", `where` = "WHERE", set = "SET"
    case sort = "SORT", order = "ORDER", by = "BY", using = "USING", asc = "ASC", ascending = "ASCENDING", desc = "DESC", descending = "DESCENDING"
    case section = "SECTION", group = "GROUP", having = "HAVING", limit = "LIMIT", offset = "OFFSET"
    case `as` = "AS", distinct = "DISTINCT", nulls = "NULLS"

    /// The spelling, upper-case.
    public var spelling: String { rawValue }

    /// The words a statement starts with.
    public static let statementStarts: [StatementWord] = [.fetch, .count, .select, .update, .delete]

    /// Whether the word starts a clause of some statement (`WHERE`, `SORT BY`, `LIMIT`, …).
    public var startsAClause: Bool {
        switch self {
        case .from, .where, .set, .sort, .order, .section, .group, .having, .limit, .offset: true
        case .fetch, .count, .select, .update, .delete, .by, .using, .asc, .ascending, .desc, .descending, .as, .distinct, .nulls: false
        }
    }

    /// Whether a predicate or expression of a fetch statement ends before the word: the clause
    /// words, and the words inside a sort key or a select list (`AS`, `BY`, `ASC`, `USING`).
    public var endsAnExpression: Bool {
        switch self {
        case .from, .where, .sort, .order, .section, .group, .having, .limit, .offset, .as, .by, .asc, .desc, .using: true
        case .fetch, .count, .select, .update, .delete, .set, .ascending, .descending, .distinct, .nulls: false
        }
    }

    /// Whether a statement cannot end with the word (something must follow it): a script's
    /// or the REPL's input goes on to the next line.
    public var needsWhatFollows: Bool {
        switch self {
        case .where, .by, .set, .from, .having, .using, .as, .select, .distinct, .limit, .offset, .sort, .order, .section, .group,
             .update, .delete, .count:
            true
        case .fetch, .asc, .ascending, .desc, .descending, .nulls: false
        }
    }

    /// What the grammar puts right after a word, where that narrows what may follow it.
    public enum Next: Sendable {
        /// An entity's name (`FETCH Note`, `DELETE FROM Note`).
        case entity
        /// A key path (`SORT BY title`).
        case keyPath
        /// A string comparator (`USING localizedCompare`).
        case comparator
        /// A name or a number of the statement's own (`AS total`, `LIMIT 10`).
        case nameOrNumber
    }

    /// What comes right after the word, if the grammar narrows it (the REPL completes by it);
    /// nil where a predicate, an expression or another clause word may follow.
    public var next: Next? {
        switch self {
        case .fetch, .count, .update, .delete, .from: .entity
        case .by: .keyPath
        case .using: .comparator
        case .as, .limit, .offset: .nameOrNumber
        case .select, .where, .set, .sort, .order, .asc, .ascending, .desc, .descending, .section, .group, .having,
             .distinct, .nulls:
            nil
        }
    }

    /// The word spelt `text` in any case, or nil.
    public init?(spelling text: some StringProtocol) { self.init(rawValue: text.uppercased()) }

    /// The spellings of the words `include` selects, upper-case.
    public static func spellings(where include: (StatementWord) -> Bool) -> [String] {
        allCases.filter(include).map(\.spelling)
    }
}
