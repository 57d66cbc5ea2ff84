/// A SELECT statement as a tree, rendered by a ``SQLDialect`` (a subquery of an expression,
/// `EXISTS (…)` or `(SELECT …)`):
///
///     SELECT <columns> FROM <from> WHERE <where> GROUP BY <groupBy> ORDER BY <orderBy> LIMIT <limit> OFFSET <offset>
struct SQLSelect: Sendable {
    var columns: [SQLExpression]
    /// Names given to the columns (`<column> AS "s"`), by position; nil or missing: none.
    var aliases: [String?] = []
    var from: SQLFrom?
    var `where`: SQLExpression? = nil
    var groupBy: [SQLExpression] = []
    var orderBy: [SQLOrdering] = []
    var limit: SQLExpression? = nil
    var offset: SQLExpression? = nil
}

/// A FROM clause: one table (or subquery) and what joins it.
///
///     "Book.tags" AS "t1" JOIN "Tag" AS "t2" ON "t2"."_pk" = "t1"."_target"
///     "Author"
///     (SELECT … AS "s", … AS "n" FROM …)
struct SQLFrom: Sendable {
    /// What rows the clause reads.
    indirect enum Source: Sendable {
        /// `"Book"`.
        case table(String)
        /// `(SELECT …)`.
        case subquery(SQLSelect)
    }

    var source: Source
    var alias: String?
    var joins: [SQLJoin] = []

    init(table: String, alias: String?, joins: [SQLJoin] = []) {
        self.init(source: .table(table), alias: alias, joins: joins)
    }

    init(source: Source, alias: String?, joins: [SQLJoin] = []) {
        self.source = source
        self.alias = alias
        self.joins = joins
    }

    /// The clause with `more` joins added after its own, each once (by alias).
    func adding(_ more: [SQLJoin]) -> SQLFrom {
        var result = self
        for join in more where !result.joins.contains(where: { $0.alias == join.alias }) { result.joins.append(join) }
        return result
    }
}

/// One join of a FROM clause: `LEFT JOIN "Person" AS "t1" ON "t1"."_pk" = "t0"."owner"`.
struct SQLJoin: Sendable {
    enum Kind: Sendable {
        /// `JOIN`.
        case inner
        /// `LEFT JOIN`.
        case left
    }

    var kind: Kind
    var table: String
    /// Unique in its statement (``SQLGenerationContext/newAlias()``).
    var alias: String
    var on: SQLExpression
}
