import Foundation
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
/// **Attributes.** Every column is an optional attribute named after the column (`.` becomes
/// `_` and a leading `@` is dropped, because property names may not hold them). Its type comes
/// from what the column holds and what it declares (``ColumnTypeInference``): a `STRING` column
/// holding text is String, a `DATETIME` column holding ISO 8601 text is Date, a column holding
/// integers and text is Undefined (each value keeps its kind).
///
/// **Relationships.** Each single-column foreign key (`PRAGMA foreign_key_list`) to another
/// introspected table becomes a to-one relationship named after the column without an `_id` /
/// `Id` / `_ID` / `ID` suffix (`artist_id` → `artist`, `artistId` → `artist`) when that name is
/// free. The column then stays an attribute too (`Album WHERE artist_id == 3` reads the raw key).
/// When there is no suffix, or the shortened name clashes, the relationship takes the column's
/// own name and replaces the attribute. The destination gets a to-many inverse named after the
/// source table, lowercased with an `s` added unless it ends in one (`Album` → `albums`,
/// `tracks` → `tracks`); a clash (two foreign keys from one table, or an existing property)
/// adds `_<to-one name>` (`messages_sender`), then a number.
enum SchemaIntrospection {
    static func schema(of database: SQLiteDatabase, name: String) throws -> SQLSchema {
        let tables = try readTables(database)
        var byLowercasedName: [String: Int] = [:]
        for (index, table) in tables.enumerated() { byLowercasedName[table.name.lowercased()] = index }
        // A Core Data store keeps dates as seconds since 2001; other programs' numbers are read
        // as Unix time or Julian days.
        let isCoreDataStore = byLowercasedName["z_metadata"] != nil && byLowercasedName["z_primarykey"] != nil

        // Attributes and to-one relationships, per table.
        var shapes = tables.map { table in
            TableShape(table: table, columns: ColumnTypeInference.columns(of: table.name, table.columns, key: table.primaryKey, in: database,
                                                                       isCoreDataStore: isCoreDataStore))
        }
        var inverses: [(destination: Int, source: Int, toOne: String)] = []
        for (sourceIndex, table) in tables.enumerated() {
            for foreignKey in table.foreignKeys {
                guard let destinationIndex = byLowercasedName[foreignKey.table.lowercased()] else { continue }
                let destination = tables[destinationIndex]
                let destinationKey = foreignKey.to.flatMap { to in destination.columns.first { $0.name.lowercased() == to.lowercased() }?.name }
                    ?? destination.primaryKey
                var toOneName = propertyName(foreignKey.from)
                if let stripped = strippingKeySuffix(toOneName), !shapes[sourceIndex].isTaken(stripped) {
                    toOneName = stripped
                } else {
                    shapes[sourceIndex].removeAttribute(column: foreignKey.from)
                    guard !shapes[sourceIndex].isTaken(toOneName) else { continue }
                }
                shapes[sourceIndex].relationships.append(
                    (RelationshipDescription(name: toOneName, destination: destination.name),
                     .foreignKey(column: foreignKey.from, destinationTable: destination.name, destinationKey: destinationKey)))
                inverses.append((destinationIndex, sourceIndex, toOneName))
            }
        }

        // To-many inverses, once every table's own properties are known.
        var inverseNames: [Int: [String: String]] = [:]  // source index → to-one name → inverse name
        for (destinationIndex, sourceIndex, toOneName) in inverses {
            let source = tables[sourceIndex]
            let base = plural(source.name)
            var candidate = base
            if shapes[destinationIndex].isTaken(candidate) { candidate = "\(base)_\(toOneName)" }
            var counter = 2
            let stem = candidate
            while shapes[destinationIndex].isTaken(candidate) {
                candidate = "\(stem)\(counter)"
                counter += 1
            }
            guard case .foreignKey(let column, _, let destinationKey)? = shapes[sourceIndex].relationships.first(where: { $0.0.name == toOneName })?.1 else { continue }
            shapes[destinationIndex].relationships.append(
                (RelationshipDescription(name: candidate, destination: source.name, isToMany: true, inverse: toOneName),
                 .inverseForeignKey(column: column, destinationTable: source.name, sourceKey: destinationKey)))
            inverseNames[sourceIndex, default: [:]][toOneName] = candidate
        }
        for (sourceIndex, names) in inverseNames {
            for i in shapes[sourceIndex].relationships.indices {
                if let inverse = names[shapes[sourceIndex].relationships[i].0.name], !shapes[sourceIndex].relationships[i].0.isToMany {
                    shapes[sourceIndex].relationships[i].0.inverse = inverse
                }
            }
        }

        let entities = shapes.map { shape in
            EntityDescription(name: shape.table.name, attributes: shape.attributes.map(\.0), relationships: shape.relationships.map(\.0))
        }
        let model: DataModel
        do {
            model = try DataModel(name: name, entities: entities)
        } catch {
            throw StoreError(.unsupportedModel, "the database's tables cannot be read as a model: \(error.message)")
        }
        var entityTables: [String: EntityTable] = [:]
        for shape in shapes {
            guard let entity = model.entity(named: shape.table.name) else { continue }
            var columns: [String: String] = [:]
            for (attribute, column) in shape.attributes { columns[attribute.name] = column }
            var relationships: [String: RelationshipStorage] = [:]
            for (relationship, storage) in shape.relationships { relationships[relationship.name] = storage }
            let collated = columns.values.filter { column in
                database.declaredCollation(table: shape.table.name, column: column).map { $0.uppercased() != "BINARY" } ?? false
            }
            entityTables[entity.name] = EntityTable(
                entity: entity, table: shape.table.name, primaryKey: shape.table.primaryKey,
                objectID: .primaryKey(prefix: shape.table.name + "/"),
                entityColumn: nil, entityNames: nil, hierarchyEntityNames: [entity.name],
                columns: columns, relationships: relationships, collatedColumns: Set(collated),
                foreignColumns: shape.foreignColumns.filter { columns.values.contains($0.key) })
        }
        return SQLSchema(model: model, tables: entityTables, isSiftLayout: false)
    }

