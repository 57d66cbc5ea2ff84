import Foundation
import Sift

/// What object output shows of each fetched object (`sift query`, `sift run` and the REPL):
/// `{"@entity", "@id", attributes…, relationships…}`, with relationships as
/// ``RelationshipDetail`` says (a to-one one as the destination's ID or null — or, in the
/// REPL's tables, as its key: ``ToOneKeys``; a to-many one as its count by default, or its
/// IDs), and with `--properties` only the named attributes and relationships, in the order
/// named.
///
/// ``prepare(_:model:)`` makes the request load what is shown a batch at a time
/// (`relationshipKeyPathsForPrefetching`, `relationshipCountsForPrefetching`), so printing
/// an object never costs a query of its own.
struct ObjectOutput: Sendable {
    var relationships: RelationshipDetail = .counts
    /// The properties to show (`--properties`), checked by ``prepare(_:model:)``; nil: every
    /// attribute and relationship.
    var properties: [String]?
    /// The to-one relationships shown as their destinations' keys rather than IDs (the REPL's
    /// tables on a database Sift did not create); none by default.
    var toOneKeys = ToOneKeys()

    /// The names of `--properties a,b,c` (spaces around a name ignored; at least one). A name
    /// may be written as in a statement, `#2B` for `2B`.
    static func propertyList(_ text: String) throws(OutputError) -> [String] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { part in
            let name = part.trimmingCharacters(in: .whitespaces)
            return name.count > 1 && name.hasPrefix("#") ? String(name.dropFirst()) : name
        }
        if names.contains(where: \.isEmpty) {
            throw OutputError("--properties: expected attribute and relationship names separated by commas (--properties name,tracks)")
        }
        return names
    }

    /// Adds the prefetching the shown relationships need to an object fetch, after checking
    /// `properties` against the fetched entity (an unknown name is an error with the closest
    /// name). A request of another result type is left as it is; `properties` on one is an
    /// error. An unknown entity is left for the store to report.
    /// A to-one whose destination ID `store` makes from the owner's row
    /// (``RowMadeToOneStore``), shown by ID, is not prefetched: the ID costs no query.
    func prepare(_ request: inout FetchRequest, model: DataModel, store: (any PersistentStore)? = nil) throws(OutputError) {
        guard request.resultType == .objects else {
            if properties != nil {
                let other = switch request.resultType {
                case .dictionaries: "a SELECT names its own properties"
                case .count: "a COUNT prints a number"
                case .objectIDs, .objects: "this fetch prints object IDs"
                }
                throw OutputError("--properties chooses what an object fetch prints; \(other)")
            }
            return
        }
        guard let entity = model.entity(named: request.entityName) else { return }
        if let properties {
            for name in properties where entity.attribute(named: name) == nil && entity.relationship(named: name) == nil {
                throw OutputError("--properties: \(entity.unknownKeyMessage(name))")
            }
        }
        guard relationships != .none else { return }
        for relationship in entity.relationships where shows(relationship.name) {
            if relationship.isToMany && relationships == .counts {
                if !request.relationshipCountsForPrefetching.contains(relationship.name) {
                    request.relationshipCountsForPrefetching.append(relationship.name)
                }
            } else if !relationship.isToMany, toOneKeys.attribute(of: relationship.name, in: entity.name) == nil,
                      let rowMade = store as? any RowMadeToOneStore, rowMade.makesDestinationIDFromRow(relationship.name, of: entity.name) {
                continue
            } else if !request.relationshipKeyPathsForPrefetching.contains(relationship.name) {
                request.relationshipKeyPathsForPrefetching.append(relationship.name)
            }
        }
    }

    private func shows(_ name: String) -> Bool { properties.map { $0.contains(name) } ?? true }

    /// An object as its JSON value: `@entity`, `@id`, then its attributes and relationships
    /// (entity order), or the chosen properties (in the order chosen).
    func value(of object: ManagedObject, model: DataModel) -> Value {
        let entityName = Value.string(object.entityName), id = Value.string(object.objectID.rawValue)
        let entity = model.entity(named: object.entityName)
        guard let properties else {
            // Every attribute and relationship: names a model keeps distinct (and apart from
            // "@entity" and "@id"), so the dictionary is made without searching its keys.
            let attributes = object.attributeValues
            var keys = ["@entity", "@id"] + attributes.keys
            var values = [entityName, id] + attributes.values
            if relationships != .none, let entity {
                for relationship in entity.relationships {
                    keys.append(relationship.name)
                    values.append(value(of: relationship, object))
                }
            }
            return .dictionary(ValueDictionary(distinctKeys: keys, values: values))
        }
        var pairs: [(String, Value)] = [("@entity", entityName), ("@id", id)]
        for name in properties {
            if let relationship = entity?.relationship(named: name) {
                if relationships != .none { pairs.append((name, value(of: relationship, object))) }
            } else {
                pairs.append((name, object[attribute: name] ?? .null))
            }
        }
        return .dictionary(ValueDictionary(pairs))
    }

    func value(of relationship: RelationshipDescription, _ object: ManagedObject) -> Value {
        if !relationship.isToMany {
            if let key = toOneKeys.value(of: relationship.name, object) { return key }
            return object.destinationIDs(of: relationship.name).first.map { .string($0.rawValue) } ?? .null
        }
        if relationships == .counts { return .int(Int64(object.destinationCount(of: relationship.name))) }
        return .array(object.destinationIDs(of: relationship.name).map { .string($0.rawValue) })
    }
}
