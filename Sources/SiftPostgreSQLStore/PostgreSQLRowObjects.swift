import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftStore

/// A PostgreSQL store's rows as the store rules (``StoreObjects``) see them, as the SQLite store's
/// `SQLRowObjects` does: every answer is a query and every change an INSERT, UPDATE or DELETE of
/// exactly the rows it touches, inside the store's open transaction.
///
/// It remembers what the transaction changed, for validation at save: the objects it inserted
/// (row keys from ``firstNewKey`` on) and the other objects whose attributes or relationships it
/// changed (``updatedKeys``).
final class PostgreSQLRowObjects: StoreObjects {
    let schema: SQLSchema
    let connection: PostgreSQLConnection
    let model: DataModel

    /// The key the next inserted object gets.
    private(set) var nextKey: Int64 = 1
    /// The first key this transaction gave: every object from it on was inserted by it.
    private(set) var firstNewKey: Int64 = 1
    /// Objects (not inserted by the transaction) whose rows or relationships it changed, by table.
    private(set) var updatedKeys: [String: Set<Int64>] = [:]

    /// Each entity's statements, by its position in the model (nil: no table).
    let entities: [PostgreSQLWriteSQL?]
    /// The tables holding objects (one per entity hierarchy), in model order.
    let tables: [String]
    /// `SELECT "_pk", "_entity" FROM "<table>" WHERE "_id" = $1 UNION ALL … LIMIT 1`.
    private let referenceSQL: String

    init(schema: SQLSchema, connection: PostgreSQLConnection) {
        self.schema = schema
        self.connection = connection
        self.model = schema.model
        var tables: [String] = []
        entities = schema.model.entities.map { entity in
            guard let table = schema.table(for: entity.name) else { return nil }
            if !tables.contains(table.table) { tables.append(table.table) }
            return PostgreSQLWriteSQL(entity: entity, table: table)
        }
        self.tables = tables
        let key = q(SQLSchema.primaryKeyColumn), entity = q(SQLSchema.entityColumn), id = q(SQLSchema.idColumn)
        referenceSQL = tables.map { "(SELECT \(key), \(entity) FROM \(q($0)) WHERE \(id) = $1)" }
            .joined(separator: " UNION ALL ") + " LIMIT 1"
    }

    // MARK: Transactions

    /// A write transaction began: keys continue after the largest in the store.
    func transactionBegan() throws(StoreError) {
        var largest: Int64 = 0
        for table in tables {
            let max = try scalar("SELECT max(\(q(SQLSchema.primaryKeyColumn))) FROM \(q(table))")
            if case .int64(let value) = max { largest = Swift.max(largest, value) }
        }
        nextKey = largest + 1
        firstNewKey = nextKey
        updatedKeys = [:]
    }

    /// Whether the transaction inserted or changed anything.
    var hasChangedObjects: Bool { nextKey > firstNewKey || updatedKeys.values.contains { !$0.isEmpty } }

    /// Undoes the bookkeeping of changes rolled back to a savepoint: keys from `key` on are free
    /// again.
    func rewind(nextKey key: Int64) {
        nextKey = Swift.max(firstNewKey, key)
    }

    private func changed(_ object: RowReference) {
        guard object.key < firstNewKey, let table = entities[object.entity]?.table else { return }
        updatedKeys[table, default: []].insert(object.key)
    }

    // MARK: StoreObjects: reading

    func reference(to id: ObjectID) throws(StoreError) -> RowReference? {
        // No text holds NUL in PostgreSQL, so no object has such an ID.
        guard !tables.isEmpty, !id.rawValue.utf8.contains(0) else { return nil }
        let result = try query(referenceSQL, [.text(id.rawValue)])
        guard let row = result.first else { return nil }
        return try reference(row, key: 0, entity: 1)
    }

    func entityPosition(of object: RowReference) -> Int { object.entity }

    func objectID(of object: RowReference) throws(StoreError) -> ObjectID {
        guard let sql = entities[object.entity]?.objectID else { return ObjectID("") }
        guard case .text(let id) = try scalar(sql, [.int64(object.key)]) else { return ObjectID("") }
        return ObjectID(id)
    }

