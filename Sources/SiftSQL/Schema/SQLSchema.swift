import SiftLanguage
import SiftStore

/// Where a model's objects live in a SQLite database: a table per entity hierarchy, a column
/// per attribute, and for each relationship the columns or table that hold it.
///
/// A store Sift creates (`forModel(_:)`) lays a hierarchy's table out as
///
///     "_pk"      INTEGER PRIMARY KEY   -- insertion order, across all tables (the sort tie-break)
///     "_id"      TEXT NOT NULL UNIQUE  -- the object ID
///     "_entity"  TEXT NOT NULL         -- the object's entity (a hierarchy shares one table)
///     "<attribute>" ...                -- one column per attribute of any entity in the hierarchy
///     "<to-one>" INTEGER               -- the destination's "_pk"
///     "_cd_<attribute>", "_c_<attribute>" TEXT  -- a searchable attribute's folded text (``SearchFold``)
///
/// A to-many relationship whose inverse is an unordered-side to-one is read through that
/// to-one's column; every other to-many has a join table `"<Entity>.<relationship>"`
/// (`"_owner"`, `"_target"`, `"_position"`). A database Sift did not create is described by
/// `SchemaIntrospection` with the same types, so the compiler treats both alike.
public struct SQLSchema: Sendable {
    public let model: DataModel
    package let tables: [String: EntityTable]
    /// Whether the database is one Sift created (and so may write).
    package let isSiftLayout: Bool
    /// Whether every column holds values of its attribute's type, as the model says (Sift's
    /// layout and Core Data's), so rows decode as that type; else (a database read from its
    /// catalogue) only dates, booleans and decimals are converted, the rest read as stored.
    package let holdsModelTypes: Bool
    /// Whether the searchable attributes' hidden columns are in the database (so fetches may
    /// read them).
    package let searchColumns: SearchColumnPresence
    /// For each table, for each column, the entities with an attribute or a to-one key held in
    /// it (``inverseEntityTest(column:destination:)`` asks this once per relationship read).
    private let columnHolders: [String: [String: Set<String>]]

    init(model: DataModel, tables: [String: EntityTable], isSiftLayout: Bool, holdsModelTypes: Bool? = nil) {
        self.model = model
        self.tables = tables
        self.isSiftLayout = isSiftLayout
        self.holdsModelTypes = holdsModelTypes ?? isSiftLayout
        self.searchColumns = SearchColumnPresence(true)
        var holders: [String: [String: Set<String>]] = [:]
        for table in tables.values {
            for column in table.columns.values { holders[table.table, default: [:]][column, default: []].insert(table.entity.name) }
            for case .foreignKey(let column, _, _) in table.relationships.values {
                holders[table.table, default: [:]][column, default: []].insert(table.entity.name)
            }
        }
        self.columnHolders = holders
    }

    /// The tables holding searchable attributes, each with its hidden columns (in
    /// ``SchemaDDL`` column order).
    package var searchColumnsByTable: [(table: String, columns: [(attribute: String, fold: SearchFold, column: String)])] {
        var result: [(table: String, columns: [(attribute: String, fold: SearchFold, column: String)])] = []
        for root in model.entities where root.parent == nil {
            let columns = SchemaDDL.searchColumns(root: root, model: model)
            if !columns.isEmpty { result.append((root.name, columns)) }
        }
        return result
    }

    /// The type an attribute's stored values decode as (``holdsModelTypes``); nil: as stored.
    package func decodingType(_ type: AttributeType) -> AttributeType? {
        holdsModelTypes || ColumnCodec.convertsForeign(type) ? type : nil
    }

    /// The table an entity's objects live in.
    package func table(for entity: String) -> EntityTable? { tables[entity] }

