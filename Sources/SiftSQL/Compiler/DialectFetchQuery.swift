import SiftEvaluation
import SiftLanguage
import SiftStore

/// A fetch request compiled (``FetchSQL``) for a store on a server, in PostgreSQL's dialect:
/// the query of the rows it returns, its count, and what the evaluator must still do.
///
///     SELECT <columns> FROM "Note" AS "t0" LEFT JOIN … WHERE … ORDER BY … NULLS FIRST, "t0"."_pk" NULLS FIRST LIMIT $n OFFSET $m
///
/// Exactly as in SQLite, the predicate's conjuncts are compiled in order until one cannot be
/// (or the dialect cannot say it: Sift's Swift functions): that one and the later ones are the
/// ``residual``, checked in memory on the rows the query returns, and then the sort (if it ran
/// in memory) and paging follow in memory too.
package struct DialectFetchQuery {
    /// The query of the rows: the WHERE, ORDER BY (by the row key alone when ``sortsInSQL`` is
    /// false), and LIMIT and OFFSET when ``pagesInSQL``.
    package let sql: String
    /// The values of `$1`, `$2`, … as SQLite would hold them (numbers, text, blobs): the dialect
    /// reads each column in that form.
    package let bindings: [SQLValue]
    /// `SELECT count(*)` of the rows the request returns when ``residual`` is nil (paging
    /// included), else of the candidate rows; with ``countBindings``.
    package let countSQL: String
    package let countBindings: [SQLValue]
    /// What the evaluator checks on each row (nil: the server did everything).
    package let residual: PredicateNode?
    /// Why part of the predicate, or the sort, runs in memory.
    package let reason: String?
    package let sortsInSQL: Bool
    package let pagesInSQL: Bool
    /// Whether the server may refuse the query half way through its rows (an overflow, a
    /// division by zero: ``SQLExpression/mayRaise``), where the evaluator has an answer.
    package let mayBeRefused: Bool

    /// Compiles `request` (its predicate typed by the model) selecting `columns` (SQL text the
    /// caller writes: the row layout's columns, read as they are).
    package init(_ request: FetchRequest, schema: SQLSchema, dialect: any SQLDialect, columns: [String]) throws {
        let plan = try FetchSQL(request, schema: schema, dialect: dialect)
        let columns = columns.map { SQLExpression.literal($0) }
        mayBeRefused = plan.statement(selecting: columns).mayRaise
        let query = plan.select(columns, in: dialect)
        (sql, bindings) = (query.sql, query.bindings)
        let count = plan.countQuery(in: dialect)
        (countSQL, countBindings) = (count.sql, count.bindings)
        residual = plan.residual
        reason = plan.residualReason ?? plan.sortReason
        sortsInSQL = plan.orderBy != nil
        pagesInSQL = plan.pagesInSQL
    }
}