    func destinations(of object: RowReference, slot: Int) throws(StoreError) -> [RowReference] {
        guard let relationship = entities[object.entity]?.relationships[slot], !relationship.destinations.isEmpty else { return [] }
        var destinations: [RowReference] = []
        for row in try query(relationship.destinations, [.int64(object.key)]) {
            destinations.append(try reference(row, key: 0, entity: 1))
        }
        return destinations
    }

    // MARK: StoreObjects: changing

    func generatedID() throws(StoreError) -> ObjectID {
        var n = nextKey
        while true {
            let id = ObjectID("o\(n)")
            if try reference(to: id) == nil { return id }
            n += 1
        }
    }

    func addObject(entity: Int, id: ObjectID, attributes: [Value]) throws(StoreError) -> RowReference {
        guard let sql = entities[entity] else {
            throw StoreError(.unsupportedModel, "\(model.entities[entity].name) has no table in this store", entity: model.entities[entity].name)
        }
        let key = nextKey
        var parameters: [PostgreSQLValue] = [.int64(key), .text(try PostgreSQLColumnCodec.text(id.rawValue)), .text(model.entities[entity].name)]
        for inserted in sql.insertedSlots {
            parameters.append(try PostgreSQLColumnCodec.encode(attributes[inserted.slot]))
        }
        do {
            _ = try connection.run(sql.insert, parameters)
        } catch let error where error.sqlState == "23505" {
            // The only unique index an insert can break is the object IDs' (row keys are the
            // store's own, given under its write lock).
            throw Self.duplicateID(id, entity: model.entities[entity].name)
        } catch {
            throw PostgreSQLStore.storeError(error)
        }
        nextKey += 1
        return RowReference(key: key, entity: entity)
    }

    func setAttributes(_ values: [SlotValue], of object: RowReference) throws(StoreError) {
        guard let sql = entities[object.entity] else { return }
        var columns: [String] = []
        var parameters: [PostgreSQLValue] = []
        for value in values {
            guard let column = sql.columns[value.slot] else { continue }
            columns.append(column)
            parameters.append(try PostgreSQLColumnCodec.encode(value.value))
        }
        guard !columns.isEmpty else { return }
        try run(sql.update(columns), parameters + [.int64(object.key)])
        changed(object)
    }

    func addDestination(_ destination: RowReference, to object: RowReference, slot: Int) throws(StoreError) {
        guard let relationship = entities[object.entity]?.relationships[slot], !relationship.add.isEmpty else { return }
        try run(relationship.add, [.int64(object.key), .int64(destination.key)])
        changed(object)
    }

    func removeDestination(_ destination: RowReference, from object: RowReference, slot: Int) throws(StoreError) {
        guard let relationship = entities[object.entity]?.relationships[slot], !relationship.remove.isEmpty else { return }
        try run(relationship.remove, [.int64(object.key), .int64(destination.key)])
        changed(object)
    }

    func holdDestinations(_ destinations: [RowReference], of object: RowReference, slot: Int) throws(StoreError) {
        guard let relationship = entities[object.entity]?.relationships[slot], case .joinTable(ordered: true) = relationship.kind,
              destinations.count > 1, try self.destinations(of: object, slot: slot) != destinations else { return }
        try run(relationship.clear, [.int64(object.key)])
        for (position, destination) in destinations.enumerated() {
            try run(relationship.insertAt, [.int64(object.key), .int64(destination.key), .int64(Int64(position))])
        }
        changed(object)
    }

    func removeObjects(_ doomed: [RowReference]) throws(StoreError) {
        var byTable: [String: [Int64]] = [:]
        for object in doomed {
            guard let table = entities[object.entity]?.table else { continue }
            byTable[table, default: []].append(object.key)
        }
        for table in tables {
            guard let keys = byTable[table] else { continue }
            var owned: [String] = []
            for entity in entities.compactMap({ $0 }) where entity.table == table {
                for relationship in entity.relationships {
                    if let join = relationship.joinTable, !owned.contains(join) { owned.append(join) }
                }
            }
            let list = Self.keyArray(keys)
            try run("DELETE FROM \(q(table)) WHERE \(q(SQLSchema.primaryKeyColumn)) = ANY($1)", [list])
            for join in owned {
                try run("DELETE FROM \(q(join)) WHERE \(q(SQLSchema.ownerColumn)) = ANY($1)", [list])
            }
            try dropReferences(to: keys, in: table)
        }
    }

