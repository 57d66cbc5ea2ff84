import CoreDataFixtures
import Foundation
import SiftSQLite
@testable import SiftStore

/// A fixture store's real schema and model cache, read with SQLite through an immutable,
/// read-only URI (no lock, no `-shm`, no write), for the tests of ``CoreDataLayout``.
enum CoreDataFixtureSchema {
    /// Opens `store` read-only and immutable.
    static func open(_ store: String) throws -> SQLiteDatabase {
        let path = CoreDataFixtures.url(store).path
        let escaped = path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "?", with: "%3f").replacingOccurrences(of: "#", with: "%23")
        return try SQLiteDatabase(path: "file:\(escaped)?mode=ro&immutable=1", options: [.readOnly])
    }

    /// The store's tables (not SQLite's own), their columns and declared types, its indexes,
    /// and its `Z_PRIMARYKEY` rows.
    static func read(_ store: String) throws -> CoreDataStoreSchema {
        let database = try open(store)
        var tables: [CoreDataStoreSchema.Table] = []
        var indexes: [CoreDataStoreSchema.Index] = []
        let names = try database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
        var tableNames: [String] = []
        while try names.step() { tableNames.append(names.text(0)) }
        for name in tableNames {
            let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let info = try database.prepare("PRAGMA table_info(\(quoted))")
            var columns: [CoreDataStoreSchema.Column] = []
            while try info.step() { columns.append(.init(name: info.text(1), declaredType: info.text(2))) }
            tables.append(.init(name: name, columns: columns))
            let list = try database.prepare("PRAGMA index_list(\(quoted))")
            var found: [(String, Bool, String)] = []
            while try list.step() { found.append((list.text(1), list.int64(2) != 0, list.text(3))) }
            for (index, unique, origin) in found where origin == "c" {
                let columnsOf = try database.prepare("PRAGMA index_info(\"\(index.replacingOccurrences(of: "\"", with: "\"\""))\")")
                var covered: [String] = []
                while try columnsOf.step() { covered.append(columnsOf.text(2)) }
                indexes.append(.init(name: index, table: name, columns: covered, isUnique: unique))
            }
        }
        var rows: [CoreDataStoreSchema.PrimaryKeyRow] = []
        let keys = try database.prepare("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        while try keys.step() {
            rows.append(.init(number: Int(keys.int64(0)), name: keys.text(1), superNumber: Int(keys.int64(2)), maximumKey: keys.int64(3)))
        }
        return CoreDataStoreSchema(tables: tables, indexes: indexes, primaryKeys: rows)
    }

    /// The store's `Z_MODELCACHE.Z_CONTENT`; nil for a NULL or missing cache.
    static func modelCache(_ store: String) throws -> Data? {
        let database = try open(store)
        guard case .integer(let tables) = try database.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'Z_MODELCACHE'"), tables == 1 else { return nil }
        let statement = try database.prepare("SELECT Z_CONTENT FROM Z_MODELCACHE")
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return Data(statement.blob(0))
    }

    /// The model of `store`'s cache.
    static func model(_ store: String) throws -> CoreDataModel? {
        guard let cache = try modelCache(store) else { return nil }
        return try CoreDataModel(modelCache: cache)
    }
}

extension CoreDataFixtureSchema {
    /// The store's `Z_METADATA.Z_PLIST` (a binary property list); nil for a NULL one.
    static func metadata(_ store: String) throws -> [String: Any]? {
        let database = try open(store)
        let statement = try database.prepare("SELECT Z_PLIST FROM Z_METADATA")
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return try PropertyListSerialization.propertyList(from: Data(statement.blob(0)), format: nil) as? [String: Any]
    }

    /// The store's `NSStoreModelVersionHashes`: entity name to its 32-byte hash.
    static func versionHashes(_ store: String) throws -> [String: Data] {
        guard let hashes = try metadata(store)?["NSStoreModelVersionHashes"] as? [String: Any] else { return [:] }
        return hashes.compactMapValues { $0 as? Data }
    }
}
