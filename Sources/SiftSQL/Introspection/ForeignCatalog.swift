import SiftStore

/// A database Sift did not create, as its catalogue declares it (`SchemaIntrospection`): its
/// tables with their columns' declared types, keys and foreign keys. Read when the database is
/// opened, without reading a row; the columns' attribute types, which depend on what the
/// columns hold, are chosen per table when a fetch first needs them (``ForeignSchema``).
struct ForeignCatalog: Sendable {
    /// One table that can be an entity.
    struct Table: Sendable {
        let name: String
        /// The columns in their order, with their declared types (`""` when none).
        let columns: [(name: String, declaredType: String)]
        /// The integer key column: the INTEGER PRIMARY KEY column, or a rowid alias (`rowid`,
        /// `_rowid_`, `oid`, written unquoted: see ``keyExpression``).
        let primaryKey: String
        /// Single-column foreign keys, in declaration order.
        let foreignKeys: [IntrospectedTable.ForeignKey]
        /// Columns declared with a collation other than BINARY.
        let collatedColumns: Set<String>

        /// The key as SQL: a rowid alias unquoted (SQLite reads an unknown quoted name as a
        /// string), a column quoted.
        var keyExpression: String {
            columns.contains { $0.name == primaryKey } ? SQLIdentifier.quoted(primaryKey) : primaryKey
        }
    }

    /// The model's name (the file's, without its extension).
    let name: String
    /// The tables, in creation order.
    let tables: [Table]
    /// Whether the database is a Core Data store (its numeric dates are seconds since 2001).
    let isCoreDataStore: Bool
    /// The tables that are no entity, with why (`a WITHOUT ROWID table, …`).
    var skipped: [String: String] = [:]

    /// The table named `name`.
    func table(named name: String) -> Table? { tables.first { $0.name == name } }

    /// The error for `name` when it is a table that is no entity (``skipped``): what it is and
    /// which tables Sift reads, in place of "unknown entity".
    func skippedTableError(_ name: String) -> StoreError? {
        guard let reason = skipped[name] else { return nil }
        return StoreError(.unknownEntity, "\(name) is \(reason); Sift reads and changes only tables whose rows have a key (an INTEGER PRIMARY KEY or a rowid)", entity: name)
    }
}