    /// Relationships without an inverse may point at deleted objects: each such reference is
    /// removed (a to-one column set to NULL, a join-table row deleted), and its owner changed.
    private func dropReferences(to keys: [Int64], in table: String) throws(StoreError) {
        let list = Self.keyArray(keys)
        let key = q(SQLSchema.primaryKeyColumn), entityColumn = q(SQLSchema.entityColumn)
        for (position, entity) in model.entities.enumerated() {
            guard let rows = entities[position] else { continue }
            for relationship in entity.ownRelationships where relationship.inverse == nil {
                guard let destination = schema.table(for: relationship.destination), destination.table == table,
                      case .relationship(let slot)? = entity.slot(of: relationship.name) else { continue }
                let sql = rows.relationships[slot]
                let owners: String, change: String
                switch sql.kind {
                case .foreignKey:
                    let column = q(relationship.name)
                    owners = "SELECT \(key), \(entityColumn) FROM \(q(rows.table)) WHERE \(column) = ANY($1)"
                    change = "UPDATE \(q(rows.table)) SET \(column) = NULL WHERE \(column) = ANY($1)"
                case .joinTable:
                    guard let join = sql.joinTable else { continue }
                    owners = "SELECT DISTINCT \"o\".\(key), \"o\".\(entityColumn) FROM \(q(join)) AS \"j\" JOIN \(q(rows.table)) AS \"o\" ON \"o\".\(key) = \"j\".\(q(SQLSchema.ownerColumn)) WHERE \"j\".\(q(SQLSchema.targetColumn)) = ANY($1)"
                    change = "DELETE FROM \(q(join)) WHERE \(q(SQLSchema.targetColumn)) = ANY($1)"
                case .inverseForeignKey, .none:
                    continue
                }
                var touched: [RowReference] = []
                for row in try query(owners, [list]) { touched.append(try reference(row, key: 0, entity: 1)) }
                guard !touched.isEmpty else { continue }
                try run(change, [list])
                touched.forEach(changed)
            }
        }
    }

    // MARK: Statements

    /// Row keys as one `bigint[]` parameter.
    static func keyArray(_ keys: [Int64]) -> PostgreSQLValue {
        .typed("{" + keys.map(String.init).joined(separator: ",") + "}", PostgreSQLStore.bigintArray)
    }

    func query(_ sql: String, _ parameters: [PostgreSQLValue] = []) throws(StoreError) -> PostgreSQLResult {
        do { return try connection.query(sql, parameters) } catch { throw PostgreSQLStore.storeError(error) }
    }

    func run(_ sql: String, _ parameters: [PostgreSQLValue]) throws(StoreError) {
        do { _ = try connection.run(sql, parameters) } catch { throw PostgreSQLStore.storeError(error) }
    }

    func scalar(_ sql: String, _ parameters: [PostgreSQLValue] = []) throws(StoreError) -> PostgreSQLValue {
        do { return try connection.scalar(sql, parameters) } catch { throw PostgreSQLStore.storeError(error) }
    }

    /// The object whose key and entity name are in columns `key` and `entity` of the row.
    func reference(_ row: PostgreSQLRow, key: Int, entity: Int) throws(StoreError) -> RowReference {
        guard case .int64(let rowKey) = row[key], case .text(let name) = row[entity] else {
            throw StoreError(.corruptStore, "a row has no key or entity")
        }
        guard let position = model.entityPosition(named: name) else {
            throw StoreError(.corruptStore, "row \(rowKey) names entity '\(name)', which the model does not have")
        }
        return RowReference(key: rowKey, entity: position)
    }
}
