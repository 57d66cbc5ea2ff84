import SiftStore

/// The statements that read and write one entity's rows for the store rules, worked out once
/// per store from the layout (``SQLSchema``). Every statement binds its values (`?1`, `?2`, …);
/// names come from the model, quoted.
struct RowWriteSQL: Sendable {
    /// The entity's table.
    let table: String
    /// `INSERT INTO "<table>" ("_pk", "_id", "_entity", "<attribute>", …, "_cd_<attribute>", …)
    /// VALUES (?1, …)`: key, ID, entity name, the attributes in ``insertedSlots`` order, then the
    /// searchable attributes' folded text in ``insertedFolds`` order.
    let insert: String
    /// The attribute slots ``insert`` writes, with their columns.
    let insertedSlots: [(slot: Int, column: String)]
    /// The hidden folded columns ``insert`` writes (``SearchFold``), each from an attribute slot.
    let insertedFolds: [(slot: Int, fold: SearchFold, column: String)]
    /// Attribute slot → the hidden folded columns written with it (empty unless searchable).
    let folds: [[(fold: SearchFold, column: String)]]
    /// `SELECT "_id" FROM "<table>" WHERE "_pk" = ?1`.
    let objectID: String
    /// Each relationship slot's statements.
    let relationships: [RelationshipWriteSQL]
    /// Attribute slot → column.
    let columns: [String?]

    init(entity: EntityDescription, table entityTable: EntityTable) {
        table = entityTable.table
        var slots: [(slot: Int, column: String)] = []
        var columns: [String?] = []
        var folds: [[(fold: SearchFold, column: String)]] = []
        for (slot, attribute) in entity.attributes.enumerated() {
            let column = entityTable.columns[attribute.name]
            columns.append(column)
            if let column { slots.append((slot, column)) }
            let hidden = column.flatMap { column in
                entityTable.searchable.contains(column) ? SearchFold.allCases.map { (fold: $0, column: $0.column(column)) } : nil
            }
            folds.append(hidden ?? [])
        }
        self.columns = columns
        self.folds = folds
        insertedSlots = slots
        insertedFolds = folds.enumerated().flatMap { slot, hidden in hidden.map { (slot, $0.fold, $0.column) } }
        let names = [SQLSchema.primaryKeyColumn, SQLSchema.idColumn, SQLSchema.entityColumn] + slots.map(\.column) + insertedFolds.map(\.column)
        insert = "INSERT INTO \(q(table)) (\(names.map(q).joined(separator: ", "))) VALUES (\((1...names.count).map { "?\($0)" }.joined(separator: ", ")))"
        objectID = "SELECT \(q(SQLSchema.idColumn)) FROM \(q(table)) WHERE \(q(SQLSchema.primaryKeyColumn)) = ?1"
        relationships = entity.relationships.map { relationship in
            RelationshipWriteSQL(relationship, storage: entityTable.relationships[relationship.name], table: entityTable.table)
        }
    }

    /// `UPDATE "<table>" SET "<a>" = ?1, "<b>" = ?2 WHERE "_pk" = ?3`.
    func update(_ columns: [String]) -> String {
        let assignments = columns.enumerated().map { "\(q($1)) = ?\($0 + 1)" }.joined(separator: ", ")
        return "UPDATE \(q(table)) SET \(assignments) WHERE \(q(SQLSchema.primaryKeyColumn)) = ?\(columns.count + 1)"
    }
}

/// How the store rules read and write one relationship of an entity. Owner and destination are
/// bound as `?1` and `?2` (row keys).
struct RelationshipWriteSQL: Sendable {
    enum Kind: Sendable {
        /// A to-one: a column of the owner's row.
        case foreignKey
        /// A to-many read through its to-one inverse's column in the destination rows: that
        /// column is the only place either side is kept.
        case inverseForeignKey
        /// A to-many in a join table; an unordered one's `"_position"` is the destination's key.
        case joinTable(ordered: Bool)
        /// Nowhere to keep it (a layout without this relationship).
        case none
    }

