import SiftLanguage
import SiftStore

/// Core Data's persistent history (`NSPersistentHistoryTransaction` and its changes), kept by a
/// store that tracks it in tables of Core Data's own, outside the model: `ATRANSACTION`,
/// `ACHANGE` and `ATRANSACTIONSTRING`, numbered from 16001 in `Z_PRIMARYKEY` (`TRANSACTION`,
/// `CHANGE`, `TRANSACTIONSTRING`). Sift reads them as three entities of those names:
///
/// | entity | attributes | relationships |
/// |---|---|---|
/// | `TRANSACTION` | `timestamp` (Date), `author`, `bundleID`, `contextName`, `processID` (String) | `changes` → `CHANGE`; `authorString`, `bundleIDString`, `contextNameString`, `processIDString` → `TRANSACTIONSTRING` |
/// | `CHANGE` | `changeType` (0 insert, 1 update, 2 delete), `entity` (the changed object's `Z_ENT`), `entityPK` (its `Z_PK`), `columns` (Binary: which columns an update changed) | `transaction` → `TRANSACTION` |
/// | `TRANSACTIONSTRING` | `name` | |
///
/// A column or table the store lacks leaves its property (or entity) out.
package enum CoreDataHistory {
    /// Whether the store described by `schema` keeps persistent history (its `ATRANSACTION`
    /// table is read as the entity `TRANSACTION`).
    package static func isKept(in schema: SQLSchema) -> Bool {
        schema.table(for: "TRANSACTION")?.table == "ATRANSACTION"
    }

    struct Attribute {
        let name: String
        let column: String
        let type: AttributeType
    }

    struct ToOne {
        let name: String
        let column: String
        let destination: String
        let inverse: String?
    }

    struct Entity {
        let name: String
        let table: String
        let attributes: [Attribute]
        let toOnes: [ToOne]
    }

    static let entities = [
        Entity(name: "TRANSACTION", table: "ATRANSACTION", attributes: [
            Attribute(name: "timestamp", column: "ZTIMESTAMP", type: .date),
            Attribute(name: "author", column: "ZAUTHOR", type: .string),
            Attribute(name: "bundleID", column: "ZBUNDLEID", type: .string),
            Attribute(name: "contextName", column: "ZCONTEXTNAME", type: .string),
            Attribute(name: "processID", column: "ZPROCESSID", type: .string),
        ], toOnes: [
            ToOne(name: "authorString", column: "ZAUTHORTS", destination: "TRANSACTIONSTRING", inverse: nil),
            ToOne(name: "bundleIDString", column: "ZBUNDLEIDTS", destination: "TRANSACTIONSTRING", inverse: nil),
            ToOne(name: "contextNameString", column: "ZCONTEXTNAMETS", destination: "TRANSACTIONSTRING", inverse: nil),
            ToOne(name: "processIDString", column: "ZPROCESSIDTS", destination: "TRANSACTIONSTRING", inverse: nil),
        ]),
        Entity(name: "CHANGE", table: "ACHANGE", attributes: [
            Attribute(name: "changeType", column: "ZCHANGETYPE", type: .integer64),
            Attribute(name: "entity", column: "ZENTITY", type: .integer64),
            Attribute(name: "entityPK", column: "ZENTITYPK", type: .integer64),
            Attribute(name: "columns", column: "ZCOLUMNS", type: .binary),
        ], toOnes: [
            ToOne(name: "transaction", column: "ZTRANSACTIONID", destination: "TRANSACTION", inverse: "changes"),
        ]),
        Entity(name: "TRANSACTIONSTRING", table: "ATRANSACTIONSTRING", attributes: [
            Attribute(name: "name", column: "ZNAME", type: .string),
        ], toOnes: []),
    ]
}

extension CoreDataHistory {
    /// The history entities `store` has (its tables, and `Z_PRIMARYKEY` naming them), each
    /// with the properties whose columns are there; none whose name `model` already uses.
    package static func descriptions(in store: CoreDataStoreSchema, besides model: DataModel) -> [EntityDescription] {
        let present = presentEntities(in: store, besides: model)
        let names = Set(present.map(\.name))
        return present.map { entity in
            var relationships = toOnes(of: entity, in: store, among: names).map {
                RelationshipDescription(name: $0.name, destination: $0.destination, inverse: $0.inverse)
            }
            for (source, toOne) in inverses(of: entity, in: store, among: present) {
                relationships.append(RelationshipDescription(name: toOne.inverse!, destination: source.name, isToMany: true, inverse: toOne.name))
            }
            return EntityDescription(name: entity.name, attributes: attributes(of: entity, in: store).map { AttributeDescription(name: $0.name, type: $0.type) },
                                     relationships: relationships)
        }
    }

