/// Whether a model's layout (``CoreDataLayout``) fits a real database (``CoreDataStoreSchema``):
/// every entity in `Z_PRIMARYKEY` with the number and super-entity the model gives it, every
/// table and column present with a compatible declared type. What the database has beyond the
/// model (tables, columns, entities) is listed too, but does not make the model a mismatch.
public struct CoreDataSchemaCheck: Sendable, Equatable {
    /// Every difference found, mismatches and extras, in the layout's order.
    public var differences: [Difference]

    /// Whether the model matches: no difference is a mismatch.
    public var matches: Bool { !differences.contains(where: \.isMismatch) }

    /// The differences that make the model a mismatch.
    public var mismatches: [Difference] { differences.filter(\.isMismatch) }

    /// One way a database differs from a model's layout.
    public enum Difference: Sendable, Equatable, CustomStringConvertible {
        /// The model's table is not in the database.
        case missingTable(String)
        /// The table lacks the model's column; `property` says whose it is (`Note.title`).
        case missingColumn(table: String, column: String, property: String)
        /// The column's declared type cannot hold what the model stores in it.
        case incompatibleType(table: String, column: String, expected: String, found: String)
        /// `Z_PRIMARYKEY` has no row for the model's entity.
        case missingEntity(name: String, number: Int)
        /// `Z_PRIMARYKEY` numbers the entity differently from the model.
        case entityNumberMismatch(name: String, expected: Int, found: Int)
        /// `Z_PRIMARYKEY` gives the entity another super-entity number than the model.
        case superEntityMismatch(name: String, expected: Int, found: Int)
        /// `Z_PRIMARYKEY` has an entity the model does not (not a persistent-history one).
        case extraEntity(name: String, number: Int)
        /// A table the model does not lay out (not a bookkeeping or persistent-history table).
        case extraTable(String)
        /// A column of one of the model's tables that the model does not lay out.
        case extraColumn(table: String, column: String)

        /// Whether the difference makes the model unfit to read the database: something the
        /// model needs is missing or different. Extras are not.
        public var isMismatch: Bool {
            switch self {
            case .extraEntity, .extraTable, .extraColumn: false
            default: true
            }
        }

        public var description: String {
            switch self {
            case .missingTable(let table): "the store has no table \(table)"
            case .missingColumn(let table, let column, let property): "table \(table) has no column \(column) (for \(property))"
            case .incompatibleType(let table, let column, let expected, let found):
                "column \(table).\(column) is declared \(found.isEmpty ? "without a type" : found), where the model stores \(expected)"
            case .missingEntity(let name, let number): "Z_PRIMARYKEY has no entity \(name) (the model numbers it \(number))"
            case .entityNumberMismatch(let name, let expected, let found): "Z_PRIMARYKEY numbers entity \(name) \(found), the model \(expected)"
            case .superEntityMismatch(let name, let expected, let found):
                "Z_PRIMARYKEY gives entity \(name) the super-entity \(found), the model \(expected)"
            case .extraEntity(let name, let number): "Z_PRIMARYKEY has entity \(name) (\(number)), which the model does not"
            case .extraTable(let table): "the store has table \(table), which the model does not lay out"
            case .extraColumn(let table, let column): "table \(table) has column \(column), which the model does not lay out"
            }
        }
    }

    /// Whether a column declared `found` can hold what Core Data stores in one it declares
    /// `expected`: the same type, or the same SQLite type affinity, or a NUMERIC-affinity type
    /// (TIMESTAMP, DECIMAL) against an INTEGER or REAL one. A column without a declared type holds
    /// anything. INTEGER against REAL is not: a REAL column keeps integers as doubles, losing the
    /// precision of large 64-bit keys and counts.
    public static func isCompatible(_ expected: String, _ found: String) -> Bool {
        if expected.uppercased() == found.uppercased() || found.isEmpty { return true }
        let (a, b) = (affinity(expected), affinity(found))
        if a == b { return true }
        // NUMERIC keeps integers as integers and fractions as reals: it holds either kind.
        switch (a, b) {
        case (.numeric, .integer), (.numeric, .real), (.integer, .numeric), (.real, .numeric): return true
        default: return false
        }
    }

