import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftStore

/// Validation at save, on the objects the transaction changed only, with the rules and errors of
/// every store (``ObjectValidation``): the first object in insertion order that breaks a rule is
/// reported, then uniqueness constraints are checked, in the model's order.
extension SQLRowObjects {
    package func validateChanges() throws(StoreError) {
        var first: (key: Int64, error: StoreError)?
        for table in tables {
            guard let check = ObjectCheckSQL(table: table, positions: entityPositions[table] ?? [], model: model, schema: schema, entities: entities,
                                             dialect: database.dialect) else { continue }
            for (condition, bindings) in changedRows(in: table, alias: "t") {
                let sql = "\(check.select) WHERE \(condition) ORDER BY \(SQLIdentifier.qualified("t", SQLSchema.primaryKeyColumn))"
                try database.query(sql, bindings) { (row) throws(StoreError) in
                    if let first, let key = row.int64(0), first.key < key { return false }
                    let object = try reference(row, key: 0, entity: 2)
                    guard let columns = check.columns[object.entity] else { return true }
                    do throws(StoreError) {
                        try ObjectValidation.check(model.entities[object.entity], id: ObjectID(row.text(1) ?? ""),
                                                   isNull: { columns.attributes[$0].map(row.isNull) ?? false },
                                                   count: { columns.relationships[$0].map { Int(row.int64($0) ?? 0) } ?? 0 })
                    } catch {
                        first = (object.key, error)
                        return false
                    }
                    return true
                }
            }
        }
        if let first { throw first.error }
        try validateUniqueness()
    }

