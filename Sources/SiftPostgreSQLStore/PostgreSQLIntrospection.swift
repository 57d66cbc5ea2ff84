import SiftPostgreSQL
import SiftSQL
import SiftStore

/// Reads a PostgreSQL database Sift did not create into a model and a schema from its catalog
/// (`PostgreSQLConnection.catalogTables()`), so any database can be queried (not written), as
/// SQLite files are: entities, attributes and relationships are named by the rules every
/// introspected database shares (`IntrospectedSchema`).
///
/// **Tables.** The ordinary and partitioned tables of the connection's current schema (the first
/// of its `search_path`, usually `public`) that have an integer key: their primary key when it
/// is one `smallint`, `integer` or `bigint` column, else a `NOT NULL` integer column with a
/// unique index of its own (not partial). Tables without one, views, materialized views, foreign
/// tables and other schemas' tables are left out. Object IDs are `<Table>/<key>`.
///
/// **Relationships.** Each single-column foreign key to the key of another table read becomes a
/// to-one and its to-many inverse (foreign keys taken in the order of their constraints' names);
/// a foreign key to another column leaves its column an attribute.
///
/// **Types** (``PostgreSQLForeignColumnType``): integers, floats, `numeric`, `boolean`, dates,
/// `bytea` and `uuid` as their attribute types; text types and every other type as String, read
/// as its text — in NFC when the first ``rowLimit`` rows hold text that is not (in a UTF-8
/// database), since the evaluator compares NFC.
enum PostgreSQLIntrospection {
    /// What introspection makes of a database.
    struct Introspected {
        let schema: SQLSchema
        /// The PostgreSQL type of each column the compiler reads in another form than as it is
        /// (``PostgreSQLForeignColumnType``), by table.
        let columnTypes: [String: [String: String]]
        /// Why each attribute has its type (`declared character varying(160)`), by entity and
        /// attribute.
        let reasons: [String: [String: String]]
    }

    /// The schema of the database `connection` opens.
    static func schema(of connection: PostgreSQLConnection) throws -> Introspected {
        let current = try connection.scalar("SELECT current_schema()::text").stringValue
        let catalog = try connection.catalogTables().filter { table in
            table.schema == current && (table.kind == .table || table.kind == .partitionedTable)
        }
        var keys: [String: String] = [:]
        for table in catalog {
            if let key = key(of: table) { keys[table.name] = key }
        }
        let utf8 = try connection.scalar("SHOW server_encoding").stringValue == "UTF8"
        var tables: [IntrospectedTable] = []
        var columnTypes: [String: [String: String]] = [:]
        var columnReasons: [String: [String: String]] = [:]
        for table in catalog {
            guard let key = keys[table.name] else { continue }
            var columns: [(name: String, type: AttributeType)] = []
            var collated: Set<String> = []
            for column in table.columns {
                let type = PostgreSQLForeignColumnType(column)
                columns.append((column.name, type.attributeType))
                if let read = type.columnType { columnTypes[table.name, default: [:]][column.name] = read }
                if type.attributeType == .string { collated.insert(column.name) }
                var reason = "declared \(column.typeName)"
                if column.name == key { reason += "; the row's key" }
                if type.columnType == PostgreSQLDialect.readAsText { reason += "; read as text" }
                columnReasons[table.name, default: [:]][column.name] = reason
            }
            let foreignKeys = table.foreignKeys.compactMap { foreignKey -> IntrospectedTable.ForeignKey? in
                guard foreignKey.columns.count == 1, foreignKey.referencedSchema == table.schema,
                      let destinationKey = keys[foreignKey.referencedTable], foreignKey.referencedColumns == [destinationKey] else { return nil }
                return IntrospectedTable.ForeignKey(column: foreignKey.columns[0], destinationTable: foreignKey.referencedTable, destinationColumn: destinationKey)
            }
            for column in try columnsNotInNFC(table.name, collated, of: connection, utf8: utf8) {
                columnTypes[table.name, default: [:]][column] = columnTypes[table.name]?[column] == PostgreSQLDialect.readAsText
                    ? PostgreSQLDialect.readAsTextInNFC : PostgreSQLDialect.readInNFC
                columnReasons[table.name, default: [:]][column, default: ""] += "; holds text not in NFC, read in NFC"
            }
            tables.append(IntrospectedTable(name: table.name, primaryKey: key, columns: columns, foreignKeys: foreignKeys, collatedColumns: collated))
        }
        let schema = try IntrospectedSchema.schema(of: tables, name: connection.database)
        var reasons: [String: [String: String]] = [:]
        for entity in schema.model.entities {
            guard let table = schema.table(for: entity.name) else { continue }
            for (attribute, column) in table.columns {
                if let reason = columnReasons[table.table]?[column] { reasons[entity.name, default: [:]][attribute] = reason }
            }
        }
        return Introspected(schema: schema, columnTypes: columnTypes, reasons: reasons)
    }

    /// How many rows of a table are read for text not in NFC (as SQLite's introspection reads).
    static let rowLimit = 100_000

    /// The text columns of `table` holding text not in NFC among its first ``rowLimit`` rows,
    /// which the compiler then reads in NFC, the form the evaluator compares (text Sift writes
    /// is NFC already; text of other types is read as its text). None in a database not in
    /// UTF-8, whose text PostgreSQL cannot normalize.
    static func columnsNotInNFC(_ table: String, _ columns: Set<String>, of connection: PostgreSQLConnection, utf8: Bool) throws -> [String] {
        guard utf8, !columns.isEmpty else { return [] }
        let ordered = columns.sorted()
        let tests = ordered.map { "coalesce(bool_or((\(q($0))::text) IS NOT NFC NORMALIZED), FALSE)" }
        let sql = "SELECT \(tests.joined(separator: ", ")) FROM (SELECT \(ordered.map(q).joined(separator: ", ")) FROM \(q(table)) LIMIT \(rowLimit)) AS \"s\""
        guard let row = try connection.query(sql).first else { return [] }
        return ordered.indices.filter { row[$0].boolValue == true }.map { ordered[$0] }
    }

    /// The integer types a key may have.
    static let keyTypes: Set<PostgreSQLTypeOID> = [.int2, .int4, .int8]

    /// A table's integer key column: its primary key when that is one integer column, else a
    /// `NOT NULL` integer column with a unique, not partial index of its own; nil when it has
    /// neither.
    static func key(of table: PostgreSQLTable) -> String? {
        func isInteger(_ name: String, notNull: Bool) -> Bool {
            table.columns.contains { $0.name == name && keyTypes.contains($0.type) && (!notNull || !$0.isNullable) }
        }
        if table.primaryKey.count == 1, isInteger(table.primaryKey[0], notNull: false) { return table.primaryKey[0] }
        for index in table.indexes where index.isUnique && index.columns.count == 1 && !index.definition.contains(" WHERE ") {
            if let column = index.columns[0], isInteger(column, notNull: true) { return column }
        }
        return nil
    }
}
