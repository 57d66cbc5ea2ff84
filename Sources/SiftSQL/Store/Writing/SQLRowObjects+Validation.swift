import SiftEvaluation
import SiftLanguage
import SiftSQLite
import SiftStore

/// Validation at save, on the objects the transaction changed only, with the rules and errors of
/// every store (``ObjectValidation``): the first object in insertion order that breaks a rule is
/// reported, then uniqueness constraints are checked, in the model's order.
extension SQLRowObjects {
    func validateChanges() throws(StoreError) {
        var first: (key: Int64, error: StoreError)?
        for table in tables {
            guard let check = ObjectCheckSQL(table: table, rows: self) else { continue }
            for (condition, bindings) in changedRows(in: table, alias: "t") {
                let statement = try cached("\(check.select) WHERE \(condition) ORDER BY \"t\".\(SQLIdentifier.quoted(SQLSchema.primaryKeyColumn))")
                try bind(statement, bindings)
                defer { statement.reset() }
                while try step(statement) {
                    let key = statement.int64(0)
                    if let first, first.key < key { break }
                    let object = try reference(statement, key: 0, entity: 2)
                    guard let columns = check.columns[object.entity] else { continue }
                    do throws(StoreError) {
                        try ObjectValidation.check(model.entities[object.entity], id: ObjectID(statement.text(1)),
                                                   isNull: { columns.attributes[$0].map(statement.isNull) ?? false },
                                                   count: { columns.relationships[$0].map { Int(statement.int64($0)) } ?? 0 })
                    } catch {
                        first = (key, error)
                        break
                    }
                }
            }
        }
        if let first { throw first.error }
        try validateUniqueness()
    }

    /// The conditions selecting the rows a transaction changed in a table (as `alias`), with
    /// their bindings: the inserted ones by range, the others in lists of keys.
    private func changedRows(in table: String, alias: String) -> [(condition: String, bindings: [SQLiteValue])] {
        let key = SQLIdentifier.qualified(alias, SQLSchema.primaryKeyColumn)
        var conditions: [(String, [SQLiteValue])] = []
        if nextKey > firstNewKey { conditions.append(("\(key) >= ?1", [.integer(firstNewKey)])) }
        let updated = (updatedKeys[table] ?? []).filter { $0 < firstNewKey }.sorted()
        for (count, bindings) in RowKeyLists.chunks(updated) {
            conditions.append(("\(key) \(RowKeyLists.inList(count))", bindings))
        }
        return conditions
    }

    /// For each uniqueness constraint, each changed object of its entities is looked up with the
    /// objects sharing its values (through the constraint's index); the earliest object that
    /// has an earlier twin is reported, naming the first of them, as the object graph does.
    private func validateUniqueness() throws(StoreError) {
        let q = SQLIdentifier.quoted, key = q(SQLSchema.primaryKeyColumn)
        for entity in model.entities {
            guard let table = schema.table(for: entity.name) else { continue }
            for constraint in entity.uniquenessConstraints {
                let columns = constraint.compactMap { name in table.columns[name] ?? (table.entity.relationship(named: name).map { _ in name }) }
                guard columns.count == constraint.count else { continue }
                let members = table.hierarchyEntityNames.count == 1 ? [] : entity.entityAndSubentities
                var found: (later: Int64, first: Int64)?
                for (condition, bindings) in changedRows(in: table.table, alias: "b") {
                    var parameters = bindings
                    func memberFilter(_ alias: String) -> String {
                        guard !members.isEmpty else { return "" }
                        let list = members.map { name -> String in
                            parameters.append(.text(name))
                            return "?\(parameters.count)"
                        }
                        return " AND \(SQLIdentifier.qualified(alias, SQLSchema.entityColumn)) IN (\(list.joined(separator: ", ")))"
                    }
                    let same = columns.map { "\"a\".\(q($0)) = \"b\".\(q($0))" }.joined(separator: " AND ") + memberFilter("a")
                    let present = columns.map { "\"b\".\(q($0)) IS NOT NULL" }.joined(separator: " AND ") + memberFilter("b")
                    let twin = "SELECT \"a\".\(key) FROM \(q(table.table)) AS \"a\" WHERE \(same) ORDER BY \"a\".\(key)"
                    let sql = "SELECT \"p1\", \"p2\" FROM (SELECT (\(twin) LIMIT 1) AS \"p1\", (\(twin) LIMIT 1 OFFSET 1) AS \"p2\" FROM \(q(table.table)) AS \"b\" WHERE (\(condition)) AND \(present)) WHERE \"p2\" IS NOT NULL ORDER BY \"p2\" LIMIT 1"
                    let statement = try cached(sql)
                    try bind(statement, parameters)
                    defer { statement.reset() }
                    guard try step(statement) else { continue }
                    let (first, later) = (statement.int64(0), statement.int64(1))
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
        let q = SQLIdentifier.quoted
        let statement = try cached("SELECT \(q(SQLSchema.primaryKeyColumn)), \(q(SQLSchema.idColumn)), \(q(SQLSchema.entityColumn)) FROM \(q(table)) WHERE \(q(SQLSchema.primaryKeyColumn)) \(RowKeyLists.inList(keys.count))")
        try bind(statement, keys.map { .integer($0) })
        defer { statement.reset() }
        var objects: [Int64: (id: ObjectID, entity: String)] = [:]
        while try step(statement) { objects[statement.int64(0)] = (ObjectID(statement.text(1)), statement.text(2)) }
        return objects
    }
}

/// The query reading what validation needs of a table's rows: key, ID, entity, then each
/// required attribute's column, each required to-one's column (NULL or not) and each bounded
/// to-many's count, with where each entity of the table finds them.
private struct ObjectCheckSQL {
    /// `SELECT "t"."_pk", "t"."_id", "t"."_entity", … FROM "<table>" AS "t"`.
    let select: String
    /// By entity position: attribute slot → column index (to test for NULL), relationship slot
    /// → column index (a count, or a to-one's column).
    let columns: [Int: (attributes: [Int: Int32], relationships: [Int: Int32])]

    init?(table: String, rows: SQLRowObjects) {
        let q = SQLIdentifier.quoted, key = SQLIdentifier.qualified("t", SQLSchema.primaryKeyColumn)
        var expressions: [String] = [key, SQLIdentifier.qualified("t", SQLSchema.idColumn), SQLIdentifier.qualified("t", SQLSchema.entityColumn)]
        var index: [String: Int32] = [:]
        func column(_ expression: String) -> Int32 {
            if let existing = index[expression] { return existing }
            expressions.append(expression)
            index[expression] = Int32(expressions.count - 1)
            return Int32(expressions.count - 1)
        }
        var columns: [Int: (attributes: [Int: Int32], relationships: [Int: Int32])] = [:]
        var needed = false
        for (position, entity) in rows.model.entities.enumerated() {
            guard let sql = rows.entities[position], sql.table == table, let layout = rows.schema.table(for: entity.name) else { continue }
            var attributes: [Int: Int32] = [:], relationships: [Int: Int32] = [:]
            for (slot, attribute) in entity.attributes.enumerated() where ObjectValidation.needsValue(attribute) {
                guard let name = sql.columns[slot] else { continue }
                attributes[slot] = column(SQLIdentifier.qualified("t", name))
                needed = true
            }
            for (slot, relationship) in entity.relationships.enumerated() where ObjectValidation.needsCount(relationship) {
                let count: String
                switch layout.relationships[relationship.name] {
                case .foreignKey(let name, _, _)?:
                    count = "(\(SQLIdentifier.qualified("t", name)) IS NOT NULL)"
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
