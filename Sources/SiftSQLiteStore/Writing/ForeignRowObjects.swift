import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

/// The rows of a database Sift did not create, as the store rules (``StoreObjects``) see them,
/// so inserts and updates keep the rules and errors of every store (conversion, unknown keys,
/// destinations by ID, inverses) — written in the database's own layout:
///
/// - An object is a row of its table, found by the table's key (its INTEGER PRIMARY KEY, else
///   its rowid); its ID is `<Table>/<key>`. An insert gives the row the key its ID names, the
///   key column's value when the insert gives one, or the next key (after the largest, and
///   after `sqlite_sequence`'s for an AUTOINCREMENT table). The key never changes.
/// - A to-one is the row's foreign key column; a to-many the foreign key column of the rows
///   that point at it (``ForeignTableRows``).
/// - Values are written in the form each column holds (``ForeignColumnForm``); an insert leaves
///   out the columns it has no value for, so they take the column's DEFAULT.
/// - The database's own rules decide the rest: NOT NULL, UNIQUE and CHECK constraints, triggers,
///   foreign keys — enforced for Sift's writes (`PRAGMA foreign_keys`), checked when the
///   changes are saved (`PRAGMA defer_foreign_keys`, so a change may pass through a state that
///   breaks one) — and a delete deletes rows, with the ON DELETE actions the database declares
///   (Sift's delete rules are not applied to a model read from a database). A broken rule is a
///   ``StoreError`` naming the table, the object and the column (``ForeignRowObjects+Errors``).
///
/// What a transaction wrote (``writes``) is kept so the column types chosen from the rows can be
/// chosen again once it commits (``ForeignSchema/committed(rechosen:dropped:in:)``).
final class ForeignRowObjects: StoreObjects, SQLiteRowChanges {
    /// A row: its table's entity (position in the model) and its key.
    struct Row: Hashable, Comparable {
        let entity: Int
        let key: Int64

        static func < (a: Row, b: Row) -> Bool { (a.entity, a.key) < (b.entity, b.key) }
    }

    /// How one table's columns are written: each attribute's column and form, and which
    /// attribute is the key column (an INTEGER PRIMARY KEY).
    struct Columns {
        var columns: [String?]
        var forms: [ForeignColumnForm]
        /// Each attribute's one text date form (``TextDateForm``) as its column's type has it.
        var textDateForms: [TextDateForm?]
        var keySlot: Int?
    }

    let foreign: ForeignSchema
    let database: SQLiteDatabase
    /// The database file, for errors.
    let file: URL?
    /// The model, with the column types of every table read so far.
    private(set) var model: DataModel
    private(set) var schema: SQLSchema
    /// Each entity's table, by position.
    let tables: [ForeignTableRows]
    /// Entity position by object ID prefix (`Artist/`).
    private let entityByPrefix: [String: Int]
    /// The columns of the tables changes wrote, by entity position (their types read first).
    private var columns: [Int: Columns] = [:]
    /// The key the next insert without one gets, by entity position (in the open transaction).
    private var nextKeys: [Int: Int64] = [:]
    /// What the open transaction wrote.
    private(set) var writes = ForeignWrites()
    /// The foreign key columns of the to-one relationships the insert under way gives (column →
    /// value): written with the row, so a NOT NULL foreign key has its value from the start.
    private var insertedForeignKeys: [String: SQLiteValue] = [:]
    /// The foreign key columns the change under way clears (``removeDestination(_:from:slot:)``),
    /// cleared when its rules are done (``clearForeignKeys()``): a relationship moved to another
    /// destination passes through no NULL, which a NOT NULL column refuses, and a clear of a
    /// column pointing elsewhere by then does nothing.
    private var pendingClears: [(sql: String, bindings: [SQLiteValue], write: ForeignWrite, table: String, key: Int64)] = []

    init(foreign: ForeignSchema, database: SQLiteDatabase, file: URL?) {
        self.foreign = foreign
        self.database = database
        self.file = file
        let schema = foreign.schema
        self.schema = schema
        model = schema.model
        let catalog = foreign.catalog
        func isColumn(_ table: String, _ name: String) -> Bool {
            catalog.table(named: table)?.columns.contains { $0.name == name } ?? false
        }
        var tables: [ForeignTableRows] = []
        var entityByPrefix: [String: Int] = [:]
        for (position, entity) in schema.model.entities.enumerated() {
            // (Every entity of a database Sift did not create is a table.)
            guard let table = schema.table(for: entity.name) else { preconditionFailure("\(entity.name) has no table") }
            let rows = ForeignTableRows(entity: position, table: table, schema: schema, isColumn: isColumn)
            tables.append(rows)
            entityByPrefix[rows.prefix] = position
        }
        self.tables = tables
        self.entityByPrefix = entityByPrefix
    }