    /// The conditions selecting the rows a transaction changed in a table (as `alias`), with
    /// their bindings: the inserted ones by range, the others in lists of keys.
    private func changedRows(in table: String, alias: String) -> [(condition: String, bindings: [Database.Binding])] {
        let key = SQLIdentifier.qualified(alias, SQLSchema.primaryKeyColumn)
        var conditions: [(String, [Database.Binding])] = []
        if nextKey > firstNewKey { conditions.append(("\(key) >= \(database.dialect.placeholder(1))", [database.key(firstNewKey)])) }
        let updated = (updatedKeys[table] ?? []).filter { $0 < firstNewKey }.sorted()
        for list in database.keyLists(updated) {
            conditions.append(("\(key) \(list.test)", list.bindings))
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
                    var memberFilter = { (_: String) in "" }
                    if !members.isEmpty {
                        let list = database.textList(members, from: parameters.count + 1)
                        parameters += list.bindings
                        memberFilter = { alias in " AND \(SQLIdentifier.qualified(alias, SQLSchema.entityColumn)) \(list.test)" }
                    }
                    let present = columns.map { "\"b\".\(q($0)) IS NOT NULL" }.joined(separator: " AND ") + memberFilter("b")
                    let sql: String
                    switch database.dialect {
                    case .sqlite:
                        // Two lookups per changed row through the constraint's index.
                        let same = columns.map { "\"a\".\(q($0)) = \"b\".\(q($0))" }.joined(separator: " AND ") + memberFilter("a")
                        let twin = "SELECT \"a\".\(key) FROM \(q(table.table)) AS \"a\" WHERE \(same) ORDER BY \"a\".\(key)"
                        sql = "SELECT \"p1\", \"p2\" FROM (SELECT (\(twin) LIMIT 1) AS \"p1\", (\(twin) LIMIT 1 OFFSET 1) AS \"p2\" FROM \(q(table.table)) AS \"b\" WHERE (\(condition)) AND \(present)) AS \"u\" WHERE \"p2\" IS NOT NULL ORDER BY \"p2\" LIMIT 1"
                    case .postgreSQL:
                        // One set-based statement: the server answers a lookup per row with a
                        // scan of the table whenever its statistics are stale (a first import),
                        // which made a large import quadratic (issue 30).
                        sql = Self.setBasedUniquenessCheck(table: q(table.table), columns: columns.map { q($0) }, changed: condition,
                                                          present: present, memberFilter: memberFilter("a"))
                    }
                    try database.query(sql, parameters) { (row) throws(StoreError) in
                        guard let first = row.int64(0), let later = row.int64(1) else { return false }
                        if found.map({ later < $0.later }) ?? true { found = (later, first) }
                        return false
                    }
                }
                guard let found else { continue }
                let objects = try objectsByKey([found.later, found.first], table: table.table)
                guard let later = objects[found.later], let first = objects[found.first] else { continue }
                throw ObjectValidation.uniquenessViolation(entity: later.entity, object: later.id, first: first.id,
                                                           constraint: constraint, constraintEntity: entity.name)
            }
        }
    }

    /// The uniqueness check of one constraint as one set-based statement (PostgreSQL's): the
    /// rows `"a"` sharing their values with a changed row `"b"` (`changed`, with `present`:
    /// every value there), numbered by key within each group of equal values; the second of each
    /// group (`"p2"`) is a later twin of its first (`"p1"`), and the earliest such is the answer
    /// — what the lookups per row find, in one pass (a semi-join and a sort) whatever the
    /// table's statistics say.
    static func setBasedUniquenessCheck(table: String, columns: [String], changed: String, present: String, memberFilter: String) -> String {
        let key = SQLIdentifier.quoted(SQLSchema.primaryKeyColumn)
        let values = columns.map { "\"a\".\($0)" }.joined(separator: ", ")
        let changedValues = columns.map { "\"b\".\($0)" }.joined(separator: ", ")
        return "SELECT \"p1\", \"p2\" FROM (SELECT min(\"a\".\(key)) OVER \"w\" AS \"p1\", \"a\".\(key) AS \"p2\", "
            + "row_number() OVER (\"w\" ORDER BY \"a\".\(key)) AS \"n\" FROM \(table) AS \"a\" "
            + "WHERE (\(values)) IN (SELECT \(changedValues) FROM \(table) AS \"b\" WHERE (\(changed)) AND \(present))\(memberFilter) "
            + "WINDOW \"w\" AS (PARTITION BY \(values))) AS \"u\" WHERE \"n\" = 2 ORDER BY \"p2\" LIMIT 1"
    }

    /// The IDs and entity names of rows of a table.
    private func objectsByKey(_ keys: [Int64], table: String) throws(StoreError) -> [Int64: (id: ObjectID, entity: String)] {
        var objects: [Int64: (id: ObjectID, entity: String)] = [:]
        for list in database.keyLists(keys) {
            try database.query(RowWriteSQL.objects(in: table, keys: list.test), list.bindings) { (row) throws(StoreError) in
                if let key = row.int64(0), let id = row.text(1), let entity = row.text(2) { objects[key] = (ObjectID(id), entity) }
                return true
            }
        }
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
    /// → column index (a count).
    let columns: [Int: (attributes: [Int: Int], relationships: [Int: Int])]

    /// `positions`: the positions in the model of the entities the table holds.
    init?(table: String, positions: [Int], model: DataModel, schema: SQLSchema, entities: [RowWriteSQL?], dialect: RowWriteDialect) {
        let q = SQLIdentifier.quoted, key = SQLIdentifier.qualified("t", SQLSchema.primaryKeyColumn)
        var expressions: [String] = [key, SQLIdentifier.qualified("t", SQLSchema.idColumn), SQLIdentifier.qualified("t", SQLSchema.entityColumn)]
        var index: [String: Int] = [:]
        func column(_ expression: String) -> Int {
            if let existing = index[expression] { return existing }
            expressions.append(expression)
            index[expression] = expressions.count - 1
            return expressions.count - 1
        }
        var columns: [Int: (attributes: [Int: Int], relationships: [Int: Int])] = [:]
        var needed = false
        for position in positions {
            let entity = model.entities[position]
            guard let sql = entities[position], sql.table == table, let layout = schema.table(for: entity.name) else { continue }
            var attributes: [Int: Int] = [:], relationships: [Int: Int] = [:]
            for (slot, attribute) in entity.attributes.enumerated() where ObjectValidation.needsValue(attribute) {
                guard let name = sql.columns[slot] else { continue }
                attributes[slot] = column(SQLIdentifier.qualified("t", name))
                needed = true
            }
            for (slot, relationship) in entity.relationships.enumerated() where ObjectValidation.needsCount(relationship) {
                let count: String
                switch layout.relationships[relationship.name] {
                case .foreignKey(let name, _, _)?:
                    count = dialect.toOneCount(SQLIdentifier.qualified("t", name))
                case .inverseForeignKey(let name, let destination, _, _)?:
                    let test = schema.table(for: relationship.destination).map { schema.inverseEntityTestSQL(column: name, destination: $0, alias: nil) } ?? ""
                    count = "(SELECT count(*) FROM \(q(destination)) WHERE \(q(name)) = \(key)\(test))"
                case .joinTable(let name, _, _)?:
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
