import SiftEvaluation
import SiftLanguage
import SiftStore

/// The SQL of a sectioned fetch (FETCH.md §4) whose predicate, sort and paging all run in SQL.
///
/// One GROUP BY query gives every section's value, size, and first and last place in the
/// results (places number the rows in result order, so sections come in order of their first
/// object, and a section is contiguous when it fills its span):
///
///     SELECT "s", count(*), min("n"), max("n")
///     FROM (SELECT <section value> AS "s", row_number() OVER (ORDER BY <sort>, "t0"."_pk") AS "n"
///           FROM … WHERE … [ORDER BY … LIMIT ?a OFFSET ?b])
///     GROUP BY "s" COLLATE BINARY ORDER BY min("n")
///
/// A section's objects are a query of their own, run when the section is read:
///
///     SELECT <columns> FROM … WHERE … AND (<section value> IS ?v COLLATE BINARY) ORDER BY …
///
/// or, when the fetch has a limit or offset, the rows numbered within the section's span:
///
///     SELECT "c0", "c1", … FROM (SELECT <column> AS "c0", …, <section value> AS "s",
///                                       row_number() OVER (ORDER BY …) AS "n" FROM … WHERE …)
///     WHERE "n" BETWEEN ?first AND ?last AND ("s" IS ?v COLLATE BINARY) ORDER BY "n"
///
/// When the first sort key is the section key path (the usual case: `SORT BY city SECTION BY
/// city`), equal sort keys are runs of the results, and a plain GROUP BY on that sort key, in
/// the sort's order, gives the runs in result order without numbering every row:
///
///     SELECT min(<section value>), max(<section value>), count(<section value>), count(*)
///     FROM … WHERE … GROUP BY <sort key> ORDER BY <sort key> [DESC]
///
/// (over the paged rows, as a subquery, when the fetch has a limit or offset). Each run's
/// places follow from the sizes of the runs before it. A run holding more than one stored
/// value (a case-insensitive sort groups "Banks" with "banks") does not say which comes
/// first; the caller then runs the summary query above.
///
/// Values compare as stored (BINARY), whatever collation a column was declared with, as the
/// evaluator compares them; values whose section names are equal are merged by the caller.
package struct SectionSQL {
    let plan: FetchSQL
    /// The section key path's value per row.
    let value: SQLFragment
    private let sortTerms: [SQLOrdering]
    /// The first sort key and its direction, when it sorts by the section key path.
    private let runKey: (term: SQLExpression, descending: Bool)?

    /// Compiles the section key path of `plan`'s request; throws `SQLUnsupported` when it has
    /// no single SQL value per row (or the fetch does not run wholly in SQL).
    package init(_ plan: FetchSQL, keys: [String], schema: SQLSchema) throws {
        guard plan.pagesInSQL, let terms = plan.orderBy else { throw SQLUnsupported("part of the fetch runs in memory") }
        let scope = SQLScope(alias: plan.alias, table: plan.table, isSubquery: false)
        guard case .single(var value) = try ExpressionSQLCompiler(schema: schema, context: plan.context).keyPath(base: nil, keys: keys, in: scope),
              value.constant == nil else {
            throw SQLUnsupported("a section key path with no single value per row")
        }
        if case .object = value.kind { throw SQLUnsupported("sectioning by a relationship") }
        if value.kind == .dynamic { throw SQLUnsupported("sectioning by a value of several kinds") }
        // A dialect holding NaN reads a stored double or decimal with NaN as NULL: the section
        // value is read as stored, so that NaN names its own section ("nan"), as in memory.
        if value.divergence.contains(.nanIsNull) && plan.context.dialect.holdsNaN {
            guard let stored = value.storedWithNaN else { throw SQLUnsupported("sectioning by a value that may be NaN") }
            value.expression = stored
        }
        self.plan = plan
        self.value = value
        self.sortTerms = terms
        if let first = plan.request.sortDescriptors.first, let term = plan.sortKeys.first,
           first.keyPath == keys.joined(separator: ".") {
            runKey = (term, !first.ascending)
        } else {
            runKey = nil
        }
    }

    /// The place of the first row of the results (row numbers count the rows the offset skips);
    /// nil for an offset beyond any place.
    package var firstPlace: Int64? {
        let (place, overflow) = Int64(clamping: plan.request.fetchOffset).addingReportingOverflow(1)
        return overflow ? nil : place
    }

    private var isPaged: Bool { plan.request.fetchLimit > 0 || plan.request.fetchOffset > 0 }
    private var rowNumber: SQLExpression { .rowNumber(orderBy: sortTerms) }

    /// The sections' values, sizes, first and last places (1-based, in result order), in
    /// order of their first place.
    package func summaryQuery() -> RenderedSQL {
        var inner = plan.statement(selecting: [value.expression, rowNumber])
        inner.aliases = ["s", "n"]
        if !isPaged { inner.orderBy = [] }
        let place = SQLExpression.column(table: nil, name: "n"), section = SQLExpression.column(table: nil, name: "s")
        let summary = SQLSelect(columns: [section, .countAll, .function(.standard(.min), [place]), .function(.standard(.max), [place])],
                                from: SQLFrom(source: .subquery(inner), alias: nil), groupBy: [asStored(section)],
                                orderBy: [SQLOrdering(expression: .function(.standard(.min), [place]), isNeverNull: true)])
        return rendered(summary)
    }

    /// Runs of equal first sort key, in result order, when that key is the section key path:
    /// each run's least and greatest stored section value, how many of its rows have one, and
    /// its size. Nil when the first sort key is another key path.
    package func runsQuery() -> RenderedSQL? {
        guard let runKey else { return nil }
        if isPaged {
            var inner = plan.statement(selecting: [value.expression, runKey.term])
            inner.aliases = ["s", "k"]
            let section = SQLExpression.column(table: nil, name: "s"), key = SQLExpression.column(table: nil, name: "k")
            let runs = SQLSelect(columns: [.function(.standard(.min), [section]), .function(.standard(.max), [section]), .function(.standard(.count), [section]), .countAll],
                                 from: SQLFrom(source: .subquery(inner), alias: nil), groupBy: [key],
                                 orderBy: [SQLOrdering(expression: key, descending: runKey.descending)])
            return rendered(runs)
        }
        let runs = SQLSelect(columns: [.function(.standard(.min), [value.expression]), .function(.standard(.max), [value.expression]),
                                       .function(.standard(.count), [value.expression]), .countAll],
                             from: plan.from, where: plan.whereCondition, groupBy: [runKey.term],
                             orderBy: [SQLOrdering(expression: runKey.term, descending: runKey.descending)])
        return rendered(runs)
    }

    /// The objects (`columns`) of the section holding the rows whose value is one of
    /// `values`, placed between `first` and `last`, in result order.
    package func objectsQuery(_ columns: [SQLExpression], values: [SQLValue], first: Int64, last: Int64) -> RenderedSQL {
        let context = plan.context
        /// `x IS ?v COLLATE BINARY OR …`: the value compared as stored, whatever collation its
        /// column was declared with.
        func matches(_ operand: SQLExpression) -> SQLExpression {
            .or(values.map { value in
                // (A bound NaN is NULL: a dialect holding NaN names it.)
                if case .real(let d) = value, d.isNaN, context.dialect.holdsNaN {
                    return .binary(.is, operand, .cast(.string("NaN"), "double precision"))
                }
                // (A decimal is bound as its text: a server's numeric column reads it as a number.)
                if self.value.kind == .number(.decimal), !context.dialect.hasSiftFunctions {
                    return .binary(.is, operand, .cast(context.bind(value), "numeric"))
                }
                return .binary(.is, operand, asStored(context.bind(value)))
            })
        }
        guard isPaged else {
            var objects = plan.statement(selecting: columns)
            objects.where = .and(plan.conditions + [matches(value.expression)])
            return rendered(objects)
        }
        let names = columns.indices.map { "c\($0)" }
        let inner = SQLSelect(columns: columns + [value.expression, rowNumber], aliases: names + ["s", "n"], from: plan.from, where: plan.whereCondition)
        let place = SQLExpression.column(table: nil, name: "n")
        let filter = SQLExpression.and([.between(place, context.bind(.integer(first)), context.bind(.integer(last))), matches(.column(table: nil, name: "s"))])
        let objects = SQLSelect(columns: names.map { .column(table: nil, name: $0) }, from: SQLFrom(source: .subquery(inner), alias: nil), where: filter,
                                orderBy: [SQLOrdering(expression: place, isNeverNull: true)])
        return rendered(objects)
    }

    /// A value compared as stored: `x COLLATE BINARY` (in SQLite whatever the value, where
    /// a column's declared collation would apply; in another dialect only text has a collation,
    /// and a text column is already `COLLATE "C"`-ordered by its own declaration).
    private func asStored(_ operand: SQLExpression) -> SQLExpression {
        plan.context.dialect.appliesColumnCollationToEveryValue || value.kind == .string ? .collate(operand, "BINARY") : operand
    }

    /// A statement's text in the plan's dialect, its bindings, and what that dialect could not say.
    private func rendered(_ select: SQLSelect) -> RenderedSQL {
        let renderer = SQLRenderer(plan.context.dialect)
        return RenderedSQL(sql: renderer.render(select), renderer: renderer)
    }
}
