import SiftStore
import SiftSQL

/// Which columns a query selects for whole objects of one table, and which of them each entity
/// of the table's hierarchy decodes: worked out once from the layout (``SQLSchema``: Sift's, a
/// foreign database's, Core Data's), the same for every SQL store. Each store renders the
/// columns in its dialect and decodes its own rows with it (the SQLite store's `RowLayout`, the
/// PostgreSQL store's `PostgreSQLRowLayout`): the values are the driver's, the plan the core's.
///
/// The columns come in this order: the row key; the ID column, where IDs are a column's; the
/// entity column, where the store reads it (``init(table:schema:readsEntityColumn:)``); then
/// each attribute column of the hierarchy once, entity by entity, in the model's order.
package struct SQLRowLayoutPlan: Sendable {
    /// A selected column.
    package enum Column: Sendable {
        /// The row key (``EntityTable/primaryKey``), always first.
        case key(String)
        /// The text column holding the object ID.
        case id(String)
        /// The column naming (or numbering) the row's entity.
        case entity(String)
        /// An attribute's column, of the hierarchy's `table` (its own ``EntityTable``, which knows
        /// how the column is read).
        case attribute(EntityTable, String)
    }

    /// One entity of the table: its attributes (names, in the model's order), where each is
    /// among the selected columns, and its type in the model.
    package struct Entity: Sendable {
        package let name: String
        package let names: [String]
        package let columns: [Int]
        package let types: [AttributeType]
        /// What an object ID of the entity begins with, where IDs name the row's entity
        /// (``EntityTable/ObjectIDSource/entityAndKey(prefix:)``).
        package let idPrefix: String?
    }

    /// The table's root entity's place.
    package let table: EntityTable
    package let columns: [Column]
    /// The ID column's index, when IDs are a column's.
    package let idIndex: Int?
    /// The entity column's index, when it is selected.
    package let entityIndex: Int?
    /// Each entity of the table's hierarchy that has a table, by name.
    package let entities: [String: Entity]
    /// The entity each number of the entity column stands for, where it holds numbers (Core
    /// Data's `Z_ENT`); empty where it holds names.
    package let entityNumbers: [Int64: String]

    /// The plan of `table`'s rows in `schema`; the entity column is selected where the table
    /// has one and `readsEntityColumn` says so (the SQLite store reads it only when the table
    /// holds more than one entity, the PostgreSQL store whenever it is there).
    package init(table: EntityTable, schema: SQLSchema, readsEntityColumn: (EntityTable) -> Bool) {
        self.table = table
        var columns: [Column] = [.key(table.primaryKey)]
        var idIndex: Int?
        if case .column(let column) = table.objectID {
            idIndex = columns.count
            columns.append(.id(column))
        }
        var entityIndex: Int?
        if let column = table.entityColumn, readsEntityColumn(table) {
            entityIndex = columns.count
            columns.append(.entity(column))
        }
        var columnIndex: [String: Int] = [:]
        var entities: [String: Entity] = [:]
        for name in table.hierarchyEntityNames {
            guard let entityTable = schema.table(for: name) else { continue }
            var names: [String] = [], indexes: [Int] = [], types: [AttributeType] = []
            for attribute in entityTable.entity.attributes {
                guard let column = entityTable.columns[attribute.name] else { continue }
                let index: Int
                if let existing = columnIndex[column] {
                    index = existing
                } else {
                    index = columns.count
                    columnIndex[column] = index
                    columns.append(.attribute(entityTable, column))
                }
                names.append(attribute.name)
                indexes.append(index)
                types.append(attribute.type)
            }
            var idPrefix: String?
            if case .entityAndKey(let prefix) = table.objectID { idPrefix = prefix + name + "/p" }
            entities[name] = Entity(name: name, names: names, columns: indexes, types: types, idPrefix: idPrefix)
        }
        var entityNumbers: [Int64: String] = [:]
        for (name, number) in table.entityNumbers where entities[name] != nil { entityNumbers[number] = name }
        self.columns = columns
        self.idIndex = idIndex
        self.entityIndex = entityIndex
        self.entities = entities
        self.entityNumbers = entityNumbers
    }
}