    let kind: Kind
    /// The destinations' keys and entities, in order (`?1`: the owner).
    let destinations: String
    /// Adds a destination, doing nothing if it is there.
    let add: String
    /// Removes a destination, doing nothing if it is not there.
    let remove: String
    /// Join tables: `DELETE FROM "<join>" WHERE "_owner" = ?1`.
    let clear: String
    /// Join tables: `INSERT INTO "<join>" ("_owner", "_target", "_position") VALUES (?1, ?2, ?3)`.
    let insertAt: String
    /// The join table, for a relationship kept in one.
    let joinTable: String?

    init(_ relationship: RelationshipDescription, storage: RelationshipStorage?, table: String) {
        let key = q(SQLSchema.primaryKeyColumn), entity = q(SQLSchema.entityColumn)
        let owner = q(SQLSchema.ownerColumn), target = q(SQLSchema.targetColumn), position = q(SQLSchema.positionColumn)
        switch storage {
        case .foreignKey(let column, let destinationTable, _)?:
            kind = .foreignKey
            destinations = "SELECT \"d\".\(key), \"d\".\(entity) FROM \(q(table)) AS \"s\" JOIN \(q(destinationTable)) AS \"d\" ON \"d\".\(key) = \"s\".\(q(column)) WHERE \"s\".\(key) = ?1"
            add = "UPDATE \(q(table)) SET \(q(column)) = ?2 WHERE \(key) = ?1"
            remove = "UPDATE \(q(table)) SET \(q(column)) = NULL WHERE \(key) = ?1 AND \(q(column)) = ?2"
            clear = ""
            insertAt = ""
            joinTable = nil
        case .inverseForeignKey(let column, let destinationTable, _)?:
            kind = .inverseForeignKey
            destinations = "SELECT \(key), \(entity) FROM \(q(destinationTable)) WHERE \(q(column)) = ?1 ORDER BY \(key)"
            add = "UPDATE \(q(destinationTable)) SET \(q(column)) = ?1 WHERE \(key) = ?2"
            remove = "UPDATE \(q(destinationTable)) SET \(q(column)) = NULL WHERE \(key) = ?2 AND \(q(column)) = ?1"
            clear = ""
            insertAt = ""
            joinTable = nil
        case .joinTable(let name, let destinationTable)?:
            kind = .joinTable(ordered: relationship.isOrdered)
            destinations = "SELECT \"d\".\(key), \"d\".\(entity) FROM \(q(name)) AS \"j\" JOIN \(q(destinationTable)) AS \"d\" ON \"d\".\(key) = \"j\".\(target) WHERE \"j\".\(owner) = ?1 ORDER BY \"j\".\(position)"
            if relationship.isOrdered {
                add = "INSERT INTO \(q(name)) (\(owner), \(target), \(position)) SELECT ?1, ?2, (SELECT coalesce(max(\(position)) + 1, 0) FROM \(q(name)) WHERE \(owner) = ?1) WHERE NOT EXISTS (SELECT 1 FROM \(q(name)) WHERE \(owner) = ?1 AND \(target) = ?2)"
            } else {
                add = "INSERT OR IGNORE INTO \(q(name)) (\(owner), \(target), \(position)) VALUES (?1, ?2, ?2)"
            }
            remove = "DELETE FROM \(q(name)) WHERE \(owner) = ?1 AND \(target) = ?2"
            clear = "DELETE FROM \(q(name)) WHERE \(owner) = ?1"
            insertAt = "INSERT INTO \(q(name)) (\(owner), \(target), \(position)) VALUES (?1, ?2, ?3)"
            joinTable = name
        case nil:
            kind = .none
            (destinations, add, remove, clear, insertAt, joinTable) = ("", "", "", "", "", nil)
        }
    }
}

private func q(_ name: String) -> String { SQLIdentifier.quoted(name) }