    /// The entity test a to-many read through `column` of `destination`'s table needs, where
    /// rows of that table that are not `destination`'s objects hold a property in `column` too
    /// (in Sift's layout, sibling sub-entities each with a to-one of one name share its column:
    /// `Cat.owner` and `Dog.owner`, the inverses of `Owner.cats` and `Owner.dogs`): the entity
    /// column and the values naming `destination` and its sub-entities (names, or Core Data's
    /// entity numbers). Nil where every row with `column` set is one of `destination`'s objects.
    package func inverseEntityTest(column: String, destination: EntityTable) -> (column: String, values: [SQLValue])? {
        guard let entityColumn = destination.entityColumn, destination.entityNames != nil else { return nil }
        let own = destination.entity.entityAndSubentities
        let holders = columnHolders[destination.table]?[column] ?? []
        guard holders.contains(where: { !own.contains($0) }) else { return nil }
        let values = destination.entity.entityAndSubentities.map { name -> SQLValue in
            guard !destination.entityNumbers.isEmpty else { return .text(name) }
            return destination.entityNumbers[name].map(SQLValue.integer) ?? .null
        }
        return (entityColumn, values)
    }

    /// ``inverseEntityTest(column:destination:)`` as SQL text to follow a WHERE or ON condition
    /// on the destination rows aliased `alias` (nil: none): ` AND "d"."_entity" IN ('Cat')`. The
    /// values are the model's entity names (or numbers), written as literals so that statements
    /// numbering their own parameters keep their numbers.
    package func inverseEntityTestSQL(column: String, destination: EntityTable, alias: String?) -> String {
        guard let test = inverseEntityTest(column: column, destination: destination) else { return "" }
        let target = alias.map { SQLIdentifier.qualified($0, test.column) } ?? SQLIdentifier.quoted(test.column)
        let literals = test.values.map { value -> String in
            switch value {
            case .integer(let number): String(number)
            case .text(let name): SQLStringLiteral.quoted(name)
            default: "NULL"
            }
        }
        return " AND \(target) IN (\(literals.joined(separator: ", ")))"
    }

    package static let primaryKeyColumn = "_pk"
    package static let idColumn = "_id"
    package static let entityColumn = "_entity"
    package static let ownerColumn = "_owner"
    package static let targetColumn = "_target"
    package static let positionColumn = "_position"
    package static let metadataTable = "sift.metadata"

    /// The layout of a store Sift creates for `model`.
    package static func forModel(_ model: DataModel) throws(StoreError) -> SQLSchema {
        var tables: [String: EntityTable] = [:]
        let reserved: Set<String> = [primaryKeyColumn, idColumn, entityColumn]
        for entity in model.entities {
            guard let root = model.entity(named: entity.rootEntity) else { continue }
            let hierarchy = root.entityAndSubentities
            var columns: [String: String] = [:]
            for attribute in entity.attributes {
                guard !reserved.contains(attribute.name) else {
                    throw StoreError(.unsupportedModel, "\(entity.name).\(attribute.name): the SQLite store reserves the column names _pk, _id and _entity")
                }
                columns[attribute.name] = attribute.name
            }
            // A searchable attribute's hidden columns take names no attribute of the table may have.
            let hidden = SchemaDDL.searchColumns(root: root, model: model)
            for property in entity.attributes.map(\.name) + entity.relationships.map(\.name) {
                if let taken = hidden.first(where: { $0.column == property }) {
                    throw StoreError(.unsupportedModel, "\(entity.name).\(property): the SQLite store keeps the folded text of the searchable attribute \(taken.attribute) in a column of that name")
                }
            }
            var relationships: [String: RelationshipStorage] = [:]
            for relationship in entity.relationships {
                guard !reserved.contains(relationship.name) else {
                    throw StoreError(.unsupportedModel, "\(entity.name).\(relationship.name): the SQLite store reserves the column names _pk, _id and _entity")
                }
                relationships[relationship.name] = storage(of: relationship, in: entity, model: model)
            }
            tables[entity.name] = EntityTable(
                entity: entity, table: root.name, primaryKey: primaryKeyColumn, objectID: .column(idColumn),
                entityColumn: entityColumn,
                entityNames: hierarchy.count == 1 ? nil : entity.entityAndSubentities,
                hierarchyEntityNames: hierarchy,
                columns: columns, relationships: relationships,
                searchable: Set(hidden.map(\.attribute)))
        }
        return SQLSchema(model: model, tables: tables, isSiftLayout: true)
    }