    // MARK: The transaction

    func transactionWillBegin() throws(StoreError) {
        // The database's foreign keys hold for Sift's writes (SQLite checks them only when a
        // connection asks; outside a transaction, where the setting can change).
        try execute("PRAGMA foreign_keys = ON")
    }

    func transactionBegan() throws(StoreError) {
        // Checked at save (``validateChanges()``), when every change of the transaction is made.
        try execute("PRAGMA defer_foreign_keys = ON")
        schema = foreign.schema
        model = schema.model
        columns = [:]
        nextKeys = [:]
        writes = ForeignWrites()
    }

    var hasChangedObjects: Bool { !writes.isEmpty }

    func transactionEnded(committed: Bool) {
        defer {
            writes = ForeignWrites()
            nextKeys = [:]
            columns = [:]
        }
        guard committed, !writes.isEmpty else { return }
        let effects = ForeignWriteEffects(writes, catalog: foreign.catalog, in: database)
        foreign.committed(rechosen: effects.rechosen, dropped: effects.dropped, in: database)
    }

    // MARK: Changes

    func insert(entity name: String, id: ObjectID?, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) -> ObjectID {
        guard let position = model.entityPosition(named: name) else {
            if let skipped = foreign.catalog.skippedTableError(name) { throw skipped }
            throw unknownEntity(name)
        }
        let columns = try prepare(position)
        let keyValue = columns.keySlot.flatMap { attributes[model.entities[position].attributes[$0].name] }
        let objectID = try insertedID(id, entity: position, keyValue: keyValue)
        insertedForeignKeys = try foreignKeyValues(relationships, of: position)
        defer {
            insertedForeignKeys = [:]
            pendingClears = []
        }
        var rows = self
        let inserted = try rows.insertObject(entity: name, id: objectID, attributes: attributes, relationships: relationships)
        try clearForeignKeys()
        return inserted
    }

    /// The foreign key column values of the to-one relationships `relationships` set on an
    /// object of the entity at `position`, for those whose destination is there. (The rules
    /// then find each relationship set already; one whose destination is not there is theirs
    /// to report.)
    private func foreignKeyValues(_ relationships: [String: [ObjectID]], of position: Int) throws(StoreError) -> [String: SQLiteValue] {
        var values: [String: SQLiteValue] = [:]
        let entity = model.entities[position]
        for (name, ids) in relationships where ids.count == 1 {
            guard case .relationship(let slot)? = entity.slot(of: name), let relationship = tables[position].relationships[slot],
                  let sql = relationship.destinationValue, let destination = parse(ids[0]),
                  model.isKind(model.entities[destination.entity].name, of: entity.relationships[slot].destination) else { continue }
            try query(sql, [.integer(destination.key)]) { statement in
                values[relationship.column] = statement.value(0)
                return false
            }
        }
        return values
    }

    func insert(entityPosition position: Int, id: ObjectID?, values: [SlotValue]) throws(StoreError) -> ObjectID {
        let columns = try prepare(position)
        let keyValue = columns.keySlot.flatMap { slot in values.last { $0.slot == slot }?.value }
        let objectID = try insertedID(id, entity: position, keyValue: keyValue)
        var rows = self
        return try rows.insertObject(entityPosition: position, id: objectID, values: values)
    }

    func update(_ id: ObjectID, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) {
        if let (position, key) = parse(id) {
            let columns = try prepare(position)
            let entity = model.entities[position]
            if let slot = columns.keySlot, let given = attributes[entity.attributes[slot].name] {
                var unchanged = false
                if case .int(let value)? = try? Self.converted(given, entity.attributes[slot], entity: entity, id: id) { unchanged = value == key }
                guard unchanged else {
                    throw StoreError(.invalidValue,
                                     "\(entity.name) '\(id)': \(entity.attributes[slot].name) is the row's key, which its object ID holds, and cannot change (insert a row with the new key and delete this one)",
                                     entity: entity.name, objectID: id, key: entity.attributes[slot].name)
                }
            }
        }
        defer { pendingClears = [] }
        var rows = self
        try rows.updateObject(id, attributes: attributes, relationships: relationships)
        try clearForeignKeys()
    }

