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
        // Relationships: each held one once (to-ones by their column, join tables by owner),
        // every place read with one query.
        var held: [String: [Int64: [Int64]]] = [:]
        for row in rows {
            guard let table = schema.table(for: row.entity) else { continue }
            var relationships: [String: [ObjectID]] = [:]
            for relationship in table.entity.relationships {
                let targets: [Int64]
                switch table.relationships[relationship.name] {
                case .foreignKey(let column, _, _)?:
                    let place = "\(table.table)\u{0}\(column)"
                    if held[place] == nil { held[place] = try foreignKeys(column, of: table) }
                    targets = held[place]?[row.key] ?? []
                case .joinTable(let name, _)?:
                    if held[name] == nil { held[name] = try joinTableTargets(name) }
                    targets = held[name]?[row.key] ?? []
                case .inverseForeignKey?, nil:
                    continue
                }
                let ids = targets.compactMap { idOfKey[$0] }
                if !ids.isEmpty { relationships[relationship.name] = ids }
            }
            if !relationships.isEmpty { try graph.update(row.id, relationships: relationships) }
        }
        return (graph, rows.map(\.key))
    }

    /// Each row's destination key in a to-one column:
    /// `SELECT "_pk", "<column>" FROM "<table>" WHERE "<column>" IS NOT NULL`.
    private func foreignKeys(_ column: String, of table: EntityTable) throws -> [Int64: [Int64]] {
        let statement = try database.prepare("SELECT \(SQLIdentifier.quoted(table.primaryKey)), \(SQLIdentifier.quoted(column)) FROM \(SQLIdentifier.quoted(table.table)) WHERE \(SQLIdentifier.quoted(column)) IS NOT NULL")
        var targets: [Int64: [Int64]] = [:]
        while try statement.step() {
            guard statement.columnType(1) == .integer else { continue }
            targets[statement.int64(0)] = [statement.int64(1)]
        }
        return targets
    }

    /// Each owner's targets in a join table, in order:
    /// `SELECT "_owner", "_target" FROM "<Entity>.<relationship>" ORDER BY "_owner", "_position"`.
    private func joinTableTargets(_ name: String) throws -> [Int64: [Int64]] {
        let owner = SQLIdentifier.quoted(SQLSchema.ownerColumn), target = SQLIdentifier.quoted(SQLSchema.targetColumn)
        let statement = try database.prepare("SELECT \(owner), \(target) FROM \(SQLIdentifier.quoted(name)) ORDER BY \(owner), \(SQLIdentifier.quoted(SQLSchema.positionColumn))")
        var targets: [Int64: [Int64]] = [:]
        while try statement.step() {
            guard statement.columnType(1) == .integer else { continue }
            targets[statement.int64(0), default: []].append(statement.int64(1))
        }
        return targets
    }
}
