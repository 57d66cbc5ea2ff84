import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

/// The rows of a store Core Data wrote, as the store rules (``StoreObjects``) see them — so
/// inserts, updates and deletes keep the rules and errors of every store (conversion, defaults,
/// inverses, delete rules, validation at save) — written as Core Data writes them
/// (docs/COREDATA-STORES.md, "What is written and how"):
///
/// - An object is a row of its inheritance root's table; its ID is Core Data's URI,
///   `x-coredata://<store UUID>/<Entity>/p<Z_PK>`. A new row takes the next `Z_PK` of its
///   root (after `Z_PRIMARYKEY.Z_MAX` and after the largest key in the table, whichever is
///   larger: rows added by hand never have their key taken), raises the root's `Z_MAX` to it,
///   and has its entity's number in `Z_ENT` and 1 in `Z_OPT`. A changed row's `Z_OPT` goes up
///   by one when the changes are saved (once a transaction, however many changes it made).
/// - Attributes are written in their columns as reading decodes them (``ColumnCodec``: dates
///   as seconds since 2001, booleans 0 and 1, UUIDs as their 16 bytes; strings as given); a
///   binary value of an attribute allowing external storage inline after the marker byte 1.
/// - A to-one is its foreign key column, with the destination's `Z_ENT` in the `Z<n>_` column
///   when the destination has sub-entities, and its place in the inverse's order in the
///   `Z_FOK_` column when the inverse is an ordered to-many; a to-many with a to-one inverse is
///   that column in the destination rows; a many-to-many is rows of its `Z_<n><NAME>` join table.
/// - A delete applies the model's delete rules (the store rules do), then deletes the rows,
///   their join-table rows, and clears every foreign key still pointing at them.
///
/// `Z_METADATA` and `Z_MODELCACHE` are never written; the store's transaction holds it all.
///
/// A separate kind of rows, rather than Sift's layout (``SQLRowObjects``: one key sequence
/// across tables, `_id` and `_entity` columns, join tables of its own) or a database's own
/// (``ForeignRowObjects``: its declared keys and constraints, no delete rules), because Core
/// Data's bookkeeping — keys per inheritance root in `Z_PRIMARYKEY`, entity numbers, row
/// versions, object URIs, entity and order columns — is neither's.
final class CoreDataRowObjects: StoreObjects, SQLiteRowChanges {
    /// A row: its entity (position in the model) and its `Z_PK`. Ordered by key (the order
    /// Core Data's keys were given in, within a table).
    struct Row: Hashable, Comparable {
        let entity: Int
        let key: Int64

        static func < (a: Row, b: Row) -> Bool { (a.key, a.entity) < (b.key, b.entity) }
    }

    /// Where an entity's objects are written.
    struct EntityRows {
        let name: String
        let table: String
        /// The entity's `Z_ENT`.
        let number: Int64
        /// The `Z_ENT` of its inheritance root, whose `Z_PRIMARYKEY` row keeps `Z_MAX`.
        let rootNumber: Int64
        /// Each attribute's column, by slot (nil: the store has none).
        let columns: [String?]
        /// By slot: whether the attribute allows external storage, so its values are written
        /// after the marker byte 1 (inline).
        let marksData: [Bool]
        /// Each relationship's storage, by slot (nil: the store has none).
        let relationships: [Relationship?]
    }

    /// A foreign key column in `table`, with its entity and order columns.
    struct ForeignKey: Hashable {
        let table: String
        let column: String
        let entityColumn: String?
        let orderColumn: String?
    }

    /// How a relationship is stored.
    enum Relationship {
        /// A to-one: the key column of the object's own row; the destination's rows are in
        /// `destinationTable`.
        /// (`keySQL` reads the key for the row aliased `"s"`: the column, or for a one-to-one
        /// Core Data may keep on the other side, ``SQLSchema/toOneKeySQL(of:in:column:alias:)``.)
        case toOne(ForeignKey, destinationTable: String, keySQL: String)
        /// A to-many with a to-one inverse: the inverse's key column in the destination rows.
        case toMany(ForeignKey)
        /// A many-to-many (or a to-many without an inverse): rows of a join table.
        case join(table: String, owner: String, target: String, order: String?, destinationTable: String)
    }

