extension PostgreSQLConnection {
    /// Every table, partitioned table, view, materialized view and foreign table of the database
    /// outside the system schemas (`pg_catalog`, `information_schema`, `pg_toast`, any `pg_*`),
    /// with their columns, primary keys, foreign keys and indexes, sorted by schema and name.
    /// Partitions are left out (their partitioned table stands for them). Five catalog queries,
    /// whatever the number of tables.
    public func catalogTables() throws(PostgreSQLError) -> [PostgreSQLTable] {
        var tables: [TableKey: PostgreSQLTable] = [:]
        var order: [TableKey] = []
        for row in try query(Self.tablesSQL) {
            let key = TableKey(schema: row.text(0), name: row.text(1))
            guard let kind = Self.kind(code: row.text(2)) else { continue }
            tables[key] = PostgreSQLTable(schema: key.schema, name: key.name, kind: kind)
            order.append(key)
        }
        for row in try query(Self.columnsSQL) {
            let key = TableKey(schema: row.text(0), name: row.text(1))
            tables[key]?.columns.append(PostgreSQLTableColumn(
                name: row.text(2), typeName: row.text(3),
                type: PostgreSQLTypeOID(rawValue: UInt32(truncatingIfNeeded: row[4].int64Value ?? 0)),
                isNullable: row[5].boolValue ?? true, defaultExpression: row[6].stringValue,
                isIdentity: row[7].boolValue ?? false))
        }
        for row in try query(Self.primaryKeysSQL) {
            tables[TableKey(schema: row.text(0), name: row.text(1))]?.primaryKey.append(row.text(2))
        }
        for foreignKey in try foreignKeys() {
            tables[foreignKey.table]?.foreignKeys.append(foreignKey.key)
        }
        for index in try indexes() {
            tables[index.table]?.indexes.append(index.index)
        }
        return order.compactMap { tables[$0] }
    }

    private struct TableKey: Hashable {
        let schema: String
        let name: String
    }

    private static func kind(code: String) -> PostgreSQLTable.Kind? {
        switch code {
        case "r": .table
        case "p": .partitionedTable
        case "v": .view
        case "m": .materializedView
        case "f": .foreignTable
        default: nil
        }
    }

    /// The foreign keys of every table, each with the table it belongs to.
    private func foreignKeys() throws(PostgreSQLError) -> [(table: TableKey, key: PostgreSQLForeignKey)] {
        try groups(Self.foreignKeysSQL).compactMap { group in
            guard let first = group.rows.first else { return nil }
            return (group.table, PostgreSQLForeignKey(
                name: group.name, columns: group.rows.map { $0.text(3) },
                referencedSchema: first.text(4), referencedTable: first.text(5),
                referencedColumns: group.rows.map { $0.text(6) },
                onDelete: .init(code: first.text(7)), onUpdate: .init(code: first.text(8))))
        }
    }

    /// The indexes of every table, each with the table it belongs to.
    private func indexes() throws(PostgreSQLError) -> [(table: TableKey, index: PostgreSQLIndex)] {
        try groups(Self.indexesSQL).compactMap { group in
            guard let first = group.rows.first else { return nil }
            return (group.table, PostgreSQLIndex(
                name: group.name, columns: group.rows.map { $0[3].stringValue },
                isUnique: first[4].boolValue ?? false, isPrimaryKey: first[5].boolValue ?? false,
                definition: first.text(6)))
        }
    }

    /// The rows of a catalog query returning one row per column of a named object (a key, an
    /// index) — schema, table and name first, the rows of one object next to each other, in
    /// column order — gathered by (table, name).
    private func groups(_ sql: String) throws(PostgreSQLError) -> [(table: TableKey, name: String, rows: [PostgreSQLRow])] {
        var groups: [(table: TableKey, name: String, rows: [PostgreSQLRow])] = []
        for row in try query(sql) {
            let table = TableKey(schema: row.text(0), name: row.text(1))
            let name = row.text(2)
            if let last = groups.indices.last, groups[last].table == table, groups[last].name == name {
                groups[last].rows.append(row)
            } else {
                groups.append((table, name, [row]))
            }
        }
        return groups
    }

    /// The condition on namespace `n` leaving the system schemas out (user schemas cannot be
    /// named `pg_…`).
    private static let userSchemas = #"n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\_%'"#

    private static let tablesSQL = """
        SELECT n.nspname, c.relname, c.relkind::text
        FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition AND \(userSchemas)
        ORDER BY n.nspname, c.relname
        """

    private static let columnsSQL = """
        SELECT n.nspname, c.relname, a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod),
               a.atttypid::int8, NOT a.attnotnull, pg_catalog.pg_get_expr(d.adbin, d.adrelid),
               a.attidentity <> ''
        FROM pg_catalog.pg_attribute a
        JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
        JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE a.attnum > 0 AND NOT a.attisdropped
          AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition AND \(userSchemas)
        ORDER BY n.nspname, c.relname, a.attnum
        """

    private static let primaryKeysSQL = """
        SELECT n.nspname, c.relname, a.attname
        FROM pg_catalog.pg_constraint k
        JOIN pg_catalog.pg_class c ON c.oid = k.conrelid
        JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        CROSS JOIN LATERAL unnest(k.conkey) WITH ORDINALITY AS key(attnum, position)
        JOIN pg_catalog.pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = key.attnum
        WHERE k.contype = 'p' AND NOT c.relispartition AND \(userSchemas)
        ORDER BY n.nspname, c.relname, key.position
        """

    private static let foreignKeysSQL = """
        SELECT n.nspname, c.relname, k.conname, a.attname, rn.nspname, rc.relname, ra.attname,
               k.confdeltype::text, k.confupdtype::text
        FROM pg_catalog.pg_constraint k
        JOIN pg_catalog.pg_class c ON c.oid = k.conrelid
        JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_catalog.pg_class rc ON rc.oid = k.confrelid
        JOIN pg_catalog.pg_namespace rn ON rn.oid = rc.relnamespace
        CROSS JOIN LATERAL unnest(k.conkey, k.confkey) WITH ORDINALITY AS key(attnum, referenced, position)
        JOIN pg_catalog.pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = key.attnum
        JOIN pg_catalog.pg_attribute ra ON ra.attrelid = k.confrelid AND ra.attnum = key.referenced
        WHERE k.contype = 'f' AND NOT c.relispartition AND k.conparentid = 0 AND \(userSchemas)
        ORDER BY n.nspname, c.relname, k.conname, key.position
        """

    private static let indexesSQL = """
        SELECT n.nspname, c.relname, ic.relname, a.attname, i.indisunique, i.indisprimary,
               pg_catalog.pg_get_indexdef(i.indexrelid)
        FROM pg_catalog.pg_index i
        JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
        JOIN pg_catalog.pg_class c ON c.oid = i.indrelid
        JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS key(attnum, position)
        LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = key.attnum AND key.attnum > 0
        WHERE key.position <= i.indnkeyatts AND NOT c.relispartition AND \(userSchemas)
        ORDER BY n.nspname, c.relname, ic.relname, key.position
        """
}

extension PostgreSQLRow {
    /// Column `column` as text: `.text`'s string, "" for anything else (the catalog queries
    /// select names and `::text` casts, never NULL where this is used).
    func text(_ column: Int) -> String {
        self[column].stringValue ?? ""
    }
}
