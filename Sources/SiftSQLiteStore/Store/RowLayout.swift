import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

/// The columns a query selects for whole objects of one table, and how a row becomes an
/// object: key, ID, entity, and each attribute of the row's entity decoded by its type (only
/// the row's entity's columns are decoded).
///
/// Everything that does not depend on the row is worked out once here: which columns belong
/// to which entity, how each decodes, and the attribute names, which every object of an entity
/// shares. Decoding a row then reads its columns and nothing else.
struct RowLayout: Sendable {
    let table: EntityTable
    /// Selected column expressions, for `alias`.
    let expressions: [SQLExpression]
    /// ``expressions`` as SQLite text.
    let columns: [String]
    /// How rows of each entity of the table decode (by entity name).
    let entities: [String: EntityColumns]
    /// The `_entity` column's index, when the table holds more than one entity.
    let entityColumnIndex: Int32?
    /// How rows of each entity decode, by the number the entity column holds, where it holds
    /// numbers (Core Data's `Z_ENT`); empty where it holds names.
    private let entitiesByNumber: [Int64: EntityColumns]
    let idColumnIndex: Int32?
    /// The entity every row is, when the table holds only one.
    private let onlyEntity: EntityColumns?
    /// The widest row's number of attribute values, to reserve a batch's buffer.
    let widestRow: Int

    /// The columns of one entity's attributes: names (shared by every object), indexes in
    /// the row, and the types they decode as; and the storage its objects share.
    final class EntityColumns: @unchecked Sendable {
        let entity: String
        let storage: SQLObjectStorage?
        /// What an object ID of the entity begins with, where IDs name the row's entity
        /// (``EntityTable/ObjectIDSource/entityAndKey(prefix:)``).
        let idPrefix: String?
        let names: AttributeNames
        let columns: [(index: Int32, type: AttributeType?)]
        /// What the entity's objects share (with `storage`), when the layout has a store.
        let shape: ObjectShape?

        init(entity: String, storage: SQLObjectStorage?, idPrefix: String? = nil, names: [String], columns: [Int32], types: [AttributeType?]) {
            self.entity = entity
            self.storage = storage
            self.idPrefix = idPrefix
            let names = AttributeNames(names)
            self.names = names
            self.columns = Array(zip(columns, types))
            self.shape = storage.map { ObjectShape(entityName: entity, names: names, storage: $0) }
        }

        /// Where `attribute` is among the entity's attribute names: at its hint when the
        /// representations there are the same (one comparison), else searched for.
        @inline(__always)
        func position(of attribute: RowAttribute) -> Int? {
            names.position(of: attribute.name, bits: attribute.bits, hint: attribute.hint)
        }
    }

    /// The layout of `table`'s rows in a query where it is `alias` (the columns the SQL stores'
    /// ``SQLRowLayoutPlan`` selects, the entity column only for a table of more than one entity);
    /// objects decoded with it share one storage per entity of `store`.
    init(table: EntityTable, schema: SQLSchema, alias: String, store: SQLiteStore? = nil) {
        self.table = table
        let plan = SQLRowLayoutPlan(table: table, schema: schema, readsEntityColumn: { $0.hierarchyEntityNames.count > 1 })
        let columns: [SQLExpression] = plan.columns.map { column in
            switch column {
            case .key(let name), .id(let name), .entity(let name): .column(alias, name)
            case .attribute(let entityTable, let name): entityTable.value(column: name, alias: alias)
            }
        }
        var entities: [String: EntityColumns] = [:]
        for (name, entity) in plan.entities {
            // An introspected column holds whatever was stored; only Date, Boolean and
            // Decimal are converted (seconds since 2001, 0/1, a number's decimal),
            // everything else reads as stored.
            entities[name] = EntityColumns(entity: name, storage: store.map { SQLObjectStorage(store: $0, entity: name) }, idPrefix: entity.idPrefix,
                                           names: entity.names, columns: entity.columns.map { Int32($0) }, types: entity.types.map(schema.decodingType))
        }
        var entitiesByNumber: [Int64: EntityColumns] = [:]
        for (number, name) in plan.entityNumbers { entitiesByNumber[number] = entities[name] }
        self.entitiesByNumber = entitiesByNumber
        self.expressions = columns
        // (Identifiers and compiler literals only: no parameters to number.)
        self.columns = columns.map { SQLRenderer(SQLiteDialect()).render($0) }
        self.entities = entities
        let entityIndex = plan.entityIndex.map { Int32($0) }
        self.entityColumnIndex = entityIndex
        self.idColumnIndex = plan.idIndex.map { Int32($0) }
        self.onlyEntity = entityIndex == nil ? entities[table.entity.name] : nil
        self.widestRow = entities.values.map(\.columns.count).max() ?? 0
    }


