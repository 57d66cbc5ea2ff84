import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftSQLStore
import SiftStore

/// The columns a query selects for whole objects of one table of a PostgreSQL store, and how a
/// row becomes a ``ManagedObject``: key, ID and entity (in a Sift store; a table read from the
/// catalog has its key only, its IDs `<Table>/<key>` and one entity), then each attribute column
/// of the hierarchy; a row decodes only its own entity's columns, by their attribute types.
/// Worked out once per fetch; every object of an entity shares one ``ObjectShape``.
struct PostgreSQLRowLayout: Sendable {
    /// The table's root entity's place.
    let table: EntityTable
    /// The selected columns, qualified by `alias`.
    let columns: [String]
    /// How each entity's rows decode, by entity name.
    let entities: [String: EntityColumns]
    /// The ID column's index, when IDs are a column's (else `<prefix><key>`, ``idPrefix``).
    let idIndex: Int?
    let idPrefix: String
    /// The entity column's index, when the table has one (else every row is the table's entity).
    let entityIndex: Int?

    /// One entity's attribute columns (indexes in the row, types) and the shape its objects share.
    struct EntityColumns: Sendable {
        let columns: [(index: Int, type: AttributeType)]
        let shape: ObjectShape
    }

    /// The layout of `table`'s rows in a query where it is `alias`: the columns the SQL stores'
    /// ``SQLRowLayoutPlan`` selects (the entity column whenever the table has one), each
    /// attribute read in the form its column type needs (``PostgreSQLForeignColumnType``).
    init(table: EntityTable, schema: SQLSchema, alias: String, store: PostgreSQLStore) {
        self.table = table
        switch table.objectID {
        case .column:
            idPrefix = ""
        case .primaryKey(let prefix), .entityAndKey(let prefix):
            // (Core Data's layout, whose IDs name each row's entity, is SQLite's only.)
            assert(!{ if case .entityAndKey = table.objectID { true } else { false } }(), "a PostgreSQL table in Core Data's layout")
            idPrefix = prefix
        }
        let plan = SQLRowLayoutPlan(table: table, schema: schema, readsEntityColumn: { _ in true })
        let columnTypes = store.dialect.columnTypes
        columns = plan.columns.map { column in
            switch column {
            case .key(let name), .id(let name), .entity(let name): "\(q(alias)).\(q(name))"
            case .attribute(let entityTable, let name):
                PostgreSQLForeignColumnType.selected("\(q(alias)).\(q(name))", columnType: columnTypes[entityTable.table]?[name])
            }
        }
        idIndex = plan.idIndex
        entityIndex = plan.entityIndex
        entities = plan.entities.mapValues { entity in
            let shape = ObjectShape(entityName: entity.name, names: AttributeNames(entity.names), storage: SQLObjectStorage(store: store, entity: entity.name))
            return EntityColumns(columns: zip(entity.columns, entity.types).map { (index: $0, type: $1) }, shape: shape)
        }
    }

    /// The key and ID of a row (nothing else is decoded).
    func keyAndID(_ row: PostgreSQLRow) -> (key: Int64, id: ObjectID) {
        let key = row[0].int64Value ?? 0
        return (key, id(key: key, stored: idIndex.map { row[$0].stringValue ?? "" }))
    }

    /// The ID of the row with `key`: the ID column's text `stored`, or `<prefix><key>`.
    func id(key: Int64, stored: String?) -> ObjectID {
        ObjectID(stored ?? idPrefix + String(key))
    }

    /// The object a row holds.
    func object(_ row: PostgreSQLRow) throws(StoreError) -> ManagedObject {
        let (key, id) = keyAndID(row)
        let name = entityIndex.map { row[$0].stringValue ?? "" } ?? table.entity.name
        guard let entity = entities[name] else {
            throw StoreError(.corruptStore, "row \(key) of \(table.table) names entity '\(name)', which the model does not have")
        }
        var values: [Value] = []
        values.reserveCapacity(entity.columns.count)
        for column in entity.columns { values.append(PostgreSQLColumnCodec.decode(row[column.index], as: column.type)) }
        return ManagedObject(objectID: id, shape: entity.shape, values: values[...], storageKey: key)
    }
}

// MARK: Whole batches

extension PostgreSQLRowLayout {
    /// How one column of a result becomes a `Value`: straight from its bytes for the binary forms
    /// of the column types the store makes (and the attribute types they hold), else through
    /// `PostgreSQLValue` and ``PostgreSQLColumnCodec``, as ``object(_:)`` reads every column. Both
    /// give the same value.
    enum ColumnDecoding: Equatable {
        case int8, int4, int2, float8, text, bool, general

