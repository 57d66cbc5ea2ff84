/// A model made from a Core Data store's schema alone, for a store without a usable model (a
/// NULL or damaged `Z_MODELCACHE`, none at all, no model file given), with warnings that say
/// what was guessed.
///
/// - Entities and super-entities come from `Z_PRIMARYKEY` (persistent-history entities, 16001
///   and up, are left out); an entity whose root has no table has no properties.
/// - Each column of a root's table becomes a property of the root (so of every entity below
///   it), or of the entity a Core Data index name gives (`Z_<Entity>_<property>`,
///   `Z_<Entity>_UNIQUE_<a>_<b>`), which also gives the property's name with its case; other
///   names are the column's without its `Z`, lower-cased.
/// - Types from the declared types: INTEGER → Integer 64 (booleans and 16/32-bit integers look
///   the same), FLOAT → Double, TIMESTAMP → Date, VARCHAR → String, BLOB → Binary, DECIMAL →
///   Decimal; another declared type by SQLite's affinity rules.
/// - A column with a `Z<n>_` entity column beside it is a to-one relationship to entity n; one
///   with Core Data's foreign-key index (`<TABLE>_<COLUMN>_INDEX`) is a to-one whose destination
///   cannot be known unless exactly one entity without sub-entities has its name, else an Integer 64 attribute holding
///   the destination's `Z_PK`. `Z<n>_` and `Z_FOK_` columns are not properties.
/// - A join table `Z_<n><NAME>` with columns `Z_<a><X>` and `Z_<b><Y>` gives entity a a to-many
///   `y` to b and entity b a to-many `x` to a, inverses of each other (names lower-cased).
/// - To-many relationships through a foreign key cannot be named: they are absent.
public struct CoreDataSchemaModel: Sendable {
    /// The model, as ``CoreDataModel`` (no version identifiers, no entity details but the
    /// attributes' type codes).
    public var model: CoreDataModel
    /// What was guessed, one sentence each.
    public var warnings: [String]

