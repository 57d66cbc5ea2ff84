import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftStore

/// The columns a query selects for whole objects of one table of a PostgreSQL store, and how a
/// row becomes a ``ManagedObject``: the core's ``SQLRowDecoder`` (key, ID and entity — in a Sift
/// store; a table read from the catalog has its key only, its IDs `<Table>/<key>` and one entity
/// — then each attribute column of the hierarchy; a row decodes only its own entity's columns,
/// by their attribute types) over a result's row. Worked out once per fetch; every object of an
/// entity shares one ``ObjectShape``.
struct PostgreSQLRowLayout: Sendable {
    /// The selected columns, qualified by `alias`.
    let columns: [String]
    /// How a row becomes an object.
    let decoder: SQLRowDecoder

    /// The table's root entity's place.
    var table: EntityTable { decoder.table }

    /// The layout of `table`'s rows in a query where it is `alias`: the columns the SQL stores'
    /// ``SQLRowLayoutPlan`` selects (the entity column whenever the table has one), each
    /// attribute read in the form its column type needs (``PostgreSQLForeignColumnType``).
    init(table: EntityTable, schema: SQLSchema, alias: String, store: PostgreSQLStore) {
        // (Core Data's layout, whose IDs name each row's entity, is SQLite's only.)
        assert(!{ if case .entityAndKey = table.objectID { true } else { false } }(), "a PostgreSQL table in Core Data's layout")
        let plan = SQLRowLayoutPlan(table: table, schema: schema, readsEntityColumn: { _ in true })
        let columnTypes = store.dialect.columnTypes
        columns = plan.columns.map { column in
            switch column {
            case .key(let name), .id(let name), .entity(let name), .toOne(let name): "\(q(alias)).\(q(name))"
            case .attribute(let entityTable, let name):
                PostgreSQLForeignColumnType.selected("\(q(alias)).\(q(name))", columnType: columnTypes[entityTable.table]?[name])
            }
        }
        decoder = SQLRowDecoder(plan: plan, decodingType: { $0 }, store: store)
    }

    /// The key and ID of a row (nothing else is decoded).
    func keyAndID(_ row: PostgreSQLRow) -> (key: Int64, id: ObjectID) {
        decoder.keyAndID(PostgreSQLRowReader(row: row))
    }

    /// The object a row holds.
    func object(_ row: PostgreSQLRow) throws(StoreError) -> ManagedObject {
        var values: [Value] = []
        values.reserveCapacity(decoder.widestRow)
        let decoded = decoder.decode(PostgreSQLRowReader(row: row), appendingTo: &values)
        return try decodedObject(decoded, values: values[...])
    }

    /// The object of a decoded row whose values are `values`; a row naming an entity the model
    /// does not have is a corrupt store.
    func decodedObject(_ row: SQLDecodedRow, values: ArraySlice<Value>) throws(StoreError) -> ManagedObject {
        guard row.entity.isKnown, let shape = row.entity.shape else {
            throw StoreError(.corruptStore, "row \(row.key) of \(table.table) names entity '\(row.entity.entity)', which the model does not have")
        }
        return ManagedObject(objectID: row.id, shape: shape, values: values, storageKey: row.key)
    }
}

/// A row of a PostgreSQL result, as the SQL store core reads it, each value through
/// `PostgreSQLValue` and ``PostgreSQLColumnCodec``.
struct PostgreSQLRowReader: SQLRowReading {
    let row: PostgreSQLRow

    func isNull(_ column: Int) -> Bool { if case .null = row[column] { true } else { false } }
    func int64(_ column: Int) -> Int64 { row[column].int64Value ?? 0 }
    func text(_ column: Int) -> String { row[column].stringValue ?? "" }
    func text(_ column: Int, equals utf8: [UInt8]) -> Bool { row[column].stringValue.map { $0.utf8.elementsEqual(utf8) } ?? false }
    func value(_ column: Int, as type: AttributeType?) -> Value { PostgreSQLColumnCodec.decode(row[column], as: type) }
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
        var decoded: [SQLDecodedRow] = []
        decoded.reserveCapacity(rows.count)
        var values: [Value] = []
        values.reserveCapacity(rows.count &* Swift.max(1, decoder.widestRow))
        forEachRow(result, rows: rows) { row in
            // (The entity: nearly always the previous row's, told by its bytes.)
            decoded.append(decoder.decode(row, previous: decoded.last?.entity, appendingTo: &values))
        }
        return try objects(decoded, values: values)
    }

    /// Calls `body` with each row `rows` of `result` (rows of ``columns``), each column's
    /// decoding chosen once, by its type in the result and the attribute it holds.
    func forEachRow<E: Error>(_ result: PostgreSQLResult, rows: Range<Int>, _ body: (BatchRow) throws(E) -> Void) throws(E) {
        guard !rows.isEmpty else { return }
        let decodings = columnDecodings(result)
        try withExtendedLifetime(result) { () throws(E) in
            for row in rows { try body(BatchRow(result: result, row: row, decodings: decodings)) }
        }
    }

    /// How each column of `result` (rows of ``columns``) decodes: by its type in the result and
    /// the attribute it holds.
    func columnDecodings(_ result: PostgreSQLResult) -> [ColumnDecoding] {
        var attributeTypes = [AttributeType?](repeating: nil, count: columns.count)
        for entity in decoder.entities.values {
            for column in entity.columns where column.index < attributeTypes.count { attributeTypes[column.index] = column.type }
        }
        return attributeTypes.indices.map { ColumnDecoding(result.columnType($0), binary: result.isBinary($0), attribute: attributeTypes[$0]) }
    }

    /// The objects of rows decoded into one buffer (each object's values a slice of it).
    func objects(_ rows: [SQLDecodedRow], values: [Value]) throws(StoreError) -> [ManagedObject] {
        var objects: [ManagedObject] = []
        objects.reserveCapacity(rows.count)
        for row in rows { objects.append(try decodedObject(row, values: values[row.values])) }
        return objects
    }

    /// A row of a result whose columns' decodings are chosen (``ColumnDecoding``).
    struct BatchRow: SQLRowReading {
        let result: PostgreSQLResult
        let row: Int
        let decodings: [ColumnDecoding]

        @inline(__always)
        func isNull(_ column: Int) -> Bool { result.valueBytes(row: row, column: column) == nil }

        @inline(__always)
        func int64(_ column: Int) -> Int64 {
            if case .int(let stored) = PostgreSQLRowLayout.value(result, row: row, column: column, decoding: decodings[column], type: nil) { return stored }
            return 0
        }

        @inline(__always)
        func text(_ column: Int) -> String {
            if case .string(let text) = PostgreSQLRowLayout.value(result, row: row, column: column, decoding: decodings[column], type: nil) { return text }
            return ""
        }

        @inline(__always)
        func text(_ column: Int, equals utf8: [UInt8]) -> Bool {
            guard decodings[column] == .text else { return text(column).utf8.elementsEqual(utf8) }
            return result.valueBytes(row: row, column: column).map { $0.elementsEqual(utf8) } ?? false
        }

        @inline(__always)
        func value(_ column: Int, as type: AttributeType?) -> Value {
            PostgreSQLRowLayout.value(result, row: row, column: column, decoding: decodings[column], type: type)
        }
    }

    /// One value of a result.
    @inline(__always)
    fileprivate static func value(_ result: PostgreSQLResult, row: Int, column: Int, decoding: ColumnDecoding, type: AttributeType?) -> Value {
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