        init(_ type: PostgreSQLTypeOID, binary: Bool, attribute: AttributeType?) {
            guard binary else { self = .general; return }
            let integer = attribute == nil || attribute == .integer16 || attribute == .integer32 || attribute == .integer64
            switch type {
            case .int8 where integer: self = .int8
            case .int4 where integer: self = .int4
            case .int2 where integer: self = .int2
            case .float8 where attribute == .double || attribute == .float: self = .float8
            case .text, .varchar: self = .text
            case .bool where attribute == .boolean: self = .bool
            default: self = .general
            }
        }
    }

    /// The objects of rows `rows` of `result` (rows of ``columns``), in order, as ``object(_:)``
    /// makes them, their values decoded into one buffer the batch's objects share (one
    /// allocation per batch rather than one per object), each column's decoding chosen once.
    func objects(_ result: PostgreSQLResult, rows: Range<Int>) throws(StoreError) -> [ManagedObject] {
        guard !rows.isEmpty else { return [] }
        // Every column's decoding, by its type in this result and the attribute it holds.
        var attributeTypes = [AttributeType?](repeating: nil, count: columns.count)
        for entity in entities.values {
            for column in entity.columns where column.index < attributeTypes.count { attributeTypes[column.index] = column.type }
        }
        let decodings = attributeTypes.indices.map { ColumnDecoding(result.columnType($0), binary: result.isBinary($0), attribute: attributeTypes[$0]) }
        var heads: [(key: Int64, id: ObjectID, entity: EntityColumns, values: Range<Int>)] = []
        heads.reserveCapacity(rows.count)
        var values: [Value] = []
        let heading = 1 + (idIndex == nil ? 0 : 1) + (entityIndex == nil ? 0 : 1)  // key, ID, entity
        values.reserveCapacity(rows.count &* Swift.max(1, columns.count - heading))
        var lastEntity: (bytes: [UInt8], columns: EntityColumns)?
        try withExtendedLifetime(result) { () throws(StoreError) in
            for row in rows {
                var key: Int64 = 0
                if case .int(let stored) = Self.value(result, row: row, column: 0, decoding: decodings[0], type: nil) { key = stored }
                var stored: String?
                if let idIndex {
                    if case .string(let text) = Self.value(result, row: row, column: idIndex, decoding: decodings[idIndex], type: nil) {
                        stored = text
                    } else {
                        stored = ""
                    }
                }
                let id = self.id(key: key, stored: stored)
                // The entity: the table's only one, or nearly always the previous row's, told by
                // its bytes.
                let entity: EntityColumns
                if entityIndex == nil, let only = entities[table.entity.name] {
                    entity = only
                } else if let entityIndex, let lastEntity, decodings[entityIndex] == .text,
                          (result.valueBytes(row: row, column: entityIndex) ?? UnsafeRawBufferPointer(start: nil, count: 0)).elementsEqual(lastEntity.bytes) {
                    entity = lastEntity.columns
                } else {
                    let name = entityIndex.map { result[row][$0].stringValue ?? "" } ?? table.entity.name
                    guard let found = entities[name] else {
                        throw StoreError(.corruptStore, "row \(key) of \(table.table) names entity '\(name)', which the model does not have")
                    }
                    entity = found
                    lastEntity = (Array(name.utf8), found)
                }
                let start = values.count
                for column in entity.columns {
                    values.append(Self.value(result, row: row, column: column.index, decoding: decodings[column.index], type: column.type))
                }
                heads.append((key, id, entity, start..<values.count))
            }
        }
        return heads.map { ManagedObject(objectID: $0.id, shape: $0.entity.shape, values: values[$0.values], storageKey: $0.key) }
    }

    /// One value of a result.
    @inline(__always)
    private static func value(_ result: PostgreSQLResult, row: Int, column: Int, decoding: ColumnDecoding, type: AttributeType?) -> Value {
        guard decoding != .general else { return PostgreSQLColumnCodec.decode(result[row][column], as: type) }
        guard let bytes = result.valueBytes(row: row, column: column) else { return .null }
        switch decoding {
        case .int8 where bytes.count == 8:
            return .int(Int64(bigEndian: bytes.loadUnaligned(as: Int64.self)))
        case .int4 where bytes.count == 4:
            return .int(Int64(Int32(bigEndian: bytes.loadUnaligned(as: Int32.self))))
        case .int2 where bytes.count == 2:
            return .int(Int64(Int16(bigEndian: bytes.loadUnaligned(as: Int16.self))))
        case .float8 where bytes.count == 8:
            return .double(Double(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))))
        case .text:
            return .string(String(decoding: bytes, as: UTF8.self))
        case .bool where bytes.count == 1:
            return .bool(bytes[0] != 0)
        default:
            // A length that does not fit the type: as the general decoder reads it.
            return PostgreSQLColumnCodec.decode(result[row][column], as: type)
        }
    }
}
