/// A SELECT statement as a tree, rendered by a ``SQLDialect`` (a subquery of an expression,
/// `EXISTS (…)` or `(SELECT …)`):
///
///     SELECT <columns> FROM <from> WHERE <where> GROUP BY <groupBy> ORDER BY <orderBy> LIMIT <limit> OFFSET <offset>
package struct SQLSelect: Sendable {
    package var columns: [SQLExpression]
    /// Names given to the columns (`<column> AS "s"`), by position; nil or missing: none.
    package var aliases: [String?] = []
    package var from: SQLFrom?
    package var `where`: SQLExpression? = nil
    package var groupBy: [SQLExpression] = []
    package var orderBy: [SQLOrdering] = []
    package var limit: SQLExpression? = nil
    package var offset: SQLExpression? = nil
}

/// A FROM clause: one table (or subquery) and what joins it.
///
///     "Book.tags" AS "t1" JOIN "Tag" AS "t2" ON "t2"."_pk" = "t1"."_target"
///     "Author"
///     (SELECT … AS "s", … AS "n" FROM …)
package struct SQLFrom: Sendable {
    /// What rows the clause reads.
    package indirect enum Source: Sendable {
        /// `"Book"`.
        case table(String)
        /// `(SELECT …)`.
        case subquery(SQLSelect)
    }

    package var source: Source
    package var alias: String?
    package var joins: [SQLJoin] = []

    init(table: String, alias: String?, joins: [SQLJoin] = []) {
        self.init(source: .table(table), alias: alias, joins: joins)
    }

    init(source: Source, alias: String?, joins: [SQLJoin] = []) {
        self.source = source
        self.alias = alias
        self.joins = joins
    }

    /// The clause with `more` joins added after its own, each once (by alias).
    package func adding(_ more: [SQLJoin]) -> SQLFrom {
        var result = self
        for join in more where !result.joins.contains(where: { $0.alias == join.alias }) { result.joins.append(join) }
        return result
    }
}

/// One join of a FROM clause: `LEFT JOIN "Person" AS "t1" ON "t1"."_pk" = "t0"."owner"`.
package struct SQLJoin: Sendable {
    package enum Kind: Sendable {
        /// `JOIN`.
        case inner
        /// `LEFT JOIN`.
        case left
    }

    package var kind: Kind
    package var table: String
    /// Unique in its statement (``SQLGenerationContext/newAlias()``).
    package var alias: String
    package var on: SQLExpression
}