    /// Where the history entities of `model` (those ``descriptions(in:besides:)`` added) live.
    static func tables(in store: CoreDataStoreSchema, model: DataModel, objectID: EntityTable.ObjectIDSource) -> [String: EntityTable] {
        let present = entities.filter { entity in
            model.entity(named: entity.name).map { $0.attributes.allSatisfy { attribute in entity.attributes.contains { $0.name == attribute.name } } } ?? false
        }
        let names = Set(present.map(\.name))
        var tables: [String: EntityTable] = [:]
        for entity in present {
            guard let description = model.entity(named: entity.name) else { continue }
            var storage: [String: RelationshipStorage] = [:]
            for toOne in toOnes(of: entity, in: store, among: names) {
                guard let destination = entities.first(where: { $0.name == toOne.destination }) else { continue }
                storage[toOne.name] = .foreignKey(column: toOne.column, destinationTable: destination.table, destinationKey: SQLSchema.coreDataPrimaryKey)
            }
            for (source, toOne) in inverses(of: entity, in: store, among: present) {
                storage[toOne.inverse!] = .inverseForeignKey(column: toOne.column, destinationTable: source.table, sourceKey: SQLSchema.coreDataPrimaryKey)
            }
            tables[entity.name] = EntityTable(
                entity: description, table: entity.table, primaryKey: SQLSchema.coreDataPrimaryKey, objectID: objectID,
                entityColumn: nil, entityNames: nil, hierarchyEntityNames: [entity.name],
                columns: Dictionary(uniqueKeysWithValues: attributes(of: entity, in: store).map { ($0.name, $0.column) }),
                relationships: storage)
        }
        return tables
    }

    /// `model` without the persistent-history entities `store` numbers as Core Data's own (a
    /// model Sift printed for such a store, `sift schema --json`, lists them beside the app's):
    /// they are the store's, read beside the model as ``descriptions(in:besides:)`` gives them.
    package static func removingHistoryEntities(from model: DataModel, in store: CoreDataStoreSchema) -> DataModel {
        let named = Set(store.primaryKeys.filter { $0.number > CoreDataStoreSchema.firstHistoryEntityNumber }.map(\.name))
        let history = Set(entities.map(\.name)).intersection(named)
        guard model.entities.contains(where: { history.contains($0.name) }) else { return model }
        let kept = model.entities.filter { !history.contains($0.name) }.map { entity in
            entity.declaration(relationships: entity.ownRelationships.filter { !history.contains($0.destination) })
        }
        return (try? DataModel(name: model.name, entities: kept)) ?? model
    }

    private static func presentEntities(in store: CoreDataStoreSchema, besides model: DataModel) -> [Entity] {
        let named = Set(store.primaryKeys.filter { $0.number > CoreDataStoreSchema.firstHistoryEntityNumber }.map(\.name))
        return entities.filter { named.contains($0.name) && model.entity(named: $0.name) == nil && store.has([SQLSchema.coreDataPrimaryKey], in: $0.table) }
    }

    private static func attributes(of entity: Entity, in store: CoreDataStoreSchema) -> [Attribute] {
        entity.attributes.filter { store.has([$0.column], in: entity.table) }
    }

    private static func toOnes(of entity: Entity, in store: CoreDataStoreSchema, among names: Set<String>) -> [ToOne] {
        entity.toOnes.filter { store.has([$0.column], in: entity.table) && names.contains($0.destination) }
    }

    /// The to-ones of other present entities that point at `entity` and name an inverse.
    private static func inverses(of entity: Entity, in store: CoreDataStoreSchema, among present: [Entity]) -> [(Entity, ToOne)] {
        let names = Set(present.map(\.name))
        return present.flatMap { source in
            toOnes(of: source, in: store, among: names).filter { $0.destination == entity.name && $0.inverse != nil }.map { (source, $0) }
        }
    }
}
