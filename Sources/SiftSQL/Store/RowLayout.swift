import SiftEvaluation
import SiftLanguage
import SiftSQLite
import SiftStore

/// The columns a query selects for whole objects of one table, and how a row becomes an
/// object: key, ID, entity, and each attribute of the row's entity decoded by its type (only
/// the row's entity's columns are decoded).
struct RowLayout: Sendable {
    let table: EntityTable
    /// Selected column expressions, for `alias`.
    let columns: [String]
    /// Per entity name: (attribute name, column index, type).
    let attributes: [String: [(name: String, column: Int32, type: AttributeType?)]]
    let entityColumnIndex: Int32?
    let idColumnIndex: Int32?

    init(table: EntityTable, schema: SQLSchema, alias: String) {
        self.table = table
        var columns = [SQLIdentifier.qualified(alias, table.primaryKey)]
        var idIndex: Int32?
        if case .column(let column) = table.objectID {
            idIndex = Int32(columns.count)
            columns.append(SQLIdentifier.qualified(alias, column))
        }
        var entityIndex: Int32?
        if let column = table.entityColumn {
            entityIndex = Int32(columns.count)
            columns.append(SQLIdentifier.qualified(alias, column))
        }
        var columnIndex: [String: Int32] = [:]
        var attributes: [String: [(name: String, column: Int32, type: AttributeType?)]] = [:]
        for name in table.hierarchyEntityNames {
            guard let entityTable = schema.table(for: name) else { continue }
            var list: [(name: String, column: Int32, type: AttributeType?)] = []
            for attribute in entityTable.entity.attributes {
                guard let column = entityTable.columns[attribute.name] else { continue }
                let index: Int32
                if let existing = columnIndex[column] {
                    index = existing
                } else {
                    index = Int32(columns.count)
                    columnIndex[column] = index
                    columns.append(SQLIdentifier.qualified(alias, column))
                }
                // An introspected column holds whatever was stored; only Date and Boolean are
                // converted (seconds since 2001, 0/1), everything else reads as stored.
                let decodeAs = schema.isSiftLayout || attribute.type == .date || attribute.type == .boolean ? attribute.type : nil
                list.append((attribute.name, index, decodeAs))
            }
            attributes[name] = list
        }
        self.columns = columns
        self.attributes = attributes
        self.entityColumnIndex = entityIndex
        self.idColumnIndex = idIndex
    }

    /// The decoded row the statement is on.
    func decode(_ statement: SQLiteStatement) -> DecodedRow {
        let key = statement.int64(0)
        let id: ObjectID
        if let idColumnIndex {
            id = ObjectID(statement.text(idColumnIndex))
        } else if case .primaryKey(let prefix) = table.objectID {
            id = ObjectID(prefix + String(key))
        } else {
            id = ObjectID(String(key))
        }
        let entity = entityColumnIndex.map { statement.text($0) } ?? table.entity.name
        var values = ValueDictionary()
        for (name, column, type) in attributes[entity] ?? [] {
            values[name] = ColumnCodec.decode(statement.value(column), as: type)
        }
        return DecodedRow(key: key, id: id, entity: entity, values: values)
    }
}

/// One object's row, decoded.
struct DecodedRow {
    let key: Int64
    let id: ObjectID
    let entity: String
    let values: ValueDictionary
}
