import SiftLanguage
import SiftSQL
import SiftStore

/// Where the row an object ID names may be, for `object(with:)` in every SQL store: a root
/// table whose IDs can name it, the column the ID is compared with there and the value bound.
///
/// The core's part of `object(with:)` is which tables are tried, in which order, what each
/// compares and binds, the query's text and that the object read is the one asked for; the
/// driver's is running the query and decoding its row (and, for a foreign SQLite database,
/// reading the table's column types first).
package struct SQLObjectLookup {
    /// The table's root entity's table: its layout decodes the row.
    package let table: EntityTable
    /// The column compared: the ID's own column, or the row key's.
    package let column: String
    /// The value bound: the ID's text, or the row key it names.
    package let binding: SQLValue

    /// Where `id` would be in `table` (nil when the table's IDs cannot name it: another prefix,
    /// another entity's hierarchy).
    package init?(_ id: ObjectID, in table: EntityTable) {
        switch table.objectID {
        case .column(let column):
            self.column = column
            binding = .text(id.rawValue)
        case .primaryKey, .entityAndKey:
            // (A Core Data ID names the row's entity too: `…/Note/p3` is not the folder 3.)
            guard let (key, entity) = table.objectID.key(of: id.rawValue),
                  entity.map(table.hierarchyEntityNames.contains) ?? true else { return nil }
            column = table.primaryKey
            binding = .integer(key)
        }
        self.table = table
    }

    /// Every place `id` may be in `schema`, in the order they are tried: one per table, its
    /// root entity's, by the tables' names.
    package static func candidates(for id: ObjectID, in schema: SQLSchema) -> [SQLObjectLookup] {
        var roots: [String: EntityTable] = [:]
        for table in schema.tables.values where table.entity.parent == nil {
            // (One root entity a table; the smallest name if a layout ever had more.)
            if let known = roots[table.table], known.entity.name <= table.entity.name { continue }
            roots[table.table] = table
        }
        return roots.keys.sorted().compactMap { SQLObjectLookup(id, in: roots[$0]!) }
    }

    /// The query reading the row, as `"t0"`: `columns` are the driver's layout's selected
    /// columns, `placeholder` its dialect's first parameter (`?1`, `$1`).
    package func sql(selecting columns: [String], placeholder: String) -> String {
        "SELECT \(columns.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(table.table)) AS \"t0\" WHERE \(SQLIdentifier.qualified("t0", column)) = \(placeholder)"
    }

    /// `object(with:)` of a SQL store: the object of the first row `id` names, tried table by
    /// table; `read` runs a lookup's query and decodes its row (nil when there is none, or it
    /// cannot be read). An object whose ID is not `id` (a row of another entity of a table
    /// Core Data shares) is none.
    package static func object(with id: ObjectID, in schema: SQLSchema, read: (SQLObjectLookup) -> ManagedObject?) -> ManagedObject? {
        for lookup in candidates(for: id, in: schema) {
            guard let object = read(lookup) else { continue }
            return object.objectID == id ? object : nil
        }
        return nil
    }
}
