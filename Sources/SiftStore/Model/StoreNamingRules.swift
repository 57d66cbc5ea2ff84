import Foundation

/// The names a new store of any kind accepts, checked before anything is made, so a model
/// gets the same answer from the SQLite, PostgreSQL, JSON and plist stores, with a message
/// naming the clash (SQLite used to fail half-way with its own words).
///
/// - No entity or property name holds U+0000 (C strings, and so SQL, end there).
/// - Entity names differ in more than ASCII case (`Item` and `item`): SQLite folds the case
///   of table names, so the two would be one table.
/// - No entity name begins with `sqlite_` (any case): SQLite keeps those names for itself.
/// - Within an inheritance hierarchy (which the SQL stores keep in one table), property names
///   differ in more than ASCII case (`name` and `NAME`): SQLite folds column names too.
///
/// Models read from a database Sift did not make are not checked: the database holds them.
public enum StoreNamingRules {
    /// Throws an `unsupportedModel` error naming the first clash in `model`.
    public static func check(_ model: DataModel) throws(StoreError) {
        var entityByFoldedName: [String: String] = [:]
        entityByFoldedName.reserveCapacity(model.entities.count)
        for entity in model.entities {
            try checkNUL(entity.name, "entity \(quoted(entity.name))")
            let folded = asciiLowercased(entity.name)
            if folded.hasPrefix("sqlite_") {
                throw StoreError(.unsupportedModel, "entity \(entity.name): names beginning with 'sqlite_' are SQLite's own; rename the entity", entity: entity.name)
            }
            if let other = entityByFoldedName.updateValue(entity.name, forKey: folded) {
                throw StoreError(.unsupportedModel, "entities \(other) and \(entity.name) differ only in case: a SQL store holds them in one table; rename one",
                                 entity: entity.name)
            }
        }
        // Each hierarchy once, from its root: every property of the root and its subentities.
        for root in model.entities where root.parent == nil {
            var propertyByFoldedName: [String: (name: String, entity: String)] = [:]
            for name in root.entityAndSubentities {
                guard let entity = model.entity(named: name) else { continue }
                for property in entity.ownAttributes.map(\.name) + entity.ownRelationships.map(\.name) {
                    try checkNUL(property, "property \(quoted(property)) of \(entity.name)")
                    let folded = asciiLowercased(property)
                    if let other = propertyByFoldedName[folded], other.name != property {
                        let place = other.entity == entity.name ? "of \(entity.name)" : "of \(other.entity) and \(entity.name), which share one table,"
                        throw StoreError(.unsupportedModel, "properties \(other.name) and \(property) \(place) differ only in case: a SQL store holds them in one column; rename one",
                                         entity: entity.name, key: property)
                    }
                    propertyByFoldedName[folded] = (property, entity.name)
                }
            }
        }
    }

    private static func checkNUL(_ name: String, _ what: @autoclosure () -> String) throws(StoreError) {
        if name.utf8.contains(0) { throw StoreError(.unsupportedModel, "\(what()): a name cannot hold U+0000") }
    }

    /// The name quoted for a message, U+0000 shown as `\0`.
    private static func quoted(_ name: String) -> String {
        "'" + name.replacingOccurrences(of: "\u{0}", with: "\\0") + "'"
    }

    /// `name` with ASCII letters lowercased (SQLite's folding of identifiers).
    private static func asciiLowercased(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
