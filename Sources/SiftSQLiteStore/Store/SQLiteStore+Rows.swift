import SiftEvaluation
import SiftLanguage
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftSQLite
import SiftStore

extension SQLiteStore {
    /// Calls `body` with each object ``fetch(_:)`` would return for `request`, in the same
    /// order and with the same attribute values, as a row read in place: no object is made,
    /// and a value is decoded from SQLite only when `body` reads it.
    ///
    /// ```swift
    /// let price = RowAttribute("price")  // or RowAttribute("price", of: itemEntity)
    /// var total = 0.0
    /// try store.forEachRow(FetchRequest(statement: "Item WHERE price >= 50")) { row in
    ///     if case .double(let value)? = row[attribute: price] { total += value }
    /// }
    /// ```
    ///
    /// For large results read once, this costs a fraction of ``fetch(_:)``: a fetch makes a
    /// ``ManagedObject`` per row, a row is a view of the statement. What a row offers is an
    /// object's ID, entity and attributes (by name, or by a ``RowAttribute`` named once);
    /// relationships are not read, so `relationshipKeyPathsForPrefetching`,
    /// `relationshipCountsForPrefetching`, `fetchBatchSize` and `resultType` do not apply.
    /// The predicate, sort descriptors, `fetchOffset` and `fetchLimit` apply exactly as in a
    /// fetch, and the request is checked as a fetch checks it (same errors).
    ///
    /// When part of the request runs in memory (a predicate or sort SQL cannot express), the
    /// matching rows' keys are found first, as for a fetch, and the rows are then read by key,
    /// a thousand at a time: the same rows, without the saving.
    ///
    /// A row cannot be copied or kept: it is valid only during the call to `body` that
    /// receives it (copy the values you need). The store is locked while the rows are read:
    /// `body` may use the store on the same thread, and other threads wait until the call
    /// returns.
    ///
    /// - Throws: The request's errors, as ``fetch(_:)`` throws them; a SQLite error while
    ///   reading (``StoreError/interrupted`` after ``interrupt()``); or the error `body` threw,
    ///   which ends the reading.
    public func forEachRow(_ request: FetchRequest, _ body: (borrowing FetchedRow) throws -> Void) throws {
        lock.lock(); defer { lock.unlock() }
        let executor: SQLFetchExecutor
        let plan: FetchSQL
        do {
            executor = try SQLFetchExecutor(store: self, reading: request)
            plan = try executor.plan(request)
        } catch {
            throw translated(error)
        }
        let layout = RowLayout(table: plan.table, schema: executor.schema, alias: plan.alias, store: self)
        guard plan.pagesInSQL else { return try forEachRowByKey(plan, layout: layout, body) }
        let (sql, bindings) = plan.select(layout.expressions)
        let statement: SQLiteStatement
        do {
            statement = try database.prepare(sql)
            try statement.bind(sqlValues: bindings)
        } catch {
            throw translated(error)
        }
        let reader = FetchedRow.Reader(statement: statement, layout: layout)
        // A table of one entity: every row has the same columns (worked out once).
        let onlyEntity = layout.decoder.entityIndex == nil ? layout.entityColumns(statement) : nil
        var previous: SQLRowDecoder.Entity?
        try withExtendedLifetime(reader) {
            while true {
                let hasRow: Bool
                do {
                    hasRow = try statement.step()
                } catch {
                    throw translated(error)
                }
                guard hasRow else { return }
                if let onlyEntity {
                    try body(FetchedRow(reader: reader, entity: onlyEntity))
                } else {
                    let entity = layout.entityColumns(statement, previous: previous)
                    previous = entity
                    try withExtendedLifetime(entity) { try body(FetchedRow(reader: reader, entity: entity)) }
                }
            }
        }
    }

    /// `forEachRow` when part of the request runs in memory: the matching keys as a fetch
    /// finds them, then their objects read by key, `batch` at a time.
    private func forEachRowByKey(_ plan: FetchSQL, layout: RowLayout, batch: Int = 1_000,
                                 _ body: (borrowing FetchedRow) throws -> Void) throws {
        let keys: [(key: Int64, id: ObjectID)]
        do {
            keys = try SQLFetchExecutor(store: self).matchingKeys(SQLiteFetchPlan(sql: plan, layout: layout))
        } catch {
            throw translated(error)
        }
        let list = SQLiteKeyListSource(store: self, keys: keys, layout: layout)
        var start = keys.startIndex
        while start < keys.endIndex {
            let end = Swift.min(keys.endIndex, start + batch)
            let objects = try list.objects(keys[start..<end], keepingGone: true)
            for object in objects {
                try withExtendedLifetime(object) { try body(FetchedRow(object: object)) }
            }
            start = end
        }
    }
}

/// One result row of `SQLiteStore.forEachRow(_:_:)`: what the fetch's object would be, read in
/// place. Its values are those of the object ``SQLiteStore/fetch(_:)`` returns for the same
/// row (`row[attribute: name]` is `object[attribute: name]`).
///
/// A row cannot be copied, so it cannot outlive the call to the closure that receives it.
public struct FetchedRow: ~Copyable {
    // Unmanaged, read as guaranteed references: `forEachRow` keeps them alive while the row
    // is (and the row cannot outlive its closure call), so reading a value counts no
    // references.
    /// The statement on the row and how to read it (rows of a statement).
    private let reader: Unmanaged<Reader>?
    /// The row's entity's columns (rows of a statement).
    private let entity: Unmanaged<SQLRowDecoder.Entity>?
    /// The object read by key (rows of a request partly run in memory).
    private let object: Unmanaged<ManagedObject>?

