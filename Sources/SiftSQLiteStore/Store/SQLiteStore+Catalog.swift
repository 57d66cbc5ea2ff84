import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

/// What a database Sift did not create declares beyond its model: the keys its foreign keys
/// refer to, its indexes and its NOT NULL columns.
extension SQLiteStore {
    /// The destination's attribute a to-one relationship's foreign key refers to, in a
    /// database Sift did not create (`Batting.player` → `playerID`); nil in a store Sift made.
    public func destinationKeyAttribute(of relationship: String, in entity: String) -> String? {
        schema.destinationKeyAttribute(of: relationship, in: entity)
    }

    /// The indexes (automatic ones included, as `sqlite3`'s `.indexes` lists them) and the NOT
    /// NULL columns of a database Sift did not create, read from its catalogue now; nil for a
    /// store Sift made (its model declares its indexes and required attributes).
    public func databaseCatalog() throws -> DatabaseCatalog? {
        guard !schema.isSiftLayout else { return nil }
        lock.lock(); defer { lock.unlock() }
        do {
            var indexes: [DatabaseCatalog.Index] = []
            let rows = try database.rows("""
                SELECT "s"."name", "s"."tbl_name", "l"."unique" FROM sqlite_schema AS "s"
                JOIN pragma_index_list("s"."tbl_name") AS "l" ON "l"."name" = "s"."name"
                WHERE "s"."type" = 'index'
                """)
            for row in rows {
                guard case .text(let name) = row[0], case .text(let table) = row[1] else { continue }
                let columns = try database.rows(#"SELECT "name" FROM pragma_index_info(?1) ORDER BY "seqno""#, [.text(name)]).map { column in
                    if case .text(let name) = column[0] { return name }
                    return "<expression>"
                }
                indexes.append(DatabaseCatalog.Index(name: name, table: table, columns: columns, isUnique: row[2] == .integer(1)))
            }
            var required: [String: Set<String>] = [:]
            for table in schema.tables.values {
                // The properties each column holds: its attribute, a to-one relationship.
                var properties: [String: [String]] = [:]
                for (attribute, column) in table.columns { properties[column, default: []].append(attribute) }
                for (relationship, storage) in table.relationships {
                    if case .foreignKey(let column, _, _) = storage { properties[column, default: []].append(relationship) }
                }
                let columns = try database.rows(#"SELECT "name", "notnull" FROM pragma_table_info(?1)"#, [.text(table.table)])
                for column in columns {
                    guard case .text(let name) = column[0], let held = properties[name] else { continue }
                    // The INTEGER PRIMARY KEY is the rowid: never NULL, whatever it declares.
                    if column[1] == .integer(1) || name == table.primaryKey { required[table.entity.name, default: []].formUnion(held) }
                }
            }
            return DatabaseCatalog(indexes: indexes, requiredProperties: required)
        } catch {
            throw translated(error)
        }
    }
}
