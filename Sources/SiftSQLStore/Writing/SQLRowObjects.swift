import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftStore

/// A SQL store's rows as the store rules (``StoreObjects``) see them — the SQLite store's and
/// the PostgreSQL store's, which share the layout (``SQLSchema``): every answer is a query and
/// every change an INSERT, UPDATE or DELETE of exactly the rows it touches (``RowWriteSQL``),
/// inside the store's open write transaction. Nothing is loaded that the change does not read.
/// What each database does its own way (binding values, running statements) is `Database`'s.
///
/// It remembers what the transaction changed, for validation at save: the objects it inserted
/// (row keys from ``firstNewKey`` on, since keys only grow) and the other objects whose
/// attributes or relationships it changed (``updatedKeys``).
package final class SQLRowObjects<Database: SQLRowDatabase>: StoreObjects {
    let schema: SQLSchema
    let database: Database
    package let model: DataModel

    /// The key the next inserted object gets.
    package private(set) var nextKey: Int64 = 1
    /// The first key this transaction gave: every object from it on was inserted by it.
    private(set) var firstNewKey: Int64 = 1
    /// Objects (not inserted by the transaction) whose rows or relationships it changed, by table.
    private(set) var updatedKeys: [String: Set<Int64>] = [:]
    /// How many IDs the transaction has generated.
    private var generatedIDs = 0
    /// Once the transaction has generated ``generatedIDsLookedUp`` IDs: the largest `n` of the
    /// IDs `o<n>` rows had then, so every `o<n>` past it is free but those rows were given since
    /// (``takenGeneratedIDs``). An import of rows without `@id` then looks none up (one query
    /// each had been 13 % of its time).
    private var generatedIDsFreePast: Int64?
    /// The `n` of the IDs `o<n>` past ``generatedIDsFreePast`` that rows were given since.
    private var takenGeneratedIDs: Set<Int64> = []
    /// How many generated IDs a transaction looks up one by one before it finds, with one scan
    /// of the IDs that look generated, where they are all free.
    static var generatedIDsLookedUp: Int { 1000 }

    /// Each entity's statements, by its position in the model (nil: no table).
    let entities: [RowWriteSQL?]
    /// The tables holding objects (one per entity hierarchy), in model order.
    let tables: [String]
    /// The positions in the model of the entities each table holds, in model order.
    let entityPositions: [String: [Int]]
    /// `SELECT "_pk", "_entity" FROM "<table>" WHERE "_id" = ?1 UNION ALL …  LIMIT 1`, over at
    /// most ``RowWriteSQL/lookupTables`` tables each.
    private let referenceSQL: [String]
    /// For each table an object was added to: the same over every other table, made when first
    /// needed (made for every table at once, the statements were quadratic in the entities:
    /// 1.17 GB for 10,000).
    private var otherTablesReferenceSQL: [String: [String]] = [:]

    package init(schema: SQLSchema, database: Database) {
        self.schema = schema
        self.database = database
        self.model = schema.model
        var tables: [String] = []
        var positions: [String: [Int]] = [:]
        entities = schema.model.entities.enumerated().map { position, entity in
            guard let table = schema.table(for: entity.name) else { return nil }
            if positions[table.table] == nil { tables.append(table.table) }
            positions[table.table, default: []].append(position)
            return RowWriteSQL(entity: entity, table: table, schema: schema, dialect: database.dialect)
        }
        self.tables = tables
        entityPositions = positions
        referenceSQL = RowWriteSQL.objectLookups(in: tables, dialect: database.dialect)
    }

    /// The row with the ID that one of `lookups` finds, in order.
    private func lookUp(_ id: ObjectID, with lookups: [String]) throws(StoreError) -> (key: Int64, entity: String)? {
        for sql in lookups {
            if let row = try database.lookUp(id, with: sql) { return row }
        }
        return nil
    }

    // MARK: Transactions

    /// A write transaction began: keys continue after the largest in the store.
    package func transactionBegan() throws(StoreError) {
        var largest: Int64 = 0
        for table in tables {
            try database.query(RowWriteSQL.largestKey(in: table), []) { (row) throws(StoreError) in
                if let value = row.int64(0) { largest = Swift.max(largest, value) }
                return false
            }
        }
        nextKey = largest + 1
        firstNewKey = nextKey
        updatedKeys = [:]
        forgetGeneratedIDs()
    }

    /// The keys of the rows the transaction inserted (in any table).
    package var insertedKeys: Range<Int64> { firstNewKey..<Swift.max(firstNewKey, nextKey) }

    /// Whether the transaction inserted or changed anything.
    package var hasChangedObjects: Bool { nextKey > firstNewKey || updatedKeys.values.contains { !$0.isEmpty } }

    /// Undoes the bookkeeping of changes rolled back to a savepoint: keys from `key` on are free
    /// again.
    package func rewind(nextKey key: Int64) {
        nextKey = Swift.max(firstNewKey, key)
        // Rows a rolled-back savepoint had deleted are back: their IDs are looked up again.
        forgetGeneratedIDs()
    }

    private func forgetGeneratedIDs() {
        generatedIDs = 0
        generatedIDsFreePast = nil
        takenGeneratedIDs = []
    }

    private func changed(_ object: RowReference) {
        guard object.key < firstNewKey, let table = entities[object.entity]?.table else { return }
        updatedKeys[table, default: []].insert(object.key)
    }

    // MARK: StoreObjects: reading

    package func reference(to id: ObjectID) throws(StoreError) -> RowReference? {
        guard !tables.isEmpty, let row = try lookUp(id, with: referenceSQL) else { return nil }
        return try reference(key: row.key, entityName: row.entity)
    }

    package func entityPosition(of object: RowReference) -> Int { object.entity }

    /// Only the other tables are looked at: the table the object goes to has a unique index on
    /// `"_id"`, so the INSERT itself finds a duplicate there.
    package func idIsFree(_ id: ObjectID, besidesWhereAdding entity: Int) throws(StoreError) -> Bool {
        guard let table = entities[entity]?.table else { return try reference(to: id) == nil }
        guard tables.count > 1 else { return true }
        let lookups: [String]
        if let made = otherTablesReferenceSQL[table] {
            lookups = made
        } else {
            lookups = RowWriteSQL.objectLookups(in: tables.filter { $0 != table }, dialect: database.dialect)
            otherTablesReferenceSQL[table] = lookups
        }
        return try lookUp(id, with: lookups) == nil
    }

    package func objectID(of object: RowReference) throws(StoreError) -> ObjectID {
        guard let sql = entities[object.entity]?.objectID else { return ObjectID("") }
        var id = ""
        try database.query(sql, [database.key(object.key)]) { (row) throws(StoreError) in
            id = row.text(0) ?? ""
            return false
        }
        return ObjectID(id)
    }

    package func destinations(of object: RowReference, slot: Int) throws(StoreError) -> [RowReference] {
        guard let relationship = entities[object.entity]?.relationships[slot], !relationship.destinations.isEmpty else { return [] }
        return try references(relationship.destinations, [database.key(object.key)])
    }

    // MARK: StoreObjects: changing

    package func generatedID() throws(StoreError) -> ObjectID {
        generatedIDs += 1
        if generatedIDsFreePast == nil && generatedIDs > Self.generatedIDsLookedUp { try findWhereGeneratedIDsAreFree() }
        var n = nextKey
        while true {
            if let free = generatedIDsFreePast, n > free {
                if !takenGeneratedIDs.contains(n) { return ObjectID("o" + String(n)) }
            } else if case let id = ObjectID("o" + String(n)), try reference(to: id) == nil {
                return id
            }
            n += 1
        }
    }

    /// The largest `n` of the IDs `o<n>` the rows have (compared as text, such IDs lie between
    /// `o0` and `o:`: one range of each table's `"_id"` index).
    private func findWhereGeneratedIDsAreFree() throws(StoreError) {
        var largest: Int64 = 0
        for table in tables {
            try database.query(RowWriteSQL.generatedLookingIDs(in: table, dialect: database.dialect), []) { (row) throws(StoreError) in
                if let id = row.text(0), let n = generatedNumber(id) { largest = Swift.max(largest, n) }
                return true
            }
        }
        generatedIDsFreePast = largest
        takenGeneratedIDs = []
    }

    package func addObject(entity: Int, id: ObjectID, attributes: [Value]) throws(StoreError) -> RowReference {
        let name = model.entities[entity].name
        guard let sql = entities[entity] else {
            throw StoreError(.unsupportedModel, "\(name) has no table in this store", entity: name)
        }
        let key = nextKey
        guard try database.insert(sql, entity: entity, key: key, id: id, entityName: name, attributes: attributes) else {
            throw Self.duplicateID(id, entity: name)
        }
        nextKey += 1
        // Generated IDs start from the next key: an ID `o<n>` below it can be generated no more.
        if let free = generatedIDsFreePast, let n = generatedNumber(id.rawValue), n > free, n >= nextKey { takenGeneratedIDs.insert(n) }
        return RowReference(key: key, entity: entity)
    }

    package func setAttributes(_ values: [SlotValue], of object: RowReference) throws(StoreError) {
        guard let sql = entities[object.entity] else { return }
        var columns: [String] = []
        var bindings: [Database.Binding] = []
        for value in values {
            guard let column = sql.columns[value.slot] else { continue }
            let stored = try database.attribute(value.value)
            columns.append(column)
            bindings.append(stored)
            // A searchable attribute's folded text changes with it.
            for hidden in sql.folds[value.slot] {
                columns.append(hidden.column)
                bindings.append(database.searchFold(hidden.fold, of: stored))
            }
        }
        guard !columns.isEmpty else { return }
        try database.run(sql.update(columns), bindings + [database.key(object.key)])
        changed(object)
    }

    package func addDestination(_ destination: RowReference, to object: RowReference, slot: Int) throws(StoreError) {
        guard let relationship = entities[object.entity]?.relationships[slot], !relationship.add.isEmpty else { return }
        try database.run(relationship.add, [database.key(object.key), database.key(destination.key)])
        changed(object)
    }

    package func removeDestination(_ destination: RowReference, from object: RowReference, slot: Int) throws(StoreError) {
        guard let relationship = entities[object.entity]?.relationships[slot], !relationship.remove.isEmpty else { return }
        try database.run(relationship.remove, [database.key(object.key), database.key(destination.key)])
        changed(object)
    }

    package func holdDestinations(_ destinations: [RowReference], of object: RowReference, slot: Int) throws(StoreError) {
        // Only an ordered join table keeps an order of its own; elsewhere adding and removing
        // destinations left them as they are to be held.
        guard let relationship = entities[object.entity]?.relationships[slot], case .joinTable(ordered: true) = relationship.kind,
              destinations.count > 1, try self.destinations(of: object, slot: slot) != destinations else { return }
        try database.run(relationship.clear, [database.key(object.key)])
        for (position, destination) in destinations.enumerated() {
            try database.run(relationship.insertAt, [database.key(object.key), database.key(destination.key), database.key(Int64(position))])
        }
        changed(object)
    }

    package func removeObjects(_ doomed: [RowReference]) throws(StoreError) {
        var byTable: [String: [Int64]] = [:]
        for object in doomed {
            guard let table = entities[object.entity]?.table else { continue }
            // The key stays among the changed ones: a savepoint rolled back may bring the row back.
            byTable[table, default: []].append(object.key)
        }
        for table in tables {
            guard let keys = byTable[table] else { continue }
            // The rows, and the join-table rows they own.
            for list in database.keyLists(keys) {
                for sql in RowWriteSQL.deleteRows(of: table, keys: list.test, entities: entities) {
                    try database.run(sql, list.bindings)
                }
            }
            try dropReferences(to: keys, in: table)
        }
    }

    /// Relationships without an inverse may point at deleted objects: each such reference is
    /// removed (a to-one column set to NULL, a join-table row deleted), and its owner changed.
    private func dropReferences(to keys: [Int64], in table: String) throws(StoreError) {
        for (position, entity) in model.entities.enumerated() {
            guard let rows = entities[position] else { continue }
            for relationship in entity.ownRelationships where relationship.inverse == nil {
                guard let destination = schema.table(for: relationship.destination), destination.table == table,
                      case .relationship(let slot)? = entity.slot(of: relationship.name) else { continue }
                for list in database.keyLists(keys) {
                    guard let sql = rows.relationships[slot].droppingReferences(keys: list.test) else { continue }
                    let touched = try references(sql.owners, list.bindings)
                    guard !touched.isEmpty else { continue }
                    try database.run(sql.change, list.bindings)
                    touched.forEach(changed)
                }
            }
        }
    }

    // MARK: Rows

    /// The objects whose keys and entity names are the columns 0 and 1 of a query's rows.
    private func references(_ sql: String, _ bindings: [Database.Binding]) throws(StoreError) -> [RowReference] {
        var references: [RowReference] = []
        try database.query(sql, bindings) { (row) throws(StoreError) in
            references.append(try reference(row, key: 0, entity: 1))
            return true
        }
        return references
    }

    /// The object whose key and entity name are in columns `key` and `entity` of the row.
    func reference(_ row: Database.Row, key: Int, entity: Int) throws(StoreError) -> RowReference {
        guard let rowKey = row.int64(key), let name = row.text(entity) else {
            throw StoreError(.corruptStore, "a row has no key or entity")
        }
        return try reference(key: rowKey, entityName: name)
    }

    private func reference(key: Int64, entityName name: String) throws(StoreError) -> RowReference {
        guard let position = model.entityPosition(named: name) else {
            throw StoreError(.corruptStore, "row \(key) names entity '\(name)', which the model does not have")
        }
        return RowReference(key: key, entity: position)
    }
}

/// The `n` of an ID of the form `o<n>` (as ``SQLRowObjects/generatedID()`` makes them; or
/// `o+12`, `o0012`, which a generated ID is not, taken as 12 all the same), or nil.
private func generatedNumber(_ id: String) -> Int64? {
    guard id.utf8.first == UInt8(ascii: "o") else { return nil }
    return Int64(id.dropFirst())
}
