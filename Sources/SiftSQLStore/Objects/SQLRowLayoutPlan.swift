import SiftLanguage
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
/// each attribute column of the hierarchy once, entity by entity, in the model's order; then the
/// columns of the to-ones whose destination IDs the row makes (``ToOne``) that are not selected
/// already.
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
        /// A to-one's key column, or the column numbering its destination's entity, read as
        /// stored (``ToOne``).
        case toOne(String)
    }

    /// A to-one whose destination's object ID is made from the owner's row, without a query:
    /// where the row holds the destination's row key (a foreign database's key column, Core
    /// Data's), the destination's IDs are made of its key (``EntityTable/ObjectIDSource``
    /// `primaryKey` or `entityAndKey`), and where they name the destination's entity, the row
    /// says which (one entity, or Core Data's `Z<n>_<NAME>` column). Sift's own layout names
    /// objects by their `_id` text, which the owner's row does not hold (it would take a join);
    /// and a Core Data one-to-one kept in the other side's column only is not in the row
    /// (``EntityTable/inverseKeyColumns``): those are read as before.
    package struct ToOne: Sendable {
        /// The relationship's name.
        package let relationship: String
        /// The key column's index among the selected columns.
        package let keyIndex: Int
        /// The destination's entity number column's index, where the row names the entity.
        package let entityIndex: Int?
        /// How the destination's ID is made from its key.
        package let destination: DestinationID
    }

    /// Whether objects of `entity` read with `schema`'s layout make `relationship`'s destination
    /// ID from their own row (``ToOne``).
    package static func rowMakesDestinationID(_ relationship: String, of entity: String, schema: SQLSchema) -> Bool {
        guard let table = schema.table(for: entity), let description = table.entity.relationship(named: relationship) else { return false }
        return DestinationID.of(description, in: table, schema: schema) != nil
    }

    /// How a to-one's destination ID is made from its key.
    package enum DestinationID: Sendable {
        /// `<prefix><key>`: one entity, or IDs that do not name it.
        case prefix(String)
        /// `<prefix><Entity>/p<key>`, the entity named by the number the row holds.
        case entityNumber(prefix: String, entities: [Int64: String])

        /// The ID of the destination with `key` (`entity`: the number the row holds); nil when
        /// the number names no entity of the destination's table.
        package func id(key: Int64, entity: Int64?) -> ObjectID? {
            switch self {
            case .prefix(let prefix): return ObjectID(prefix + String(key))
            case .entityNumber(let prefix, let entities):
                guard let entity, let name = entities[entity] else { return nil }
                return ObjectID(prefix + name + "/p" + String(key))
            }
        }

        /// How `relationship` of `table`'s rows makes its destination's ID, where the row can.
        package static func of(_ relationship: RelationshipDescription, in table: EntityTable, schema: SQLSchema) -> (key: String, entity: String?, id: DestinationID)? {
            guard !relationship.isToMany, table.inverseKeyColumns[relationship.name] == nil,
                  case .foreignKey(let column, let destinationTable, let destinationKey)? = table.relationships[relationship.name],
                  let destination = schema.table(for: relationship.destination),
                  destination.table == destinationTable, destination.primaryKey == destinationKey else { return nil }
            switch destination.objectID {
            case .column: return nil
            case .primaryKey(let prefix): return (column, nil, .prefix(prefix))
            case .entityAndKey(let prefix):
                let entities = destination.entity.entityAndSubentities
                if entities.count == 1 { return (column, nil, .prefix(prefix + relationship.destination + "/p")) }
                guard let entityColumn = table.toOneEntityColumns[relationship.name] else { return nil }
                var names: [Int64: String] = [:]
                for name in entities { if let number = destination.entityNumbers[name] { names[number] = name } }
                return (column, entityColumn, .entityNumber(prefix: prefix, entities: names))
            }
        }
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
        /// The to-ones whose destination IDs the row makes, in the model's order.
        package var toOnes: [ToOne] = []
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
        // The to-ones the row makes destination IDs of: their columns after every attribute's.
        for name in table.hierarchyEntityNames {
            guard let entityTable = schema.table(for: name), entities[name] != nil else { continue }
            for relationship in entityTable.entity.relationships {
                guard let made = DestinationID.of(relationship, in: entityTable, schema: schema) else { continue }
                func index(_ column: String) -> Int {
                    if let existing = columnIndex[column] { return existing }
                    columnIndex[column] = columns.count
                    columns.append(.toOne(column))
                    return columns.count - 1
                }
                let keyIndex = index(made.key)
                let entityIndex = made.entity.map(index)
                entities[name]?.toOnes.append(ToOne(relationship: relationship.name, keyIndex: keyIndex, entityIndex: entityIndex, destination: made.id))
            }
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
