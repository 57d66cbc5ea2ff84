import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftStore

/// What the SQLite store's changes ask of the rows they change, whatever layout holds them:
/// Sift's own (``SQLRowObjects``: `_pk`, `_id`, `_entity`, join tables) or a database Sift did
/// not create (``ForeignRowObjects``: its tables as they are, keys, constraints and foreign keys
/// as it declares them). The store keeps the transaction, its savepoints, its journal and the
/// lock (``SQLiteStore``); the rows know how objects become rows.
protocol SQLiteRowChanges: AnyObject {
    /// Called before the store begins a write transaction (settings that cannot change inside one).
    func transactionWillBegin() throws(StoreError)
    /// The store began a write transaction (it holds SQLite's write lock).
    func transactionBegan() throws(StoreError)
    /// Whether the transaction inserted or changed anything.
    var hasChangedObjects: Bool { get }

    @discardableResult
    func insert(entity: String, id: ObjectID?, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) -> ObjectID
    @discardableResult
    func insert(entityPosition: Int, id: ObjectID?, values: [SlotValue]) throws(StoreError) -> ObjectID
    func update(_ id: ObjectID, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError)
    func delete(_ ids: [ObjectID]) throws(StoreError)

    /// Checks the transaction's changes before the store commits them; an error leaves them
    /// pending.
    func validateChanges() throws(StoreError)
    /// The transaction ended: committed, or rolled back.
    func transactionEnded(committed: Bool)
}

/// Sift's own layout: the store rules (``StoreObjects``) on its rows.
extension SQLRowObjects: SQLiteRowChanges where Database == SQLiteRowDatabase {
    func transactionWillBegin() {}

    func insert(entity: String, id: ObjectID?, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) -> ObjectID {
        var rows = self
        return try rows.insertObject(entity: entity, id: id, attributes: attributes, relationships: relationships)
    }

    func insert(entityPosition: Int, id: ObjectID?, values: [SlotValue]) throws(StoreError) -> ObjectID {
        var rows = self
        return try rows.insertObject(entityPosition: entityPosition, id: id, values: values)
    }

    func update(_ id: ObjectID, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) {
        var rows = self
        try rows.updateObject(id, attributes: attributes, relationships: relationships)
    }

    func delete(_ ids: [ObjectID]) throws(StoreError) {
        var rows = self
        try rows.deleteObjects(ids)
    }

    func transactionEnded(committed: Bool) {}
}
