import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftStore

/// Validation at save, on the objects the transaction changed only, with the rules and errors of
/// every store (``ObjectValidation``), as the SQLite store validates: the first object in
/// insertion order that breaks a rule is reported, then uniqueness constraints are checked, in
/// the model's order.
extension PostgreSQLRowObjects {
    func validateChanges() throws(StoreError) {
        var first: (key: Int64, error: StoreError)?
        for table in tables {
            guard let check = PostgreSQLObjectCheckSQL(table: table, rows: self) else { continue }
            for (condition, parameters) in changedRows(alias: "t", table: table) {
                let result = try query("\(check.select) WHERE \(condition) ORDER BY \"t\".\(q(SQLSchema.primaryKeyColumn))", parameters)
                for row in result {
                    let object = try reference(row, key: 0, entity: 2)
                    if let first, first.key < object.key { break }
                    guard let columns = check.columns[object.entity] else { continue }
                    do throws(StoreError) {
                        try ObjectValidation.check(model.entities[object.entity], id: ObjectID(row[1].stringValue ?? ""),
                                                   isNull: { columns.attributes[$0].map { row[$0].isNull } ?? false },
                                                   count: { columns.relationships[$0].map { Int(row[$0].int64Value ?? 0) } ?? 0 })
                    } catch {
                        first = (object.key, error)
                        break
                    }
                }
            }
        }
        if let first { throw first.error }
        try validateUniqueness()
    }

    /// The conditions selecting the rows a transaction changed in a table (as `alias`), with
    /// their parameters: the inserted ones by range, the others by a list of keys.
    private func changedRows(alias: String, table: String) -> [(condition: String, parameters: [PostgreSQLValue])] {
        let key = "\(q(alias)).\(q(SQLSchema.primaryKeyColumn))"
        var conditions: [(String, [PostgreSQLValue])] = []
        if nextKey > firstNewKey { conditions.append(("\(key) >= $1", [.int64(firstNewKey)])) }
        let updated = (updatedKeys[table] ?? []).filter { $0 < firstNewKey }.sorted()
        if !updated.isEmpty { conditions.append(("\(key) = ANY($1)", [Self.keyArray(updated)])) }
        return conditions
    }

    /// For each uniqueness constraint, each changed object of its entities is looked up with the
    /// objects sharing its values; the earliest object that has an earlier twin is reported,
    /// naming the first of them, as the object graph does.
    private func validateUniqueness() throws(StoreError) {
        let key = q(SQLSchema.primaryKeyColumn)
        for entity in model.entities {
            guard let table = schema.table(for: entity.name) else { continue }
            for constraint in entity.uniquenessConstraints {
                let columns = constraint.compactMap { name in table.columns[name] ?? (table.entity.relationship(named: name).map { _ in name }) }
                guard columns.count == constraint.count else { continue }
                let members = table.hierarchyEntityNames.count == 1 ? [] : entity.entityAndSubentities
                var found: (later: Int64, first: Int64)?
                for (condition, bindings) in changedRows(alias: "b", table: table.table) {
                    var parameters = bindings
                    var memberFilter = { (_: String) in "" }
                    if !members.isEmpty {
                        parameters.append(.typed(PostgreSQLStore.textArrayLiteral(members), PostgreSQLStore.textArray))
                        let index = parameters.count
                        memberFilter = { alias in " AND \(q(alias)).\(q(SQLSchema.entityColumn)) = ANY($\(index))" }
                    }
                    let same = columns.map { "\"a\".\(q($0)) = \"b\".\(q($0))" }.joined(separator: " AND ") + memberFilter("a")
                    let present = columns.map { "\"b\".\(q($0)) IS NOT NULL" }.joined(separator: " AND ") + memberFilter("b")
                    let twin = "SELECT \"a\".\(key) FROM \(q(table.table)) AS \"a\" WHERE \(same) ORDER BY \"a\".\(key)"
                    let sql = "SELECT \"p1\", \"p2\" FROM (SELECT (\(twin) LIMIT 1) AS \"p1\", (\(twin) LIMIT 1 OFFSET 1) AS \"p2\" FROM \(q(table.table)) AS \"b\" WHERE (\(condition)) AND \(present)) AS \"u\" WHERE \"p2\" IS NOT NULL ORDER BY \"p2\" LIMIT 1"
                    guard let row = try query(sql, parameters).first, let first = row[0].int64Value, let later = row[1].int64Value else { continue }
                    if found.map({ later < $0.later }) ?? true { found = (later, first) }
                }
                guard let found else { continue }
                let objects = try objectsByKey([found.later, found.first], table: table.table)
                guard let later = objects[found.later], let first = objects[found.first] else { continue }
                throw ObjectValidation.uniquenessViolation(entity: later.entity, object: later.id, first: first.id,
                                                           constraint: constraint, constraintEntity: entity.name)
            }
        }
    }