    /// Deletes the rows: the database's ON DELETE actions apply to the rows that refer to them.
    func delete(_ ids: [ObjectID]) throws(StoreError) {
        var doomed: [Row] = []
        var seen: Set<Row> = []
        for id in ids {
            guard let row = try reference(to: id) else { throw unknownObject(id) }
            if seen.insert(row).inserted { doomed.append(row) }
        }
        try removeObjects(doomed.sorted())
    }

    /// Foreign keys broken by the transaction's changes (checked at the end of it): the first is
    /// reported.
    func validateChanges() throws(StoreError) {
        if let error = brokenForeignKey() { throw error }
    }

    // MARK: StoreObjects: reading

    func reference(to id: ObjectID) throws(StoreError) -> Row? {
        guard let (position, key) = parse(id) else { return nil }
        var found = false
        try query(tables[position].exists, [.integer(key)]) { _ in
            found = true
            return false
        }
        return found ? Row(entity: position, key: key) : nil
    }

    func entityPosition(of object: Row) -> Int { object.entity }

    func objectID(of object: Row) -> ObjectID { tables[object.entity].objectID(object.key) }

    func destinations(of object: Row, slot: Int) throws(StoreError) -> [Row] {
        guard let relationship = tables[object.entity].relationships[slot],
              let destination = model.entityPosition(named: model.entities[object.entity].relationships[slot].destination) else { return [] }
        var rows: [Row] = []
        try query(relationship.destinations, [.integer(object.key)]) { statement in
            rows.append(Row(entity: destination, key: statement.int64(0)))
            return true
        }
        return rows
    }

    // MARK: StoreObjects: changing

    /// Never asked: every insert names its ID (``insertedID(_:entity:keyValue:)``).
    func generatedID() throws(StoreError) -> ObjectID {
        throw StoreError(.invalidRequest, "an object of a database Sift did not create takes the ID of its row's key")
    }

    /// An ID names one table: the INSERT itself finds a row with its key there.
    func idIsFree(_ id: ObjectID, besidesWhereAdding entity: Int) -> Bool { true }

    func addObject(entity position: Int, id: ObjectID, attributes: [Value]) throws(StoreError) -> Row {
        let table = tables[position]
        guard let key = table.key(of: id) else { throw Self.notAnID(id, of: table, entity: model.entities[position]) }
        var columns = try prepare(position)
        var names: [String] = []
        var bindings: [SQLiteValue] = [.integer(key)]
        var values: [String: SQLiteValue] = [table.keyName: .integer(key)]
        for (slot, value) in attributes.enumerated() where slot != columns.keySlot {
            guard let column = columns.columns[slot] else { continue }
            // A column given no value takes its DEFAULT (or NULL).
            if case .null = value { continue }
            let stored = try encode(value, slot: slot, of: &columns, entity: position, id: id)
            names.append(column)
            bindings.append(stored)
            values[column] = stored
        }
        for (column, value) in insertedForeignKeys.sorted(by: { $0.key < $1.key }) {
            if let index = names.firstIndex(of: column) {
                bindings[index + 1] = value
            } else {
                names.append(column)
                bindings.append(value)
            }
            values[column] = value
        }
        self.columns[position] = columns
        try run(table.insert(names), bindings, .insert(entity: position, key: key, values: values))
        // (A key not looked up yet is looked up when needed: this one may not be the largest.)
        if let next = nextKeys[position] { nextKeys[position] = key == Int64.max ? key : Swift.max(next, key + 1) }
        writes.wrote(key, in: table.table)
        return Row(entity: position, key: key)
    }