    /// A statement being read and the layout of its rows.
    final class Reader {
        let statement: SQLiteStatement
        let layout: RowLayout
        init(statement: SQLiteStatement, layout: RowLayout) {
            self.statement = statement
            self.layout = layout
        }
    }

    /// The statement's current row, of `entity`. (`forEachRow` keeps both alive while the row is.)
    init(reader: Reader, entity: SQLRowDecoder.Entity) {
        self.reader = Unmanaged.passUnretained(reader)
        self.entity = Unmanaged.passUnretained(entity)
        self.object = nil
    }

    /// A row that is an object read by key. (`forEachRow` keeps it alive while the row is.)
    init(object: ManagedObject) {
        self.reader = nil
        self.entity = nil
        self.object = Unmanaged.passUnretained(object)
    }

    /// The row's object's ID.
    public var objectID: ObjectID {
        if let reader { return reader._withUnsafeGuaranteedRef { $0.layout.id($0.statement) } }
        return object?._withUnsafeGuaranteedRef { $0.objectID } ?? ObjectID("")
    }

    /// The name of the row's entity.
    public var entityName: String {
        if let entity { return entity._withUnsafeGuaranteedRef { $0.entity } }
        return object?._withUnsafeGuaranteedRef { $0.entityName } ?? ""
    }

    /// The row's attribute names, in the entity's order.
    public var attributeNames: [String] {
        if let entity { return entity._withUnsafeGuaranteedRef { $0.names.names } }
        return object?._withUnsafeGuaranteedRef { $0.attributeSlots.names.names } ?? []
    }

    /// An attribute's value, or nil for a name that is not an attribute of the row's entity.
    public subscript(attribute name: String) -> Value? {
        if let reader, let entity {
            return entity._withUnsafeGuaranteedRef { entity in
                guard let position = entity.names.position(of: name) else { return nil }
                let column = entity.columns[position]
                return reader._withUnsafeGuaranteedRef { $0.value(column) }
            }
        }
        return object?._withUnsafeGuaranteedRef { $0[attribute: name] }
    }

    /// An attribute's value, or nil when it is not an attribute of the row's entity: the value
    /// `row[attribute: attribute.name]` reads, found with less work.
    public subscript(attribute attribute: RowAttribute) -> Value? {
        if let reader, let entity {
            return entity._withUnsafeGuaranteedRef { entity in
                guard let position = entity.position(of: attribute) else { return nil }
                let column = entity.columns[position]
                return reader._withUnsafeGuaranteedRef { $0.value(column) }
            }
        }
        return object?._withUnsafeGuaranteedRef { $0[attribute: attribute.name] }
    }

    /// Every attribute's value by name, in the entity's attribute order (as an object's
    /// `attributeValues`).
    public var attributeValues: ValueDictionary {
        if let reader, let entity {
            return entity._withUnsafeGuaranteedRef { entity in
                reader._withUnsafeGuaranteedRef { reader in
                    ValueDictionary(distinctKeys: entity.names.names, values: entity.columns.map(reader.value))
                }
            }
        }
        return object?._withUnsafeGuaranteedRef { $0.attributeValues } ?? ValueDictionary(distinctKeys: [], values: [])
    }
}

extension FetchedRow.Reader {
    /// A column of the current row, decoded as a fetch decodes it.
    @inline(__always)
    func value(_ column: (index: Int, type: AttributeType?)) -> Value {
        ColumnCodec.decode(statement, column: Int32(truncatingIfNeeded: column.index), as: column.type)
    }
}

/// An attribute named once, to read from many rows of `SQLiteStore.forEachRow(_:_:)`:
/// `row[attribute: handle]` reads the value `row[attribute: handle.name]` reads, with less
/// work per row.
///
/// Made for an entity, the handle knows where the attribute is among that entity's
/// attributes, and finding it in a row of the entity is one comparison (in a row of another
/// entity, it is looked up by name, with the same answer). Made from a name alone, it is
/// searched for in each row without hashing or comparing the name's characters when the
/// name is short (15 bytes of UTF-8 or fewer).
public struct RowAttribute: Hashable, Sendable {
    /// The attribute's name.
    public let name: String
    /// The name's representation (two words), for comparing without reading characters.
    let bits: PreparedKey.Bits?
    /// Where the attribute is expected among a row's attributes (-1: unknown).
    let hint: Int

    /// The attribute `name`, found in each row by its name.
    public init(_ name: String) {
        self.init(name, hint: -1)
    }

    /// The attribute `name` of `entity`: where it is in the rows of `entity` is known in
    /// advance. (Rows of other entities, and names that are not attributes of `entity`, are
    /// looked up by name.)
    public init(_ name: String, of entity: EntityDescription) {
        self.init(name, hint: entity.attributes.firstIndex { $0.name == name } ?? -1)
    }

    private init(_ name: String, hint: Int) {
        self.name = name
        self.bits = PreparedKey.bits(of: name)
        self.hint = hint
    }

    public static func == (a: RowAttribute, b: RowAttribute) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension SQLiteStore: RowMadeToOneStore {
    public func makesDestinationIDFromRow(_ relationship: String, of entity: String) -> Bool {
        SQLRowLayoutPlan.rowMakesDestinationID(relationship, of: entity, schema: schema)
    }
}
