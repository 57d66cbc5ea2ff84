import SiftSQL

/// The SQL a fetch runs, for `sift sql` and `sift explain`.
public struct GeneratedSQL: Sendable, CustomStringConvertible {
    /// The query (with `?NNN` placeholders, `$N` in PostgreSQL).
    public let sql: String
    /// The values bound to `?1`, `?2`, …
    public let bindings: [SQLValue]
    /// The part of the predicate the evaluator checks on the rows the query returns, if any.
    public let inMemoryPredicate: String?
    /// Why that part (or the sort) is not SQL.
    public let inMemoryReason: String?
    /// Whether sorting runs in memory.
    public let sortsInMemory: Bool
    /// For a sectioned fetch that runs wholly in SQL: the query giving the sections' values,
    /// sizes and places (each section's objects are queried when it is read). When the first
    /// sort key is the section key path, it is a GROUP BY of that key in sort order (and, should
    /// a run of equal sort keys hold several section values, the row-numbering query runs next).
    public var sectionsSQL: String? = nil
    /// The values bound in `sectionsSQL`.
    public var sectionsBindings: [SQLValue] = []
    /// What a placeholder's number follows: `?` in SQLite, `$` in PostgreSQL.
    public var placeholderPrefix = "?"

    package init(sql: String, bindings: [SQLValue], inMemoryPredicate: String?, inMemoryReason: String?, sortsInMemory: Bool) {
        self.sql = sql
        self.bindings = bindings
        self.inMemoryPredicate = inMemoryPredicate
        self.inMemoryReason = inMemoryReason
        self.sortsInMemory = sortsInMemory
    }

    /// The query, one `  ?N = value` line per binding, `-- then in memory: …` for what the
    /// evaluator does, and the sections' query likewise (what `sift sql` prints).
    public var description: String {
        text(writingQueries: { sql, bindings in
            var text = sql
            for (index, value) in bindings.enumerated() { text += "\n  \(placeholderPrefix)\(index + 1) = \(value)" }
            return text
        })
    }

    /// The queries, each written by `query` from its text and bindings, with the notes of what
    /// the evaluator does.
    package func text(writingQueries query: (_ sql: String, _ bindings: [SQLValue]) -> String) -> String {
        var text = query(sql, bindings)
        if let inMemoryPredicate { text += "\n-- then in memory: \(inMemoryPredicate)" }
        if sortsInMemory { text += "\n-- sorted in memory" }
        if let inMemoryReason { text += (inMemoryPredicate == nil && !sortsInMemory ? "\n-- " : " ") + "(\(inMemoryReason))" }
        if let sectionsSQL { text += "\n-- sections:\n" + query(sectionsSQL, sectionsBindings) }
        return text
    }
}
