import CSQLite
import Foundation
import SiftSQL
import SiftSQLStore
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
/// - Version 3: a Decimal is its canonical TEXT (``DecimalText``) in a column declared `TEXT`,
///   where version 2 held the double nearest it in a `REAL` column (which turns text that looks
///   like a number into a REAL, so the column's declared type changes: the table is made again).
/// - Version 4: a searchable attribute has hidden columns holding its `[cd]`- and `[c]`-folded
///   text, indexed (``SearchFold``). A store whose stored model marks an attribute searchable
///   without its columns (one of an older layout) gains them — added, filled by the registered
///   folding function, indexed — whatever its version.
///
/// Migrating may change the schema (indexes, tables), which SQLite refuses while a statement of
/// the connection is still being read — a fetch's objects still being iterated: the change then
/// fails before anything changed, says so, and the reading goes on.
enum StoreLayoutMigration {
    static let currentVersion: Int64 = 4

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
            if version > currentVersion {
                throw StoreError(.unsupportedModel, "this store was written by a newer Sift (layout version \(version)); this one writes version \(currentVersion)")
            }
            let missingSearchColumns = !schema.searchColumns.isPresent
            guard version < currentVersion || missingSearchColumns else { return }
            let model = schema.model
            let changesSchema = (version < 2 && model.entities.contains { !$0.uniquenessConstraints.isEmpty })
                || (version < 3 && model.entities.contains { $0.ownAttributes.contains { $0.type == .decimal } })
                || missingSearchColumns
            if changesSchema, database.hasStatementsInProgress { throw inProgress }
            if version < 2 { try toVersionTwo(database: database, model: model) }
            if version < 3 { try toVersionThree(database: database, model: model) }
            if missingSearchColumns { try addSearchColumns(database: database, schema: schema) }
            if version < currentVersion {
                try database.run("UPDATE \(metadata) SET \(q("value")) = ?1 WHERE \(q("key")) = 'version'", [.integer(currentVersion)])
            }
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError where error.primaryCode == SQLITE_LOCKED {
            throw inProgress.suffixed(" (SQLite: \(error.message))")
        } catch {
            throw SQLiteStore.storeError(error, file: database.path.map(URL.init(fileURLWithPath:)))
        }
    }

    /// Why an older store cannot be brought up to date now.
    private static let inProgress = StoreError(
        .locked, "this store was written by an earlier Sift and is brought up to date by its first change, which cannot run while a fetch's objects are still being read; finish reading them, then make the change")

    /// Version 1 to 2: positions of unordered join tables, constraint indexes.
    private static func toVersionTwo(database: SQLiteDatabase, model: DataModel) throws {
        let q = SQLIdentifier.quoted
        // Unordered join tables: positions become the destinations' keys, through negative
        // numbers so no two rows of an owner share a position on the way.
        var done: Set<String> = []
        for entity in model.entities {
            for relationship in entity.ownRelationships where relationship.isToMany && !relationship.isOrdered {
                guard case .joinTable(let name, _, _) = SQLSchema.storage(of: relationship, in: entity, model: model),
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
    }

    /// Version 2 to 3: each table holding Decimal attributes is made again with its columns
    /// declared as version 3 declares them, the rows copied with every decimal as its canonical
    /// text (`sift_decimal_text`, which reads the REAL as the store read it), then its indexes.
    /// Keys are kept, so join tables and foreign keys still point at the same rows.
    private static func toVersionThree(database: SQLiteDatabase, model: DataModel) throws {
        let q = SQLIdentifier.quoted
        for root in model.entities where root.parent == nil {
            let hierarchy = root.entityAndSubentities.compactMap(model.entity(named:))
            // Column → the entities whose rows hold a decimal in it.
            var decimalRows: [String: Set<String>] = [:]
            for entity in hierarchy {
                for attribute in entity.attributes where attribute.type == .decimal { decimalRows[attribute.name, default: []].insert(entity.name) }
            }
            guard !decimalRows.isEmpty else { continue }
            let columns = SchemaDDL.columns(root: root, model: model).columns.map(\.name)
            let folded = Dictionary(SchemaDDL.searchColumns(root: root, model: model).map { ($0.column, $0) }, uniquingKeysWith: { a, _ in a })
            let values = columns.map { column -> String in
                // (A hidden folded column is computed again: the old table may not have it.)
                if let hidden = folded[column] { return hidden.fold.sql(from: q(hidden.attribute)) }
                guard let entities = decimalRows[column] else { return q(column) }
                let text = "\(SiftSQLFunctions.decimalTextFunction)(\(q(column)))"
                if entities.count == hierarchy.count { return text }
                let list = entities.sorted().map(SchemaDDL.literal).joined(separator: ", ")
                return "CASE WHEN \(q(SQLSchema.entityColumn)) IN (\(list)) THEN \(text) ELSE \(q(column)) END"
            }
            let rebuilt = "\(root.name).sift-layout-3"
            try database.execute(SchemaDDL.createTable(root: root, model: model, name: rebuilt))
            try database.execute("INSERT INTO \(q(rebuilt)) (\(columns.map(q).joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(q(root.name))")
            try database.execute("DROP TABLE \(q(root.name))")
            try database.execute("ALTER TABLE \(q(rebuilt)) RENAME TO \(q(root.name))")
            for index in SchemaDDL.indexes(root: root, model: model) { try database.execute(index) }
        }
    }

    /// The hidden folded columns of searchable attributes (``SearchFold``) that the database
    /// lacks: each added, filled from its attribute's column by the registered folding function
    /// (`sift_fold`, the evaluator's `StringFolding.fold`), and indexed.
    private static func addSearchColumns(database: SQLiteDatabase, schema: SQLSchema) throws {
        let q = SQLIdentifier.quoted
        for (table, hidden) in schema.searchColumnsByTable {
            let existing = try SearchColumnPresence.columnNames(of: table, in: database)
            for column in hidden where !existing.contains(column.column) {
                try database.execute("ALTER TABLE \(q(table)) ADD COLUMN \(q(column.column)) TEXT")
                try database.execute("UPDATE \(q(table)) SET \(q(column.column)) = \(column.fold.sql(from: q(column.attribute)))")
                try database.execute(SchemaDDL.searchIndex(table: table, column: column.column))
            }
        }
        schema.searchColumns.isPresent = true
    }
}
