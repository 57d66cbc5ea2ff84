import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQLite
import SiftStore

/// A Sift SQLite store's rows as the store rules (``StoreObjects``) see them: every answer is
/// a query and every change a prepared INSERT, UPDATE or DELETE of exactly the rows it touches,
/// inside the store's open write transaction. Nothing is loaded that the change does not read.
///
/// It remembers what the transaction changed, for validation at save: the objects it inserted
/// (row keys from ``firstNewKey`` on, since keys only grow) and the other objects whose
/// attributes or relationships it changed (``updatedKeys``).
final class SQLRowObjects: StoreObjects {
    let schema: SQLSchema
    let database: SQLiteDatabase
    let model: DataModel

    /// The key the next inserted object gets.
    private(set) var nextKey: Int64 = 1
    /// The first key this transaction gave: every object from it on was inserted by it.
    private(set) var firstNewKey: Int64 = 1
    /// Objects (not inserted by the transaction) whose rows or relationships it changed, by table.
    private(set) var updatedKeys: [String: Set<Int64>] = [:]

    /// Each entity's statements, by its position in the model (nil: no table).
    let entities: [RowWriteSQL?]
    /// The tables holding objects (one per entity hierarchy), in model order.
    let tables: [String]
    /// `SELECT "_pk", "_entity" FROM "<table>" WHERE "_id" = ?1 UNION ALL …  LIMIT 1`.
    private let referenceSQL: String
    /// For each table: `SELECT 1 FROM "<other table>" WHERE "_id" = ?1 UNION ALL … LIMIT 1` over
    /// every other table (nil when there is none).
    private let otherTablesUseSQL: [String: String]
    /// The statements above, prepared once.
    private var statements: [String: SQLiteStatement] = [:]
    /// The statements run once per object, kept at hand: the reference lookup and each entity's
    /// INSERT (by entity position).
    private var referenceStatement: SQLiteStatement?
    private var insertStatements: [SQLiteStatement?]

    init(schema: SQLSchema, database: SQLiteDatabase) {
        self.schema = schema
        self.database = database
        self.model = schema.model
        self.insertStatements = Array(repeating: nil, count: schema.model.entities.count)
        var tables: [String] = []
        entities = schema.model.entities.map { entity in
            guard let table = schema.table(for: entity.name) else { return nil }
            if !tables.contains(table.table) { tables.append(table.table) }
            return RowWriteSQL(entity: entity, table: table)
        }
        self.tables = tables
        let key = SQLIdentifier.quoted(SQLSchema.primaryKeyColumn), entity = SQLIdentifier.quoted(SQLSchema.entityColumn)
        let id = SQLIdentifier.quoted(SQLSchema.idColumn)
        referenceSQL = tables.map { "SELECT \(key), \(entity) FROM \(SQLIdentifier.quoted($0)) WHERE \(id) = ?1" }
            .joined(separator: " UNION ALL ") + " LIMIT 1"
        var otherTablesUseSQL: [String: String] = [:]
        for table in tables where tables.count > 1 {
            otherTablesUseSQL[table] = tables.filter { $0 != table }.map { "SELECT 1 FROM \(SQLIdentifier.quoted($0)) WHERE \(id) = ?1" }
                .joined(separator: " UNION ALL ") + " LIMIT 1"
        }
        self.otherTablesUseSQL = otherTablesUseSQL
    }

    // MARK: Transactions

    /// A write transaction began: keys continue after the largest in the store.
    func transactionBegan() throws(StoreError) {
        var largest: Int64 = 0
        for table in tables {
            let max = try scalar("SELECT max(\(SQLIdentifier.quoted(SQLSchema.primaryKeyColumn))) FROM \(SQLIdentifier.quoted(table))")
            if case .integer(let value) = max { largest = Swift.max(largest, value) }
        }
        nextKey = largest + 1
        firstNewKey = nextKey
        updatedKeys = [:]
    }

    /// Whether the transaction inserted or changed anything.
    var hasChangedObjects: Bool { nextKey > firstNewKey || updatedKeys.values.contains { !$0.isEmpty } }