    /// How a relationship is held in a store Sift creates.
    package static func storage(of relationship: RelationshipDescription, in entity: EntityDescription, model: DataModel) -> RelationshipStorage {
        guard let destination = model.entity(named: relationship.destination),
              let destinationRoot = model.entity(named: destination.rootEntity) else {
            return .joinTable(name: joinTableName(entity: entity, relationship: relationship, model: model), destinationTable: relationship.destination)
        }
        if !relationship.isToMany {
            return .foreignKey(column: relationship.name, destinationTable: destinationRoot.name, destinationKey: primaryKeyColumn)
        }
        if !relationship.isOrdered, let inverseName = relationship.inverse,
           let inverse = destination.relationship(named: inverseName), !inverse.isToMany {
            return .inverseForeignKey(column: inverse.name, destinationTable: destinationRoot.name, sourceKey: primaryKeyColumn)
        }
        return .joinTable(name: joinTableName(entity: entity, relationship: relationship, model: model), destinationTable: destinationRoot.name)
    }

    /// `"<Entity that declares it>.<relationship>"`, so sub-entities (at any depth) share the
    /// join tables of the entity that declares the relationship.
    package static func joinTableName(entity: EntityDescription, relationship: RelationshipDescription, model: DataModel) -> String {
        "\(declaringEntity(of: relationship.name, from: entity, model: model)).\(relationship.name)"
    }

    /// The entity (this one or an ancestor, however far up) that declares a property.
    package static func declaringEntity(of property: String, from entity: EntityDescription, model: DataModel) -> String {
        var current = entity
        while !current.ownRelationships.contains(where: { $0.name == property }) && !current.ownAttributes.contains(where: { $0.name == property }),
              let parent = current.parent.flatMap(model.entity(named:)) {
            current = parent
        }
        return current.name
    }
}

/// One entity's place in the database.
package struct EntityTable: Sendable {
    package let entity: EntityDescription
    /// The table holding the entity's hierarchy.
    package let table: String
    /// The integer key column (insertion order; `rowid` in a database without one).
    package let primaryKey: String
    /// Where object IDs come from.
    package let objectID: ObjectIDSource
    /// The column naming each row's entity (nil when the table holds one entity).
    package let entityColumn: String?
    /// The entity names a fetch of this entity selects; nil when that is every row of the table.
    package let entityNames: [String]?
    /// Every entity sharing the table.
    package let hierarchyEntityNames: [String]
    /// The number ``entityColumn`` holds for each entity sharing the table, where it holds
    /// numbers (Core Data's `Z_ENT`); empty where it holds the entities' names.
    package var entityNumbers: [String: Int64] = [:]
    /// Attribute name → column name.
    package let columns: [String: String]
    /// Relationship name → where it is held.
    package let relationships: [String: RelationshipStorage]
    /// One-to-ones Core Data may keep in the other side's column only: to-one relationship name
    /// → the destination table's column that holds this row's key (the inverse's). The
    /// relationship is read from its own column, else from the destination row pointing back
    /// (``SQLSchema/toOneKey(of:in:column:alias:innerAlias:)``).
    package var inverseKeyColumns: [String: String] = [:]
    /// To-one relationship name → this table's column holding the destination row's entity
    /// number, where the destination has sub-entities (Core Data's `Z<n>_<NAME>`): with the key
    /// column, the destination's object ID is made from this row alone.
    package var toOneEntityColumns: [String: String] = [:]
    /// The attribute columns with hidden folded copies (``SearchFold``) in this table.
    package var searchable: Set<String> = []
    /// Columns declared with a collation other than BINARY (in databases Sift did not create):
    /// the compiler reads them `COLLATE BINARY`, since the evaluator compares values as stored.
    package var collatedColumns: Set<String> = []
    /// How the columns of a database Sift did not create are read (dates through `sift_date`,
    /// …), by column name; a column without an entry is read as it is.
    package var foreignColumns: [String: ForeignColumn] = [:]
    /// Whether the columns' types were chosen: false for a table of a database Sift did not
    /// create that no fetch has needed yet (``ForeignSchema``), whose attributes are Undefined
    /// until a fetch that reads it chooses them. No SQL reads such a table's columns.
    package var typesAreRead = true
    /// Core Data's attribute columns that allow external storage (``CoreDataExternalData``):
    /// column → attribute name. Read through `sift_external_data` (``externalDataValue(_:column:alias:)``).
    package var externalDataColumns: [String: String] = [:]
    /// The folder of those columns' files (`.<store>_SUPPORT/_EXTERNAL_DATA`); nil where none.
    package var externalDataDirectory: String?

    /// The expression reading attribute column `column` of the row aliased `alias`: the column
    /// itself, `"t0"."name" COLLATE BINARY` for a declared collation, its ``ForeignColumn``
    /// reading, or a Core Data column allowing external storage through `sift_external_data`.
    package func value(column: String, alias: String) -> SQLExpression {
        assert(typesAreRead, "\(table).\(column) is read before its table's column types were chosen")
        var value = SQLExpression.column(alias, column)
        if let foreign = foreignColumns[column] { value = foreign.expression(value) }
        if collatedColumns.contains(column) { value = .collate(value, "BINARY") }
        if externalDataDirectory != nil { value = externalDataValue(value, column: column, alias: alias) }
        return value
    }

    /// Where an object's ID is read from.
    package enum ObjectIDSource: Sendable {
        /// A text column holding the ID.
        case column(String)
        /// `<prefix><primary key>` (introspected tables: `Artist/3`).
        case primaryKey(prefix: String)
        /// `<prefix><entity>/p<primary key>`, the entity the row's own: Core Data's object URIs
        /// (`x-coredata://<store UUID>/Note/p3`).
        case entityAndKey(prefix: String)

        /// The row key an ID names, and the entity it names where the ID says (nil for
        /// `.column`, whose IDs are looked up, and for an ID not of this form).
        package func key(of id: String) -> (key: Int64, entity: String?)? {
            switch self {
            case .column:
                return nil
            case .primaryKey(let prefix):
                // `Artist/3` is the row with key 3 (and only `Artist/3`: not `Artist/+3`).
                guard id.hasPrefix(prefix), let key = Int64(id.dropFirst(prefix.count)), prefix + String(key) == id else { return nil }
                return (key, nil)
            case .entityAndKey(let prefix):
                guard id.hasPrefix(prefix) else { return nil }
                let rest = id.dropFirst(prefix.count)
                // (An entity name holds no `/`.)
                guard let slash = rest.lastIndex(of: "/"), rest[rest.index(after: slash)...].first == "p" else { return nil }
                let entity = String(rest[..<slash])
                let digits = rest[rest.index(slash, offsetBy: 2)...]
                guard !entity.isEmpty, let key = Int64(digits), String(key) == digits else { return nil }
                return (key, entity)
            }
        }

        /// The ID of the row with `key` whose entity is `entity`.
        package func id(key: Int64, entity: String) -> String {
            switch self {
            case .column: String(key)
            case .primaryKey(let prefix): prefix + String(key)
            case .entityAndKey(let prefix): prefix + entity + "/p" + String(key)
            }
        }
    }
}

