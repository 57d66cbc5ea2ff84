import Foundation
import SiftSQL
import SiftStore

/// The statements that make an empty store in Core Data's layout for a model, as Core Data
/// makes them (docs/COREDATA-STORES.md, "Creating a store"): compared with the fixture stores
/// made from the same models, the same tables, columns, declared types and indexes.
///
/// - an entity table per inheritance root, `Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT
///   INTEGER` and then its columns (``CoreDataLayout``); an index `<TABLE>_<COLUMN>_INDEX` on
///   each to-one's key column, and `<TABLE>_Z_ENT_INDEX` where the table holds sub-entities;
/// - a join table per many-to-many relationship, its two key columns its primary key, with an
///   index `<TABLE>_<SECOND>_INDEX` on the second and then the first;
/// - each uniqueness constraint as `Z_<Entity>_UNIQUE_<names>`, each fetch index as
///   `Z_<Entity>_by<Names>Index` (a model file's index names are not kept), their columns
///   `COLLATE BINARY ASC` (an index of one to-one alone is its key column's index);
/// - `Z_PRIMARYKEY`, `Z_METADATA` and `Z_MODELCACHE`.
enum CoreDataStoreDDL {
    static let primaryKeyTable = "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
    static let metadataTable = "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"
    static let modelCacheTable = "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"

    /// The `CREATE TABLE` and `CREATE INDEX` statements for `model` laid out as `layout`.
    static func statements(for layout: CoreDataLayout, model: DataModel) -> [String] {
        var statements: [String] = []
        for table in layout.tables {
            switch table.kind {
            case .entity(let root):
                let columns = table.columns.map { column in
                    column.role == .primaryKey ? "\(column.name) INTEGER PRIMARY KEY" : "\(column.name) \(column.declaredType)"
                }
                statements.append("CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )")
                for column in table.columns {
                    if case .toOne = column.role {
                        statements.append("CREATE INDEX \(table.name)_\(column.name)_INDEX ON \(table.name) (\(column.name))")
                    }
                }
                if (layout.entity(named: root)?.kindNumbers.count ?? 1) > 1 {
                    statements.append("CREATE INDEX \(table.name)_Z_ENT_INDEX ON \(table.name) (Z_ENT)")
                }
            case .join:
                let keys = table.columns.filter { column in
                    switch column.role {
                    case .joinOwner, .joinDestination: true
                    default: false
                    }
                }.map(\.name)
                let columns = table.columns.map { "\($0.name) \($0.declaredType)" }
                guard keys.count == 2 else {
                    statements.append("CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )")
                    continue
                }
                statements.append("CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")), PRIMARY KEY (\(keys[0]), \(keys[1])) )")
                statements.append("CREATE INDEX \(table.name)_\(keys[1])_INDEX ON \(table.name) (\(keys[1]), \(keys[0]))")
            }
        }
        for entity in model.entities {
            guard let table = layout.entity(named: entity.name)?.table else { continue }
            for names in entity.uniquenessConstraints {
                guard let columns = indexColumns(names, entity: entity.name, layout: layout) else { continue }
                statements.append("CREATE UNIQUE INDEX Z_\(entity.name)_UNIQUE_\(names.joined(separator: "_")) ON \(table) (\(columns))")
            }
            for names in entity.indexes {
                // One to-one alone: its key column's index is made already.
                if names.count == 1, case .toOne? = layout.mapping(entity: entity.name, property: names[0]) { continue }
                guard let columns = indexColumns(names, entity: entity.name, layout: layout) else { continue }
                let name = "by" + names.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + "Index"
                statements.append("CREATE INDEX Z_\(entity.name)_\(name) ON \(table) (\(columns))")
            }
        }
        statements += [primaryKeyTable, metadataTable, modelCacheTable]
        return statements
    }

    /// The columns of an index over `names` of `entity`, `COLLATE BINARY ASC` each; nil where a
    /// name is no attribute or to-one of the entity.
    private static func indexColumns(_ names: [String], entity: String, layout: CoreDataLayout) -> String? {
        var columns: [String] = []
        for name in names {
            switch layout.mapping(entity: entity, property: name) {
            case .attribute(_, let column)?, .toOne(_, let column, _, _)?: columns.append("\(column) COLLATE BINARY ASC")
            default: return nil
            }
        }
        return columns.isEmpty ? nil : columns.joined(separator: ", ")
    }

    /// The `Z_PRIMARYKEY` rows: each entity's number, name, parent's number and a `Z_MAX` of 0.
    static func primaryKeyRows(of layout: CoreDataLayout) -> [(number: Int, name: String, superNumber: Int)] {
        layout.entities.map { ($0.number, $0.name, $0.superNumber) }
    }

    /// The key under which a store Sift created keeps its model (as Sift's model JSON) in its
    /// metadata, beside Core Data's own keys: Core Data keeps keys it does not know, as it keeps
    /// an app's own metadata.
    static let siftModelKey = "SiftModel"

    /// `Z_METADATA.Z_PLIST`: the binary property list Core Data keeps — the store type, the
    /// entities' version hashes, their format and digest, the model's version identifiers, the
    /// framework version and SQLite's auto-vacuum level — and Sift's model JSON.
    static func metadata(hashes: [String: Data], versionIdentifiers: [String], modelJSON: String) throws -> Data {
        let plist: [String: Any] = [
            "NSStoreType": "SQLite",
            "NSStoreModelVersionHashes": hashes,
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionHashesDigest": CoreDataModel.versionHashesDigest(hashes),
            "NSStoreModelVersionIdentifiers": versionIdentifiers.isEmpty ? [""] : versionIdentifiers,
            "NSPersistenceFrameworkVersion": 1145,
            "_NSAutoVacuumLevel": "2",
            siftModelKey: modelJSON,
        ]
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }
}