    /// The model `schema` implies: what cannot be read is left out with a warning. Fails only
    /// when not even the entities of `Z_PRIMARYKEY` make a model.
    public init(schema: CoreDataStoreSchema, name: String = "Model") throws(CoreDataModelError) {
        var warnings = ["the store holds no model: entities come from Z_PRIMARYKEY and attributes from the columns; "
            + "give the model (.xcdatamodeld, .momd or .mom) to read it exactly"]
        // Entities.
        var rows: [CoreDataStoreSchema.PrimaryKeyRow] = []
        var seenNames = Set<String>()
        var seenNumbers = Set<Int>()
        for row in schema.primaryKeys.sorted(by: { $0.number < $1.number }) where row.number < CoreDataStoreSchema.firstHistoryEntityNumber {
            guard !row.name.isEmpty, row.number > 0, seenNames.insert(row.name).inserted, seenNumbers.insert(row.number).inserted else {
                warnings.append("Z_PRIMARYKEY row \(row.number) ('\(row.name)') repeats or lacks a name or number: left out")
                continue
            }
            rows.append(row)
        }
        let nameOfNumber = Dictionary(rows.map { ($0.number, $0.name) }, uniquingKeysWith: { first, _ in first })
        var parents: [String: String] = [:]
        for row in rows where row.superNumber != 0 {
            if let parent = nameOfNumber[row.superNumber] {
                parents[row.name] = parent
            } else {
                warnings.append("entity \(row.name): its super-entity \(row.superNumber) is not in Z_PRIMARYKEY: read as a root")
            }
        }
        // Break any inheritance cycle (a damaged Z_PRIMARYKEY): walk up at most rows.count steps.
        for row in rows {
            var current = parents[row.name]
            var steps = 0
            while let name = current, steps <= rows.count {
                if name == row.name {
                    warnings.append("entity \(row.name): its super-entities form a cycle: read as a root")
                    parents[row.name] = nil
                    break
                }
                current = parents[name]
                steps += 1
            }
        }
        func root(of name: String) -> String {
            var current = name
            var steps = 0
            while let parent = parents[current], steps <= rows.count {
                current = parent
                steps += 1
            }
            return current
        }
        var attributes: [String: [AttributeDescription]] = [:]
        var relationships: [String: [RelationshipDescription]] = [:]
        var taken: [String: Set<String>] = [:]
        var children: [String: [String]] = [:]
        for (child, parent) in parents { children[parent, default: []].append(child) }
        /// Takes `property` for `entity` unless it is no name a model allows, or the entity, an
        /// ancestor or a descendant has it already (a sub-entity inherits every property).
        func add(_ property: String, to entity: String) -> Bool {
            guard !property.isEmpty, !property.hasPrefix("@"), !property.contains(".") else { return false }
            var related = [entity]
            var current = parents[entity]
            while let name = current, related.count <= rows.count {
                related.append(name)
                current = parents[name]
            }
            var stack = children[entity] ?? []
            while let name = stack.popLast(), related.count <= 2 * rows.count {
                related.append(name)
                stack.append(contentsOf: children[name] ?? [])
            }
            guard !related.contains(where: { taken[$0]?.contains(property) == true }) else { return false }
            taken[entity, default: []].insert(property)
            return true
        }
        let indexesByTable = Dictionary(grouping: schema.indexes, by: { $0.table.uppercased() })
        let namesByUppercase = Dictionary(grouping: rows.map(\.name), by: { $0.uppercased() })

        for row in rows where parents[row.name] == nil {
            let tableName = "Z" + row.name.uppercased()
            guard let table = schema.table(named: tableName) else {
                warnings.append("entity \(row.name): the store has no table \(tableName): it has no properties")
                continue
            }
            let members = Set(rows.map(\.name).filter { root(of: $0) == row.name })
            let indexes = indexesByTable[table.name.uppercased(), default: []]
            let named = Self.namesFromIndexes(indexes, entities: members)
            let columnNames = Set(table.columns.map { $0.name.uppercased() })
            var foreignKeys: [String: Int?] = [:]  // column → destination number, when known
            for column in table.columns {
                let upper = column.name.uppercased()
                if let (number, base) = Self.entityColumn(upper), columnNames.contains("Z" + base) {
                    foreignKeys["Z" + base] = number
                }
            }
            for index in indexes where index.columns.count == 1 {
                let column = index.columns[0].uppercased()
                if index.name.uppercased() == "\(table.name.uppercased())_\(column)_INDEX", column != "Z_ENT", foreignKeys[column] == nil {
                    foreignKeys[column] = .some(nil)
                }
            }
            for column in table.columns {
                let upper = column.name.uppercased()
                if ["Z_PK", "Z_ENT", "Z_OPT"].contains(upper) || upper.hasPrefix("Z_FOK_") || Self.entityColumn(upper) != nil { continue }
                let (owner, propertyName) = named[upper] ?? (row.name, Self.guessedName(upper))
                if let destinationNumber = foreignKeys[upper] {
                    var destination = destinationNumber.flatMap { nameOfNumber[$0] }
                    // A destination with sub-entities would have had a Z<n>_ column: guess only others.
                    if destination == nil, let candidates = namesByUppercase[String(upper.dropFirst())], candidates.count == 1,
                       !rows.contains(where: { parents[$0.name] == candidates[0] }) {
                        destination = candidates[0]
                        warnings.append("\(owner).\(propertyName): a to-one relationship whose destination \(candidates[0]) is guessed from its name")
                    }
                    if let destination {
                        guard add(propertyName, to: owner) else {
                            warnings.append("\(owner).\(propertyName): column \(column.name) gives a name that is taken or not a property name: left out")
                            continue
                        }
                        relationships[owner, default: []].append(RelationshipDescription(name: propertyName, destination: destination))
                        continue
                    }
                    warnings.append("\(owner).\(propertyName): column \(column.name) holds a to-one relationship's key, but its destination cannot be known: read as an Integer 64")
                }
                let (type, known) = Self.attributeType(column.declaredType)
                if !known {
                    warnings.append("\(owner).\(propertyName): declared type '\(column.declaredType)' is not Core Data's: read as \(type.rawValue)")
                }
                guard add(propertyName, to: owner) else {
                    warnings.append("\(owner).\(propertyName): column \(column.name) gives a name that is taken or not a property name: left out")
                    continue
                }
                attributes[owner, default: []].append(AttributeDescription(name: propertyName, type: type))
            }
        }
        // Many-to-many join tables.
        for table in schema.tables {
            let upper = table.name.uppercased()
            guard upper.hasPrefix("Z_"), !CoreDataStoreSchema.bookkeepingTables.contains(upper) else { continue }
            let pairs = table.columns.map { $0.name.uppercased() }.filter { !$0.hasPrefix("Z_FOK_") }.compactMap(Self.joinColumn)
            guard pairs.count == 2, let a = nameOfNumber[pairs[0].number], let b = nameOfNumber[pairs[1].number] else {
                warnings.append("table \(table.name) is not a join table Sift can read: left out")
                continue
            }
            // Column Z_<a><X> holds a's keys and is named by b's relationship x to a; Z_<b><Y> the other way.
            let x = Self.guessedName("Z" + pairs[0].name)
            let y = Self.guessedName("Z" + pairs[1].name)
            guard add(y, to: a), add(x, to: b) || (a == b && x == y) else {
                warnings.append("table \(table.name): relationship names \(a).\(y) or \(b).\(x) are taken: left out")
                continue
            }
            relationships[a, default: []].append(RelationshipDescription(name: y, destination: b, isToMany: true, inverse: x))
            if !(a == b && x == y) {
                relationships[b, default: []].append(RelationshipDescription(name: x, destination: a, isToMany: true, inverse: y))
            }
            warnings.append("\(a).\(y) and \(b).\(x): many-to-many relationships named from join table \(table.name) (their case is guessed)")
        }
        warnings.append("to-many relationships kept through a foreign key cannot be named without the model: they are absent")
        if schema.primaryKeys.contains(where: { $0.number >= CoreDataStoreSchema.firstHistoryEntityNumber }) {
            warnings.append("the persistent-history entities (Z_ENT 16001 and up) are left out")
        }

        var entities = rows.map { row in
            EntityDescription(name: row.name, parent: parents[row.name], attributes: attributes[row.name] ?? [],
                              relationships: relationships[row.name] ?? [])
        }
        var details: [String: CoreDataEntityDetails] = [:]
        for entity in entities {
            var codes: [String: Int] = [:]
            for attribute in entity.ownAttributes { codes[attribute.name] = Self.typeCodes[attribute.type] }
            details[entity.name] = CoreDataEntityDetails(className: nil, renamingIdentifier: nil, versionHashModifier: nil,
                                                         transientProperties: [], attributeTypeCodes: codes)
        }
        var model: DataModel
        do throws(ModelError) {
            model = try DataModel(name: name, entities: entities)
        } catch {
            // Properties that clash with an inherited one: keep the entities, drop their properties.
            warnings.append("the properties do not hold together (\(error.message)): entities are read without them")
            for i in entities.indices {
                entities[i].ownAttributes = []
                entities[i].ownRelationships = []
            }
            do throws(ModelError) {
                model = try DataModel(name: name, entities: entities)
            } catch {
                throw CoreDataModelError("Z_PRIMARYKEY's entities do not make a model: \(error.message)")
            }
        }
        self.model = CoreDataModel(model: model, entities: details, versionIdentifiers: [])
        self.warnings = warnings
    }

