import SiftStore

/// The CREATE statements of a store Sift creates for a model (the layout ``SQLSchema``
/// describes): a table per entity hierarchy, join tables, the declared indexes, an index per
/// uniqueness constraint, an index on every foreign-key column, an index on each hidden folded
/// column of a searchable attribute, and the metadata table.
package enum SchemaDDL {
    package static func statements(for schema: SQLSchema) -> [String] {
        let model = schema.model
        var statements: [String] = [
            "CREATE TABLE \(q(SQLSchema.metadataTable)) (\(q("key")) TEXT PRIMARY KEY NOT NULL, \(q("value")))",
        ]
        for root in model.entities where root.parent == nil {
            statements.append(createTable(root: root, model: model))
            statements += indexes(root: root, model: model)
        }
        var joinTables: Set<String> = []
        for entity in model.entities {
            for relationship in entity.ownRelationships {
                guard case .joinTable(let name, _, _) = SQLSchema.storage(of: relationship, in: entity, model: model),
                      joinTables.insert(name).inserted else { continue }
                statements.append("""
                    CREATE TABLE \(q(name)) (\(q(SQLSchema.ownerColumn)) INTEGER NOT NULL, \(q(SQLSchema.targetColumn)) INTEGER NOT NULL, \
                    \(q(SQLSchema.positionColumn)) INTEGER NOT NULL, PRIMARY KEY (\(q(SQLSchema.ownerColumn)), \(q(SQLSchema.positionColumn)))) WITHOUT ROWID
                    """)
                statements.append("CREATE INDEX \(q("\(name)._target")) ON \(q(name)) (\(q(SQLSchema.targetColumn)))")
            }
        }
        return statements
    }

    /// The columns of a hierarchy's table, in order, with their declared types ("" for none),
    /// and which of them are to-one foreign keys.
    package static func columns(root: EntityDescription, model: DataModel) -> (columns: [(name: String, type: String)], foreignKeys: [String]) {
        var columns: [(name: String, type: String)] = [
            (SQLSchema.primaryKeyColumn, "INTEGER PRIMARY KEY"), (SQLSchema.idColumn, "TEXT NOT NULL UNIQUE"), (SQLSchema.entityColumn, "TEXT NOT NULL"),
        ]
        var declared: [String: String] = [:]
        var order: [String] = []
        var foreignKeys: [String] = []
        for entity in root.entityAndSubentities.compactMap(model.entity(named:)) {
            for attribute in entity.ownAttributes {
                let type = ColumnCodec.declaredType(attribute.type)
                if let previous = declared[attribute.name] {
                    // Sibling sub-entities may give one name different types: no affinity then.
                    if previous != type { declared[attribute.name] = "" }
                } else {
                    declared[attribute.name] = type
                    order.append(attribute.name)
                }
            }
            for relationship in entity.ownRelationships where !relationship.isToMany {
                if declared[relationship.name] == nil {
                    declared[relationship.name] = "INTEGER"
                    order.append(relationship.name)
                    foreignKeys.append(relationship.name)
                }
            }
        }
        columns += order.map { ($0, declared[$0] ?? "") }
        columns += searchColumns(root: root, model: model).map { ($0.column, "TEXT") }
        return (columns, foreignKeys)
    }

    /// The hidden folded columns of a hierarchy's table (``SearchFold``): for each attribute
    /// column that an entity of the hierarchy marks searchable, `_cd_<column>` then `_c_<column>`.
    package static func searchColumns(root: EntityDescription, model: DataModel) -> [(attribute: String, fold: SearchFold, column: String)] {
        var attributes: [String] = []
        for entity in root.entityAndSubentities.compactMap(model.entity(named:)) {
            for attribute in entity.ownAttributes where attribute.isSearchable && !attributes.contains(attribute.name) {
                attributes.append(attribute.name)
            }
        }
        return attributes.flatMap { attribute in SearchFold.predicateFolds.map { (attribute, $0, $0.column(attribute)) } }
    }

    /// `CREATE INDEX IF NOT EXISTS "<table>.<hidden column>"` on one hidden folded column.
    package static func searchIndex(table: String, column: String) -> String {
        "CREATE INDEX IF NOT EXISTS \(q("\(table).\(column)")) ON \(q(table)) (\(q(column)))"
    }

    /// `CREATE TABLE` of a hierarchy's table, named `name` (the root entity's name unless said).
    package static func createTable(root: EntityDescription, model: DataModel, name: String? = nil) -> String {
        let definitions = columns(root: root, model: model).columns.map { $0.type.isEmpty ? q($0.name) : "\(q($0.name)) \($0.type)" }
        return "CREATE TABLE \(q(name ?? root.name)) (\(definitions.joined(separator: ", ")))"
    }

    /// The indexes of a hierarchy's table: on the entity column (of a table several entities
    /// share), on each foreign key, the entities' declared indexes and their uniqueness
    /// constraints' indexes.
    package static func indexes(root: EntityDescription, model: DataModel) -> [String] {
        let hierarchy = root.entityAndSubentities.compactMap(model.entity(named:))
        var statements: [String] = []
        if hierarchy.count > 1 {
            statements.append("CREATE INDEX \(q("\(root.name)._entity")) ON \(q(root.name)) (\(q(SQLSchema.entityColumn)))")
        }
        for column in columns(root: root, model: model).foreignKeys {
            statements.append("CREATE INDEX \(q("\(root.name).\(column)")) ON \(q(root.name)) (\(q(column)))")
        }
        for entity in hierarchy {
            let filter = entity.name == root.name ? "" :
                " WHERE \(q(SQLSchema.entityColumn)) IN (\(entity.entityAndSubentities.map(literal).joined(separator: ", ")))"
            for (n, index) in entity.indexes.enumerated() where !index.isEmpty {
                let name = "\(entity.name).index\(n + 1).\(index.joined(separator: "."))"
                statements.append("CREATE INDEX \(q(name)) ON \(q(root.name)) (\(index.map(q).joined(separator: ", ")))\(filter)")
            }
        }
        for hidden in searchColumns(root: root, model: model) {
            statements.append(searchIndex(table: root.name, column: hidden.column))
        }
        return statements + constraintIndexes(root: root, model: model).map(\.create)
    }

    /// The index of each uniqueness constraint of a hierarchy's entities (partial, on the
    /// entity's rows, for a sub-entity). Not UNIQUE: a constraint holds at save, so pending
    /// changes may break it for a while, as in every store (the save's check reads this index).
    package static func constraintIndexes(root: EntityDescription, model: DataModel) -> [(name: String, create: String)] {
        var indexes: [(name: String, create: String)] = []
        for entity in root.entityAndSubentities.compactMap(model.entity(named:)) {
            let filter = entity.name == root.name ? "" :
                " WHERE \(q(SQLSchema.entityColumn)) IN (\(entity.entityAndSubentities.map(literal).joined(separator: ", ")))"
            for (n, constraint) in entity.uniquenessConstraints.enumerated() where !constraint.isEmpty {
                let name = "\(entity.name).unique\(n + 1).\(constraint.joined(separator: "."))"
                indexes.append((name, "CREATE INDEX \(q(name)) ON \(q(root.name)) (\(constraint.map(q).joined(separator: ", ")))\(filter)"))
            }
        }
        return indexes
    }

    private static func q(_ name: String) -> String { SQLIdentifier.quoted(name) }

    /// An entity name as a SQL string literal (names come from the model, never from a query).
    package static func literal(_ name: String) -> String {
        SQLStringLiteral.quoted(name)
    }
}
