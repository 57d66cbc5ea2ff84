import Foundation
import SiftSQLite
import SiftStore

/// Versions of a Sift SQLite store's layout (`"sift.metadata"`'s `version`), and bringing an
/// older store up to date. A store is migrated inside the first write transaction that changes
/// it, never when it is only read.
///
/// - Version 1: an unordered to-many join table numbers its rows 0, 1, 2… in their destinations'
///   key order; uniqueness constraints are UNIQUE indexes.
/// - Version 2: an unordered to-many join table's `"_position"` is the destination's key (the
///   same order, without renumbering when one is added); uniqueness constraints are plain indexes,
///   checked at save, since pending changes may break a constraint for a while, as in every store.
enum StoreLayoutMigration {
    static let currentVersion: Int64 = 2

    /// Migrates the store to ``currentVersion``, inside the open transaction. A store written by
    /// a newer Sift is refused.
    static func migrate(database: SQLiteDatabase, schema: SQLSchema) throws(StoreError) {
        let q = SQLIdentifier.quoted
        let metadata = q(SQLSchema.metadataTable)
        do {
            let version: Int64
            switch try database.scalar("SELECT \(q("value")) FROM \(metadata) WHERE \(q("key")) = 'version'") {
            case .integer(let n): version = n
            case .text(let text): version = Int64(text) ?? 0
            default: version = 0
            }
            guard version < currentVersion else {
                if version > currentVersion {
                    throw StoreError(.unsupportedModel, "this store was written by a newer Sift (layout version \(version)); this one writes version \(currentVersion)")
                }
                return
            }
            let model = schema.model
            // Unordered join tables: positions become the destinations' keys, through negative
            // numbers so no two rows of an owner share a position on the way.
            var done: Set<String> = []
            for entity in model.entities {
                for relationship in entity.ownRelationships where relationship.isToMany && !relationship.isOrdered {
                    guard case .joinTable(let name, _) = SQLSchema.storage(of: relationship, in: entity, model: model),
                          done.insert(name).inserted else { continue }
                    let position = q(SQLSchema.positionColumn), target = q(SQLSchema.targetColumn)
                    try database.execute("UPDATE \(q(name)) SET \(position) = -1 - \(target)")
                    try database.execute("UPDATE \(q(name)) SET \(position) = -1 - \(position)")
                }
            }
            // Constraint indexes: UNIQUE no more.
            for root in model.entities where root.parent == nil {
                for index in SchemaDDL.constraintIndexes(root: root, model: model) {
                    try database.execute("DROP INDEX IF EXISTS \(q(index.name))")
                    try database.execute(index.create)
                }
            }
            try database.run("UPDATE \(metadata) SET \(q("value")) = ?1 WHERE \(q("key")) = 'version'", [.integer(currentVersion)])
        } catch let error as StoreError {
            throw error
        } catch {
            throw SQLiteStore.storeError(error, file: database.path.map(URL.init(fileURLWithPath:)))
        }
    }
}
