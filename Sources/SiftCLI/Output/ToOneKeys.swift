import Sift

/// How the REPL's tables show a to-one relationship of a database Sift did not create: as the
/// key its foreign key refers to (`marisro01` for `Batting.player`, which refers to
/// `People.playerID`) rather than the destination's object ID (`People/11188`) — what the
/// database's users read in its column. The library says which key
/// (``PersistentStore/destinationKeyAttribute(of:in:)``); Sift's own stores have none, and
/// show object IDs.
///
/// Table, box, line and markdown modes use it; JSON, JSON Lines and CSV keep object IDs, as
/// `sift query` prints them (values a script passes back as `%@` or to `sift update`).
struct ToOneKeys: Sendable {
    /// Entity → to-one relationship → the destination's key attribute.
    private let keys: [String: [String: String]]

    /// The keys of `store`'s to-one relationships (none for Sift's own stores).
    init(store: any PersistentStore) {
        var keys: [String: [String: String]] = [:]
        for entity in store.model.entities {
            for relationship in entity.relationships where !relationship.isToMany {
                guard let key = store.destinationKeyAttribute(of: relationship.name, in: entity.name) else { continue }
                keys[entity.name, default: [:]][relationship.name] = key
            }
        }
        self.keys = keys
    }

    /// No keys: every to-one shows as an object ID.
    init() { keys = [:] }

    var isEmpty: Bool { keys.isEmpty }

    /// The destination's key attribute of a to-one relationship, if it is shown by key.
    func attribute(of relationship: String, in entity: String) -> String? {
        keys[entity]?[relationship]
    }

    /// A to-one relationship of `object` shown by key: the destination's key value (nil when
    /// there is no destination); nil when the relationship is shown by object ID.
    func value(of relationship: String, _ object: ManagedObject) -> Value? {
        guard let key = attribute(of: relationship, in: object.entityName) else { return nil }
        // Prefetched with the object (ObjectOutput.prepare), so read from memory.
        guard case .object(let destination as ManagedObject)? = try? object.value(forKey: relationship) else { return .null }
        return destination[attribute: key] ?? .null
    }

    /// `request` with each selected or grouped key path that ends in a to-one shown by key
    /// extended to that key, under the same name (`SELECT player` reads `player.playerID AS
    /// player`): the same rows and groups, since a foreign key refers to a unique key.
    func showingKeys(_ request: FetchRequest, model: DataModel) -> FetchRequest {
        guard !keys.isEmpty, request.resultType == .dictionaries else { return request }
        var request = request
        request.propertiesToFetch = request.propertiesToFetch.map { extended($0, from: request.entityName, model: model) }
        request.propertiesToGroupBy = request.propertiesToGroupBy.map { extended($0, from: request.entityName, model: model) }
        return request
    }

    /// A property whose expression is a key path of to-one relationships, the last shown by
    /// key, extended to the key.
    private func extended(_ property: FetchedProperty, from entityName: String, model: DataModel) -> FetchedProperty {
        guard case .keyPath(nil, let path) = property.expression.kind, var entity = model.entity(named: entityName) else { return property }
        for (index, name) in path.enumerated() {
            guard let relationship = entity.relationship(named: name), !relationship.isToMany else { return property }
            if index == path.count - 1 {
                guard let key = attribute(of: name, in: entity.name) else { return property }
                return FetchedProperty(name: property.name, expression: ExpressionNode(.keyPath(base: nil, keys: path + [key]), range: property.expression.range))
            }
            guard let destination = model.entity(named: relationship.destination) else { return property }
            entity = destination
        }
        return property
    }
}
