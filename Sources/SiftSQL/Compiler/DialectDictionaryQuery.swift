import SiftEvaluation
import SiftLanguage
import SiftStore

/// A dictionary fetch compiled (``DictionarySQL``) for a store on a server, in PostgreSQL's
/// dialect: the query of its rows (one per object, one per group, or one for the whole
/// result), and how each row becomes a dictionary before `DictionaryResults`' last stages
/// (HAVING, sorting groups, distinct, paging when the server did not page).
///
///     SELECT "t0"."city", count("t0"."name") FROM "Person" AS "t0" WHERE …
///     GROUP BY "t0"."city" ORDER BY min("t0"."_pk") NULLS FIRST
///
/// Only when the predicate runs whole in the server, every property compiles, and the dialect
/// says every part of it — no Sift function (`sift_group_sum`, …): anything else throws, and
/// the dictionaries are made in memory from the objects.
package struct DialectDictionaryQuery {
    private let compiled: DictionarySQL
    package let sql: String
    /// The values of `$1`, `$2`, … as SQLite would hold them.
    package let bindings: [SQLValue]
    /// Whether offset and limit ran in the server.
    package var pagesInSQL: Bool { compiled.pagesInSQL }

    /// Compiles `request` (its predicate typed by the model) with its `properties`
    /// (`DictionaryResults.properties`).
    package init(_ request: FetchRequest, properties: [FetchedProperty], schema: SQLSchema, dialect: any SQLDialect) throws {
        guard schema.isSiftLayout else { throw SQLUnsupported("dictionaries of a database Sift did not create") }
        // Grouped, or aggregating the whole result: the rows unsorted (the sort descriptors name
        // result properties, and sort the groups once they are made).
        var planned = request
        if !request.propertiesToGroupBy.isEmpty || DictionaryResults.aggregatesWholeResult(request) { planned.sortDescriptors = [] }
        let plan = try FetchSQL(planned, schema: schema, dialect: dialect)
        compiled = try DictionarySQL(request, plan: plan, properties: properties, schema: schema)
        let renderer = SQLRenderer(dialect)
        sql = renderer.render(compiled.statement())
        if let construct = renderer.unsupported.first { throw SQLUnsupported("\(dialect.name) has no \(construct)") }
        bindings = renderer.bindings
    }

    /// The dictionary of a result row, its values in SQLite's form, one per property.
    package func row(_ values: [SQLValue]) -> ValueDictionary {
        var row = ValueDictionary()
        for (index, (property, column)) in zip(compiled.properties, compiled.columns).enumerated() where index < values.count {
            row[property.name] = column.decode(values[index])
        }
        return row
    }
}