    /// The ID of the row the statement is on (its key read only when the ID is made of it).
    func id(_ statement: SQLiteStatement) -> ObjectID {
        if let idColumnIndex { return ObjectID(statement.text(idColumnIndex)) }
        return keyAndID(statement).id
    }

    /// The key and ID of the row the statement is on (nothing else is decoded).
    func keyAndID(_ statement: SQLiteStatement) -> (key: Int64, id: ObjectID) {
        keyAndID(statement, entity: { entityColumns(statement) })
    }

    /// The key and ID of the row the statement is on, whose entity's columns `entity` gives
    /// (asked only where the ID names the entity).
    @inline(__always)
    private func keyAndID(_ statement: SQLiteStatement, entity: () -> EntityColumns) -> (key: Int64, id: ObjectID) {
        let key = statement.int64(0)
        if let idColumnIndex { return (key, ObjectID(statement.text(idColumnIndex))) }
        switch table.objectID {
        case .primaryKey(let prefix): return (key, ObjectID(prefix + String(key)))
        case .entityAndKey(let prefix):
            let columns = entity()
            return (key, ObjectID((columns.idPrefix ?? prefix + columns.entity + "/p") + String(key)))
        case .column: return (key, ObjectID(String(key)))
        }
    }

    /// How the row the statement is on decodes: its entity's columns (an entity the layout
    /// does not know has no attributes).
    func entityColumns(_ statement: SQLiteStatement) -> EntityColumns {
        if let onlyEntity { return onlyEntity }
        guard let entityColumnIndex else { return entities[table.entity.name] ?? Self.unknown(table.entity.name) }
        if !entitiesByNumber.isEmpty {
            let number = statement.int64(entityColumnIndex)
            return entitiesByNumber[number] ?? Self.unknown(String(number))
        }
        let name = statement.text(entityColumnIndex)
        return entities[name] ?? Self.unknown(name)
    }

    /// The columns of an entity the layout does not know: none.
    private static func unknown(_ name: String) -> EntityColumns {
        EntityColumns(entity: name, storage: nil, names: [], columns: [], types: [])
    }

    /// Decodes the row the statement is on: its key, ID and entity, and its attribute values,
    /// appended to `values` — a batch's rows share one buffer, and each object of the batch is
    /// a slice of it (one allocation per batch, not per object). The row says where its
    /// values are.
    func decode(_ statement: SQLiteStatement, appendingTo values: inout [Value]) -> DecodedRow {
        let layout = entityColumns(statement)
        let (key, id) = keyAndID(statement, entity: { layout })
        let start = values.endIndex
        for column in layout.columns {
            values.append(ColumnCodec.decode(statement, column: column.index, as: column.type))
        }
        return DecodedRow(key: key, id: id, entity: layout, values: start..<values.endIndex)
    }

}

/// One object's row, decoded: its values are a range of the buffer it was decoded into.
struct DecodedRow {
    let key: Int64
    let id: ObjectID
    /// The row's entity: its name, attribute names and the storage its objects share (when
    /// the layout was made for a store).
    let entity: RowLayout.EntityColumns
    /// Where the row's attribute values are in the buffer it was decoded into.
    let values: Range<Int>
}