    private func changed(_ object: RowReference) {
        guard object.key < firstNewKey, let table = entities[object.entity]?.table else { return }
        updatedKeys[table, default: []].insert(object.key)
    }

    // MARK: StoreObjects: reading

    func reference(to id: ObjectID) throws(StoreError) -> RowReference? {
        guard !tables.isEmpty else { return nil }
        let statement: SQLiteStatement
        if let prepared = referenceStatement {
            statement = prepared
        } else {
            statement = try self.statement(referenceSQL)
            referenceStatement = statement
        }
        try bind(statement, .text(id.rawValue), at: 1)
        defer { statement.reset() }
        guard try step(statement) else { return nil }
        return try reference(statement, key: 0, entity: 1)
    }

    func entityPosition(of object: RowReference) -> Int { object.entity }

    /// Only the other tables are looked at: the table the object goes to has a UNIQUE index on
    /// `"_id"`, so the INSERT itself finds a duplicate there.
    func idIsFree(_ id: ObjectID, besidesWhereAdding entity: Int) throws(StoreError) -> Bool {
        guard let table = entities[entity]?.table else { return try reference(to: id) == nil }
        guard let sql = otherTablesUseSQL[table] else { return true }
        return try scalar(sql, [.text(id.rawValue)]) == .null
    }

    func objectID(of object: RowReference) throws(StoreError) -> ObjectID {
        guard let sql = entities[object.entity]?.objectID else { return ObjectID("") }
        guard case .text(let id) = try scalar(sql, [.integer(object.key)]) else { return ObjectID("") }
        return ObjectID(id)
    }

    func destinations(of object: RowReference, slot: Int) throws(StoreError) -> [RowReference] {
        guard let relationship = entities[object.entity]?.relationships[slot], !relationship.destinations.isEmpty else { return [] }
        let statement = try self.statement(relationship.destinations)
        try bind(statement, .integer(object.key), at: 1)
        defer { statement.reset() }
        var destinations: [RowReference] = []
        while try step(statement) { destinations.append(try reference(statement, key: 0, entity: 1)) }
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
        let statement: SQLiteStatement
        if let prepared = insertStatements[entity] {
            statement = prepared
        } else {
            statement = try self.statement(sql.insert)
            insertStatements[entity] = statement
        }
        try bind(statement, .integer(key), at: 1)
        try bind(statement, .text(id.rawValue), at: 2)
        try bind(statement, .text(model.entities[entity].name), at: 3)
        for (offset, inserted) in sql.insertedSlots.enumerated() {
            try bind(statement, ColumnCodec.encode(attributes[inserted.slot]), at: Int32(offset + 4))
        }
        let foldsStart = sql.insertedSlots.count + 4
        for (offset, hidden) in sql.insertedFolds.enumerated() {
            try bind(statement, hidden.fold.stored(ColumnCodec.encode(attributes[hidden.slot])), at: Int32(foldsStart + offset))
        }
        do {
            defer { statement.reset() }
            while try statement.step() {}
        } catch let error where error.isConstraintViolation && error.message.hasSuffix(".\(SQLSchema.idColumn)") {
            throw Self.duplicateID(id, entity: model.entities[entity].name)
        } catch {
            throw SQLiteStore.storeError(error, file: database.path.map(URL.init(fileURLWithPath:)))
        }
        nextKey += 1
        return RowReference(key: key, entity: entity)
    }

    func setAttributes(_ values: [SlotValue], of object: RowReference) throws(StoreError) {
        guard let sql = entities[object.entity] else { return }
        var written: [(column: String, value: SQLiteValue)] = []
        for value in values {
            guard let column = sql.columns[value.slot] else { continue }
            let encoded = ColumnCodec.encode(value.value)
            written.append((column, encoded))
            // A searchable attribute's folded text changes with it.
            for hidden in sql.folds[value.slot] { written.append((hidden.column, hidden.fold.stored(encoded))) }
        }
        guard !written.isEmpty else { return }
        let statement = try cached(sql.update(written.map(\.column)))
        for (offset, value) in written.enumerated() {
            try bind(statement, value.value, at: Int32(offset + 1))
        }
        try bind(statement, .integer(object.key), at: Int32(written.count + 1))
        try run(statement)
        changed(object)
    }