    static let typeCodes: [AttributeType: Int] = [
        .integer16: 100, .integer32: 200, .integer64: 300, .decimal: 400, .double: 500, .float: 600, .string: 700, .boolean: 800,
        .date: 900, .binary: 1000, .uuid: 1100, .uri: 1200, .transformable: 1800, .undefined: 0,
    ]

    /// A column's name without its `Z`, lower-cased (the whole name when it has no `Z`).
    static func guessedName(_ column: String) -> String {
        (column.hasPrefix("Z") && column.count > 1 ? String(column.dropFirst()) : column).lowercased()
    }

    /// `Z<digits>_<BASE>` → (digits, BASE).
    static func entityColumn(_ column: String) -> (Int, String)? {
        guard column.hasPrefix("Z") else { return nil }
        let rest = column.dropFirst()
        let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty, digits.count <= 6, rest.dropFirst(digits.count).hasPrefix("_"), let number = Int(digits) else { return nil }
        let base = rest.dropFirst(digits.count + 1)
        return base.isEmpty ? nil : (number, String(base))
    }

    /// `Z_<digits><NAME>` → (digits, NAME).
    static func joinColumn(_ column: String) -> (number: Int, name: String)? {
        guard column.hasPrefix("Z_") else { return nil }
        let rest = column.dropFirst(2)
        let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty, digits.count <= 6, let number = Int(digits) else { return nil }
        let name = rest.dropFirst(digits.count)
        return name.isEmpty ? nil : (number, String(name))
    }