/// Where a relationship is held.
package enum RelationshipStorage: Sendable, Hashable {
    /// A to-one: this table's `column` holds the destination row's `destinationKey`.
    case foreignKey(column: String, destinationTable: String, destinationKey: String)
    /// A to-many read through the destination table's `column`, which holds this row's `sourceKey`;
    /// an ordered one's destinations in the order of the destination's `order` column (Core
    /// Data's `Z_FOK_<inverse>`), else in key order.
    case inverseForeignKey(column: String, destinationTable: String, sourceKey: String, order: String? = nil)
    /// A to-many held in a join table: in Sift's layout `"_owner"` (this row's key), `"_target"`
    /// (the destination's key) and `"_position"` (order within the relationship); in Core
    /// Data's, the columns its layout names (``JoinTableColumns``).
    case joinTable(name: String, destinationTable: String, columns: JoinTableColumns = .sift)
}

/// The columns of a join table: the owner's key, the destination's key, and the destination's
/// place in the relationship (nil where the table keeps no order: the destinations are then in
/// key order).
package struct JoinTableColumns: Sendable, Hashable {
    package var owner: String
    package var target: String
    package var position: String?

    package init(owner: String, target: String, position: String?) {
        self.owner = owner
        self.target = target
        self.position = position
    }

    /// Sift's own: `"_owner"`, `"_target"`, `"_position"`.
    package static let sift = JoinTableColumns(owner: SQLSchema.ownerColumn, target: SQLSchema.targetColumn, position: SQLSchema.positionColumn)

    /// The column the destinations are ordered by: the position, or the destination's key.
    package var order: String { position ?? target }
}