    func addDestination(_ destination: RowReference, to object: RowReference, slot: Int) throws(StoreError) {
        guard let relationship = entities[object.entity]?.relationships[slot], !relationship.add.isEmpty else { return }
        try run(relationship.add, object.key, destination.key)
        changed(object)
    }

    func removeDestination(_ destination: RowReference, from object: RowReference, slot: Int) throws(StoreError) {
        guard let relationship = entities[object.entity]?.relationships[slot], !relationship.remove.isEmpty else { return }
        try run(relationship.remove, object.key, destination.key)
        changed(object)
    }

    func holdDestinations(_ destinations: [RowReference], of object: RowReference, slot: Int) throws(StoreError) {
        // Only an ordered join table keeps an order of its own; elsewhere adding and removing
        // destinations left them as they are to be held.
        guard let relationship = entities[object.entity]?.relationships[slot], case .joinTable(ordered: true) = relationship.kind,
              destinations.count > 1, try self.destinations(of: object, slot: slot) != destinations else { return }
        try run(relationship.clear, object.key)
        for (position, destination) in destinations.enumerated() {
            try run(relationship.insertAt, object.key, destination.key, Int64(position))
        }
        changed(object)
    }

    func removeObjects(_ doomed: [RowReference]) throws(StoreError) {
        let q = SQLIdentifier.quoted
        var byTable: [String: [Int64]] = [:]
        for object in doomed {
            guard let table = entities[object.entity]?.table else { continue }
            // The key stays among the changed ones: a savepoint rolled back may bring the row back.
            byTable[table, default: []].append(object.key)
        }
        for table in tables {
            guard let keys = byTable[table] else { continue }
            // The rows, and the join-table rows they own.
            var owned: [String] = []
            for entity in entities.compactMap({ $0 }) where entity.table == table {
                for relationship in entity.relationships {
                    if let join = relationship.joinTable, !owned.contains(join) { owned.append(join) }
                }
            }
            for (count, bindings) in RowKeyLists.chunks(keys) {
                let list = RowKeyLists.inList(count)
                try run("DELETE FROM \(q(table)) WHERE \(q(SQLSchema.primaryKeyColumn)) \(list)", bindings)
                for join in owned {
                    try run("DELETE FROM \(q(join)) WHERE \(q(SQLSchema.ownerColumn)) \(list)", bindings)
                }
            }
            try dropReferences(to: keys, in: table)
        }
    }

    /// Relationships without an inverse may point at deleted objects: each such reference is
    /// removed (a to-one column set to NULL, a join-table row deleted), and its owner changed.
    private func dropReferences(to keys: [Int64], in table: String) throws(StoreError) {
        let q = SQLIdentifier.quoted
        for (position, entity) in model.entities.enumerated() {
            guard let rows = entities[position] else { continue }
            for relationship in entity.ownRelationships where relationship.inverse == nil {
                guard let destination = schema.table(for: relationship.destination), destination.table == table,
                      case .relationship(let slot)? = entity.slot(of: relationship.name) else { continue }
                let sql = rows.relationships[slot]
                for (count, bindings) in RowKeyLists.chunks(keys) {
                    let list = RowKeyLists.inList(count)
                    let owners: String, change: String
                    switch sql.kind {
                    case .foreignKey:
                        let column = q(relationship.name)
                        owners = "SELECT \(q(SQLSchema.primaryKeyColumn)), \(q(SQLSchema.entityColumn)) FROM \(q(rows.table)) WHERE \(column) \(list)"
                        change = "UPDATE \(q(rows.table)) SET \(column) = NULL WHERE \(column) \(list)"
                    case .joinTable:
                        guard let join = sql.joinTable else { continue }
                        owners = "SELECT DISTINCT \"o\".\(q(SQLSchema.primaryKeyColumn)), \"o\".\(q(SQLSchema.entityColumn)) FROM \(q(join)) AS \"j\" JOIN \(q(rows.table)) AS \"o\" ON \"o\".\(q(SQLSchema.primaryKeyColumn)) = \"j\".\(q(SQLSchema.ownerColumn)) WHERE \"j\".\(q(SQLSchema.targetColumn)) \(list)"
                        change = "DELETE FROM \(q(join)) WHERE \(q(SQLSchema.targetColumn)) \(list)"
                    case .inverseForeignKey, .none:
                        continue
                    }
                    let statement = try cached(owners)
                    try bind(statement, bindings)
                    var touched: [RowReference] = []
                    while try step(statement) { touched.append(try reference(statement, key: 0, entity: 1)) }
                    statement.reset()
                    guard !touched.isEmpty else { continue }
                    try run(change, bindings)
                    touched.forEach(changed)
                }
            }
        }
    }

