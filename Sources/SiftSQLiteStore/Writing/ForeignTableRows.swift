import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftStore

/// How the rows of one table of a database Sift did not create are found and linked, from its
/// catalogue alone (no column types needed): by the table's key — its INTEGER PRIMARY KEY
/// column or its rowid — which an object ID `<Table>/<key>` names, and through the foreign key
/// columns that hold its relationships (``ForeignRelationshipRows``). Every statement binds its
/// values; names come from the catalogue, quoted.
struct ForeignTableRows: Sendable {
    /// The table, which its entity is named after.
    let table: String
    /// The entity's position in the model.
    let entity: Int
    /// What the table's object IDs start with: `Artist/`.
    let prefix: String
    /// The key column's name: an INTEGER PRIMARY KEY column, or `rowid` (`_rowid_`, `oid`).
    let keyName: String
    /// Whether the key is a column of the table (an INTEGER PRIMARY KEY), not only its rowid.
    let keyIsColumn: Bool
    /// `SELECT 1 FROM "<table>" WHERE <key> = ?1`.
    let exists: String
    /// `SELECT max(<key>) FROM "<table>"`.
    let largestKey: String
    /// Each relationship slot's statements (nil where the entity's table does not hold it).
    let relationships: [ForeignRelationshipRows?]

    /// The rows of `table`, the entity at `position`; `isColumn(table, name)` tells whether a
    /// table's key is one of its declared columns.
    init(entity position: Int, table: EntityTable, schema: SQLSchema, isColumn: (String, String) -> Bool) {
        self.table = table.table
        entity = position
        if case .primaryKey(let prefix) = table.objectID { self.prefix = prefix } else { prefix = table.table + "/" }
        keyName = table.primaryKey
        keyIsColumn = isColumn(table.table, table.primaryKey)
        let key = Self.key(table.primaryKey, isColumn: keyIsColumn)
        exists = "SELECT 1 FROM \(q(table.table)) WHERE \(key) = ?1"
        largestKey = "SELECT max(\(key)) FROM \(q(table.table))"
        relationships = table.entity.relationships.map { relationship in
            table.relationships[relationship.name].flatMap { ForeignRelationshipRows($0, of: table, schema: schema, isColumn: isColumn) }
        }
    }

    /// The key as SQL: a column quoted; a rowid alias bare (SQLite reads an unknown quoted
    /// name as a string), or qualified with `alias`.
    static func key(_ name: String, isColumn: Bool, alias: String? = nil) -> String {
        guard let alias else { return isColumn ? q(name) : name }
        return SQLIdentifier.qualified(alias, name)
    }

    /// The key of this table as SQL (qualified with `alias` when given).
    func key(alias: String? = nil) -> String { Self.key(keyName, isColumn: keyIsColumn, alias: alias) }

    /// `INSERT INTO "<table>" (<key>, "<a>", …) VALUES (?1, ?2, …)`: the key, then `columns`.
    func insert(_ columns: [String]) -> String {
        let names = [key()] + columns.map(q)
        return "INSERT INTO \(q(table)) (\(names.joined(separator: ", "))) VALUES (\((1...names.count).map { "?\($0)" }.joined(separator: ", ")))"
    }

    /// `UPDATE "<table>" SET "<a>" = ?1, … WHERE <key> = ?n` (the key bound last).
    func update(_ columns: [String]) -> String {
        let assignments = columns.enumerated().map { "\(q($1)) = ?\($0 + 1)" }.joined(separator: ", ")
        return "UPDATE \(q(table)) SET \(assignments) WHERE \(key()) = ?\(columns.count + 1)"
    }

    /// `DELETE FROM "<table>" WHERE <key> IN (?1, …, ?count)`.
    func delete(_ count: Int) -> String {
        "DELETE FROM \(q(table)) WHERE \(key()) \(RowKeyLists.inList(count))"
    }

    /// The object ID of the row with `key`.
    func objectID(_ key: Int64) -> ObjectID { ObjectID(prefix + String(key)) }

    /// The key an object ID of this table names, if it is one (`Artist/3` → 3).
    func key(of id: ObjectID) -> Int64? {
        guard id.rawValue.hasPrefix(prefix) else { return nil }
        let digits = id.rawValue.dropFirst(prefix.count)
        // Only the spelling an ID of the row has (no "+3", "03").
        guard let key = Int64(digits), String(key) == digits else { return nil }
        return key
    }
}

