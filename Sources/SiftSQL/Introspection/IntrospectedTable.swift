import SiftStore

/// A table of a database Sift did not create, as its catalog describes it, in terms no
/// database's own: what ``IntrospectedSchema`` makes an entity of. SQLite's introspection
/// (`SchemaIntrospection`) and PostgreSQL's read their catalogs into it, so both name entities,
/// attributes and relationships by the same rules.
package struct IntrospectedTable: Sendable {
    /// A single-column foreign key: `column` holds a key of `destinationTable`, the value of its
    /// `destinationColumn` (nil: its primary key).
    package struct ForeignKey: Sendable {
        package let column: String
        package let destinationTable: String
        package let destinationColumn: String?

        package init(column: String, destinationTable: String, destinationColumn: String?) {
            self.column = column
            self.destinationTable = destinationTable
            self.destinationColumn = destinationColumn
        }
    }

    /// The table's name, which its entity takes.
    package let name: String
    /// The integer column identifying and ordering the rows.
    package let primaryKey: String
    /// The columns in their order, each with the attribute type it is read as.
    package let columns: [(name: String, type: AttributeType)]
    /// The foreign keys, in declaration order (the first to a table gets the plain inverse name).
    package let foreignKeys: [ForeignKey]
    /// Text columns the compiler reads `COLLATE BINARY` (code-point order, as the evaluator
    /// compares), because the database would compare them otherwise.
    package let collatedColumns: Set<String>
    /// How columns are read when not as they are stored (SQLite's, ``ForeignColumn``).
    package let foreignColumns: [String: ForeignColumn]
    /// Whether the columns' types were chosen (false: a table of a database Sift did not create
    /// whose rows no fetch has needed yet; its attributes are Undefined until then).
    package var typesAreRead = true

    package init(name: String, primaryKey: String, columns: [(name: String, type: AttributeType)], foreignKeys: [ForeignKey], collatedColumns: Set<String>) {
        self.init(name: name, primaryKey: primaryKey, columns: columns, foreignKeys: foreignKeys, collatedColumns: collatedColumns, foreignColumns: [:])
    }

    package init(name: String, primaryKey: String, columns: [(name: String, type: AttributeType)], foreignKeys: [ForeignKey], collatedColumns: Set<String>,
                 foreignColumns: [String: ForeignColumn]) {
        self.name = name
        self.primaryKey = primaryKey
        self.columns = columns
        self.foreignKeys = foreignKeys
        self.collatedColumns = collatedColumns
        self.foreignColumns = foreignColumns
    }
}
