import Foundation
import SiftStore

/// The model and schema of a database Sift did not create, from its tables as its catalog
/// describes them (``IntrospectedTable``): the naming rules every introspected database shares
/// (SQLite files, PostgreSQL databases).
///
/// **Entities.** Each table becomes an entity named exactly after the table (a name that is not
/// an identifier is still used; SQL always quotes it). Object IDs are `<Table>/<key>`
/// (`Artist/3`).
///
/// **Attributes.** Every column is an optional attribute named after the column (`.` becomes
/// `_` and a leading `@` is dropped, because property names may not hold them), of the type the
/// database's introspection chose.
///
/// **Relationships.** Each single-column foreign key to another introspected table becomes a
/// to-one relationship named after the column without an `_id` / `Id` / `_ID` / `ID` suffix
/// (`artist_id` → `artist`, `artistId` → `artist`) when that name is free. The column then
/// stays an attribute too (`Album WHERE artist_id == 3` reads the raw key). When there is no
/// suffix, or the shortened name clashes, the relationship takes the column's own name and
/// replaces the attribute. The destination gets a to-many inverse named after the source table,
/// lowercased with an `s` added unless it ends in one (`Album` → `albums`, `tracks` →
/// `tracks`); a clash (two foreign keys from one table, or an existing property) adds
/// `_<to-one name>` (`messages_sender`), then a number.
package enum IntrospectedSchema {
    /// The model (named `name`) and schema of `tables`; read-only (not a Sift layout).
    package static func schema(of tables: [IntrospectedTable], name: String) throws(StoreError) -> SQLSchema {
        var byLowercasedName: [String: Int] = [:]
        for (index, table) in tables.enumerated() { byLowercasedName[table.name.lowercased()] = index }

        // Attributes and to-one relationships, per table.
        var shapes = tables.map(TableShape.init)
        var inverses: [(destination: Int, source: Int, toOne: String)] = []
        for (sourceIndex, table) in tables.enumerated() {
            for foreignKey in table.foreignKeys {
                guard let destinationIndex = byLowercasedName[foreignKey.destinationTable.lowercased()] else { continue }
                let destination = tables[destinationIndex]
                let destinationKey = foreignKey.destinationColumn.flatMap { to in
                    destination.columns.first { $0.name.lowercased() == to.lowercased() }?.name
                } ?? destination.primaryKey
                var toOneName = propertyName(foreignKey.column)
                if let stripped = strippingKeySuffix(toOneName), !shapes[sourceIndex].isTaken(stripped) {
                    toOneName = stripped
                } else {
                    shapes[sourceIndex].removeAttribute(column: foreignKey.column)
                    guard !shapes[sourceIndex].isTaken(toOneName) else { continue }
                }
                shapes[sourceIndex].relationships.append(
                    (RelationshipDescription(name: toOneName, destination: destination.name),
                     .foreignKey(column: foreignKey.column, destinationTable: destination.name, destinationKey: destinationKey)))
                inverses.append((destinationIndex, sourceIndex, toOneName))
            }
        }

        // To-many inverses, once every table's own properties are known.
        var inverseNames: [Int: [String: String]] = [:]  // source index → to-one name → inverse name
        for (destinationIndex, sourceIndex, toOneName) in inverses {
            let source = tables[sourceIndex]
            let base = plural(source.name)
            var candidate = base
            if shapes[destinationIndex].isTaken(candidate) { candidate = "\(base)_\(toOneName)" }
            var counter = 2
            let stem = candidate
            while shapes[destinationIndex].isTaken(candidate) {
                candidate = "\(stem)\(counter)"
                counter += 1
            }
            guard case .foreignKey(let column, _, let destinationKey)? = shapes[sourceIndex].relationships.first(where: { $0.0.name == toOneName })?.1 else { continue }
            shapes[destinationIndex].relationships.append(
                (RelationshipDescription(name: candidate, destination: source.name, isToMany: true, inverse: toOneName),
                 .inverseForeignKey(column: column, destinationTable: source.name, sourceKey: destinationKey)))
            inverseNames[sourceIndex, default: [:]][toOneName] = candidate
        }
        for (sourceIndex, names) in inverseNames {
            for i in shapes[sourceIndex].relationships.indices {
                if let inverse = names[shapes[sourceIndex].relationships[i].0.name], !shapes[sourceIndex].relationships[i].0.isToMany {
                    shapes[sourceIndex].relationships[i].0.inverse = inverse
                }
            }
        }

        let entities = shapes.map { shape in
            EntityDescription(name: shape.table.name, attributes: shape.attributes.map(\.0), relationships: shape.relationships.map(\.0))
        }
        let model: DataModel
        do {
            model = try DataModel(name: name, entities: entities)
        } catch {
            throw StoreError(.unsupportedModel, "the database's tables cannot be read as a model: \(error.message)")
        }
        var entityTables: [String: EntityTable] = [:]
        for shape in shapes {
            guard let entity = model.entity(named: shape.table.name) else { continue }
            var columns: [String: String] = [:]
            for (attribute, column) in shape.attributes { columns[attribute.name] = column }
            var relationships: [String: RelationshipStorage] = [:]
            for (relationship, storage) in shape.relationships { relationships[relationship.name] = storage }
            let attributeColumns = Set(columns.values)
            entityTables[entity.name] = EntityTable(
                entity: entity, table: shape.table.name, primaryKey: shape.table.primaryKey,
                objectID: .primaryKey(prefix: shape.table.name + "/"),
                entityColumn: nil, entityNames: nil, hierarchyEntityNames: [entity.name],
                columns: columns, relationships: relationships,
                collatedColumns: shape.table.collatedColumns.intersection(attributeColumns),
                foreignColumns: shape.table.foreignColumns.filter { attributeColumns.contains($0.key) },
                typesAreRead: shape.table.typesAreRead)
        }
        return SQLSchema(model: model, tables: entityTables, isSiftLayout: false)
    }

    // MARK: Naming

    /// A table's properties while they are being named.
    package struct TableShape {
        package let table: IntrospectedTable
        package var attributes: [(AttributeDescription, String)]
        package var relationships: [(RelationshipDescription, RelationshipStorage)] = []

        init(_ table: IntrospectedTable) {
            self.table = table
            var seen: Set<String> = []
            var attributes: [(AttributeDescription, String)] = []
            for column in table.columns {
                let name = IntrospectedSchema.propertyName(column.name)
                guard !name.isEmpty, seen.insert(name).inserted else { continue }
                attributes.append((AttributeDescription(name: name, type: column.type), column.name))
            }
            self.attributes = attributes
        }

        package func isTaken(_ name: String) -> Bool {
            attributes.contains { $0.0.name == name } || relationships.contains { $0.0.name == name }
        }

        package mutating func removeAttribute(column: String) {
            attributes.removeAll { $0.1 == column }
        }
    }

    /// A column name as a property name: `.` becomes `_`, leading `@`s are dropped.
    package static func propertyName(_ column: String) -> String {
        // (Most names have neither: kept as they are.)
        guard column.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "@") }) else { return column }
        return String(column.replacingOccurrences(of: ".", with: "_").drop { $0 == "@" })
    }

    /// `artist_id` → `artist`, `artistId` → `artist`; nil when there is no such suffix.
    package static func strippingKeySuffix(_ name: String) -> String? {
        for suffix in ["_id", "_ID", "_Id", "Id", "ID"] where name.hasSuffix(suffix) && name.count > suffix.count {
            let stripped = String(name.dropLast(suffix.count))
            return stripped.hasSuffix("_") ? nil : stripped
        }
        return nil
    }

    /// The to-many inverse's base name: the table name lowercased, with an `s` unless it has one.
    package static func plural(_ table: String) -> String {
        let lower = table.lowercased()
        return lower.hasSuffix("s") ? lower : lower + "s"
    }
}
