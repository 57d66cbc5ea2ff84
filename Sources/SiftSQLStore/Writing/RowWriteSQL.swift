import SiftSQL
import SiftStore

/// The statements that read and write one entity's rows for the store rules, worked out once
/// per store from the layout (``SQLSchema``) in the store's dialect (``RowWriteDialect``): the
/// SQLite store's and the PostgreSQL store's. Every statement binds its values (`?1`, `?2`, …
/// or `$1`, `$2`, …); names come from the model, quoted. A class: a store reads it for every
/// row it writes, and a struct of so many parts would be copied each time.
package final class RowWriteSQL: Sendable {
    /// The entity's table.
    package let table: String
    /// `INSERT INTO "<table>" ("_pk", "_id", "_entity", "<attribute>", …, "_cd_<attribute>", …)
    /// VALUES (?1, …)`: key, ID, entity name, the attributes in ``insertedSlots`` order, then the
    /// searchable attributes' folded text in ``insertedFolds`` order.
    package let insert: String
    /// The attribute slots ``insert`` writes, with their columns.
    package let insertedSlots: [(slot: Int, column: String)]
    /// The hidden folded columns ``insert`` writes (``SearchFold``), each from an attribute slot
    /// (none unless the dialect's tables have them).
    package let insertedFolds: [(slot: Int, fold: SearchFold, column: String)]
    /// Attribute slot → the hidden folded columns written with it (empty unless searchable).
    let folds: [[(fold: SearchFold, column: String)]]
    /// `SELECT "_id" FROM "<table>" WHERE "_pk" = ?1`.
    package let objectID: String
    /// Each relationship slot's statements.
    package let relationships: [RelationshipWriteSQL]
    /// Attribute slot → column.
    package let columns: [String?]
    private let dialect: RowWriteDialect

    package init(entity: EntityDescription, table entityTable: EntityTable, schema: SQLSchema, dialect: RowWriteDialect) {
        self.dialect = dialect
        table = entityTable.table
        var slots: [(slot: Int, column: String)] = []
        var columns: [String?] = []
        var folds: [[(fold: SearchFold, column: String)]] = []
        for (slot, attribute) in entity.attributes.enumerated() {
            let column = entityTable.columns[attribute.name]
            columns.append(column)
            if let column { slots.append((slot, column)) }
            let hidden = column.flatMap { column in
                entityTable.searchable.contains(column) ? dialect.searchFolds.map { (fold: $0, column: $0.column(column)) } : nil
            }
            folds.append(hidden ?? [])
        }
        self.columns = columns
        self.folds = folds
        insertedSlots = slots
        insertedFolds = folds.enumerated().flatMap { slot, hidden in hidden.map { (slot, $0.fold, $0.column) } }
        let names = [SQLSchema.primaryKeyColumn, SQLSchema.idColumn, SQLSchema.entityColumn] + slots.map(\.column) + insertedFolds.map(\.column)
        insert = "INSERT INTO \(q(table)) (\(names.map(q).joined(separator: ", "))) VALUES (\((1...names.count).map(dialect.placeholder).joined(separator: ", ")))"
        objectID = "SELECT \(q(SQLSchema.idColumn)) FROM \(q(table)) WHERE \(q(SQLSchema.primaryKeyColumn)) = \(dialect.placeholder(1))"
        relationships = entity.relationships.map { relationship in
            RelationshipWriteSQL(relationship, storage: entityTable.relationships[relationship.name], table: entityTable.table, schema: schema, dialect: dialect)
        }
    }

    /// `UPDATE "<table>" SET "<a>" = ?1, "<b>" = ?2 WHERE "_pk" = ?3`.
    package func update(_ columns: [String]) -> String {
        let assignments = columns.enumerated().map { "\(q($1)) = \(dialect.placeholder($0 + 1))" }.joined(separator: ", ")
        return "UPDATE \(q(table)) SET \(assignments) WHERE \(q(SQLSchema.primaryKeyColumn)) = \(dialect.placeholder(columns.count + 1))"
    }
}

/// The statements on a store's tables as a whole (not one entity's rows).
extension RowWriteSQL {
    /// `SELECT "_pk", "_entity" FROM "<table>" WHERE "_id" = ?1 UNION ALL … LIMIT 1`: the object
    /// with an ID, in whichever of `tables` holds it.
    /// The lookups of an ID over `tables`, a statement for each ``lookupTables`` of them:
    /// SQLite allows 500 members in one compound SELECT, and a store of 10,000 entities failed
    /// to be made ("too many terms in compound SELECT").
    package static func objectLookups(in tables: [String], dialect: RowWriteDialect) -> [String] {
        stride(from: 0, to: tables.count, by: lookupTables).map { start in
            objectLookup(in: Array(tables[start..<min(start + lookupTables, tables.count)]), dialect: dialect)
        }
    }