    let database: SQLiteDatabase
    let file: URL?
    let model: DataModel
    /// The prefix of every object ID, `x-coredata://<store UUID>/`.
    let idPrefix: String
    /// Each entity's rows, by position (nil: not written, as Core Data's persistent history).
    let entities: [EntityRows?]
    /// By table: entity position by `Z_ENT`.
    private let entityByNumber: [String: [Int64: Int]]
    /// By table: the foreign keys pointing at its rows, and the join-table columns that hold
    /// its keys (what a delete clears).
    private let referencesTo: [String: (foreignKeys: [ForeignKey], joinColumns: [(table: String, column: String)])]

    /// The key the next insert into a table takes, once looked up in the open transaction.
    private var nextKeys: [String: Int64] = [:]
    /// By table: the keys of rows the open transaction inserted.
    private var inserted: [String: Set<Int64>] = [:]
    /// By table: the keys of rows (not inserted by the transaction) it changed, or whose
    /// relationships it changed.
    private var updated: [String: Set<Int64>] = [:]
    /// By table: the rows whose `Z_OPT` a save of the open transaction raised already.
    private var versioned: [String: Set<Int64>] = [:]

    init(layout: CoreDataStoreLayout, database: SQLiteDatabase, file: URL?) {
        self.database = database
        self.file = file
        let schema = layout.schema
        model = schema.model
        idPrefix = SQLSchema.coreDataURIScheme + layout.storeUUID + "/"
        let coreData = layout.layout
        var entities: [EntityRows?] = []
        var entityByNumber: [String: [Int64: Int]] = [:]
        var foreignKeys: [String: [ForeignKey]] = [:]
        var joinColumns: [String: [(table: String, column: String)]] = [:]
        for (position, entity) in schema.model.entities.enumerated() {
            // (Persistent history is Core Data's own: not in the model's layout.)
            guard coreData.entity(named: entity.name) != nil, let table = schema.table(for: entity.name),
                  let number = table.entityNumbers[entity.name], let rootNumber = table.entityNumbers[entity.rootEntity] else {
                entities.append(nil)
                continue
            }
            entityByNumber[table.table, default: [:]][number] = position
            var relationships: [Relationship?] = []
            for relationship in entity.relationships {
                guard table.relationships[relationship.name] != nil, let destination = schema.table(for: relationship.destination) else {
                    relationships.append(nil)
                    continue
                }
                switch coreData.mapping(entity: entity.name, property: relationship.name) {
                case .toOne(let owner, let column, let entityColumn, let orderColumn)?:
                    let key = ForeignKey(table: owner, column: column, entityColumn: entityColumn, orderColumn: orderColumn)
                    relationships.append(.toOne(key, destinationTable: destination.table,
                                                keySQL: schema.toOneKeySQL(of: relationship.name, in: table, column: column, alias: "s")))
                    foreignKeys[destination.table, default: []].append(key)
                case .toManyThroughInverse(let owner, let column, let orderColumn)?:
                    // The inverse's entity column, which its own mapping names.
                    var entityColumn: String?
                    if let inverse = relationship.inverse,
                       case .toOne(_, column, let inverseEntityColumn, _)? = coreData.mapping(entity: relationship.destination, property: inverse) {
                        entityColumn = inverseEntityColumn
                    }
                    relationships.append(.toMany(ForeignKey(table: owner, column: column, entityColumn: entityColumn, orderColumn: orderColumn)))
                case .joinTable(let join, let owner, let target, let order)?:
                    relationships.append(.join(table: join, owner: owner, target: target, order: order, destinationTable: destination.table))
                    joinColumns[table.table, default: []].append((join, owner))
                    joinColumns[destination.table, default: []].append((join, target))
                case .attribute?, nil:
                    relationships.append(nil)
                }
            }
            entities.append(EntityRows(name: entity.name, table: table.table, number: number, rootNumber: rootNumber,
                                       columns: entity.attributes.map { table.columns[$0.name] },
                                       marksData: entity.attributes.map { table.columns[$0.name].map(table.holdsExternalData) ?? false },
                                       relationships: relationships))
        }
        self.entities = entities
        self.entityByNumber = entityByNumber
        var referencesTo: [String: (foreignKeys: [ForeignKey], joinColumns: [(table: String, column: String)])] = [:]
        for table in Set(foreignKeys.keys).union(joinColumns.keys) {
            var seenKeys: Set<ForeignKey> = [], seenJoins: Set<String> = []
            let keys = (foreignKeys[table] ?? []).filter { seenKeys.insert($0).inserted }
            let joins = (joinColumns[table] ?? []).filter { seenJoins.insert($0.table + "\u{0}" + $0.column).inserted }
            referencesTo[table] = (keys, joins)
        }
        self.referencesTo = referencesTo
    }

