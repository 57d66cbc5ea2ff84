import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftStore

/// A result row as the SQL store core reads it: each driver's row (a SQLite statement on its
/// row, a row of a PostgreSQL result) adopts it. The core reads the key, ID and entity columns
/// through it, and asks the driver for each attribute's value, which the driver decodes from
/// its own column in one step (no value is converted twice).
///
/// (The row reading and the decoder are SPI, `@_spi(SQLStoreCore) public`, not `package`: Swift
/// 6.3 does not specialize or inline an `@inlinable package` function in another module — the
/// stores called the generic ``SQLRowDecoder/decode(_:previous:appendingTo:)``, each column through
/// this protocol's witness table — while it does a `public` one's. The drivers import the core
/// with `@_spi(SQLStoreCore) import SiftSQLStore`.)
@_spi(SQLStoreCore) public protocol SQLRowReading {
    /// Whether column `column` is NULL.
    func isNull(_ column: Int) -> Bool
    /// Column `column` as an integer (NULL and what is not an integer: 0).
    func int64(_ column: Int) -> Int64
    /// Column `column` as text (NULL and what is not text: "").
    func text(_ column: Int) -> String
    /// Whether column `column` is text whose UTF-8 is `utf8` (without making a `String`).
    func text(_ column: Int, equals utf8: [UInt8]) -> Bool
    /// Column `column` read as an attribute of `type` (nil: as stored), the driver's decoding.
    func value(_ column: Int, as type: AttributeType?) -> Value
}

/// How rows of one table become objects, the same for every SQL store: the key, ID and entity
/// of a row, and each attribute of the row's entity decoded by its type (only the row's
/// entity's columns are decoded), the columns being those ``SQLRowLayoutPlan`` selects.
///
/// Everything that does not depend on the row is worked out once here: which columns belong to
/// which entity, how each decodes, and the attribute names, which every object of an entity
/// shares. Decoding a row then reads its columns and nothing else.
@_spi(SQLStoreCore) public struct SQLRowDecoder: Sendable {
    /// The table's root entity's place.
    package let table: EntityTable
    /// The root entity's name (an unknown entity's, when every row is the table's).
    @usableFromInline let rootEntityName: String
    /// How the table's rows' IDs are made (``EntityTable/objectID``).
    @usableFromInline let objectIDs: IDSource

    /// ``EntityTable/ObjectIDSource`` as the inlinable decoding reads it.
    @usableFromInline enum IDSource: Sendable {
        case column
        case primaryKey(prefix: String)
        case entityAndKey(prefix: String)
    }
    /// How rows of each entity of the table decode (by entity name).
    public let entities: [String: Entity]
    /// The entity column's index, when it is selected.
    public let entityIndex: Int?
    /// The ID column's index, when IDs are a column's.
    public let idIndex: Int?
    /// How rows of each entity decode, by the number the entity column holds, where it holds
    /// numbers (Core Data's `Z_ENT`); empty where it holds names.
    @usableFromInline let entitiesByNumber: [Int64: Entity]
    /// The entity every row is, when the entity column is not read.
    @usableFromInline let onlyEntity: Entity?
    /// The widest row's number of attribute values, to reserve a batch's buffer.
    @usableFromInline package let widestRow: Int

    /// The columns of one entity's attributes: names (shared by every object), indexes in the
    /// row, and the types they decode as; and the storage its objects share.
    public final class Entity: @unchecked Sendable {
        /// The entity's name (for an entity the layout does not know, what the row names).
        public let entity: String
        /// Whether the layout knows the entity (a row naming another has no attributes).
        package let isKnown: Bool
        package let storage: SQLObjectStorage?
        /// What an object ID of the entity begins with, where IDs name the row's entity
        /// (``EntityTable/ObjectIDSource/entityAndKey(prefix:)``).
        public let idPrefix: String?
        package let names: AttributeNames
        public let columns: [(index: Int, type: AttributeType?)]
        /// The columns of the to-ones whose destination IDs the row makes, read as stored after
        /// the attributes (the key, then the entity number where there is one): an object's
        /// values past its attributes' (``SQLObjectStorage/RowToOne``).
        @usableFromInline let toOneColumns: [Int]
        /// What the entity's objects share (with `storage`), when the layout has a store.
        package let shape: ObjectShape?
        /// The entity's name as UTF-8, to tell a row of it by its entity column's bytes.
        @usableFromInline let nameUTF8: [UInt8]

        package init(entity: String, isKnown: Bool = true, storage: SQLObjectStorage?, idPrefix: String? = nil,
                     names: [String], columns: [Int], types: [AttributeType?], toOneColumns: [Int] = []) {
            self.entity = entity
            self.isKnown = isKnown
            self.storage = storage
            self.idPrefix = idPrefix
            let names = AttributeNames(names)
            self.names = names
            self.columns = Array(zip(columns, types))
            self.toOneColumns = toOneColumns
            self.shape = storage.map { ObjectShape(entityName: entity, names: names, storage: $0) }
            self.nameUTF8 = Array(entity.utf8)
        }
    }

