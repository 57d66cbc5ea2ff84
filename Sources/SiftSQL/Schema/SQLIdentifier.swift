/// SQL identifiers. Every table and column name in generated SQL comes from the model (or from
/// the database's own catalogue) and passes through ``quoted(_:)``: nothing a user types into a
/// predicate or an argument is ever pasted into SQL text.
package enum SQLIdentifier {
    /// `name` as a quoted SQL identifier: `"name"`, with `"` doubled.
    package static func quoted(_ name: String) -> String { SQLStringLiteral.enclosed(name, in: "\"") }

    /// `alias.column`, both quoted.
    package static func qualified(_ alias: String, _ column: String) -> String {
        quoted(alias) + "." + quoted(column)
    }
}
