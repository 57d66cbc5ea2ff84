import SiftSQL
import SiftStore

/// The statements that read and write one entity's rows in a PostgreSQL store for the store
/// rules, worked out once per store from the layout (``SQLSchema``); the PostgreSQL spelling of
/// the SQLite store's `RowWriteSQL`. Values are parameters (`$1`, `$2`, …); names come from the
/// model, quoted.
struct PostgreSQLWriteSQL: Sendable {
    /// The entity's table.
    let table: String
    /// `INSERT INTO "<table>" ("_pk", "_id", "_entity", "<attribute>", …) VALUES ($1, …)`.
    let insert: String
    /// The attribute slots ``insert`` writes, with their columns.
    let insertedSlots: [(slot: Int, column: String)]
    /// `SELECT "_id" FROM "<table>" WHERE "_pk" = $1`.
    let objectID: String
    /// Each relationship slot's statements.
    let relationships: [PostgreSQLRelationshipSQL]
    /// Attribute slot → column.
    let columns: [String?]

    init(entity: EntityDescription, table entityTable: EntityTable) {
        table = entityTable.table
        var slots: [(slot: Int, column: String)] = []
        var columns: [String?] = []
        for (slot, attribute) in entity.attributes.enumerated() {
            let column = entityTable.columns[attribute.name]
            columns.append(column)
            if let column { slots.append((slot, column)) }
        }
        self.columns = columns
        insertedSlots = slots
        let names = [SQLSchema.primaryKeyColumn, SQLSchema.idColumn, SQLSchema.entityColumn] + slots.map(\.column)
        insert = "INSERT INTO \(q(table)) (\(names.map(q).joined(separator: ", "))) VALUES (\((1...names.count).map { "$\($0)" }.joined(separator: ", ")))"
        objectID = "SELECT \(q(SQLSchema.idColumn)) FROM \(q(table)) WHERE \(q(SQLSchema.primaryKeyColumn)) = $1"
        relationships = entity.relationships.map { relationship in
            PostgreSQLRelationshipSQL(relationship, storage: entityTable.relationships[relationship.name], table: entityTable.table)
        }
    }

    /// `UPDATE "<table>" SET "<a>" = $1, "<b>" = $2 WHERE "_pk" = $3`.
    func update(_ columns: [String]) -> String {
        let assignments = columns.enumerated().map { "\(q($1)) = $\($0 + 1)" }.joined(separator: ", ")
        return "UPDATE \(q(table)) SET \(assignments) WHERE \(q(SQLSchema.primaryKeyColumn)) = $\(columns.count + 1)"
    }
}

/// How the store rules read and write one relationship of an entity in a PostgreSQL store.
/// Owner and destination are `$1` and `$2` (row keys).
struct PostgreSQLRelationshipSQL: Sendable {
    enum Kind: Sendable {
        case foreignKey
        case inverseForeignKey
        case joinTable(ordered: Bool)
        case none
    }

    let kind: Kind
    /// The destinations' keys and entities, in order (`$1`: the owner).
    let destinations: String
    /// Adds a destination, doing nothing if it is there.
    let add: String
    /// Removes a destination, doing nothing if it is not there.
    let remove: String
    /// Join tables: `DELETE FROM "<join>" WHERE "_owner" = $1`.
    let clear: String
    /// Join tables: `INSERT INTO "<join>" ("_owner", "_target", "_position") VALUES ($1, $2, $3)`.
    let insertAt: String
    /// The join table, for a relationship kept in one.
    let joinTable: String?

    init(_ relationship: RelationshipDescription, storage: RelationshipStorage?, table: String) {
        let key = q(SQLSchema.primaryKeyColumn), entity = q(SQLSchema.entityColumn)
        let owner = q(SQLSchema.ownerColumn), target = q(SQLSchema.targetColumn), position = q(SQLSchema.positionColumn)
        switch storage {
        case .foreignKey(let column, let destinationTable, _)?:
            kind = .foreignKey
            destinations = "SELECT \"d\".\(key), \"d\".\(entity) FROM \(q(table)) AS \"s\" JOIN \(q(destinationTable)) AS \"d\" ON \"d\".\(key) = \"s\".\(q(column)) WHERE \"s\".\(key) = $1"
            add = "UPDATE \(q(table)) SET \(q(column)) = $2 WHERE \(key) = $1"
            remove = "UPDATE \(q(table)) SET \(q(column)) = NULL WHERE \(key) = $1 AND \(q(column)) = $2"
            clear = ""
            insertAt = ""
            joinTable = nil
        case .inverseForeignKey(let column, let destinationTable, _)?:
            kind = .inverseForeignKey
            destinations = "SELECT \(key), \(entity) FROM \(q(destinationTable)) WHERE \(q(column)) = $1 ORDER BY \(key)"
            add = "UPDATE \(q(destinationTable)) SET \(q(column)) = $1 WHERE \(key) = $2"
            remove = "UPDATE \(q(destinationTable)) SET \(q(column)) = NULL WHERE \(key) = $2 AND \(q(column)) = $1"
            clear = ""
            insertAt = ""
            joinTable = nil
        case .joinTable(let name, let destinationTable)?:
            kind = .joinTable(ordered: relationship.isOrdered)
            destinations = "SELECT \"d\".\(key), \"d\".\(entity) FROM \(q(name)) AS \"j\" JOIN \(q(destinationTable)) AS \"d\" ON \"d\".\(key) = \"j\".\(target) WHERE \"j\".\(owner) = $1 ORDER BY \"j\".\(position)"
            if relationship.isOrdered {
                add = "INSERT INTO \(q(name)) (\(owner), \(target), \(position)) SELECT $1::bigint, $2::bigint, (SELECT coalesce(max(\(position)) + 1, 0) FROM \(q(name)) WHERE \(owner) = $1) WHERE NOT EXISTS (SELECT 1 FROM \(q(name)) WHERE \(owner) = $1 AND \(target) = $2)"
            } else {
                add = "INSERT INTO \(q(name)) (\(owner), \(target), \(position)) VALUES ($1, $2, $2) ON CONFLICT DO NOTHING"
            }
            remove = "DELETE FROM \(q(name)) WHERE \(owner) = $1 AND \(target) = $2"
            clear = "DELETE FROM \(q(name)) WHERE \(owner) = $1"
            insertAt = "INSERT INTO \(q(name)) (\(owner), \(target), \(position)) VALUES ($1, $2, $3)"
            joinTable = name
        case nil:
            kind = .none
            (destinations, add, remove, clear, insertAt, joinTable) = ("", "", "", "", "", nil)
        }
    }
}
