import SiftEvaluation
import SiftLanguage
import SiftStore

/// A sectioned fetch compiled (``SectionSQL``) for a store on a server, in PostgreSQL's
/// dialect: the GROUP BY query giving the sections' values, sizes and places, and each
/// section's query of its objects.
///
///     SELECT min("t0"."city"), max("t0"."city"), count("t0"."city"), count(*) FROM "Person" AS "t0" WHERE …
///     GROUP BY "t0"."city" ORDER BY "t0"."city" NULLS FIRST
///
/// (Text columns are `COLLATE "C"` by their declaration: `min`, `max` and grouping in
/// code-point order, as in SQLite.)
///
/// Only when the whole fetch (predicate, sort, paging) runs in the server, the section key
/// path is one attribute value per row the dialect can say, and it cannot be NaN (which the
/// dialect reads as NULL); anything else throws, and the sections are made in memory.
package struct DialectSectionQuery {
    private let section: SectionSQL
    /// How the section values decode: as the attribute's own type.
    package let valueType: AttributeType?
    /// The runs of equal first sort key, when that key is the section key path (nil otherwise),
    /// and its bindings.
    package let runs: (sql: String, bindings: [SQLValue])?
    /// The row-numbering summary query and its bindings.
    package let summary: (sql: String, bindings: [SQLValue])
    /// The place of the first row of the results (nil for an offset beyond any place).
    package var firstPlace: Int64? { section.firstPlace }

    /// Compiles `request` (its predicate typed by the model) sectioned by `keys`, whose last
    /// key is `attribute`.
    package init(_ request: FetchRequest, keys: [String], attribute: AttributeDescription, schema: SQLSchema, dialect: any SQLDialect) throws {
        let plan = try FetchSQL(request, schema: schema, dialect: dialect)
        section = try SectionSQL(plan, keys: keys, schema: schema)
        valueType = schema.isSiftLayout || attribute.type == .date || attribute.type == .boolean ? attribute.type : nil
        let summary = section.summaryQuery()
        let runs = section.runsQuery()
        let unsupported = summary.unsupported + (runs?.unsupported ?? [])
        if let construct = unsupported.first { throw SQLUnsupported("\(dialect.name) has no \(construct)") }
        self.summary = (summary.sql, summary.bindings)
        self.runs = runs.map { ($0.sql, $0.bindings) }
    }

    /// The query of a section's objects (`columns`, SQL text the caller writes), in result order.
    package func objectsQuery(_ columns: [String], span: SectionSpan) throws -> (sql: String, bindings: [SQLValue]) {
        let query = section.objectsQuery(columns.map { .literal($0) }, values: span.values, first: span.first, last: span.last)
        if let construct = query.unsupported.first { throw SQLUnsupported("the dialect has no \(construct)") }
        return (query.sql, query.bindings)
    }
}