/// How one relationship of a table Sift did not create is read and changed: a to-one is the
/// row's foreign key column; a to-many is the foreign key column of the rows that point at it
/// (its inverse's). The column holds the destination's key as the foreign key declares it — its
/// INTEGER PRIMARY KEY or another unique column (`People.playerID`) — so a change copies that
/// value from the destination's row. `?1` is the owner's key, `?2` the destination's.
struct ForeignRelationshipRows: Sendable {
    /// The destinations' keys, in key order.
    let destinations: String
    /// Points the relationship at `?2` (one UPDATE of the foreign key column).
    let add: String
    /// Removes `?2`, if it is there (the foreign key column set to NULL).
    let remove: String
    /// The table whose foreign key column a change writes, and the column.
    let changedTable: String
    let column: String
    /// Whether a change writes the owner's row (a to-one) or the destination's (a to-many).
    let changesOwner: Bool
    /// A to-one's: the value its column holds for destination `?1` (nil for a to-many).
    let destinationValue: String?

    init?(_ storage: RelationshipStorage, of table: EntityTable, schema: SQLSchema, isColumn: (String, String) -> Bool) {
        let ownerKey = ForeignTableRows.key(table.primaryKey, isColumn: isColumn(table.table, table.primaryKey))
        switch storage {
        case .foreignKey(let column, let destinationTable, let destinationKey):
            guard let destination = schema.tables.values.first(where: { $0.table == destinationTable }) else { return nil }
            let key = SQLIdentifier.qualified("d", destination.primaryKey)
            // The value the column holds for destination ?2.
            let value = destinationKey == destination.primaryKey
                ? "?2" : "(SELECT \(SQLIdentifier.qualified("d", destinationKey)) FROM \(q(destinationTable)) AS \"d\" WHERE \(key) = ?2)"
            destinations = "SELECT \(key) FROM \(q(table.table)) AS \"s\" JOIN \(q(destinationTable)) AS \"d\" ON \(SQLIdentifier.qualified("d", destinationKey)) = \(SQLIdentifier.qualified("s", column)) WHERE \(SQLIdentifier.qualified("s", table.primaryKey)) = ?1"
            add = "UPDATE \(q(table.table)) SET \(q(column)) = \(value) WHERE \(ownerKey) = ?1"
            remove = "UPDATE \(q(table.table)) SET \(q(column)) = NULL WHERE \(ownerKey) = ?1 AND \(q(column)) = \(value)"
            changedTable = table.table
            self.column = column
            changesOwner = true
            destinationValue = "SELECT \(SQLIdentifier.qualified("d", destinationKey)) FROM \(q(destinationTable)) AS \"d\" WHERE \(key) = ?1"
        case .inverseForeignKey(let column, let destinationTable, let sourceKey, _):
            guard let destination = schema.tables.values.first(where: { $0.table == destinationTable }) else { return nil }
            let key = ForeignTableRows.key(destination.primaryKey, isColumn: isColumn(destinationTable, destination.primaryKey))
            // The value the destinations' column holds for owner ?1.
            let value = sourceKey == table.primaryKey
                ? "?1" : "(SELECT \(SQLIdentifier.qualified("o", sourceKey)) FROM \(q(table.table)) AS \"o\" WHERE \(SQLIdentifier.qualified("o", table.primaryKey)) = ?1)"
            destinations = "SELECT \(SQLIdentifier.qualified("d", destination.primaryKey)) FROM \(q(destinationTable)) AS \"d\" WHERE \(SQLIdentifier.qualified("d", column)) = \(value) ORDER BY \(SQLIdentifier.qualified("d", destination.primaryKey))"
            add = "UPDATE \(q(destinationTable)) SET \(q(column)) = \(value) WHERE \(key) = ?2"
            remove = "UPDATE \(q(destinationTable)) SET \(q(column)) = NULL WHERE \(key) = ?2 AND \(q(column)) = \(value)"
            changedTable = destinationTable
            self.column = column
            changesOwner = false
            destinationValue = nil
        case .joinTable:
            // (A database Sift did not create is read without join tables.)
            return nil
        }
    }
}

private func q(_ name: String) -> String { SQLIdentifier.quoted(name) }