    enum Affinity { case integer, text, blob, real, numeric }

    /// SQLite's rules for a declared type's affinity (section 3.1 of "Datatypes In SQLite").
    static func affinity(_ declared: String) -> Affinity {
        let type = declared.uppercased()
        if type.contains("INT") { return .integer }
        if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return .text }
        if type.contains("BLOB") || type.isEmpty { return .blob }
        if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { return .real }
        return .numeric
    }
}

extension CoreDataLayout {
    /// Compares this layout with a real database's schema.
    public func check(_ schema: CoreDataStoreSchema) -> CoreDataSchemaCheck {
        var differences: [CoreDataSchemaCheck.Difference] = []
        let rows = schema.primaryKeys.filter { $0.number < CoreDataStoreSchema.firstHistoryEntityNumber }
        var rowsByName: [String: CoreDataStoreSchema.PrimaryKeyRow] = [:]
        for row in rows where rowsByName[row.name] == nil { rowsByName[row.name] = row }
        for entity in entities {
            guard let row = rowsByName[entity.name] else {
                differences.append(.missingEntity(name: entity.name, number: entity.number))
                continue
            }
            if row.number != entity.number {
                differences.append(.entityNumberMismatch(name: entity.name, expected: entity.number, found: row.number))
            }
            if row.superNumber != entity.superNumber {
                differences.append(.superEntityMismatch(name: entity.name, expected: entity.superNumber, found: row.superNumber))
            }
        }
        for table in tables {
            guard let real = schema.table(named: table.name) else {
                differences.append(.missingTable(table.name))
                continue
            }
            var realColumns: [String: CoreDataStoreSchema.Column] = [:]
            for column in real.columns where realColumns[column.name.uppercased()] == nil { realColumns[column.name.uppercased()] = column }
            for column in table.columns {
                guard let found = realColumns[column.name.uppercased()] else {
                    differences.append(.missingColumn(table: table.name, column: column.name, property: column.role.owner))
                    continue
                }
                if !CoreDataSchemaCheck.isCompatible(column.declaredType, found.declaredType) {
                    differences.append(.incompatibleType(table: table.name, column: column.name, expected: column.declaredType, found: found.declaredType))
                }
            }
            for column in real.columns where table.column(named: column.name) == nil {
                differences.append(.extraColumn(table: table.name, column: column.name))
            }
        }
        for row in rows where entity(named: row.name) == nil {
            differences.append(.extraEntity(name: row.name, number: row.number))
        }
        let historyTables = Set(schema.primaryKeys.filter { $0.number >= CoreDataStoreSchema.firstHistoryEntityNumber }.map { "A" + $0.name.uppercased() })
        for real in schema.tables where table(named: real.name) == nil {
            let name = real.name.uppercased()
            if CoreDataStoreSchema.bookkeepingTables.contains(name) || historyTables.contains(name) || name.hasPrefix("SQLITE_") { continue }
            differences.append(.extraTable(real.name))
        }
        return CoreDataSchemaCheck(differences: differences)
    }
}

extension CoreDataLayout.Column.Role {
    /// Whose column this is, in words: `Note.title`, `Z_PK`.
    var owner: String {
        switch self {
        case .primaryKey: "Z_PK"
        case .entityNumber: "Z_ENT"
        case .version: "Z_OPT"
        case .attribute(let entity, let name, _): "\(entity).\(name)"
        case .toOne(let entity, let relationship, _), .toOneEntity(let entity, let relationship), .toOneOrder(let entity, let relationship),
             .joinOwner(let entity, let relationship), .joinDestination(let entity, let relationship), .joinOrder(let entity, let relationship):
            "\(entity).\(relationship)"
        }
    }
}
