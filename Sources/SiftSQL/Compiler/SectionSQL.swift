import SiftEvaluation
import SiftLanguage
import SiftSQLite
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
struct SectionSQL {
    let plan: FetchSQL
    /// The section key path's value per row.
    let value: SQLFragment
    private let sortTerms: [SQLOrdering]
    /// The first sort key and its direction, when it sorts by the section key path.
    private let runKey: (term: SQLExpression, descending: Bool)?

    /// Compiles the section key path of `plan`'s request; throws `SQLUnsupported` when it has
    /// no single SQL value per row (or the fetch does not run wholly in SQL).
    init(_ plan: FetchSQL, keys: [String], schema: SQLSchema) throws {
        guard plan.pagesInSQL, let terms = plan.orderBy else { throw SQLUnsupported("part of the fetch runs in memory") }
        let scope = SQLScope(alias: plan.alias, table: plan.table, isSubquery: false)
        guard case .single(let value) = try ExpressionSQLCompiler(schema: schema, context: plan.context).keyPath(base: nil, keys: keys, in: scope),
              value.constant == nil else {
            throw SQLUnsupported("a section key path with no single value per row")
        }
        if case .object = value.kind { throw SQLUnsupported("sectioning by a relationship") }
        if value.kind == .dynamic { throw SQLUnsupported("sectioning by a value of several kinds") }
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
    var firstPlace: Int64? {
        let (place, overflow) = Int64(clamping: plan.request.fetchOffset).addingReportingOverflow(1)
        return overflow ? nil : place
    }

    private var isPaged: Bool { plan.request.fetchLimit > 0 || plan.request.fetchOffset > 0 }
    private var rowNumber: SQLExpression { .rowNumber(orderBy: sortTerms) }

    /// The sections' values, sizes, first and last places (1-based, in result order), in
    /// order of their first place.
    func summaryQuery() -> (sql: String, bindings: [SQLiteValue]) {
        let renderer = SQLRenderer()
        var inner = "SELECT \(renderer.render(value.expression)) AS \"s\", \(renderer.render(rowNumber)) AS \"n\" \(plan.fromAndWhere(renderer))"
        if isPaged { inner += plan.orderByClause(renderer) + plan.pagingClause(renderer) }
        let sql = "SELECT \"s\", count(*), min(\"n\"), max(\"n\") FROM (\(inner)) GROUP BY \"s\" COLLATE BINARY ORDER BY min(\"n\")"
        return (sql, renderer.bindings)
    }

    /// Runs of equal first sort key, in result order, when that key is the section key path:
    /// each run's least and greatest stored section value, how many of its rows have one, and
    /// its size. Nil when the first sort key is another key path.
    func runsQuery() -> (sql: String, bindings: [SQLiteValue])? {
        guard let runKey else { return nil }
        let renderer = SQLRenderer()
        if isPaged {
            let order = runKey.descending ? "ORDER BY \"k\" DESC" : "ORDER BY \"k\""
            let inner = "SELECT \(renderer.render(value.expression)) AS \"s\", \(renderer.render(runKey.term)) AS \"k\" \(plan.fromAndWhere(renderer))"
                + plan.orderByClause(renderer) + plan.pagingClause(renderer)
            let sql = "SELECT min(\"s\"), max(\"s\"), count(\"s\"), count(*) FROM (\(inner)) GROUP BY \"k\" \(order)"
            return (sql, renderer.bindings)
        }
        let select = SQLSelect(columns: [.function("min", [value.expression]), .function("max", [value.expression]),
                                         .function("count", [value.expression]), .countAll], from: nil)
        var sql = renderer.render(select) + " " + plan.fromAndWhere(renderer)
        sql += " GROUP BY " + renderer.render(runKey.term) + " ORDER BY " + renderer.render(SQLOrdering(expression: runKey.term, descending: runKey.descending))
        return (sql, renderer.bindings)
    }

    /// The objects (`columns`) of the section holding the rows whose value is one of
    /// `values`, placed between `first` and `last`, in result order.
    func objectsQuery(_ columns: [String], values: [SQLiteValue], first: Int64, last: Int64) -> (sql: String, bindings: [SQLiteValue]) {
        let context = plan.context
        let renderer = SQLRenderer()
        /// `x IS ?v COLLATE BINARY OR …`: the value compared as stored, whatever collation its
        /// column was declared with.
        func matches(_ operand: SQLExpression) -> SQLExpression {
            .or(values.map { .binary(.is, operand, .collate(context.bind($0), "BINARY")) })
        }
        guard isPaged else {
            let sql = "SELECT \(columns.joined(separator: ", ")) \(plan.fromAndWhere(renderer, adding: [matches(value.expression)]))\(plan.orderByClause(renderer))"
            return (sql, renderer.bindings)
        }
        let named = columns.enumerated().map { "\($1) AS \"c\($0)\"" }
        let outer = columns.indices.map { "\"c\($0)\"" }
        let inner = "SELECT \(named.joined(separator: ", ")), \(renderer.render(value.expression)) AS \"s\", \(renderer.render(rowNumber)) AS \"n\" \(plan.fromAndWhere(renderer))"
        let place = SQLExpression.column(table: nil, name: "n")
        let filter = SQLExpression.and([.between(place, context.bind(.integer(first)), context.bind(.integer(last))), matches(.column(table: nil, name: "s"))])
        let sql = "SELECT \(outer.joined(separator: ", ")) FROM (\(inner)) WHERE \(renderer.render(filter)) ORDER BY \"n\""
        return (sql, renderer.bindings)
    }
}
