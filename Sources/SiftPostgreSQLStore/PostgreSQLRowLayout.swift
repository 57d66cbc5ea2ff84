import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftStore

/// The columns a query selects for whole objects of one table of a PostgreSQL store, and how a
/// row becomes a ``ManagedObject``: key, ID, entity, then each attribute column of the
/// hierarchy; a row decodes only its own entity's columns, by their attribute types. Worked out
/// once per fetch; every object of an entity shares one ``ObjectShape``.
struct PostgreSQLRowLayout: Sendable {
    /// The table's root entity's place.
    let table: EntityTable
    /// The selected columns, qualified by `alias`.
    let columns: [String]
    /// How each entity's rows decode, by entity name.
    let entities: [String: EntityColumns]

    /// One entity's attribute columns (indexes in the row, types) and the shape its objects share.
    struct EntityColumns: Sendable {
        let columns: [(index: Int, type: AttributeType)]
        let shape: ObjectShape
    }

    init(table: EntityTable, schema: SQLSchema, alias: String, store: PostgreSQLStore) {
        self.table = table
        var columns = [SQLSchema.primaryKeyColumn, SQLSchema.idColumn, SQLSchema.entityColumn].map { "\(q(alias)).\(q($0))" }
        var columnIndex: [String: Int] = [:]
        var entities: [String: EntityColumns] = [:]
        for name in table.hierarchyEntityNames {
            guard let entityTable = schema.table(for: name) else { continue }
            var names: [String] = [], indexed: [(index: Int, type: AttributeType)] = []
            for attribute in entityTable.entity.attributes {
                guard let column = entityTable.columns[attribute.name] else { continue }
                let index: Int
                if let existing = columnIndex[column] {
                    index = existing
                } else {
                    index = columns.count
                    columnIndex[column] = index
                    columns.append("\(q(alias)).\(q(column))")
                }
                names.append(attribute.name)
                indexed.append((index, attribute.type))
            }
            let shape = ObjectShape(entityName: name, names: AttributeNames(names), storage: PostgreSQLObjectStorage(store: store, entity: name))
            entities[name] = EntityColumns(columns: indexed, shape: shape)
        }
        self.columns = columns
        self.entities = entities
    }

    /// The key and ID of a row (nothing else is decoded).
    func keyAndID(_ row: PostgreSQLRow) -> (key: Int64, id: ObjectID) {
        (row[0].int64Value ?? 0, ObjectID(row[1].stringValue ?? ""))
    }

    /// The object a row holds.
    func object(_ row: PostgreSQLRow) throws(StoreError) -> ManagedObject {
        let (key, id) = keyAndID(row)
        let name = row[2].stringValue ?? ""
        guard let entity = entities[name] else {
            throw StoreError(.corruptStore, "row \(key) of \(table.table) names entity '\(name)', which the model does not have")
        }
        var values: [Value] = []
        values.reserveCapacity(entity.columns.count)
        for column in entity.columns { values.append(PostgreSQLColumnCodec.decode(row[column.index], as: column.type)) }
        return ManagedObject(objectID: id, shape: entity.shape, values: values[...], storageKey: key)
    }
}
