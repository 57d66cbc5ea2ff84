import SiftLanguage
import SiftStore

extension SQLSchema {
    /// Core Data's prefix of object URIs, before the store's UUID.
    package static let coreDataURIScheme = "x-coredata://"
    /// Core Data's row key, entity number and row version columns.
    package static let coreDataPrimaryKey = "Z_PK"
    package static let coreDataEntityColumn = "Z_ENT"

    /// Where `model`'s objects live in a store Core Data wrote, as `layout` (computed from the
    /// same model, checked against the database) maps them: a table per inheritance root with
    /// `Z_PK` as its key and `Z_ENT` numbering each row's entity; an attribute per column; a
    /// to-one as a key column; a to-many through its inverse's column or a `Z_<n><NAME>` join
    /// table. Object IDs are Core Data's URIs, `x-coredata://<storeUUID>/<Entity>/p<Z_PK>`.
    ///
    /// The columns hold what Core Data writes — dates as seconds since 2001, booleans as 0 and
    /// 1, as Sift's own layout does — but the schema is not Sift's (``isSiftLayout`` is false):
    /// Sift does not write it, and its values are read as stored where Sift's layout would
    /// assume its own forms (decimals are numbers, not text). A property the layout has no
    /// place for has no column (its value is nil, as a transient's is).
    ///
    /// With the database's own description (`store`), its `Z_PRIMARYKEY` numbers the entities
    /// (what the rows' `Z_ENT` hold, whatever the model would number them), and a property
    /// whose column or table the database lacks has none: it reads as nil, named in `omitted`
    /// (`Note.title`), rather than failing every fetch.
    ///
    /// The attributes `externalData` names (allowing external storage) are read through
    /// `sift_external_data` from its folder (``CoreDataExternalData``).
    package static func forCoreData(_ model: DataModel, layout: CoreDataLayout, storeUUID: String, store: CoreDataStoreSchema? = nil,
                                    externalData: CoreDataExternalData? = nil, omitted: inout [String]) -> SQLSchema {
        let objectID = EntityTable.ObjectIDSource.entityAndKey(prefix: coreDataURIScheme + storeUUID + "/")
        var storeNumbers: [String: Int] = [:]
        for row in store?.primaryKeys ?? [] where storeNumbers[row.name] == nil { storeNumbers[row.name] = row.number }
        func has(_ table: String, _ columns: String...) -> Bool { store?.has(columns, in: table) ?? true }
        var tables: [String: EntityTable] = [:]
        for entity in model.entities {
            guard let placed = layout.entity(named: entity.name), let root = model.entity(named: entity.rootEntity),
                  has(placed.table, coreDataPrimaryKey) else { continue }
            let hierarchy = root.entityAndSubentities
            var numbers: [String: Int64] = [:]
            for name in hierarchy {
                if let number = storeNumbers[name] ?? layout.entity(named: name)?.number { numbers[name] = Int64(number) }
            }
            var columns: [String: String] = [:]
            var externalColumns: [String: String] = [:]
            for attribute in entity.attributes {
                guard case .attribute(let table, let column)? = layout.mapping(entity: entity.name, property: attribute.name) else { continue }
                guard has(table, column) else {
                    omitted.append("\(entity.name).\(attribute.name)")
                    continue
                }
                columns[attribute.name] = column
                if externalData?.holds(attribute, of: entity, in: model) == true { externalColumns[column] = attribute.name }
            }
            var relationships: [String: RelationshipStorage] = [:]
            var toOneEntityColumns: [String: String] = [:]
            for relationship in entity.relationships {
                guard let destination = layout.entity(named: relationship.destination) else { continue }
                let storage: RelationshipStorage
                let present: Bool
                switch layout.mapping(entity: entity.name, property: relationship.name) {
                case .toOne(let table, let column, let entityColumn, _)?:
                    storage = .foreignKey(column: column, destinationTable: destination.table, destinationKey: coreDataPrimaryKey)
                    present = has(table, column) && has(destination.table, coreDataPrimaryKey)
                    if present, let entityColumn, has(table, entityColumn) { toOneEntityColumns[relationship.name] = entityColumn }
                case .toManyThroughInverse(let table, let column, let order)?:
                    storage = .inverseForeignKey(column: column, destinationTable: table, sourceKey: coreDataPrimaryKey, order: order)
                    present = has(table, column, coreDataPrimaryKey) && (order.map { has(table, $0) } ?? true)
                case .joinTable(let table, let owner, let target, let order)?:
                    storage = .joinTable(name: table, destinationTable: destination.table, columns: JoinTableColumns(owner: owner, target: target, position: order))
                    present = has(table, owner, target) && (order.map { has(table, $0) } ?? true) && has(destination.table, coreDataPrimaryKey)
                case .attribute?, nil:
                    continue
                }
                guard present else {
                    omitted.append("\(entity.name).\(relationship.name)")
                    continue
                }
                relationships[relationship.name] = storage
            }
            tables[entity.name] = EntityTable(
                entity: entity, table: placed.table, primaryKey: coreDataPrimaryKey, objectID: objectID,
                entityColumn: coreDataEntityColumn,
                entityNames: hierarchy.count == 1 ? nil : entity.entityAndSubentities,
                hierarchyEntityNames: hierarchy, entityNumbers: numbers,
                columns: columns, relationships: relationships, toOneEntityColumns: toOneEntityColumns,
                externalDataColumns: externalColumns, externalDataDirectory: externalColumns.isEmpty ? nil : externalData?.directory)
        }
        // A one-to-one may be kept in one of its two columns only: each side is read from its
        // own column, else from the other's pointing back (``toOneKey(of:in:column:alias:innerAlias:)``).
        for (name, entityTable) in tables {
            for relationship in entityTable.entity.relationships where !relationship.isToMany {
                guard case .foreignKey? = entityTable.relationships[relationship.name], let inverseName = relationship.inverse,
                      let destination = tables[relationship.destination],
                      let inverse = destination.entity.relationship(named: inverseName), !inverse.isToMany,
                      case .foreignKey(let column, let backTable, _)? = destination.relationships[inverseName],
                      backTable == entityTable.table else { continue }
                tables[name]?.inverseKeyColumns[relationship.name] = column
            }
        }
        // Core Data's persistent history, outside the model's layout (``CoreDataHistory``).
        if let store {
            tables.merge(CoreDataHistory.tables(in: store, model: model, objectID: objectID)) { own, _ in own }
        }
        return SQLSchema(model: model, tables: tables, isSiftLayout: false, holdsModelTypes: true)
    }
}