    /// The decoder of `plan`'s rows: each attribute decodes as `decodingType` says of its
    /// model type (nil: as stored); objects decoded with it share one storage per entity of
    /// `store`, when there is one.
    package init(plan: SQLRowLayoutPlan, decodingType: (AttributeType) -> AttributeType?, store: (any SQLObjectReadingStore)?) {
        let table = plan.table
        self.table = table
        rootEntityName = table.entity.name
        switch table.objectID {
        case .column: objectIDs = .column
        case .primaryKey(let prefix): objectIDs = .primaryKey(prefix: prefix)
        case .entityAndKey(let prefix): objectIDs = .entityAndKey(prefix: prefix)
        }
        var entities: [String: Entity] = [:]
        for (name, entity) in plan.entities {
            // Each to-one's values after the attributes': its key, then its entity number.
            var toOneColumns: [Int] = []
            var rowToOnes: [String: SQLObjectStorage.RowToOne] = [:]
            for toOne in entity.toOnes {
                let keySlot = entity.names.count + toOneColumns.count
                toOneColumns.append(toOne.keyIndex)
                var entitySlot: Int?
                if let entityIndex = toOne.entityIndex {
                    entitySlot = entity.names.count + toOneColumns.count
                    toOneColumns.append(entityIndex)
                }
                rowToOnes[toOne.relationship] = SQLObjectStorage.RowToOne(keySlot: keySlot, entitySlot: entitySlot, destination: toOne.destination)
            }
            entities[name] = Entity(entity: name, storage: store.map { SQLObjectStorage(store: $0, entity: name, rowToOnes: rowToOnes) },
                                    idPrefix: entity.idPrefix, names: entity.names, columns: entity.columns,
                                    types: entity.types.map(decodingType), toOneColumns: toOneColumns)
        }
        var entitiesByNumber: [Int64: Entity] = [:]
        for (number, name) in plan.entityNumbers { entitiesByNumber[number] = entities[name] }
        self.entities = entities
        self.entitiesByNumber = entitiesByNumber
        self.entityIndex = plan.entityIndex
        self.idIndex = plan.idIndex
        self.onlyEntity = plan.entityIndex == nil ? entities[table.entity.name] ?? Self.unknown(table.entity.name) : nil
        self.widestRow = entities.values.map { $0.columns.count + $0.toOneColumns.count }.max() ?? 0
    }

    /// The ID of `row` (its key read only when the ID is made of it).
    @inlinable
    public func id(_ row: some SQLRowReading) -> ObjectID {
        if let idIndex { return ObjectID(row.text(idIndex)) }
        return keyAndID(row).id
    }

    /// The key and ID of `row` (nothing else is decoded).
    @inlinable
    public func keyAndID(_ row: some SQLRowReading) -> (key: Int64, id: ObjectID) {
        keyAndID(row, entity: { entity(row) })
    }

    /// The key and ID of `row`, whose entity's columns `entity` gives (asked only where the ID
    /// names the entity).
    /// (Always inlined, as is ``entity(_:previous:)``: ``decode(_:previous:appendingTo:)`` calls
    /// both for every row.)
    @inlinable @inline(__always)
    func keyAndID(_ row: some SQLRowReading, entity: () -> Entity) -> (key: Int64, id: ObjectID) {
        let key = row.int64(0)
        if let idIndex { return (key, ObjectID(row.text(idIndex))) }
        switch objectIDs {
        case .primaryKey(let prefix): return (key, ObjectID(prefix + String(key)))
        case .entityAndKey(let prefix):
            let columns = entity()
            return (key, ObjectID((columns.idPrefix ?? prefix + columns.entity + "/p") + String(key)))
        case .column: return (key, ObjectID(String(key)))
        }
    }

    /// How `row` decodes: its entity's columns (an entity the layout does not know has no
    /// attributes, and is not ``Entity/isKnown``). `previous`, the entity of the row before,
    /// is told by the entity column's bytes without a lookup.
    @inlinable @inline(__always)
    public func entity(_ row: some SQLRowReading, previous: Entity? = nil) -> Entity {
        if let onlyEntity { return onlyEntity }
        guard let entityIndex else { return Self.unknown(rootEntityName) }
        if !entitiesByNumber.isEmpty {
            let number = row.int64(entityIndex)
            return entitiesByNumber[number] ?? Self.unknown(String(number))
        }
        if let previous, row.text(entityIndex, equals: previous.nameUTF8) { return previous }
        let name = row.text(entityIndex)
        return entities[name] ?? Self.unknown(name)
    }

    /// The columns of an entity the layout does not know: none.
    @usableFromInline
    static func unknown(_ name: String) -> Entity {
        Entity(entity: name, isKnown: false, storage: nil, names: [], columns: [], types: [])
    }

    /// Decodes `row`: its key, ID and entity, and its attribute values (then the keys of the
    /// to-ones whose destination IDs the row makes), appended to `values` —
    /// a batch's rows share one buffer, and each object of the batch is a slice of it (one
    /// allocation per batch, not per object). The decoded row says where its values are.
    @inlinable
    public func decode(_ row: some SQLRowReading, previous: Entity? = nil, appendingTo values: inout [Value]) -> SQLDecodedRow {
        let entity = entity(row, previous: previous)
        let (key, id) = keyAndID(row, entity: { entity })
        let start = values.endIndex
        for column in entity.columns {
            values.append(row.value(column.index, as: column.type))
        }
        for column in entity.toOneColumns {
            values.append(row.value(column, as: nil))
        }
        return SQLDecodedRow(key: key, id: id, entity: entity, values: start..<values.endIndex)
    }
}

/// One object's row, decoded: its values are a range of the buffer it was decoded into.
@_spi(SQLStoreCore) public struct SQLDecodedRow {
    public let key: Int64
    public let id: ObjectID
    /// The row's entity: its name, attribute names and the storage its objects share (when
    /// the layout was made for a store).
    public let entity: SQLRowDecoder.Entity
    /// Where the row's attribute values are in the buffer it was decoded into.
    public let values: Range<Int>

    @inlinable
    public init(key: Int64, id: ObjectID, entity: SQLRowDecoder.Entity, values: Range<Int>) {
        self.key = key
        self.id = id
        self.entity = entity
        self.values = values
    }
}
