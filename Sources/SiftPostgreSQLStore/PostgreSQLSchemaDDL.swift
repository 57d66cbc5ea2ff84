import SiftPostgreSQL
import SiftSQL
import SiftStore

/// The CREATE statements of a PostgreSQL store for a model: the layout of the SQLite store
/// (``SQLSchema``: a table per entity hierarchy with `"_pk"`, `"_id"`, `"_entity"`, a column per
/// attribute and per to-one, join tables `"_owner"`, `"_target"`, `"_position"`) in PostgreSQL
/// types (``PostgreSQLColumnCodec``), a hash index and a unique MD5 index on `"_id"`, an index on
/// every to-one column, on `"_entity"` and on each
/// join table's `"_target"`, and the metadata table `"sift.metadata"`.
///
/// Every searchable attribute — in a store of layout 2, every String attribute
/// (``PostgreSQLStore/searchableModel(_:)``) — has hidden columns beside it, written with it:
/// its `[cd]` and `[c]` folds (`_cd_<name>`, `_c_<name>`) and `localizedStandardCompare`'s sort
/// key (`_s_<name>`), so `[c]`/`[cd]` tests and sorts with every comparator run in the server.
package enum PostgreSQLSchemaDDL {
    /// PostgreSQL truncates longer identifiers (63 bytes); a model needing one is refused.
    static let identifierLimit = 63

    package static func statements(for schema: SQLSchema) throws(StoreError) -> [String] {
        let model = schema.model
        var statements: [String] = [
            "CREATE TABLE \(q(SQLSchema.metadataTable)) (\(q("key")) text PRIMARY KEY, \(q("value")) text NOT NULL)",
        ]
        for root in model.entities where root.parent == nil {
            try checkName(root.name)
            var columns = [
                "\(q(SQLSchema.primaryKeyColumn)) bigint PRIMARY KEY",
                "\(q(SQLSchema.idColumn)) text NOT NULL",
                "\(q(SQLSchema.entityColumn)) text NOT NULL",
            ]
            var declared: [String: String] = [:]
            var foreignKeys: [String] = []
            for entity in root.entityAndSubentities.compactMap(model.entity(named:)) {
                for attribute in entity.ownAttributes {
                    guard let type = PostgreSQLColumnCodec.columnType(attribute.type) else {
                        throw StoreError(.unsupportedModel, "\(entity.name).\(attribute.name): a PostgreSQL store cannot hold undefined attributes (a column has one type)", entity: entity.name)
                    }
                    if let previous = declared[attribute.name] {
                        guard previous == type else {
                            throw StoreError(.unsupportedModel, "\(entity.name).\(attribute.name): entities of one hierarchy give this attribute the PostgreSQL types \(previous) and \(type); one column holds one type", entity: entity.name)
                        }
                        continue
                    }
                    try checkName(attribute.name)
                    declared[attribute.name] = type
                    // Text in code-point order (SQLite's BINARY, the evaluator's), whatever
                    // the database's collation.
                    columns.append("\(q(attribute.name)) \(type)" + (type == "text" ? " COLLATE \"C\"" : ""))
                }
                // A searchable attribute's hidden columns (every text attribute's, in a store
                // of layout 2): its [cd] and [c] folds and localizedStandardCompare's sort key.
                for attribute in entity.ownAttributes where attribute.isSearchable {
                    for fold in [SearchFold.caseAndDiacritics, .caseOnly, .standardSortKey] where declared[fold.column(attribute.name)] == nil {
                        try checkName(fold.column(attribute.name))
                        declared[fold.column(attribute.name)] = "text"
                        columns.append("\(q(fold.column(attribute.name))) text COLLATE \"C\"")
                    }
                }
                for relationship in entity.ownRelationships where !relationship.isToMany && declared[relationship.name] == nil {
                    try checkName(relationship.name)
                    declared[relationship.name] = "bigint"
                    columns.append("\(q(relationship.name)) bigint")
                    foreignKeys.append(relationship.name)
                }
            }
            statements.append("CREATE TABLE \(q(root.name)) (\(columns.joined(separator: ", ")))")
            // Object IDs of any length: found through a hash index (a B-tree entry holds at most
            // about 2700 bytes), kept unique by a unique index on their MD5 (the store rules
            // check IDs before inserting; this guards against other writers).
            statements.append("CREATE INDEX ON \(q(root.name)) USING hash (\(q(SQLSchema.idColumn)))")
            statements.append("CREATE UNIQUE INDEX ON \(q(root.name)) (md5(\(q(SQLSchema.idColumn))))")
            if root.entityAndSubentities.count > 1 {
                statements.append("CREATE INDEX ON \(q(root.name)) (\(q(SQLSchema.entityColumn)))")
            }
            for column in foreignKeys {
                statements.append("CREATE INDEX ON \(q(root.name)) (\(q(column)))")
            }
            statements += declaredIndexes(root: root, model: model, types: declared)
        }
        var joinTables: Set<String> = []
        for entity in model.entities {
            for relationship in entity.ownRelationships {
                guard case .joinTable(let name, _, _) = schema.table(for: entity.name)?.relationships[relationship.name],
                      joinTables.insert(name).inserted else { continue }
                try checkName(name)
                let owner = q(SQLSchema.ownerColumn), target = q(SQLSchema.targetColumn), position = q(SQLSchema.positionColumn)
                statements.append("CREATE TABLE \(q(name)) (\(owner) bigint NOT NULL, \(target) bigint NOT NULL, \(position) bigint NOT NULL, PRIMARY KEY (\(owner), \(position)))")
                statements.append("CREATE INDEX ON \(q(name)) (\(target))")
            }
        }
        return statements
    }

    /// The entities' declared indexes and their uniqueness constraints' indexes (partial, on the
    /// entity's rows, for a sub-entity), as SQLite's store makes them: each column as compiled
    /// fetches read it (a boolean as an integer, a double with NaN as NULL; `PostgreSQLDialect`)
    /// and NULL first, SQLite's order, so the index serves sorts both ways.
    static func declaredIndexes(root: EntityDescription, model: DataModel, types: [String: String]) -> [String] {
        var statements: [String] = []
        var made: Set<String> = []
        for entity in root.entityAndSubentities.compactMap(model.entity(named:)) {
            let filter = entity.name == root.name ? "" :
                " WHERE \(q(SQLSchema.entityColumn)) IN (\(entity.entityAndSubentities.map(SQLStringLiteral.quoted).joined(separator: ", ")))"
            for columns in entity.indexes + entity.uniquenessConstraints where !columns.isEmpty {
                let keys = columns.map { column -> String in
                    let read = switch types[column] {
                    case "boolean": "(\(q(column))::integer)"
                    case "double precision": "(nullif(\(q(column)), 'NaN'))"
                    default: q(column)
                    }
                    return read + " NULLS FIRST"
                }
                let statement = "CREATE INDEX ON \(q(root.name)) (\(keys.joined(separator: ", ")))\(filter)"
                if made.insert(statement).inserted { statements.append(statement) }
            }
        }
        return statements
    }

    /// A table or column name PostgreSQL keeps whole.
    static func checkName(_ name: String) throws(StoreError) {
        guard name.utf8.count <= identifierLimit else {
            throw StoreError(.unsupportedModel, "'\(name)' is longer than PostgreSQL's \(identifierLimit)-byte identifiers")
        }
        guard !name.utf8.contains(0) else {
            throw StoreError(.unsupportedModel, "a PostgreSQL identifier cannot hold the NUL character")
        }
    }
}

/// A name from the model, quoted.
func q(_ name: String) -> String { PostgreSQLIdentifier.quoted(name) }
