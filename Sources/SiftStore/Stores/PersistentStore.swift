import SiftEvaluation
import SiftLanguage

/// The interface every store implements (FETCH.md §2): the atomic stores here, the SQLite
/// store next to them. Changes (insert, update, delete) are pending until `save()`, which
/// validates them and writes them all or nothing; `rollback()` discards them.
public protocol PersistentStore: AnyObject {
    /// The model the store holds objects of (a store file remembers it).
    var model: DataModel { get }

    /// Inserts an object; attributes left out get their default. Relationships name their
    /// destinations by ID (a to-one relationship takes zero or one). Returns the new object's
    /// ID: `id` if given, else a generated one.
    @discardableResult
    func insert(entity: String, id: ObjectID?, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) -> ObjectID

    /// Changes the given attributes and relationships of an object.
    func update(_ id: ObjectID, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError)

    /// Deletes an object, applying delete rules (cascade, nullify, deny, no action).
    func delete(_ id: ObjectID) throws(StoreError)

    /// Validates the pending changes (required values, relationship counts, uniqueness) and
    /// writes them; on any error nothing is written and the changes stay pending.
    func save() throws(StoreError)

    /// Discards the changes since the last save.
    func rollback()

    /// Whether there are unsaved changes.
    var hasChanges: Bool { get }

    /// Runs a fetch request; the result's kind follows the request's result type.
    func execute(_ request: FetchRequest) throws -> FetchResult

    /// The objects a request returns, materialised a batch at a time while iterating.
    func fetch(_ request: FetchRequest) throws -> FetchedObjects

    /// The results grouped by the request's section key path.
    func fetchSections(_ request: FetchRequest) throws -> SectionedFetchResults

    /// The object with an ID, if there is one.
    func object(with id: ObjectID) -> ManagedObject?
}

extension PersistentStore {
    @discardableResult
    public func insert(_ entity: String, id: ObjectID? = nil, _ attributes: [String: Value] = [:],
                       relationships: [String: [ObjectID]] = [:]) throws(StoreError) -> ObjectID {
        try insert(entity: entity, id: id, attributes: attributes, relationships: relationships)
    }

    public func update(_ id: ObjectID, _ attributes: [String: Value]) throws(StoreError) {
        try update(id, attributes: attributes, relationships: [:])
    }

    /// The number of objects a request returns (limit and offset apply).
    public func count(_ request: FetchRequest) throws -> Int {
        var request = request
        request.resultType = .count
        guard case .count(let n) = try execute(request) else { return 0 }
        return n
    }
}
