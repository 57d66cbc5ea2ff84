import SiftEvaluation
import SiftLanguage
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftSQLite
import SiftStore

/// The columns a query selects for whole objects of one table, as SQLite text, and how a row
/// becomes an object: the core's ``SQLRowDecoder`` over the statement's row
/// (``SQLiteRowReader``).
struct RowLayout: Sendable {
    /// Selected column expressions, for `alias`.
    let expressions: [SQLExpression]
    /// ``expressions`` as SQLite text.
    let columns: [String]
    /// How a row becomes an object: key, ID, entity and the row's entity's attributes.
    let decoder: SQLRowDecoder

    var table: EntityTable { decoder.table }
    var widestRow: Int { decoder.widestRow }
    var entities: [String: SQLRowDecoder.Entity] { decoder.entities }

    /// The layout of `table`'s rows in a query where it is `alias` (the columns the SQL stores'
    /// ``SQLRowLayoutPlan`` selects, the entity column only for a table of more than one entity);
    /// objects decoded with it share one storage per entity of `store`.
    init(table: EntityTable, schema: SQLSchema, alias: String, store: SQLiteStore? = nil) {
        let plan = SQLRowLayoutPlan(table: table, schema: schema, readsEntityColumn: { $0.hierarchyEntityNames.count > 1 })
        let columns: [SQLExpression] = plan.columns.map { column in
            switch column {
            case .key(let name), .id(let name), .entity(let name), .toOne(let name): .column(alias, name)
            case .attribute(let entityTable, let name): entityTable.value(column: name, alias: alias)
            }
        }
        self.expressions = columns
        // (Identifiers and compiler literals only: no parameters to number.)
        self.columns = columns.map { SQLRenderer(SQLiteDialect()).render($0) }
        // An introspected column holds whatever was stored; only Date, Boolean and Decimal are
        // converted (seconds since 2001, 0/1, a number's decimal), everything else reads as
        // stored.
        self.decoder = SQLRowDecoder(plan: plan, decodingType: schema.decodingType, store: store)
    }

    /// The ID of the row the statement is on (its key read only when the ID is made of it).
    func id(_ statement: SQLiteStatement) -> ObjectID {
        decoder.id(SQLiteRowReader(statement))
    }

    /// The key and ID of the row the statement is on (nothing else is decoded).
    func keyAndID(_ statement: SQLiteStatement) -> (key: Int64, id: ObjectID) {
        decoder.keyAndID(SQLiteRowReader(statement))
    }

    /// How the row the statement is on decodes: its entity's columns (an entity the layout
    /// does not know has no attributes).
    func entityColumns(_ statement: SQLiteStatement, previous: SQLRowDecoder.Entity? = nil) -> SQLRowDecoder.Entity {
        decoder.entity(SQLiteRowReader(statement), previous: previous)
    }

    /// Decodes the row the statement is on into `values` (``SQLRowDecoder/decode(_:previous:appendingTo:)``).
    @inline(__always)
    func decode(_ statement: SQLiteStatement, previous: SQLRowDecoder.Entity? = nil, appendingTo values: inout [Value]) -> SQLDecodedRow {
        decoder.decode(SQLiteRowReader(statement), previous: previous, appendingTo: &values)
    }
}

/// The row a SQLite statement is on, as the SQL store core reads it: attributes decode as
/// ``ColumnCodec`` reads SQLite's storage classes.
struct SQLiteRowReader: SQLRowReading {
    let statement: SQLiteStatement

    @inline(__always)
    init(_ statement: SQLiteStatement) { self.statement = statement }

    @inline(__always)
    func isNull(_ column: Int) -> Bool { statement.isNull(Int32(truncatingIfNeeded: column)) }

    @inline(__always)
    func int64(_ column: Int) -> Int64 { statement.int64(Int32(truncatingIfNeeded: column)) }

    @inline(__always)
    func text(_ column: Int) -> String { statement.text(Int32(truncatingIfNeeded: column)) }

    @inline(__always)
    func text(_ column: Int, equals utf8: [UInt8]) -> Bool {
        let index = Int32(truncatingIfNeeded: column)
        return statement.columnType(index) == .text && statement.withUTF8(index) { $0.elementsEqual(utf8) }
    }

    @inline(__always)
    func value(_ column: Int, as type: AttributeType?) -> Value {
        ColumnCodec.decode(statement, column: Int32(truncatingIfNeeded: column), as: type)
    }
}

extension RowLayout {
    /// Forgets the relationships prefetched for the objects of every entity of the layout.
    func clearPrefetched() {
        for entity in entities.values { entity.storage?.clearPrefetched() }
    }

    /// Loads `prefetch` for a batch of `objects` read with this layout, replacing the previous
    /// batch's (cleared, then each relationship merged). Call with `store.lock` held.
    func loadPrefetched(_ prefetch: SQLBatchPrefetch, of objects: ArraySlice<ManagedObject>, store: SQLiteStore) {
        clearPrefetched()
        prefetch.load(prefetchOwners(objects), keeping: .merged, through: SQLitePrefetchDriver(store: store))
    }

    /// What `SQLBatchPrefetch` loads for `objects` read with this layout: each one's
    /// storage and row key.
    func prefetchOwners(_ objects: some Sequence<ManagedObject>) -> [SQLBatchPrefetch.Owner] {
        let entities = self.entities
        return objects.compactMap { object in
            entities[object.entityName]?.storage.map { SQLBatchPrefetch.Owner(storage: $0, key: object.storageKey) }
        }
    }
}

extension SQLRowDecoder.Entity {
    /// Where `attribute` is among the entity's attribute names: at its hint when the
    /// representations there are the same (one comparison), else searched for.
    @inline(__always)
    func position(of attribute: RowAttribute) -> Int? {
        names.position(of: attribute.name, bits: attribute.bits, hint: attribute.hint)
    }
}