    func setAttributes(_ values: [SlotValue], of object: Row) throws(StoreError) {
        let table = tables[object.entity]
        var columns = try prepare(object.entity)
        var names: [String] = []
        var bindings: [SQLiteValue] = []
        var written: [String: SQLiteValue] = [:]
        let id = table.objectID(object.key)
        // (The key column keeps its value: ``update(_:attributes:relationships:)`` refused another.)
        for value in values where value.slot != columns.keySlot {
            guard let column = columns.columns[value.slot] else { continue }
            let stored = try encode(value.value, slot: value.slot, of: &columns, entity: object.entity, id: id)
            names.append(column)
            bindings.append(stored)
            written[column] = stored
        }
        self.columns[object.entity] = columns
        guard !names.isEmpty else { return }
        try run(table.update(names), bindings + [.integer(object.key)], .update(entity: object.entity, key: object.key, values: written))
        writes.wrote(object.key, in: table.table)
    }

    func addDestination(_ destination: Row, to object: Row, slot: Int) throws(StoreError) {
        guard let relationship = tables[object.entity].relationships[slot] else { return }
        let changed = relationship.changesOwner ? object : destination
        try run(relationship.add, [.integer(object.key), .integer(destination.key)],
                .relationship(entity: changed.entity, key: changed.key, column: relationship.column))
        writes.wrote(changed.key, in: relationship.changedTable)
    }

    func removeDestination(_ destination: Row, from object: Row, slot: Int) {
        guard let relationship = tables[object.entity].relationships[slot] else { return }
        let changed = relationship.changesOwner ? object : destination
        pendingClears.append((relationship.remove, [.integer(object.key), .integer(destination.key)],
                              .relationship(entity: changed.entity, key: changed.key, column: relationship.column), relationship.changedTable, changed.key))
    }

    /// Runs the clears the change's rules asked for, in order.
    private func clearForeignKeys() throws(StoreError) {
        for clear in pendingClears {
            try run(clear.sql, clear.bindings, clear.write)
            writes.wrote(clear.key, in: clear.table)
        }
        pendingClears = []
    }

    /// Relationships of a database Sift did not create have no order of their own (a to-many
    /// is read in its rows' key order).
    func holdDestinations(_ destinations: [Row], of object: Row, slot: Int) {}

    func removeObjects(_ doomed: [Row]) throws(StoreError) {
        var byEntity: [Int: [Int64]] = [:]
        for row in doomed { byEntity[row.entity, default: []].append(row.key) }
        for (position, keys) in byEntity.sorted(by: { $0.key < $1.key }) {
            let table = tables[position]
            for chunk in RowKeyLists.chunks(keys) {
                let chunkKeys = chunk.bindings.compactMap { if case .integer(let key) = $0 { key } else { nil } }
                try run(table.delete(chunk.count), chunk.bindings.map(SQLiteValue.init), .delete(entity: position, keys: chunkKeys))
            }
            writes.deleted(from: table.table)
        }
    }

    // MARK: Rows and columns

    /// The entity and key an object ID names (`Artist/3`), if it names a table's row.
    func parse(_ id: ObjectID) -> (entity: Int, key: Int64)? {
        guard let slash = id.rawValue.lastIndex(of: "/") else { return nil }
        let prefix = String(id.rawValue[...slash])
        guard let position = entityByPrefix[prefix], let key = tables[position].key(of: id) else { return nil }
        return (position, key)
    }

    /// The ID of an object an insert makes: the one given (which must name a row of its table),
    /// else that of the key column's value when the insert gives one, else the next key's.
    private func insertedID(_ id: ObjectID?, entity position: Int, keyValue: Value?) throws(StoreError) -> ObjectID {
        let table = tables[position]
        let entity = model.entities[position]
        var key: Int64?
        if let keyValue, let slot = columns[position]?.keySlot,
           case .int(let given)? = try? Self.converted(keyValue, entity.attributes[slot], entity: entity, id: id ?? ObjectID(table.prefix)) {
            key = given
        }
        if let id {
            guard let idKey = table.key(of: id) else { throw Self.notAnID(id, of: table, entity: entity) }
            if let key, key != idKey, let slot = columns[position]?.keySlot {
                throw StoreError(.invalidValue, "\(entity.name) '\(id)': \(entity.attributes[slot].name) \(key) is not the key of the object's ID",
                                 entity: entity.name, objectID: id, key: entity.attributes[slot].name)
            }
            return id
        }
        if let key { return table.objectID(key) }
        return table.objectID(try nextKey(position))
    }

    private static func notAnID(_ id: ObjectID, of table: ForeignTableRows, entity: EntityDescription) -> StoreError {
        StoreError(.invalidValue, "\(entity.name): '\(id)' is not an object ID of \(entity.name); its objects' IDs are \(table.prefix)<key>, the row's \(table.keyName)",
                   entity: entity.name, objectID: id)
    }

