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

    /// Runs `body` as one unit of changes: if it throws, every change it made is undone (changes
    /// made before it stay pending), and the error is rethrown. Many changes in one unit (an
    /// import) may cost less than the same changes one by one.
    func performChanges<T>(_ body: () throws -> T) throws -> T

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

    /// For a to-one relationship of a database Sift did not create, the attribute of the
    /// destination that the database's foreign key refers to — `playerID` for `Batting.player`
    /// when `Batting.playerID REFERENCES People(playerID)`: the key the database's users know a
    /// destination by (`marisro01`, where its object ID is `People/11188`). Nil where
    /// destinations are known by their object IDs: Sift's own stores, a foreign key to a rowid
    /// that is no column, a name that is no to-one relationship of `entity`.
    func destinationKeyAttribute(of relationship: String, in entity: String) -> String?

    /// What the database behind the store declares beyond the model it is read as, when Sift did
    /// not create it: its indexes and its NOT NULL columns, as `sqlite3` lists them. Read when
    /// asked (not when the store opens). Nil for a store whose model says it all: Sift's own
    /// stores, whose model declares their indexes and required attributes.
    func databaseCatalog() throws -> DatabaseCatalog?

    /// The comparisons of a fetch request that the store's model decides (``FetchWarning``):
    /// what `sift` prints as `warning:` before the results. The fetch itself answers the same
    /// with or without asking. A store that reads its model lazily (a database Sift did not
    /// create) reads only the tables the request can reach, as the fetch does.
    func warnings(for request: FetchRequest) throws -> [FetchWarning]

    /// The model with the attribute types of every entity `request` can reach (its entity and
    /// those its key paths lead to): ``model`` for a store that reads its model whole; a store
    /// that reads its model lazily (a database Sift did not create) reads only those tables, so
    /// a batch change on a 500-table database reads as little as a fetch does. Throws
    /// ``StoreError`` `unknownEntity` when the request's entity is none of the model's, saying
    /// why where the store knows (a table it does not read, such as a `WITHOUT ROWID` table).
    func model(for request: FetchRequest) throws(StoreError) -> DataModel
}

extension PersistentStore {
    /// Nil: destinations are known by their object IDs (a store of your own whose database has
    /// keys of its own may say which).
    public func destinationKeyAttribute(of relationship: String, in entity: String) -> String? { nil }

    /// Nil: the model says all there is.
    public func databaseCatalog() throws -> DatabaseCatalog? { nil }

    /// ``model``, once the request's entity is found in it.
    public func model(for request: FetchRequest) throws(StoreError) -> DataModel {
        let whole = model
        _ = try BatchChanges.requireEntity(request.entityName, in: whole)
        return whole
    }

    /// For a store of your own without units of changes: when nothing was pending before the
    /// unit, undoing it is a `rollback()`, and that is what a failed unit does; with changes
    /// pending before, a failed unit's changes are left pending too (implement the requirement
    /// to undo them alone). Sift's stores implement it.
    public func performChanges<T>(_ body: () throws -> T) throws -> T {
        let hadChanges = hasChanges
        do {
            return try body()
        } catch {
            if !hadChanges { rollback() }
            throw error
        }
    }

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

/// A store that inserts an import's rows by attribute slot, without looking each name up again
/// (the atomic stores and the SQLite store); the importer uses it when a store offers it.
package protocol SlotInsertingStore: PersistentStore {
    /// ``StoreObjects/insertObject(entityPosition:id:values:)`` on the store's objects. Called
    /// only inside a unit of changes (`performChanges`) begun with none pending, which any
    /// error undoes whole (an import): a store need not keep these inserts to make them again.
    func insert(entityPosition: Int, id: ObjectID?, values: [SlotValue]) throws(StoreError) -> ObjectID

    /// Whether a to-one relationship is a column of the row (a database Sift did not create,
    /// whose foreign key may be NOT NULL): then an import gives a row the to-ones whose
    /// destinations are in already with the row itself, not once every row is in.
    var keepsToOnesInRows: Bool { get }

    /// Whether an object takes the ID an import gives it. A store in Core Data's layout makes
    /// its own (`x-coredata://…/p<Z_PK>`): an import's IDs then only say which objects its
    /// relationships name, and each object gets the store's.
    var keepsGivenObjectIDs: Bool { get }
}

extension SlotInsertingStore {
    /// False: to-ones are set once every row is in.
    package var keepsToOnesInRows: Bool { false }
    /// True: an object takes the ID it is given.
    package var keepsGivenObjectIDs: Bool { true }
}