    /// The most tables one lookup statement reads (under SQLite's `SQLITE_MAX_COMPOUND_SELECT`).
    package static let lookupTables = 200

    package static func objectLookup(in tables: [String], dialect: RowWriteDialect) -> String {
        assert(tables.count <= lookupTables, "a compound SELECT SQLite accepts")
        let key = q(SQLSchema.primaryKeyColumn), entity = q(SQLSchema.entityColumn), id = q(SQLSchema.idColumn)
        return tables.map { dialect.unionMember("SELECT \(key), \(entity) FROM \(q($0)) WHERE \(id) = \(dialect.placeholder(1))") }
            .joined(separator: " UNION ALL ") + " LIMIT 1"
    }

    /// `SELECT "_id" FROM "<table>" WHERE "_id" >= 'o0' AND "_id" < 'o:'`: the IDs that may be
    /// generated ones (`o` and digits: in byte order, between `o0` and `o:`), one range of
    /// SQLite's index. PostgreSQL compares them in byte order (`COLLATE "C"`: its default
    /// collation may not put `:` after the digits), reading every ID.
    package static func generatedLookingIDs(in table: String, dialect: RowWriteDialect) -> String {
        let id = q(SQLSchema.idColumn)
        let text = dialect == .postgreSQL ? "\(id) COLLATE \"C\"" : id
        return "SELECT \(id) FROM \(q(table)) WHERE \(text) >= 'o0' AND \(text) < 'o:'"
    }

    /// `SELECT max("_pk") FROM "<table>"`.
    package static func largestKey(in table: String) -> String {
        "SELECT max(\(q(SQLSchema.primaryKeyColumn))) FROM \(q(table))"
    }

    /// `SELECT "_pk", "_id", "_entity" FROM "<table>" WHERE "_pk" <keys>`: the IDs and entities
    /// of the rows whose keys pass `keys` (`IN (?1, …)`, `= ANY($1)`).
    package static func objects(in table: String, keys: String) -> String {
        "SELECT \(q(SQLSchema.primaryKeyColumn)), \(q(SQLSchema.idColumn)), \(q(SQLSchema.entityColumn)) FROM \(q(table)) WHERE \(q(SQLSchema.primaryKeyColumn)) \(keys)"
    }

    /// The statements deleting the rows of `table` whose keys pass `keys`, and the join-table
    /// rows they own (as owner), in that order.
    package static func deleteRows(of table: String, keys: String, entities: [RowWriteSQL?]) -> [String] {
        var owned: [String] = []
        for entity in entities.compactMap({ $0 }) where entity.table == table {
            for relationship in entity.relationships {
                if let join = relationship.joinTable, !owned.contains(join) { owned.append(join) }
            }
        }
        return ["DELETE FROM \(q(table)) WHERE \(q(SQLSchema.primaryKeyColumn)) \(keys)"]
            + owned.map { "DELETE FROM \(q($0)) WHERE \(q(SQLSchema.ownerColumn)) \(keys)" }
    }
}