    /// The key after the table's largest (and after the largest it ever had, for an
    /// AUTOINCREMENT table), as SQLite would choose it.
    private func nextKey(_ position: Int) throws(StoreError) -> Int64 {
        if let next = nextKeys[position] {
            guard next < Int64.max else { throw Self.noKeyLeft(tables[position]) }
            return next
        }
        let table = tables[position]
        var largest: Int64 = 0
        try query(table.largestKey, []) { statement in
            if !statement.isNull(0) { largest = statement.int64(0) }
            return false
        }
        if try scalarExists("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_sequence'") {
            try query("SELECT seq FROM sqlite_sequence WHERE name = ?1", [.text(table.table)]) { statement in
                largest = Swift.max(largest, statement.int64(0))
                return false
            }
        }
        guard largest < Int64.max else { throw Self.noKeyLeft(table) }
        nextKeys[position] = largest + 1
        return largest + 1
    }

    private static func noKeyLeft(_ table: ForeignTableRows) -> StoreError {
        StoreError(.database, "\(table.table) has no key left after \(Int64.max) for a new row; give the row a free key", entity: table.table)
    }

    /// The table's column types read (from a sample of its rows, once), and how its columns
    /// are written.
    private func prepare(_ position: Int) throws(StoreError) -> Columns {
        if let prepared = columns[position] { return prepared }
        let rows = tables[position]
        do {
            schema = try foreign.read([rows.table], in: database)
        } catch {
            throw SQLiteStore.storeError(error, file: file)
        }
        model = schema.model
        let entity = model.entities[position]
        guard let table = schema.table(for: entity.name), let declared = foreign.catalog.table(named: rows.table) else {
            throw StoreError(.unknownEntity, "\(entity.name) has no table", entity: entity.name)
        }
        var prepared = Columns(columns: [], forms: [], textDateForms: [], keySlot: nil)
        for (slot, attribute) in entity.attributes.enumerated() {
            let column = table.columns[attribute.name]
            prepared.columns.append(column)
            if let column, column == rows.keyName { prepared.keySlot = slot }
            let foreignColumn = column.flatMap { table.foreignColumns[$0] }
            let declaredType = declared.columns.first { $0.name == column }?.declaredType ?? ""
            prepared.forms.append(ForeignColumnForm.of(attribute, column: foreignColumn, declaredType: declaredType) {
                column.flatMap { self.newestValue(of: $0, in: rows) }
            })
            prepared.textDateForms.append(foreignColumn?.textDates?.form)
        }
        columns[position] = prepared
        return prepared
    }

    /// A value the column holds, of its newest rows (else of its oldest), if any.
    private func newestValue(of column: String, in table: ForeignTableRows) -> SQLiteValue? {
        for order in ["DESC", "ASC"] {
            let sql = "SELECT \(SQLIdentifier.quoted(column)) FROM (SELECT \(SQLIdentifier.quoted(column)) FROM \(SQLIdentifier.quoted(table.table)) ORDER BY \(table.key()) \(order) LIMIT \(ColumnTypeInference.sampleRows)) WHERE \(SQLIdentifier.quoted(column)) IS NOT NULL LIMIT 1"
            if let value = try? database.rows(sql).first?.first { return value }
        }
        return nil
    }

    /// A value (converted to its attribute's type) as its column holds it. A date written
    /// outside the column's one text date form ends that form: the column's comparisons read
    /// its dates through `sift_date` from then on.
    private func encode(_ value: Value, slot: Int, of columns: inout Columns, entity position: Int, id: ObjectID) throws(StoreError) -> SQLiteValue {
        let form = columns.forms[slot]
        let attribute = model.entities[position].attributes[slot]
        guard let stored = form.stored(value) else {
            throw StoreError(.invalidValue, "\(model.entities[position].name) '\(id)', \(attribute.name): \(value) is beyond the years 0000 to 9999 that the column's text dates can hold",
                             entity: model.entities[position].name, objectID: id, key: attribute.name)
        }
        if let textDateForm = columns.textDateForms[slot], let column = columns.columns[slot], form.breaksTextDateForm(textDateForm, writing: value) {
            foreign.forgetTextDateForm(of: column, in: tables[position].table)
            columns.textDateForms[slot] = nil
        }
        return stored
    }