    // MARK: Reading the catalogue

    /// One table as the database describes it.
    struct Table {
        let name: String
        let columns: [(name: String, declaredType: String)]
        /// The integer key column: the INTEGER PRIMARY KEY column, or a rowid alias.
        let primaryKey: String
        let foreignKeys: [(from: String, table: String, to: String?)]
    }

    /// Every table that can be an entity, in creation order.
    static func readTables(_ database: SQLiteDatabase) throws -> [Table] {
        let rows = try database.rows("""
            SELECT "name", coalesce("sql", '') FROM sqlite_schema
            WHERE "type" = 'table' AND "name" NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid
            """)
        var tables: [Table] = []
        for row in rows {
            guard case .text(let name) = row[0], case .text(let sql) = row[1] else { continue }
            if sql.uppercased().hasPrefix("CREATE VIRTUAL") { continue }
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
                guard let alias = ["rowid", "_rowid_", "oid"].first(where: { !taken.contains($0) }) else { continue }
                primaryKey = alias
                // A WITHOUT ROWID table has no rowid: leave it out.
                // (Unquoted: a quoted unknown "rowid" would be read as a string literal.)
                do {
                    _ = try database.prepare("SELECT \(alias) FROM \(SQLIdentifier.quoted(name))")
                } catch {
                    continue
                }
            }
            let keyRows = try database.rows(#"SELECT "id", "table", "from", "to" FROM pragma_foreign_key_list(?1) ORDER BY "id" DESC, "seq""#, [.text(name)])
            // SQLite numbers a table's foreign keys from the last declared: descending "id" is
            // declaration order, so the first foreign key gets the plain inverse name.
            var counts: [Int64: Int] = [:]
            for keyRow in keyRows { if case .integer(let id) = keyRow[0] { counts[id, default: 0] += 1 } }
            var foreignKeys: [(from: String, table: String, to: String?)] = []
            for keyRow in keyRows {
                guard case .integer(let id) = keyRow[0], counts[id] == 1,
                      case .text(let table) = keyRow[1], case .text(let from) = keyRow[2] else { continue }
                var to: String?
                if case .text(let text) = keyRow[3] { to = text }
                foreignKeys.append((from, table, to))
            }
            tables.append(Table(name: name, columns: columns, primaryKey: primaryKey, foreignKeys: foreignKeys))
        }
        return tables
    }

    // MARK: Naming and types

    /// A table's properties while they are being named.
    struct TableShape {
        let table: Table
        var attributes: [(AttributeDescription, String)]
        var relationships: [(RelationshipDescription, RelationshipStorage)] = []
        /// How each column is read, and why its type (``ColumnTypeInference``).
        let foreignColumns: [String: ForeignColumn]

        init(table: Table, columns foreignColumns: [String: ForeignColumn]) {
            self.table = table
            self.foreignColumns = foreignColumns
            var seen: Set<String> = []
            var attributes: [(AttributeDescription, String)] = []
            for column in table.columns {
                let name = SchemaIntrospection.propertyName(column.name)
                guard !name.isEmpty, seen.insert(name).inserted else { continue }
                let type = foreignColumns[column.name]?.type ?? .undefined
                attributes.append((AttributeDescription(name: name, type: type), column.name))
            }
            self.attributes = attributes
        }

        func isTaken(_ name: String) -> Bool {
            attributes.contains { $0.0.name == name } || relationships.contains { $0.0.name == name }
        }

        mutating func removeAttribute(column: String) {
            attributes.removeAll { $0.1 == column }
        }
    }

    /// A column name as a property name: `.` becomes `_`, leading `@`s are dropped.
    static func propertyName(_ column: String) -> String {
        String(column.replacingOccurrences(of: ".", with: "_").drop { $0 == "@" })
    }

    /// `artist_id` → `artist`, `artistId` → `artist`; nil when there is no such suffix.
    static func strippingKeySuffix(_ name: String) -> String? {
        for suffix in ["_id", "_ID", "_Id", "Id", "ID"] where name.hasSuffix(suffix) && name.count > suffix.count {
            let stripped = String(name.dropLast(suffix.count))
            return stripped.hasSuffix("_") ? nil : stripped
        }
        return nil
    }

    /// The to-many inverse's base name: the table name lowercased, with an `s` unless it has one.
    static func plural(_ table: String) -> String {
        let lower = table.lowercased()
        return lower.hasSuffix("s") ? lower : lower + "s"
    }
}