    /// The IDs and entity names of rows of a table.
    private func objectsByKey(_ keys: [Int64], table: String) throws(StoreError) -> [Int64: (id: ObjectID, entity: String)] {
        let sql = "SELECT \(q(SQLSchema.primaryKeyColumn)), \(q(SQLSchema.idColumn)), \(q(SQLSchema.entityColumn)) FROM \(q(table)) WHERE \(q(SQLSchema.primaryKeyColumn)) = ANY($1)"
        var objects: [Int64: (id: ObjectID, entity: String)] = [:]
        for row in try query(sql, [Self.keyArray(keys)]) {
            guard let key = row[0].int64Value, let id = row[1].stringValue, let entity = row[2].stringValue else { continue }
            objects[key] = (ObjectID(id), entity)
        }
        return objects
    }
}

/// The query reading what validation needs of a table's rows: key, ID, entity, then each
/// required attribute's column, each required to-one's column and each bounded to-many's count,
/// with where each entity of the table finds them.
private struct PostgreSQLObjectCheckSQL {
    /// `SELECT "t"."_pk", "t"."_id", "t"."_entity", … FROM "<table>" AS "t"`.
    let select: String
    /// By entity position: attribute slot → column index (to test for NULL), relationship slot
    /// → column index (a count).
    let columns: [Int: (attributes: [Int: Int], relationships: [Int: Int])]

    init?(table: String, rows: PostgreSQLRowObjects) {
        let key = "\"t\".\(q(SQLSchema.primaryKeyColumn))"
        var expressions: [String] = [key, "\"t\".\(q(SQLSchema.idColumn))", "\"t\".\(q(SQLSchema.entityColumn))"]
        var index: [String: Int] = [:]
        func column(_ expression: String) -> Int {
            if let existing = index[expression] { return existing }
            expressions.append(expression)
            index[expression] = expressions.count - 1
            return expressions.count - 1
        }
        var columns: [Int: (attributes: [Int: Int], relationships: [Int: Int])] = [:]
        var needed = false
        for (position, entity) in rows.model.entities.enumerated() {
            guard let sql = rows.entities[position], sql.table == table, let layout = rows.schema.table(for: entity.name) else { continue }
            var attributes: [Int: Int] = [:], relationships: [Int: Int] = [:]
            for (slot, attribute) in entity.attributes.enumerated() where ObjectValidation.needsValue(attribute) {
                guard let name = sql.columns[slot] else { continue }
                attributes[slot] = column("\"t\".\(q(name))")
                needed = true
            }
            for (slot, relationship) in entity.relationships.enumerated() where ObjectValidation.needsCount(relationship) {
                let count: String
                switch layout.relationships[relationship.name] {
                case .foreignKey(let name, _, _)?:
                    count = "(CASE WHEN \"t\".\(q(name)) IS NULL THEN 0 ELSE 1 END)::bigint"
                case .inverseForeignKey(let name, let destination, _)?:
                    count = "(SELECT count(*) FROM \(q(destination)) WHERE \(q(name)) = \(key))"
                case .joinTable(let name, _)?:
                    count = "(SELECT count(*) FROM \(q(name)) WHERE \(q(SQLSchema.ownerColumn)) = \(key))"
                case nil:
                    continue
                }
                relationships[slot] = column(count)
                needed = true
            }
            columns[position] = (attributes, relationships)
        }
        guard needed else { return nil }
        self.select = "SELECT \(expressions.joined(separator: ", ")) FROM \(q(table)) AS \"t\""
        self.columns = columns
    }
}