    // MARK: The transaction

    func transactionWillBegin() {}

    func transactionBegan() {
        nextKeys = [:]
        inserted = [:]
        updated = [:]
        versioned = [:]
    }

    var hasChangedObjects: Bool { inserted.values.contains { !$0.isEmpty } || updated.values.contains { !$0.isEmpty } }

    func transactionEnded(committed: Bool) {
        transactionBegan()
    }

    // MARK: Changes

    func insert(entity name: String, id: ObjectID?, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) -> ObjectID {
        guard let position = model.entityPosition(named: name) else { throw unknownEntity(name) }
        let objectID = try insertedID(id, entity: position)
        var rows = self
        return try rows.insertObject(entity: name, id: objectID, attributes: attributes, relationships: relationships)
    }

    func insert(entityPosition position: Int, id: ObjectID?, values: [SlotValue]) throws(StoreError) -> ObjectID {
        let objectID = try insertedID(id, entity: position)
        var rows = self
        return try rows.insertObject(entityPosition: position, id: objectID, values: values)
    }

    func update(_ id: ObjectID, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) {
        var rows = self
        try rows.updateObject(id, attributes: attributes, relationships: relationships)
    }

    func delete(_ ids: [ObjectID]) throws(StoreError) {
        var rows = self
        try rows.deleteObjects(ids)
    }

    // MARK: StoreObjects: reading

    func reference(to id: ObjectID) throws(StoreError) -> Row? {
        guard let (position, key) = parse(id), let rows = entities[position] else { return nil }
        guard let found = try entity(ofKey: key, in: rows.table) else { return nil }
        // (The ID names the row's own entity: `…/Note/p3` is not the folder 3.)
        return found == position ? Row(entity: position, key: key) : nil
    }

    func entityPosition(of object: Row) -> Int { object.entity }

    func objectID(of object: Row) -> ObjectID { objectID(entity: object.entity, key: object.key) }

    func destinations(of object: Row, slot: Int) throws(StoreError) -> [Row] {
        guard let rows = entities[object.entity], let relationship = rows.relationships[slot] else { return [] }
        let q = SQLIdentifier.quoted, pk = q(SQLSchema.coreDataPrimaryKey), ent = q(SQLSchema.coreDataEntityColumn)
        let sql: String, table: String
        switch relationship {
        case .toOne(let key, let destination, let keySQL):
            table = destination
            sql = "SELECT \"d\".\(pk), \"d\".\(ent) FROM \(q(key.table)) AS \"s\" JOIN \(q(destination)) AS \"d\" ON \"d\".\(pk) = \(keySQL) WHERE \"s\".\(pk) = ?1"
        case .toMany(let key):
            table = key.table
            let order = (key.orderColumn.map { q($0) + ", " } ?? "") + pk
            sql = "SELECT \(pk), \(ent) FROM \(q(key.table)) WHERE \(q(key.column)) = ?1 ORDER BY \(order)"
        case .join(let join, let owner, let target, let order, let destination):
            table = destination
            let ordering = (order.map { "\"j\".\(q($0)), " } ?? "") + "\"d\".\(pk)"
            sql = "SELECT \"d\".\(pk), \"d\".\(ent) FROM \(q(join)) AS \"j\" JOIN \(q(destination)) AS \"d\" ON \"d\".\(pk) = \"j\".\(q(target)) WHERE \"j\".\(q(owner)) = ?1 ORDER BY \(ordering)"
        }
        let numbers = entityByNumber[table] ?? [:]
        var found: [Row] = []
        try query(sql, [.integer(object.key)]) { statement in
            // (A row of an entity the model does not have is no destination.)
            if let position = numbers[statement.int64(1)] { found.append(Row(entity: position, key: statement.int64(0))) }
            return true
        }
        return found
    }

    // MARK: StoreObjects: changing

