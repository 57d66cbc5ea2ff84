extension CoreDataLayout {
    /// The layout Core Data's SQLite store gives `model`.
    public init(_ model: CoreDataModel) {
        self.init(model.model)
    }

    /// The layout Core Data's SQLite store gives the entities of `model`.
    ///
    /// The rules (docs/COREDATA-STORES.md, "The layout, as found in the fixtures"): entities are
    /// numbered depth first, roots and siblings in case-insensitive name order; a root's table
    /// holds `Z_PK`, `Z_ENT`, `Z_OPT`, then its entities' columns grouped by kind (integers and
    /// booleans with the to-one keys, then dates and numbers with a fraction, strings, URIs,
    /// UUIDs, transformables, binary data), within a group entity by entity in numbering
    /// order, within an entity attributes by name then to-ones by name; a name already used in
    /// the table gets the next free number (`ZACCOUNT1`). A many-to-many pair has one join table, named after
    /// the relationship of the entity numbered first.
    public init(_ model: DataModel) {
        let ordered = Self.numberingOrder(model)
        var numbers: [String: Int] = [:]
        for (i, entity) in ordered.enumerated() { numbers[entity.name] = i + 1 }
        var roots: [String: String] = [:]
        for entity in ordered { roots[entity.name] = entity.parent.flatMap { roots[$0] } ?? entity.name }
        var kinds: [String: [Int]] = [:]
        for entity in ordered {
            var current: String? = entity.name
            var steps = 0
            while let name = current, steps <= ordered.count {
                kinds[name, default: []].append(numbers[entity.name]!)
                current = model.entity(named: name)?.parent
                steps += 1
            }
        }
        let entities = ordered.map { entity in
            Entity(name: entity.name, number: numbers[entity.name]!, parent: entity.parent,
                   superNumber: entity.parent.flatMap { numbers[$0] } ?? 0, root: roots[entity.name]!,
                   table: Self.tableName(roots[entity.name]!), kindNumbers: kinds[entity.name, default: []].sorted())
        }
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

        var tables: [Table] = []
        var mappings: [String: [String: PropertyMapping]] = [:]
        // First every entity table, so to-many relationships can name their inverse's column.
        var entityTables: [String: Table] = [:]
        for root in ordered where root.parent == nil {
            let members = ordered.filter { roots[$0.name] == root.name }
            let table = Self.entityTable(root: root.name, members: members, model: model, entities: byName, mappings: &mappings)
            entityTables[root.name] = table
        }
        for root in ordered where root.parent == nil {
            tables.append(entityTables[root.name]!)
            let members = ordered.filter { roots[$0.name] == root.name }
            for entity in members {
                for relationship in entity.ownRelationships.sorted(by: { $0.name < $1.name }) where relationship.isToMany {
                    Self.mapToMany(relationship, of: entity, model: model, entities: byName, entityTables: entityTables,
                                   tables: &tables, mappings: &mappings)
                }
            }
        }
        self.init(entities: entities, tables: tables, mappings: mappings)
    }

    /// `Z` + the name upper-cased: an entity table's name, and (after the `Z`) a column's base name.
    static func tableName(_ root: String) -> String { "Z" + root.uppercased() }

    /// The order Core Data numbers entities in: depth first from each root, roots and the
    /// children of each entity in case-insensitive name order.
    static func numberingOrder(_ model: DataModel) -> [EntityDescription] {
        func byName(_ a: EntityDescription, _ b: EntityDescription) -> Bool {
            let (x, y) = (a.name.lowercased(), b.name.lowercased())
            return x != y ? x < y : a.name < b.name
        }
        var children: [String: [EntityDescription]] = [:]
        var roots: [EntityDescription] = []
        for entity in model.entities {
            if let parent = entity.parent { children[parent, default: []].append(entity) } else { roots.append(entity) }
        }
        var result: [EntityDescription] = []
        // An explicit stack: a deep inheritance chain must not recurse without bound.
        var stack = roots.sorted(by: byName).reversed().map { $0 }
        var seen = Set<String>()
        while let entity = stack.popLast() {
            guard seen.insert(entity.name).inserted else { continue }
            result.append(entity)
            stack.append(contentsOf: (children[entity.name] ?? []).sorted(by: byName).reversed())
        }
        return result
    }

    /// The column groups, in the order Core Data writes them into an entity table.
    enum ColumnGroup: Int, Comparable {
        case integer, real, string, uri, uuid, transformable, binary, other
        static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    static func group(of type: AttributeType) -> ColumnGroup {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: .integer
        case .decimal, .double, .float, .date: .real
        case .string: .string
        case .uri: .uri
        case .uuid: .uuid
        case .transformable: .transformable
        case .binary: .binary
        case .undefined: .other
        }
    }

    /// The type Core Data declares for an attribute's column.
    public static func declaredType(of type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .decimal: "DECIMAL"
        case .double, .float: "FLOAT"
        case .date: "TIMESTAMP"
        case .string, .uri: "VARCHAR"
        case .binary, .transformable, .uuid: "BLOB"
        case .undefined: "BLOB"
        }
    }

    /// Names `base` (without its `Z`) in a table where `used` holds the names taken: `Z` + base,
    /// or with the first free number after it.
    static func freeName(_ base: String, prefix: String = "Z", used: inout Set<String>) -> String {
        var name = prefix + base
        var n = 1
        while used.contains(name) {
            name = prefix + base + String(n)
            n += 1
        }
        used.insert(name)
        return name
    }

    private static func entityTable(root: String, members: [EntityDescription], model: DataModel, entities: [String: Entity],
                                    mappings: inout [String: [String: PropertyMapping]]) -> Table {
        let tableName = Self.tableName(root)
        var columns = [
            Column(name: "Z_PK", declaredType: "INTEGER", role: .primaryKey),
            Column(name: "Z_ENT", declaredType: "INTEGER", role: .entityNumber),
            Column(name: "Z_OPT", declaredType: "INTEGER", role: .version),
        ]
        var used = Set(columns.map(\.name))
        for group in [ColumnGroup.integer, .real, .string, .uri, .uuid, .transformable, .binary, .other] {
            for entity in members {
                for attribute in entity.ownAttributes.sorted(by: { $0.name < $1.name }) where Self.group(of: attribute.type) == group {
                    let name = freeName(attribute.name.uppercased(), used: &used)
                    columns.append(Column(name: name, declaredType: declaredType(of: attribute.type),
                                          role: .attribute(entity: entity.name, name: attribute.name, type: attribute.type)))
                    mappings[entity.name, default: [:]][attribute.name] = .attribute(table: tableName, column: name)
                }
                guard group == .integer else { continue }
                for relationship in entity.ownRelationships.sorted(by: { $0.name < $1.name }) where !relationship.isToMany {
                    let name = freeName(relationship.name.uppercased(), used: &used)
                    columns.append(Column(name: name, declaredType: "INTEGER",
                                          role: .toOne(entity: entity.name, relationship: relationship.name, destination: relationship.destination)))
                    var entityColumn: String?
                    if let destination = entities[relationship.destination], destination.hasSubentities {
                        let column = freeName(String(name.dropFirst()), prefix: "Z\(destination.number)_", used: &used)
                        columns.append(Column(name: column, declaredType: "INTEGER", role: .toOneEntity(entity: entity.name, relationship: relationship.name)))
                        entityColumn = column
                    }
                    var orderColumn: String?
                    if let inverseName = relationship.inverse,
                       let inverse = model.entity(named: relationship.destination)?.relationship(named: inverseName),
                       inverse.isToMany, inverse.isOrdered {
                        let column = freeName(String(name.dropFirst()), prefix: "Z_FOK_", used: &used)
                        columns.append(Column(name: column, declaredType: "INTEGER", role: .toOneOrder(entity: entity.name, relationship: relationship.name)))
                        orderColumn = column
                    }
                    mappings[entity.name, default: [:]][relationship.name] =
                        .toOne(table: tableName, column: name, entityColumn: entityColumn, orderColumn: orderColumn)
                }
            }
        }
        return Table(name: tableName, kind: .entity(root: root), columns: columns)
    }

    /// Maps `entity`'s to-many `relationship`: through its to-one inverse's column, or a join
    /// table (made when `entity` is the one of the pair that names it).
    private static func mapToMany(_ relationship: RelationshipDescription, of entity: EntityDescription, model: DataModel,
                                  entities: [String: Entity], entityTables: [String: Table],
                                  tables: inout [Table], mappings: inout [String: [String: PropertyMapping]]) {
        guard let source = entities[entity.name], let destination = entities[relationship.destination] else { return }
        let inverse = relationship.inverse.flatMap { model.entity(named: relationship.destination)?.relationship(named: $0) }
        if let inverse, !inverse.isToMany {
            // The inverse's foreign key, in the destination's table (the inverse may be declared
            // by an ancestor of the destination: ask the table for whoever declares it).
            if let table = entityTables[destination.root],
               let column = table.columns.first(where: { column in
                   if case .toOne(let owner, let name, _) = column.role { return name == inverse.name && model.isKind(relationship.destination, of: owner) }
                   return false
               }) {
                let order = table.columns.first { column in
                    if case .toOneOrder(let owner, let name) = column.role { return name == inverse.name && model.isKind(relationship.destination, of: owner) }
                    return false
                }
                mappings[entity.name, default: [:]][relationship.name] =
                    .toManyThroughInverse(table: table.name, column: column.name, orderColumn: relationship.isOrdered ? order?.name : nil)
            }
            return
        }
        // Many-to-many (or no inverse): one join table per pair, named by the side numbered first
        // (for a reflexive pair, the relationship whose name sorts first).
        if let inverse {
            let inverseEntity = model.entity(named: relationship.destination).flatMap { dest in
                ([dest.name] + ancestors(of: dest.name, in: model)).first { name in model.entity(named: name)?.ownRelationships.contains { $0.name == inverse.name } == true }
            } ?? relationship.destination
            let inverseNumber = entities[inverseEntity]?.number ?? destination.number
            let ownsTable = source.number < inverseNumber || (source.number == inverseNumber && relationship.name <= inverse.name)
            guard ownsTable else { return }
            // (A relationship that is its own inverse has one order column and keeps the first mapping.)
            let reflexiveSelf = inverseEntity == entity.name && inverse.name == relationship.name
            let join = joinTable(for: relationship, of: entity.name, number: source.number, ownerBase: inverse.name, destinationNumber: inverseNumber,
                                 inverseOrder: inverse.isOrdered && !reflexiveSelf ? (inverseEntity, inverse.name) : nil)
            tables.append(join.table)
            mappings[entity.name, default: [:]][relationship.name] =
                .joinTable(table: join.table.name, ownerColumn: join.owner, destinationColumn: join.destination, orderColumn: join.order)
            if !reflexiveSelf {
                mappings[inverseEntity, default: [:]][inverse.name] =
                    .joinTable(table: join.table.name, ownerColumn: join.destination, destinationColumn: join.owner, orderColumn: join.inverseOrder)
            }
        } else {
            // A to-many without an inverse: a join table whose owner column is named after the
            // entity (no fixture has one: docs/COREDATA-STORES.md).
            let join = joinTable(for: relationship, of: entity.name, number: source.number, ownerBase: entity.name, destinationNumber: destination.number, inverseOrder: nil)
            tables.append(join.table)
            mappings[entity.name, default: [:]][relationship.name] =
                .joinTable(table: join.table.name, ownerColumn: join.owner, destinationColumn: join.destination, orderColumn: join.order)
        }
    }

    /// The join table `Z_<number><NAME>` of `entity`'s to-many `relationship`: the owner column
    /// `Z_<number><OWNERBASE>`, the destination column `Z_<destinationNumber><NAME>`, then
    /// `Z_FOK_` order columns, the relationship's when it is ordered and the inverse's when
    /// `inverseOrder` names it; each name numbered when it clashes.
    private static func joinTable(for relationship: RelationshipDescription, of entity: String, number: Int, ownerBase: String,
                                  destinationNumber: Int, inverseOrder inverse: (entity: String, relationship: String)?)
        -> (table: Table, owner: String, destination: String, order: String?, inverseOrder: String?) {
        let tableName = "Z_\(number)\(relationship.name.uppercased())"
        var used = Set<String>()
        let ownerColumn = freeName(ownerBase.uppercased(), prefix: "Z_\(number)", used: &used)
        let destinationColumn = freeName(relationship.name.uppercased(), prefix: "Z_\(destinationNumber)", used: &used)
        var columns = [
            Column(name: ownerColumn, declaredType: "INTEGER", role: .joinOwner(entity: entity, relationship: relationship.name)),
            Column(name: destinationColumn, declaredType: "INTEGER", role: .joinDestination(entity: entity, relationship: relationship.name)),
        ]
        var order: String?
        var inverseOrder: String?
        if relationship.isOrdered {
            let name = freeName(String(destinationColumn.dropFirst(2)), prefix: "Z_FOK_", used: &used)
            columns.append(Column(name: name, declaredType: "INTEGER", role: .joinOrder(entity: entity, relationship: relationship.name)))
            order = name
        }
        if let inverse {
            let name = freeName(String(ownerColumn.dropFirst(2)), prefix: "Z_FOK_", used: &used)
            columns.append(Column(name: name, declaredType: "INTEGER", role: .joinOrder(entity: inverse.entity, relationship: inverse.relationship)))
            inverseOrder = name
        }
        let table = Table(name: tableName, kind: .join(entity: entity, relationship: relationship.name), columns: columns)
        return (table, ownerColumn, destinationColumn, order, inverseOrder)
    }

    private static func ancestors(of name: String, in model: DataModel) -> [String] {
        var result: [String] = []
        var current = model.entity(named: name)?.parent
        while let parent = current, result.count <= model.entities.count {
            result.append(parent)
            current = model.entity(named: parent)?.parent
        }
        return result
    }
}