    /// Sift's type for a declared column type, and whether it is one Core Data declares.
    static func attributeType(_ declared: String) -> (AttributeType, Bool) {
        switch declared.uppercased() {
        case "INTEGER": return (.integer64, true)
        case "FLOAT": return (.double, true)
        case "TIMESTAMP": return (.date, true)
        case "VARCHAR": return (.string, true)
        case "BLOB": return (.binary, true)
        case "DECIMAL": return (.decimal, true)
        default:
            switch CoreDataSchemaCheck.affinity(declared) {
            case .integer: return (.integer64, false)
            case .text: return (.string, false)
            case .blob: return (.binary, false)
            case .real: return (.double, false)
            case .numeric: return (.double, false)
            }
        }
    }

    /// Property names (with their case) and owning entities that Core Data's index names give:
    /// `Z_<Entity>_<a>[_<b>...]` or `Z_<Entity>_UNIQUE_<a>[_<b>...]` over columns `Z<A>`, `Z<B>`.
    static func namesFromIndexes(_ indexes: [CoreDataStoreSchema.Index], entities: Set<String>) -> [String: (String, String)] {
        var names: [String: (String, String)] = [:]
        for index in indexes where index.name.hasPrefix("Z_") && !index.columns.isEmpty {
            let rest = index.name.dropFirst(2)
            // The longest entity name that fits: `Z_Event_...` must not be read as entity `Ev`.
            guard let entity = entities.filter({ rest.hasPrefix($0 + "_") }).max(by: { $0.count < $1.count }) else { continue }
            var tail = rest.dropFirst(entity.count + 1)
            if tail.hasPrefix("UNIQUE_") { tail = tail.dropFirst("UNIQUE_".count) }
            let parts = tail.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
            guard parts.count <= 64, let split = Self.split(parts, over: index.columns.map { $0.uppercased() }) else { continue }
            for (column, name) in zip(index.columns, split) where names[column.uppercased()] == nil {
                names[column.uppercased()] = (entity, name)
            }
        }
        return names
    }

    /// `parts` joined back with `_` into one name per column, each `Z` + name upper-cased being
    /// that column; nil when no split fits. Tried left to right, so at most parts × columns steps.
    static func split(_ parts: [String], over columns: [String]) -> [String]? {
        var result: [String] = []
        var start = 0
        for (i, column) in columns.enumerated() {
            let remainingColumns = columns.count - i - 1
            var found: Int?
            var end = start
            while end < parts.count - remainingColumns {
                let candidate = parts[start...end].joined(separator: "_")
                if "Z" + candidate.uppercased() == column && (remainingColumns > 0 || end == parts.count - 1) {
                    found = end
                    break
                }
                end += 1
            }
            guard let found else { return nil }
            result.append(parts[start...found].joined(separator: "_"))
            start = found + 1
        }
        return start == parts.count ? result : nil
    }
}