    /// Never asked: every insert names its ID (``insertedID(_:entity:)``).
    func generatedID() throws(StoreError) -> ObjectID {
        throw StoreError(.invalidRequest, "an object of a Core Data store takes the ID of its row's key")
    }

    /// An ID names one table's key: adding the object finds a row with it there.
    func idIsFree(_ id: ObjectID, besidesWhereAdding entity: Int) -> Bool { true }

    func addObject(entity position: Int, id: ObjectID, attributes: [Value]) throws(StoreError) -> Row {
        let name = model.entities[position].name
        guard let rows = entities[position], let (_, key) = parse(id) else {
            throw StoreError(.unsupportedModel, "\(name) has no table in this store", entity: name)
        }
        guard try entity(ofKey: key, in: rows.table) == nil else { throw Self.duplicateID(id, entity: name) }
        let q = SQLIdentifier.quoted
        var names = [SQLSchema.coreDataPrimaryKey, SQLSchema.coreDataEntityColumn, "Z_OPT"]
        var bindings: [SQLiteValue] = [.integer(key), .integer(rows.number), .integer(1)]
        for (slot, value) in attributes.enumerated() {
            guard let column = rows.columns[slot], !names.contains(column) else { continue }
            names.append(column)
            bindings.append(Self.stored(value, marked: rows.marksData[slot]))
        }
        let placeholders = bindings.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
        try run("INSERT INTO \(q(rows.table)) (\(names.map(q).joined(separator: ", "))) VALUES (\(placeholders))", bindings, object: Row(entity: position, key: key))
        // The root's Z_MAX follows its largest key.
        try run(#"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = ?2 WHERE "Z_ENT" = ?1 AND ("Z_MAX" IS NULL OR "Z_MAX" < ?2)"#, [.integer(rows.rootNumber), .integer(key)])
        if key < Int64.max { nextKeys[rows.table] = Swift.max(nextKeys[rows.table] ?? 0, key + 1) }
        inserted[rows.table, default: []].insert(key)
        return Row(entity: position, key: key)
    }

    func setAttributes(_ values: [SlotValue], of object: Row) throws(StoreError) {
        guard let rows = entities[object.entity] else { return }
        let q = SQLIdentifier.quoted
        var assignments: [String] = []
        var bindings: [SQLiteValue] = []
        for value in values {
            guard let column = rows.columns[value.slot] else { continue }
            bindings.append(Self.stored(value.value, marked: rows.marksData[value.slot]))
            assignments.append("\(q(column)) = ?\(bindings.count)")
        }
        guard !assignments.isEmpty else { return }
        bindings.append(.integer(object.key))
        try run("UPDATE \(q(rows.table)) SET \(assignments.joined(separator: ", ")) WHERE \(q(SQLSchema.coreDataPrimaryKey)) = ?\(bindings.count)", bindings, object: object)
        changed(object)
    }

    func addDestination(_ destination: Row, to object: Row, slot: Int) throws(StoreError) {
        guard let relationship = entities[object.entity]?.relationships[slot] else { return }
        switch relationship {
        case .toOne(let key, _, _):
            try point(key, of: object, at: destination)
        case .toMany(let key):
            try point(key, of: destination, at: object)
        case .join(let join, let owner, let target, let order, _):
            let q = SQLIdentifier.quoted
            let pair = "\(q(owner)) = ?1 AND \(q(target)) = ?2"
            try run("INSERT INTO \(q(join)) (\(q(owner)), \(q(target))) SELECT ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM \(q(join)) WHERE \(pair))",
                    [.integer(object.key), .integer(destination.key)])
            if let order {
                // At the end of the owner's destinations (the other side may have made the row).
                try run("UPDATE \(q(join)) SET \(q(order)) = (SELECT coalesce(max(\(q(order))), 0) + 1 FROM \(q(join)) WHERE \(q(owner)) = ?1) WHERE \(pair) AND \(q(order)) IS NULL",
                        [.integer(object.key), .integer(destination.key)])
            }
        }
        changed(object)
    }

    func removeDestination(_ destination: Row, from object: Row, slot: Int) throws(StoreError) {
        guard let relationship = entities[object.entity]?.relationships[slot] else { return }
        switch relationship {
        case .toOne(let key, _, _):
            try clear(key, of: object, from: destination)
        case .toMany(let key):
            try clear(key, of: destination, from: object)
        case .join(let join, let owner, let target, _, _):
            let q = SQLIdentifier.quoted
            try run("DELETE FROM \(q(join)) WHERE \(q(owner)) = ?1 AND \(q(target)) = ?2", [.integer(object.key), .integer(destination.key)])
        }
        changed(object)
    }

    /// Points the foreign key `key` of `row` at `destination` (its entity column and its place at
    /// the end of the inverse's order with it); nothing if it points there already.
    private func point(_ key: ForeignKey, of row: Row, at destination: Row) throws(StoreError) {
        let q = SQLIdentifier.quoted, pk = q(SQLSchema.coreDataPrimaryKey)
        var assignments = ["\(q(key.column)) = ?2"]
        var bindings: [SQLiteValue] = [.integer(row.key), .integer(destination.key)]
        if let entityColumn = key.entityColumn, let number = entities[destination.entity]?.number {
            bindings.append(.integer(number))
            assignments.append("\(q(entityColumn)) = ?\(bindings.count)")
        }
        if let order = key.orderColumn {
            assignments.append("\(q(order)) = (SELECT coalesce(max(\(q(order))), 0) + 1 FROM \(q(key.table)) WHERE \(q(key.column)) = ?2)")
        }
        try run("UPDATE \(q(key.table)) SET \(assignments.joined(separator: ", ")) WHERE \(pk) = ?1 AND \(q(key.column)) IS NOT ?2", bindings)
        changed(row)
    }

    /// Clears the foreign key `key` of `row` (with its entity and order columns), if it points at
    /// `destination`.
    private func clear(_ key: ForeignKey, of row: Row, from destination: Row) throws(StoreError) {
        let q = SQLIdentifier.quoted
        try run("UPDATE \(q(key.table)) SET \(Self.cleared(key)) WHERE \(q(SQLSchema.coreDataPrimaryKey)) = ?1 AND \(q(key.column)) = ?2",
                [.integer(row.key), .integer(destination.key)])
        changed(row)
    }

    /// `"ZFOLDER" = NULL, "Z2_FOLDER" = NULL, …`: a foreign key's columns cleared.
    private static func cleared(_ key: ForeignKey) -> String {
        ([key.column] + [key.entityColumn, key.orderColumn].compactMap { $0 }).map { SQLIdentifier.quoted($0) + " = NULL" }.joined(separator: ", ")
    }

    /// An ordered to-many keeps its order in its `Z_FOK_` column: numbered 1, 2, … in the
    /// order asked for, when it differs.
    func holdDestinations(_ destinations: [Row], of object: Row, slot: Int) throws(StoreError) {
        guard destinations.count > 1, let relationship = entities[object.entity]?.relationships[slot] else { return }
        let q = SQLIdentifier.quoted
        let sql: String
        switch relationship {
        case .toMany(let key):
            guard let order = key.orderColumn else { return }
            sql = "UPDATE \(q(key.table)) SET \(q(order)) = ?3 WHERE \(q(SQLSchema.coreDataPrimaryKey)) = ?2 AND \(q(key.column)) = ?1"
        case .join(let join, let owner, let target, let order?, _):
            sql = "UPDATE \(q(join)) SET \(q(order)) = ?3 WHERE \(q(owner)) = ?1 AND \(q(target)) = ?2"
        case .toOne, .join:
            return
        }
        guard try self.destinations(of: object, slot: slot) != destinations else { return }
        for (position, destination) in destinations.enumerated() {
            try run(sql, [.integer(object.key), .integer(destination.key), .integer(Int64(position + 1))])
            changed(destination)
        }
        changed(object)
    }

    func removeObjects(_ doomed: [Row]) throws(StoreError) {
        var byTable: [String: [Int64]] = [:]
        for row in doomed {
            guard let table = entities[row.entity]?.table else { continue }
            byTable[table, default: []].append(row.key)
        }
        let q = SQLIdentifier.quoted, pk = q(SQLSchema.coreDataPrimaryKey), ent = q(SQLSchema.coreDataEntityColumn)
        for (table, keys) in byTable.sorted(by: { $0.key < $1.key }) {
            let references = referencesTo[table] ?? ([], [])
            for chunk in RowKeyLists.chunks(keys) {
                let list = RowKeyLists.inList(chunk.count)
                let bindings = chunk.bindings.map(SQLiteValue.init)
                // Foreign keys still pointing at the rows (relationships without an inverse):
                // cleared, their rows changed.
                for key in references.foreignKeys {
                    let numbers = entityByNumber[key.table] ?? [:]
                    var owners: [Row] = []
                    try query("SELECT \(pk), \(ent) FROM \(q(key.table)) WHERE \(q(key.column)) \(list)", bindings) { statement in
                        if let position = numbers[statement.int64(1)] { owners.append(Row(entity: position, key: statement.int64(0))) }
                        return true
                    }
                    guard !owners.isEmpty else { continue }
                    try run("UPDATE \(q(key.table)) SET \(Self.cleared(key)) WHERE \(q(key.column)) \(list)", bindings)
                    owners.forEach(changed)
                }
                // Their join-table rows.
                for join in references.joinColumns {
                    try run("DELETE FROM \(q(join.table)) WHERE \(q(join.column)) \(list)", bindings)
                }
                try run("DELETE FROM \(q(table)) WHERE \(pk) \(list)", bindings)
            }
            for key in keys {
                updated[table]?.remove(key)
                inserted[table]?.remove(key)
            }
        }
    }

    // MARK: Validation

    /// Checks the objects the transaction inserted or changed (``ObjectValidation``, in key
    /// order), then their uniqueness constraints; once they pass, raises the `Z_OPT` of every
    /// changed row not inserted (once a transaction).
    func validateChanges() throws(StoreError) {
        let q = SQLIdentifier.quoted, pk = q(SQLSchema.coreDataPrimaryKey), ent = q(SQLSchema.coreDataEntityColumn)
        var changedRows: [Row] = []
        for table in Set(inserted.keys).union(updated.keys).sorted() {
            let keys = (inserted[table] ?? []).union(updated[table] ?? []).sorted()
            let numbers = entityByNumber[table] ?? [:]
            for chunk in RowKeyLists.chunks(keys) {
                try query("SELECT \(pk), \(ent) FROM \(q(table)) WHERE \(pk) \(RowKeyLists.inList(chunk.count)) ORDER BY \(pk)", chunk.bindings.map(SQLiteValue.init)) { statement in
                    if let position = numbers[statement.int64(1)] { changedRows.append(Row(entity: position, key: statement.int64(0))) }
                    return true
                }
            }
        }
        for row in changedRows {
            guard let rows = entities[row.entity] else { continue }
            let entity = model.entities[row.entity]
            var nulls: [Int: Bool] = [:]
            let required = entity.attributes.indices.filter { ObjectValidation.needsValue(entity.attributes[$0]) && rows.columns[$0] != nil }
            if !required.isEmpty {
                let tests = required.map { "\(q(rows.columns[$0]!)) IS NULL" }.joined(separator: ", ")
                try query("SELECT \(tests) FROM \(q(rows.table)) WHERE \(pk) = ?1", [.integer(row.key)]) { statement in
                    for (index, slot) in required.enumerated() { nulls[slot] = statement.int64(Int32(index)) != 0 }
                    return false
                }
            }
            var counts: [Int: Int] = [:]
            for (slot, relationship) in entity.relationships.enumerated() where ObjectValidation.needsCount(relationship) {
                counts[slot] = try destinations(of: row, slot: slot).count
            }
            try ObjectValidation.check(entity, id: objectID(of: row), isNull: { nulls[$0] ?? false }, count: { counts[$0] ?? 0 })
        }
        try validateUniqueness(changedRows)
        // Every changed row that Core Data would save again has its version raised.
        for (table, keys) in updated {
            let raised = keys.subtracting(inserted[table] ?? []).subtracting(versioned[table] ?? []).sorted()
            for chunk in RowKeyLists.chunks(raised) {
                try run("UPDATE \(q(table)) SET \"Z_OPT\" = coalesce(\"Z_OPT\", 0) + 1 WHERE \(pk) \(RowKeyLists.inList(chunk.count))", chunk.bindings.map(SQLiteValue.init))
            }
            versioned[table, default: []].formUnion(raised)
        }
    }

    /// Each uniqueness constraint of the changed rows' entities (and their ancestors'): a row
    /// of the constraint's entities with the same values is a violation, reported as the later
    /// of the two against the earlier.
    private func validateUniqueness(_ changedRows: [Row]) throws(StoreError) {
        let q = SQLIdentifier.quoted, pk = q(SQLSchema.coreDataPrimaryKey), ent = q(SQLSchema.coreDataEntityColumn)
        for entity in model.entities where !entity.uniquenessConstraints.isEmpty {
            guard let position = model.entityPosition(named: entity.name), let rows = entities[position] else { continue }
            let members = entity.entityAndSubentities.compactMap { model.entityPosition(named: $0) }
            let numbers = members.compactMap { entities[$0]?.number }
            let candidates = changedRows.filter { members.contains($0.entity) }
            guard !candidates.isEmpty else { continue }
            for constraint in entity.uniquenessConstraints {
                var columns: [String] = []
                for name in constraint {
                    switch entity.slot(of: name) {
                    case .attribute(let slot)?: if let column = rows.columns[slot] { columns.append(column) }
                    case .relationship(let slot)?: if case .toOne(let key, _, _)? = rows.relationships[slot] { columns.append(key.column) }
                    case nil: break
                    }
                }
                guard columns.count == constraint.count else { continue }
                let same = columns.map { "\"a\".\(q($0)) = \"b\".\(q($0))" }.joined(separator: " AND ")
                let kinds = numbers.map(String.init).joined(separator: ", ")
                let sql = "SELECT \"a\".\(pk), \"a\".\(ent) FROM \(q(rows.table)) AS \"a\" JOIN \(q(rows.table)) AS \"b\" ON \(same) WHERE \"b\".\(pk) = ?1 AND \"a\".\(pk) <> ?1 AND \"a\".\(ent) IN (\(kinds)) ORDER BY \"a\".\(pk) LIMIT 1"
                let byNumber = entityByNumber[rows.table] ?? [:]
                for row in candidates {
                    var twin: Row?
                    try query(sql, [.integer(row.key)]) { statement in
                        if let position = byNumber[statement.int64(1)] { twin = Row(entity: position, key: statement.int64(0)) }
                        return false
                    }
                    guard let twin else { continue }
                    let (later, first) = twin < row ? (row, twin) : (twin, row)
                    throw ObjectValidation.uniquenessViolation(entity: model.entities[later.entity].name, object: objectID(of: later), first: objectID(of: first),
                                                               constraint: constraint, constraintEntity: entity.name)
                }
            }
        }
    }

    // MARK: IDs and keys

    /// `x-coredata://<store UUID>/<Entity>/p<key>`.
    func objectID(entity position: Int, key: Int64) -> ObjectID {
        ObjectID(idPrefix + model.entities[position].name + "/p" + String(key))
    }

    /// The entity and key a Core Data object URI of this store names.
    func parse(_ id: ObjectID) -> (entity: Int, key: Int64)? {
        let raw = id.rawValue
        guard raw.hasPrefix(idPrefix) else { return nil }
        let rest = raw.dropFirst(idPrefix.count)
        guard let slash = rest.lastIndex(of: "/") else { return nil }
        let keyText = rest[rest.index(after: slash)...]
        // (Only the key's own spelling: `p05` and `p+5` name no object, as Core Data spells none so.)
        guard keyText.first == "p", let key = Int64(keyText.dropFirst()), key > 0, String(key) == keyText.dropFirst(),
              let position = model.entityPosition(named: String(rest[..<slash])) else { return nil }
        return (position, key)
    }

    /// The ID of an object an insert makes: the one given (a URI of this store naming the
    /// entity), else the next key of the entity's root.
    private func insertedID(_ id: ObjectID?, entity position: Int) throws(StoreError) -> ObjectID {
        let entity = model.entities[position]
        guard let rows = entities[position] else {
            throw StoreError(.readOnly, "\(entity.name) is Core Data's own (persistent history): Sift does not write it", entity: entity.name, objectID: id)
        }
        guard let id else { return objectID(entity: position, key: try nextKey(rows)) }
        guard let (named, _) = parse(id), named == position else {
            throw StoreError(.invalidValue, "\(entity.name): '\(id)' is not an object ID of \(entity.name) in this store; its objects' IDs are \(idPrefix)\(entity.name)/p<Z_PK> (leave the ID out and the next key is taken)",
                             entity: entity.name, objectID: id)
        }
        return id
    }

    /// The key after the larger of the root's `Z_PRIMARYKEY.Z_MAX` and the table's largest
    /// `Z_PK` (rows added without Core Data leave `Z_MAX` behind).
    private func nextKey(_ rows: EntityRows) throws(StoreError) -> Int64 {
        if let next = nextKeys[rows.table] { return next }
        var largest: Int64 = 0
        let sql = "SELECT max(coalesce((SELECT \"Z_MAX\" FROM \"Z_PRIMARYKEY\" WHERE \"Z_ENT\" = ?1), 0), coalesce((SELECT max(\(SQLIdentifier.quoted(SQLSchema.coreDataPrimaryKey))) FROM \(SQLIdentifier.quoted(rows.table))), 0))"
        try query(sql, [.integer(rows.rootNumber)]) { statement in
            largest = statement.int64(0)
            return false
        }
        guard largest < Int64.max else {
            throw StoreError(.database, "\(rows.table) has no key left after \(Int64.max) for a new row", entity: rows.name)
        }
        nextKeys[rows.table] = largest + 1
        return largest + 1
    }

    /// The entity (position) of the row with `key` in `table`: nil when there is none, or its
    /// `Z_ENT` is no entity of the model.
    private func entity(ofKey key: Int64, in table: String) throws(StoreError) -> Int?? {
        var found: Int??
        try query("SELECT \(SQLIdentifier.quoted(SQLSchema.coreDataEntityColumn)) FROM \(SQLIdentifier.quoted(table)) WHERE \(SQLIdentifier.quoted(SQLSchema.coreDataPrimaryKey)) = ?1",
                  [.integer(key)]) { statement in
            found = .some(entityByNumber[table]?[statement.int64(0)])
            return false
        }
        return found
    }

    private func changed(_ row: Row) {
        guard let table = entities[row.entity]?.table, inserted[table]?.contains(row.key) != true else { return }
        updated[table, default: []].insert(row.key)
    }

    /// A value (converted to its attribute's type) as Core Data stores it: as reading decodes
    /// it, strings as given (Core Data does not normalise them).
    /// A value of an attribute that allows external storage (`marked`) is written inline after
    /// the marker byte 1, as Core Data writes such values (never to a file; nil stays NULL).
    static func stored(_ value: Value, marked: Bool = false) -> SQLiteValue {
        if case .string(let text) = value { return .text(text) }
        if marked, case .data(let bytes) = value { return .blob([EntityTable.inlineDataMarker] + [UInt8](bytes)) }
        return SQLiteValue(ColumnCodec.encode(value))
    }

    // MARK: Statements

    /// Runs a change. A constraint of the database's own that refuses it (a unique index Core
    /// Data made for a uniqueness constraint) is a `constraintViolation` naming `object`.
    private func run(_ sql: String, _ bindings: [SQLiteValue], object: Row? = nil) throws(StoreError) {
        do {
            let statement = try database.cachedStatement(sql)
            try statement.bind(bindings)
            defer { statement.reset() }
            while try statement.step() {}
        } catch where error.isConstraintViolation {
            let entity = object.map { model.entities[$0.entity].name }
            let subject = object.map { "\(model.entities[$0.entity].name) '\(objectID(of: $0))': " } ?? ""
            throw StoreError(.constraintViolation, "\(subject)the store refuses the change: \(error.message) (a constraint of the database, as a unique index Core Data made for a uniqueness constraint)",
                             entity: entity, objectID: object.map { objectID(of: $0) })
        } catch {
            throw SQLiteStore.storeError(error, file: file)
        }
    }

    private func query(_ sql: String, _ bindings: [SQLiteValue], _ body: (SQLiteStatement) throws(StoreError) -> Bool) throws(StoreError) {
        let statement: SQLiteStatement
        do {
            statement = try database.cachedStatement(sql)
            try statement.bind(bindings)
        } catch {
            throw SQLiteStore.storeError(error, file: file)
        }
        defer { statement.reset() }
        while true {
            let more: Bool
            do { more = try statement.step() } catch { throw SQLiteStore.storeError(error, file: file) }
            guard more, try body(statement) else { return }
        }
    }
}
