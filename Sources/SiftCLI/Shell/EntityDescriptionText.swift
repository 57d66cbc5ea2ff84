import Foundation
import Sift

/// One entity as `.describe` shows it: a heading with its object count, a table of attributes, a
/// table of relationships, then its indexes, uniqueness constraints, parent and sub-entities.
/// For a database Sift did not create, what its catalogue declares too: an attribute or to-one
/// relationship whose column is NOT NULL is required, and its table's indexes are listed by name with their columns
/// (`IFK_InvoiceCustomerId (CustomerId)`; a UNIQUE one is a uniqueness constraint as well):
///
///     Note: 5 objects
///
///       attribute  type    required  default
///       ---------  ------  --------  -------
///       title      String  yes
///       …
///       relationship  destination  kind     required  inverse  delete rule  min  max
///       ------------  -----------  -------  --------  -------  -----------  ---  ---
///       category      Category     to-one   no        notes    nullify
///       …
///       indexes:                 (none)
///       uniqueness constraints:  (none)
///       parent:                  (none)
///       sub-entities:            (none)
enum EntityDescriptionText {
    /// The description; `count` is the number of objects (sub-entities' included), if known;
    /// `catalog`, what the database declares beyond the model (a database Sift did not create).
    static func describe(_ entity: EntityDescription, in model: DataModel, count: Int?, catalog: DatabaseCatalog? = nil) -> String {
        var heading = entity.name
        if entity.isAbstract { heading += " (abstract)" }
        let hasSubentities = entity.entityAndSubentities.count > 1
        if let count {
            heading += ": \(count) object\(count == 1 ? "" : "s")"
            if hasSubentities { heading += entity.isAbstract ? ", all of its sub-entities" : ", its sub-entities' included" }
        }
        var out = heading + "\n"
        let inheritedFrom = owners(entity, in: model)
        let showsOwner = entity.parent != nil

        var attributes: [[String]] = [["attribute", "type", "required", "default"] + (showsOwner ? ["inherited from"] : [])]
        let notNull = catalog?.requiredProperties[entity.name] ?? []
        for attribute in entity.attributes {
            let required = !attribute.isOptional || notNull.contains(attribute.name)
            var row = [attribute.name, attribute.type.name, required ? "yes" : "no",
                       attribute.defaultValue.map { JSONWriter.string($0) } ?? ""]
            if showsOwner { row.append(inheritedFrom[attribute.name] ?? "") }
            attributes.append(row)
        }
        out += "\n" + (entity.attributes.isEmpty ? "  (no attributes)\n" : table(attributes))

        var relationships: [[String]] = [["relationship", "destination", "kind", "required", "inverse", "delete rule", "min", "max"]
            + (showsOwner ? ["inherited from"] : [])]
        for relationship in entity.relationships {
            let kind = relationship.isToMany ? (relationship.isOrdered ? "to-many, ordered" : "to-many") : "to-one"
            let required = !relationship.isOptional || notNull.contains(relationship.name)
            var row = [relationship.name, relationship.destination, kind, required ? "yes" : "no",
                       relationship.inverse ?? "(none)", deleteRule(relationship.deleteRule),
                       relationship.isToMany && relationship.minCount > 0 ? "\(relationship.minCount)" : "",
                       relationship.isToMany && relationship.maxCount > 0 ? "\(relationship.maxCount)" : ""]
            if showsOwner { row.append(inheritedFrom[relationship.name] ?? "") }
            relationships.append(row)
        }
        out += "\n" + (entity.relationships.isEmpty ? "  (no relationships)\n" : table(relationships))

        let subentities = entity.entityAndSubentities.filter { $0 != entity.name }
        // A database Sift did not create names each entity after its table.
        let databaseIndexes = catalog?.indexes(of: entity.name) ?? []
        let indexes = entity.indexes.map(list) + databaseIndexes.map { $0.name + " " + list($0.columns) + ($0.isUnique ? " unique" : "") }
        let unique = entity.uniquenessConstraints.map(list) + databaseIndexes.filter(\.isUnique).map { list($0.columns) }
        let facts: [(String, String)] = [
            ("indexes:", indexes.isEmpty ? "(none)" : indexes.joined(separator: ", ")),
            ("uniqueness constraints:", unique.isEmpty ? "(none)" : unique.joined(separator: ", ")),
            ("parent:", entity.parent ?? "(none)"),
            ("sub-entities:", subentities.isEmpty ? "(none)" : subentities.joined(separator: ", ")),
        ]
        let width = facts.map(\.0.count).max() ?? 0
        out += "\n"
        for (name, value) in facts { out += "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value + "\n" }
        return out
    }

    /// For each inherited property, the ancestor that declares it.
    private static func owners(_ entity: EntityDescription, in model: DataModel) -> [String: String] {
        var owners: [String: String] = [:]
        var current = entity.parent.flatMap { model.entity(named: $0) }
        while let ancestor = current {
            for name in ancestor.ownAttributes.map(\.name) + ancestor.ownRelationships.map(\.name) { owners[name] = ancestor.name }
            current = ancestor.parent.flatMap { model.entity(named: $0) }
        }
        return owners
    }

    private static func deleteRule(_ rule: DeleteRule) -> String {
        rule == .noAction ? "no action" : rule.rawValue
    }

    /// `(city, name)`.
    private static func list(_ names: [String]) -> String {
        "(" + names.joined(separator: ", ") + ")"
    }

    /// Rows in aligned columns, the first a heading underlined with dashes, indented two spaces.
    private static func table(_ rows: [[String]]) -> String {
        guard let heading = rows.first else { return "" }
        let widths = heading.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            var text = "  " + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text + "\n"
        }
        return line(heading) + line(widths.map { String(repeating: "-", count: $0) }) + rows.dropFirst().map(line).joined()
    }
}