/// How the store rules read and write one relationship of an entity. Owner and destination are
/// bound as the first and second values (row keys).
package struct RelationshipWriteSQL: Sendable {
    package enum Kind: Sendable {
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

    package let kind: Kind
    /// The destinations' keys and entities, in order (`?1`: the owner).
    package let destinations: String
    /// Adds a destination, doing nothing if it is there.
    package let add: String
    /// Removes a destination, doing nothing if it is not there.
    package let remove: String
    /// Join tables: `DELETE FROM "<join>" WHERE "_owner" = ?1`.
    package let clear: String
    /// Join tables: `INSERT INTO "<join>" ("_owner", "_target", "_position") VALUES (?1, ?2, ?3)`.
    package let insertAt: String
    /// The join table, for a relationship kept in one.
    package let joinTable: String?
    /// The owner's table.
    private let table: String
    /// A to-one's column.
    private let column: String?

    init(_ relationship: RelationshipDescription, storage: RelationshipStorage?, table: String, schema: SQLSchema, dialect: RowWriteDialect) {
        let key = q(SQLSchema.primaryKeyColumn), entity = q(SQLSchema.entityColumn)
        let owner = q(SQLSchema.ownerColumn), target = q(SQLSchema.targetColumn), position = q(SQLSchema.positionColumn)
        let (first, second, third) = (dialect.placeholder(1), dialect.placeholder(2), dialect.placeholder(3))
        self.table = table
        switch storage {
        case .foreignKey(let column, let destinationTable, _)?:
            kind = .foreignKey
            destinations = "SELECT \"d\".\(key), \"d\".\(entity) FROM \(q(table)) AS \"s\" JOIN \(q(destinationTable)) AS \"d\" ON \"d\".\(key) = \"s\".\(q(column)) WHERE \"s\".\(key) = \(first)"
            add = "UPDATE \(q(table)) SET \(q(column)) = \(second) WHERE \(key) = \(first)"
            remove = "UPDATE \(q(table)) SET \(q(column)) = NULL WHERE \(key) = \(first) AND \(q(column)) = \(second)"
            clear = ""
            insertAt = ""
            joinTable = nil
            self.column = column
        case .inverseForeignKey(let column, let destinationTable, _, _)?:
            kind = .inverseForeignKey
            // (Only the destination's rows: other entities' may hold keys in the same column.)
            let test = schema.table(for: relationship.destination).map { schema.inverseEntityTestSQL(column: column, destination: $0, alias: nil) } ?? ""
            destinations = "SELECT \(key), \(entity) FROM \(q(destinationTable)) WHERE \(q(column)) = \(first)\(test) ORDER BY \(key)"
            add = "UPDATE \(q(destinationTable)) SET \(q(column)) = \(first) WHERE \(key) = \(second)"
            remove = "UPDATE \(q(destinationTable)) SET \(q(column)) = NULL WHERE \(key) = \(second) AND \(q(column)) = \(first)"
            clear = ""
            insertAt = ""
            joinTable = nil
            self.column = nil
        case .joinTable(let name, let destinationTable, _)?:
            kind = .joinTable(ordered: relationship.isOrdered)
            destinations = "SELECT \"d\".\(key), \"d\".\(entity) FROM \(q(name)) AS \"j\" JOIN \(q(destinationTable)) AS \"d\" ON \"d\".\(key) = \"j\".\(target) WHERE \"j\".\(owner) = \(first) ORDER BY \"j\".\(position)"
            if relationship.isOrdered {
                add = "INSERT INTO \(q(name)) (\(owner), \(target), \(position)) SELECT \(dialect.keyPlaceholder(1)), \(dialect.keyPlaceholder(2)), (SELECT coalesce(max(\(position)) + 1, 0) FROM \(q(name)) WHERE \(owner) = \(first)) WHERE NOT EXISTS (SELECT 1 FROM \(q(name)) WHERE \(owner) = \(first) AND \(target) = \(second))"
            } else {
                add = dialect.insertIgnoringConflicts("INTO \(q(name)) (\(owner), \(target), \(position)) VALUES (\(first), \(second), \(second))")
            }
            remove = "DELETE FROM \(q(name)) WHERE \(owner) = \(first) AND \(target) = \(second)"
            clear = "DELETE FROM \(q(name)) WHERE \(owner) = \(first)"
            insertAt = "INSERT INTO \(q(name)) (\(owner), \(target), \(position)) VALUES (\(first), \(second), \(third))"
            joinTable = name
            self.column = nil
        case nil:
            kind = .none
            (destinations, add, remove, clear, insertAt, joinTable, column) = ("", "", "", "", "", nil, nil)
        }
    }

    /// For a relationship without an inverse whose destinations are deleted: the query finding
    /// the owners (key, entity) that hold a destination whose key passes `keys` (`IN (?1, …)`,
    /// `= ANY($1)`), and the change that removes those references (a to-one set to NULL, the
    /// join-table rows deleted). Nil where the owner keeps no reference of its own.
    package func droppingReferences(keys: String) -> (owners: String, change: String)? {
        let key = q(SQLSchema.primaryKeyColumn), entity = q(SQLSchema.entityColumn)
        switch kind {
        case .foreignKey:
            guard let column = column.map(q) else { return nil }
            return ("SELECT \(key), \(entity) FROM \(q(table)) WHERE \(column) \(keys)",
                    "UPDATE \(q(table)) SET \(column) = NULL WHERE \(column) \(keys)")
        case .joinTable:
            guard let join = joinTable else { return nil }
            return ("SELECT DISTINCT \"o\".\(key), \"o\".\(entity) FROM \(q(join)) AS \"j\" JOIN \(q(table)) AS \"o\" ON \"o\".\(key) = \"j\".\(q(SQLSchema.ownerColumn)) WHERE \"j\".\(q(SQLSchema.targetColumn)) \(keys)",
                    "DELETE FROM \(q(join)) WHERE \(q(SQLSchema.targetColumn)) \(keys)")
        case .inverseForeignKey, .none:
            return nil
        }
    }
}

private func q(_ name: String) -> String { SQLIdentifier.quoted(name) }
