import Foundation
import SiftSQL
import SiftSQLite
import SiftStore

/// What a SQLite database in Core Data's layout says of itself, read with plain queries (no
/// write, no pragma that changes anything): its tables, columns, indexes and `Z_PRIMARYKEY` rows
/// (``CoreDataStoreSchema``), its store UUID (`Z_METADATA.Z_UUID`) and its model cache
/// (`Z_MODELCACHE.Z_CONTENT`).
enum CoreDataStoreFile {
    /// Whether the database has Core Data's bookkeeping tables, `Z_PRIMARYKEY` and `Z_METADATA`
    /// (the content decides, whatever the file's name).
    static func isCoreDataStore(_ database: SQLiteDatabase) throws(SQLiteError) -> Bool {
        let found = try database.scalar("""
            SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND upper(name) IN ('Z_PRIMARYKEY', 'Z_METADATA')
            """)
        return found == .integer(2)
    }

    /// The tables (not SQLite's own) in the database's order, their columns and declared types,
    /// the indexes created by `CREATE INDEX` (as Core Data names its own), and `Z_PRIMARYKEY`'s
    /// rows. A `Z_PRIMARYKEY` without Core Data's columns is an error.
    static func schema(of database: SQLiteDatabase) throws(SQLiteError) -> CoreDataStoreSchema {
        var tables: [CoreDataStoreSchema.Table] = []
        var indexes: [CoreDataStoreSchema.Index] = []
        let names = try database.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid")
        for row in names {
            guard case .text(let name) = row.first else { continue }
            let columns = try database.rows(#"SELECT "name", "type" FROM pragma_table_info(?1) ORDER BY "cid""#, [.text(name)]).map { column in
                CoreDataStoreSchema.Column(name: text(column[0]), declaredType: text(column[1]))
            }
            tables.append(.init(name: name, columns: columns))
            for index in try database.rows(#"SELECT "name", "unique" FROM pragma_index_list(?1) WHERE "origin" = 'c'"#, [.text(name)]) {
                let indexName = text(index[0])
                let covered = try database.rows(#"SELECT "name" FROM pragma_index_info(?1) ORDER BY "seqno""#, [.text(indexName)]).map { text($0[0]) }
                indexes.append(.init(name: indexName, table: name, columns: covered, isUnique: index[1] == .integer(1)))
            }
        }
        var primaryKeys: [CoreDataStoreSchema.PrimaryKeyRow] = []
        for row in try database.rows(#"SELECT "Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX" FROM "Z_PRIMARYKEY" ORDER BY "Z_ENT""#) {
            guard case .integer(let number) = row[0], let number = Int(exactly: number) else { continue }
            let superNumber: Int
            if case .integer(let value) = row[2], let value = Int(exactly: value) { superNumber = value } else { superNumber = 0 }
            let maximum: Int64
            if case .integer(let value) = row[3] { maximum = value } else { maximum = 0 }
            primaryKeys.append(.init(number: number, name: text(row[1]), superNumber: superNumber, maximumKey: maximum))
        }
        return CoreDataStoreSchema(tables: tables, indexes: indexes, primaryKeys: primaryKeys)
    }

    /// The store's UUID (`Z_METADATA.Z_UUID` of its one row), the host part of its object URIs;
    /// nil when it has none.
    static func storeUUID(of database: SQLiteDatabase) throws(SQLiteError) -> String? {
        guard case .text(let uuid) = try database.scalar(#"SELECT "Z_UUID" FROM "Z_METADATA" ORDER BY "Z_VERSION" LIMIT 1"#), !uuid.isEmpty else { return nil }
        return uuid
    }

    /// The store's metadata, `Z_METADATA.Z_PLIST` of its one row (a binary property list):
    /// nil when it is NULL, or is no property list Foundation may safely be given
    /// (``BinaryPropertyListScreen``), or no dictionary.
    static func metadata(of database: SQLiteDatabase) throws(SQLiteError) -> [String: Any]? {
        guard case .blob(let bytes) = try database.scalar(#"SELECT "Z_PLIST" FROM "Z_METADATA" ORDER BY "Z_VERSION" LIMIT 1"#) else { return nil }
        let data = Data(bytes)
        guard BinaryPropertyListScreen.refusal(data) == nil else { return nil }
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
    }

    /// The compressed model in `Z_MODELCACHE`; nil when there is no such table, no row, or a
    /// NULL (a store written before Core Data kept one, or one that dropped it).
    static func modelCache(of database: SQLiteDatabase) throws(SQLiteError) -> Data? {
        let tables = try database.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND upper(name) = 'Z_MODELCACHE'")
        guard tables == .integer(1) else { return nil }
        guard case .blob(let bytes) = try database.scalar(#"SELECT "Z_CONTENT" FROM "Z_MODELCACHE" LIMIT 1"#) else { return nil }
        return Data(bytes)
    }

    private static func text(_ value: SQLiteValue) -> String {
        switch value {
        case .text(let text): text
        case .integer(let i): String(i)
        default: ""
        }
    }
}
