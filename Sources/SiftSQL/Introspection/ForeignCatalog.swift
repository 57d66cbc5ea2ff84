import SiftStore

/// A database Sift did not create, as its catalogue declares it (`SchemaIntrospection`): its
/// tables with their columns' declared types, keys and foreign keys. Read when the database is
/// opened, without reading a row; the columns' attribute types, which depend on what the
/// columns hold, are chosen per table when a fetch first needs them (``ForeignSchema``).
package struct ForeignCatalog: Sendable {
    /// One table that can be an entity.
    package struct Table: Sendable {
        package let name: String
        /// The columns in their order, with their declared types (`""` when none).
        package let columns: [(name: String, declaredType: String)]
        /// The integer key column: the INTEGER PRIMARY KEY column, or a rowid alias (`rowid`,
        /// `_rowid_`, `oid`, written unquoted: see ``keyExpression``).
        package let primaryKey: String
        /// Single-column foreign keys, in declaration order.
        package let foreignKeys: [IntrospectedTable.ForeignKey]
        /// Columns declared with a collation other than BINARY.
        package let collatedColumns: Set<String>

        /// The key as SQL: a rowid alias unquoted (SQLite reads an unknown quoted name as a
        /// string), a column quoted.
        package var keyExpression: String {
            columns.contains { $0.name == primaryKey } ? SQLIdentifier.quoted(primaryKey) : primaryKey
        }

        package init(name: String, columns: [(name: String, declaredType: String)], primaryKey: String, foreignKeys: [IntrospectedTable.ForeignKey], collatedColumns: Set<String>) {
            self.name = name
            self.columns = columns
            self.primaryKey = primaryKey
            self.foreignKeys = foreignKeys
            self.collatedColumns = collatedColumns
        }
    }

    /// The model's name (the file's, without its extension).
    package let name: String
    /// The tables, in creation order.
    package let tables: [Table]
    /// Whether the database is a Core Data store (its numeric dates are seconds since 2001).
    package let isCoreDataStore: Bool
    /// The tables that are no entity, with why (`a WITHOUT ROWID table, …`).
    package var skipped: [String: String] = [:]

    /// The table named `name`.
    package func table(named name: String) -> Table? { tables.first { $0.name == name } }

    /// The error for `name` when it is a table that is no entity (``skipped``): what it is and
    /// which tables Sift reads, in place of "unknown entity".
    package func skippedTableError(_ name: String) -> StoreError? {
        guard let reason = skipped[name] else { return nil }
        return StoreError(.unknownEntity, "\(name) is \(reason); Sift reads and changes only tables whose rows have a key (an INTEGER PRIMARY KEY or a rowid)", entity: name)
    }

    package init(name: String, tables: [Table], isCoreDataStore: Bool, skipped: [String: String] = [:]) {
        self.name = name
        self.tables = tables
        self.isCoreDataStore = isCoreDataStore
        self.skipped = skipped
    }
}
