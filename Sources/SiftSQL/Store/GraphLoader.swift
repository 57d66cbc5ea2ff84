import SiftEvaluation
import SiftLanguage
import SiftSQLite
import SiftStore

/// Reads a Sift store's objects into an object graph, in insertion order (row key order
/// across all tables), with their relationships — what the store rules need to run on a change.
struct GraphLoader {
    let schema: SQLSchema
    let database: SQLiteDatabase

    /// The graph and the row key of each of its positions.
    func load() throws -> (ObjectGraph, [Int64]) {
        var rows: [DecodedRow] = []
        let roots = schema.model.entities.filter { $0.parent == nil }
        for root in roots {
            guard let table = schema.table(for: root.name) else { continue }
            let layout = RowLayout(table: table, schema: schema, alias: "t0")
            let statement = try database.prepare("SELECT \(layout.columns.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(table.table)) AS \"t0\"")
            while try statement.step() { rows.append(layout.decode(statement)) }
        }
        rows.sort { $0.key < $1.key }
        var graph = ObjectGraph(model: schema.model)
        var idOfKey: [Int64: ObjectID] = [:]
        for row in rows {
            var attributes: [String: Value] = [:]
            for (name, value) in zip(row.names.names, row.values) { attributes[name] = value }
            try graph.insert(entity: row.entity, id: row.id, attributes: attributes)
            idOfKey[row.key] = row.id
        }
        // Relationships: each held one once (to-ones by their column, join tables by owner).
        for row in rows {
            guard let table = schema.table(for: row.entity) else { continue }
            var relationships: [String: [ObjectID]] = [:]
            for relationship in table.entity.relationships {
                switch table.relationships[relationship.name] {
                case .foreignKey(let column, _, _)?:
                    let value = try database.scalar("SELECT \(SQLIdentifier.quoted(column)) FROM \(SQLIdentifier.quoted(table.table)) WHERE \(SQLIdentifier.quoted(table.primaryKey)) = ?1", [.integer(row.key)])
                    if case .integer(let key) = value, let id = idOfKey[key] { relationships[relationship.name] = [id] }
                case .joinTable(let name, _)?:
                    let targets = try database.rows("SELECT \(SQLIdentifier.quoted(SQLSchema.targetColumn)) FROM \(SQLIdentifier.quoted(name)) WHERE \(SQLIdentifier.quoted(SQLSchema.ownerColumn)) = ?1 ORDER BY \(SQLIdentifier.quoted(SQLSchema.positionColumn))", [.integer(row.key)])
                    let ids = targets.compactMap { cells -> ObjectID? in
                        guard case .integer(let key)? = cells.first else { return nil }
                        return idOfKey[key]
                    }
                    if !ids.isEmpty { relationships[relationship.name] = ids }
                case .inverseForeignKey?, nil:
                    continue
                }
            }
            if !relationships.isEmpty { try graph.update(row.id, relationships: relationships) }
        }
        return (graph, rows.map(\.key))
    }
}