    // MARK: Statements

    /// One of the fixed statements, prepared once, reset with its bindings cleared.
    func statement(_ sql: String) throws(StoreError) -> SQLiteStatement {
        if let statement = statements[sql] {
            statement.reset()
            statement.clearBindings()
            return statement
        }
        do {
            let statement = try database.prepare(sql)
            statements[sql] = statement
            return statement
        } catch {
            throw SQLiteStore.storeError(error, file: database.path.map(URL.init(fileURLWithPath:)))
        }
    }

    /// A statement whose text varies (through the database's statement cache).
    func cached(_ sql: String) throws(StoreError) -> SQLiteStatement {
        do { return try database.cachedStatement(sql) } catch { throw SQLiteStore.storeError(error, file: database.path.map(URL.init(fileURLWithPath:))) }
    }

    func bind(_ statement: SQLiteStatement, _ value: SQLiteValue, at index: Int32) throws(StoreError) {
        do { try statement.bind(value, at: index) } catch { throw SQLiteStore.storeError(error, file: database.path.map(URL.init(fileURLWithPath:))) }
    }

    func bind(_ statement: SQLiteStatement, _ values: [SQLiteValue]) throws(StoreError) {
        do { try statement.bind(values) } catch { throw SQLiteStore.storeError(error, file: database.path.map(URL.init(fileURLWithPath:))) }
    }

    func step(_ statement: SQLiteStatement) throws(StoreError) -> Bool {
        do { return try statement.step() } catch { throw SQLiteStore.storeError(error, file: database.path.map(URL.init(fileURLWithPath:))) }
    }

    /// Runs a bound statement to its end.
    func run(_ statement: SQLiteStatement) throws(StoreError) {
        defer { statement.reset() }
        while try step(statement) {}
    }

    /// Runs a fixed statement with integer bindings `?1`, `?2`, ….
    private func run(_ sql: String, _ keys: Int64...) throws(StoreError) {
        let statement = try self.statement(sql)
        for (offset, key) in keys.enumerated() { try bind(statement, .integer(key), at: Int32(offset + 1)) }
        try run(statement)
    }

    /// Runs a varying statement with bindings.
    private func run(_ sql: String, _ bindings: [SQLiteValue]) throws(StoreError) {
        let statement = try cached(sql)
        try bind(statement, bindings)
        try run(statement)
    }

    func scalar(_ sql: String, _ bindings: [SQLiteValue] = []) throws(StoreError) -> SQLiteValue {
        do { return try database.scalar(sql, bindings) } catch { throw SQLiteStore.storeError(error, file: database.path.map(URL.init(fileURLWithPath:))) }
    }

    /// The object whose key and entity name are in columns `key` and `entity` of the row.
    func reference(_ statement: SQLiteStatement, key: Int32, entity: Int32) throws(StoreError) -> RowReference {
        let name = statement.text(entity)
        guard let position = model.entityPosition(named: name) else {
            throw StoreError(.corruptStore, "row \(statement.int64(key)) names entity '\(name)', which the model does not have")
        }
        return RowReference(key: statement.int64(key), entity: position)
    }
}
