import SiftEvaluation
import SiftLanguage
import SiftSQLite
import SiftStore

/// Writes the difference between two graphs into the database: inserted, changed and deleted
/// rows, and the join-table rows of changed to-many relationships. Positions in a graph never
/// move, so the difference is a walk over both.
struct GraphWriter {
    let store: SQLiteStore
    let schema: SQLSchema
    let database: SQLiteDatabase

    func write(_ graph: ObjectGraph, since before: ObjectGraph, keys: inout [Int64], nextKey: inout Int64) throws {
        while keys.count < graph.objects.count {
            keys.append(nextKey)
            nextKey += 1
        }
        for position in graph.objects.indices {
            let new = graph.objects[position]
            let old = position < before.objects.count ? before.objects[position] : nil
            switch (old, new) {
            case (nil, nil):
                continue
            case (let old?, nil):
                try deleteRow(old, key: keys[position])
            case (nil, let new?):
                try insertRow(new, key: keys[position], graph: graph, keys: keys)
                try writeJoinRows(new, old: nil, key: keys[position], keys: keys)
            case (let old?, let new?):
                let changedAttributes = old.attributes.map(ColumnCodec.encode) != new.attributes.map(ColumnCodec.encode)
                if changedAttributes || old.relationships != new.relationships {
                    try updateRow(new, key: keys[position], keys: keys)
                    try writeJoinRows(new, old: old, key: keys[position], keys: keys)
                }
            }
        }
    }

    private func entityTable(_ object: StoredObject) -> EntityTable? {
        schema.table(for: schema.model.entities[object.entity].name)
    }

    /// Columns and values of a row: attributes, then to-one foreign keys.
    private func columnValues(_ object: StoredObject, keys: [Int64]) -> [(String, SQLiteValue)] {
        guard let table = entityTable(object) else { return [] }
        var result: [(String, SQLiteValue)] = []
        for (slot, attribute) in table.entity.attributes.enumerated() {
            guard let column = table.columns[attribute.name] else { continue }
            result.append((column, ColumnCodec.encode(object.attributes[slot])))
        }
        for (slot, relationship) in table.entity.relationships.enumerated() {
            guard case .foreignKey(let column, _, _)? = table.relationships[relationship.name] else { continue }
            let value: SQLiteValue = object.relationships[slot].first.map { .integer(keys[$0]) } ?? .null
            result.append((column, value))
        }
        return result
    }

    private func insertRow(_ object: StoredObject, key: Int64, graph: ObjectGraph, keys: [Int64]) throws {
        guard let table = entityTable(object) else { return }
        let values = columnValues(object, keys: keys)
        var columns = [SQLSchema.primaryKeyColumn, SQLSchema.idColumn, SQLSchema.entityColumn]
        columns += values.map(\.0)
        let placeholders = (1...columns.count).map { "?\($0)" }.joined(separator: ", ")
        let sql = "INSERT INTO \(SQLIdentifier.quoted(table.table)) (\(columns.map(SQLIdentifier.quoted).joined(separator: ", "))) VALUES (\(placeholders))"
        try database.run(sql, [.integer(key), .text(object.id.rawValue), .text(table.entity.name)] + values.map(\.1))
    }

    private func updateRow(_ object: StoredObject, key: Int64, keys: [Int64]) throws {
        guard let table = entityTable(object) else { return }
        let values = columnValues(object, keys: keys)
        guard !values.isEmpty else { return }
        let assignments = values.enumerated().map { "\(SQLIdentifier.quoted($1.0)) = ?\($0 + 1)" }.joined(separator: ", ")
        let sql = "UPDATE \(SQLIdentifier.quoted(table.table)) SET \(assignments) WHERE \(SQLIdentifier.quoted(SQLSchema.primaryKeyColumn)) = ?\(values.count + 1)"
        try database.run(sql, values.map(\.1) + [.integer(key)])
    }

    private func deleteRow(_ object: StoredObject, key: Int64) throws {
        guard let table = entityTable(object) else { return }
        try database.run("DELETE FROM \(SQLIdentifier.quoted(table.table)) WHERE \(SQLIdentifier.quoted(SQLSchema.primaryKeyColumn)) = ?1", [.integer(key)])
        for relationship in table.entity.relationships {
            guard case .joinTable(let name, _)? = table.relationships[relationship.name] else { continue }
            try database.run("DELETE FROM \(SQLIdentifier.quoted(name)) WHERE \(SQLIdentifier.quoted(SQLSchema.ownerColumn)) = ?1", [.integer(key)])
        }
    }

    private func writeJoinRows(_ object: StoredObject, old: StoredObject?, key: Int64, keys: [Int64]) throws {
        guard let table = entityTable(object) else { return }
        for (slot, relationship) in table.entity.relationships.enumerated() {
            guard case .joinTable(let name, _)? = table.relationships[relationship.name] else { continue }
            let destinations = object.relationships[slot]
            if let old, old.relationships[slot] == destinations { continue }
            if old != nil {
                try database.run("DELETE FROM \(SQLIdentifier.quoted(name)) WHERE \(SQLIdentifier.quoted(SQLSchema.ownerColumn)) = ?1", [.integer(key)])
            }
            let sql = "INSERT INTO \(SQLIdentifier.quoted(name)) (\(SQLIdentifier.quoted(SQLSchema.ownerColumn)), \(SQLIdentifier.quoted(SQLSchema.targetColumn)), \(SQLIdentifier.quoted(SQLSchema.positionColumn))) VALUES (?1, ?2, ?3)"
            for (index, destination) in destinations.enumerated() {
                try database.run(sql, [.integer(key), .integer(keys[destination]), .integer(Int64(index))])
            }
        }
    }
}
