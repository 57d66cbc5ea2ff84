import Foundation
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

/// Reads a database Sift did not create into a model and a schema (FETCH.md §1), so any SQLite
/// file can be queried ad hoc (not written).
///
/// **Entities.** Each ordinary table becomes an entity named exactly after the table (a name
/// that is not an identifier is still used; SQL always quotes it). Skipped: `sqlite_…` tables,
/// virtual tables and `WITHOUT ROWID` tables (they have no integer key to order and identify
/// rows by).
///
/// **Keys and IDs.** The key is the table's `INTEGER PRIMARY KEY` column when it has one, else
/// `rowid` (or `_rowid_` / `oid` when a column takes that name). Object IDs are
/// `<Table>/<key>` (`Artist/3`).
///
/// **Attributes and relationships** are named by the rules every introspected database shares
/// (``IntrospectedSchema``): an attribute per column, a to-one per single-column foreign key
/// (`PRAGMA foreign_key_list`) to another introspected table, a to-many inverse on its
/// destination. An attribute's type comes from what the column holds and what it declares
/// (``ColumnTypeInference``): a `STRING` column holding text is String, a `DATETIME` column
/// holding ISO 8601 text is Date, a column holding integers and text is Undefined (each value
/// keeps its kind).
enum SchemaIntrospection {
    /// The database's catalogue: its tables, columns, keys and foreign keys, without reading a
    /// row (the columns' types are chosen per table when first needed, ``ForeignSchema``).
    static func catalog(of database: SQLiteDatabase, name: String) throws -> ForeignCatalog {
        var skipped: [String: String] = [:]
        let tables = try readTables(database, skipped: &skipped)
        let lowercasedNames = Set(tables.map { $0.name.lowercased() })
        // A Core Data store keeps dates as seconds since 2001; other programs' numbers are read
        // as Unix time or Julian days.
        let isCoreDataStore = lowercasedNames.contains("z_metadata") && lowercasedNames.contains("z_primarykey")
        return ForeignCatalog(name: name, tables: tables, isCoreDataStore: isCoreDataStore, skipped: skipped)
    }

    // MARK: Reading the catalogue

    /// Every table that can be an entity, in creation order; the others in `skipped`, with why.
    static func readTables(_ database: SQLiteDatabase, skipped: inout [String: String]) throws -> [ForeignCatalog.Table] {
        let rows = try database.rows("""
            SELECT "name", coalesce("sql", '') FROM sqlite_schema
            WHERE "type" = 'table' AND "name" NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid
            """)
        var tables: [ForeignCatalog.Table] = []
        // Each table's one-column PRIMARY KEY, by lowercased name.
        var declaredKeys: [String: String?] = [:]
        for row in rows {
            guard case .text(let name) = row[0], case .text(let sql) = row[1] else { continue }
            if sql.uppercased().hasPrefix("CREATE VIRTUAL") {
                skipped[name] = "a virtual table"
                continue
            }
            let columnRows = try database.rows(#"SELECT "name", coalesce("type", ''), "pk" FROM pragma_table_info(?1) ORDER BY "cid""#, [.text(name)])
            var columns: [(name: String, declaredType: String)] = []
            var keyColumns: [(name: String, type: String)] = []
            for columnRow in columnRows {
                guard case .text(let column) = columnRow[0], case .text(let type) = columnRow[1] else { continue }
                columns.append((column, type))
                if case .integer(let pk) = columnRow[2], pk > 0 { keyColumns.append((column, type)) }
            }
            var primaryKey: String
            if keyColumns.count == 1, keyColumns[0].type.uppercased() == "INTEGER" {
                primaryKey = keyColumns[0].name
            } else {
                let taken = Set(columns.map { $0.name.lowercased() })
                guard let alias = ["rowid", "_rowid_", "oid"].first(where: { !taken.contains($0) }) else {
                    skipped[name] = "a table whose columns are named rowid, _rowid_ and oid, so no name reaches its rows' keys"
                    continue
                }
                primaryKey = alias
                // A WITHOUT ROWID table has no rowid: leave it out.
                // (Unquoted: a quoted unknown "rowid" would be read as a string literal.)
                do {
                    _ = try database.prepare("SELECT \(alias) FROM \(SQLIdentifier.quoted(name))")
                } catch {
                    skipped[name] = "a WITHOUT ROWID table, whose rows have no integer key to name them by"
                    continue
                }
            }
            let keyRows = try database.rows(#"SELECT "id", "table", "from", "to" FROM pragma_foreign_key_list(?1) ORDER BY "id" DESC, "seq""#, [.text(name)])
            // SQLite numbers a table's foreign keys from the last declared: descending "id" is
            // declaration order, so the first foreign key gets the plain inverse name.
            var counts: [Int64: Int] = [:]
            for keyRow in keyRows { if case .integer(let id) = keyRow[0] { counts[id, default: 0] += 1 } }
            var foreignKeys: [IntrospectedTable.ForeignKey] = []
            for keyRow in keyRows {
                guard case .integer(let id) = keyRow[0], counts[id] == 1,
                      case .text(let table) = keyRow[1], case .text(let from) = keyRow[2] else { continue }
                var to: String?
                if case .text(let text) = keyRow[3] { to = text }
                foreignKeys.append(IntrospectedTable.ForeignKey(column: from, destinationTable: table, destinationColumn: to))
            }
            let collated = columns.map(\.name).filter { column in
                database.declaredCollation(table: name, column: column).map { $0.uppercased() != "BINARY" } ?? false
            }
            tables.append(ForeignCatalog.Table(name: name, columns: columns, primaryKey: primaryKey, foreignKeys: foreignKeys,
                                               collatedColumns: Set(collated)))
            declaredKeys[name.lowercased()] = keyColumns.count == 1 ? keyColumns[0].name : nil
        }
        // A foreign key naming no column refers to its table's PRIMARY KEY (a TEXT one too:
        // `REFERENCES People` is `People(playerID)`), not to its rowid.
        return tables.map { table in
            let foreignKeys = table.foreignKeys.map { key in
                guard key.destinationColumn == nil, let declared = declaredKeys[key.destinationTable.lowercased()] ?? nil else { return key }
                return IntrospectedTable.ForeignKey(column: key.column, destinationTable: key.destinationTable, destinationColumn: declared)
            }
            return ForeignCatalog.Table(name: table.name, columns: table.columns, primaryKey: table.primaryKey, foreignKeys: foreignKeys,
                                        collatedColumns: table.collatedColumns)
        }
    }
}