    // MARK: Statements

    /// Runs a change; a failure is the store's error, naming what the change was doing.
    private func run(_ sql: String, _ bindings: [SQLiteValue], _ write: ForeignWrite) throws(StoreError) {
        do {
            let statement = try database.cachedStatement(sql)
            try statement.bind(bindings)
            defer { statement.reset() }
            while try statement.step() {}
        } catch {
            throw failure(error, write)
        }
    }

    /// Runs a query, handing `body` its rows until it returns false.
    func query(_ sql: String, _ bindings: [SQLiteValue], _ body: (SQLiteStatement) throws(StoreError) -> Bool) throws(StoreError) {
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

    private func scalarExists(_ sql: String) throws(StoreError) -> Bool {
        var found = false
        try query(sql, []) { _ in
            found = true
            return false
        }
        return found
    }

    private func execute(_ sql: String) throws(StoreError) {
        do { try database.execute(sql) } catch { throw SQLiteStore.storeError(error, file: file) }
    }
}

/// What a statement of a change to a database Sift did not create was doing, for its error.
enum ForeignWrite {
    /// Inserting the row of entity `entity` with `key` and these values, by column.
    case insert(entity: Int, key: Int64, values: [String: SQLiteValue])
    /// Setting these columns of a row.
    case update(entity: Int, key: Int64, values: [String: SQLiteValue])
    /// Setting or clearing a row's foreign key column (a relationship).
    case relationship(entity: Int, key: Int64, column: String)
    /// Deleting rows.
    case delete(entity: Int, keys: [Int64])
}

/// What a write transaction changed in a database Sift did not create, by table: the keys of
/// the rows it inserted or updated (as ranges, bounded), and the tables it deleted from.
struct ForeignWrites {
    /// By table: the keys of rows written, as sorted, disjoint ranges (nil: too many to list).
    private(set) var rows: [String: [ClosedRange<Int64>]?] = [:]
    private(set) var deletedFrom: Set<String> = []

    /// The most ranges kept for a table; beyond, its types are chosen from the whole table.
    static let rangeLimit = 10_000

    var isEmpty: Bool { rows.isEmpty && deletedFrom.isEmpty }

    mutating func wrote(_ key: Int64, in table: String) {
        guard let existing = rows[table] else {
            rows[table] = [key...key]
            return
        }
        guard var ranges = existing else { return }
        // Appending the next key (an import) extends the last range.
        if let last = ranges.last {
            if last.contains(key) { return }
            if last.upperBound < Int64.max, key == last.upperBound + 1 {
                ranges[ranges.count - 1] = last.lowerBound...key
                rows[table] = ranges
                return
            }
        }
        ranges.append(key...key)
        if ranges.count > Self.rangeLimit {
            // Merged once the list is long; still long, and the table is read whole.
            ranges = Self.merged(ranges)
            if ranges.count > Self.rangeLimit / 2 {
                rows[table] = .some(nil)
                return
            }
        }
        rows[table] = ranges
    }

    mutating func deleted(from table: String) { deletedFrom.insert(table) }

    /// Sorted, with overlapping and adjacent ranges joined.
    static func merged(_ ranges: [ClosedRange<Int64>]) -> [ClosedRange<Int64>] {
        var result: [ClosedRange<Int64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound || (last.upperBound < Int64.max && range.lowerBound == last.upperBound + 1) {
                result[result.count - 1] = last.lowerBound...Swift.max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// The condition selecting a table's written rows by `key` (integers inline): `"id" BETWEEN
    /// 1 AND 50 OR "id" IN (70, 90)`; `"1"` (every row) when there were too many to list; nil
    /// when the transaction wrote none of its rows.
    func filter(of table: String, key: String) -> String? {
        guard let listed = rows[table] else { return nil }
        guard let ranges = listed else { return "1" }
        let merged = Self.merged(ranges)
        var terms = merged.filter { $0.lowerBound != $0.upperBound }.map { "\(key) BETWEEN \($0.lowerBound) AND \($0.upperBound)" }
        let single = merged.filter { $0.lowerBound == $0.upperBound }.map { String($0.lowerBound) }
        if !single.isEmpty { terms.append("\(key) IN (\(single.joined(separator: ", ")))") }
        return terms.joined(separator: " OR ")
    }
}
