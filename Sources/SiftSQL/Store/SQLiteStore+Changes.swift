import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQLite
import SiftStore

/// Changes to a SQLite store: the store rules (``StoreObjects``) run on the rows
/// (``SQLRowObjects``) inside one write transaction, which `save()` commits after validating the
/// objects it changed.
extension SQLiteStore {
    /// How long a change waits for another connection's write lock (or a read for a
    /// checkpoint's) before failing: 5 seconds unless set.
    static var defaultBusyTimeout: Int32 { 5_000 }

    /// How long a change (or a read) waits for another connection or process holding the
    /// store's lock before it fails with a `locked` error.
    public var busyTimeout: Duration {
        get { lock.lock(); defer { lock.unlock() }; return .milliseconds(database.busyTimeout) }
        set {
            lock.lock(); defer { lock.unlock() }
            let (seconds, attoseconds) = newValue.components
            database.busyTimeout = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        }
    }

    @discardableResult
    public func insert(entity: String, id: ObjectID?, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) -> ObjectID {
        // An insert without relationships is one INSERT: atomic without a savepoint.
        try change(writesOnce: relationships.isEmpty) { (rows: inout SQLRowObjects) throws(StoreError) in
            try rows.insertObject(entity: entity, id: id, attributes: attributes, relationships: relationships)
        }
    }

    package func insert(entityPosition: Int, id: ObjectID?, values: [(slot: Int, value: Value)]) throws(StoreError) -> ObjectID {
        try change(writesOnce: true) { (rows: inout SQLRowObjects) throws(StoreError) in
            try rows.insertObject(entityPosition: entityPosition, id: id, values: values)
        }
    }

    public func update(_ id: ObjectID, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) {
        try change(writesOnce: relationships.isEmpty) { (rows: inout SQLRowObjects) throws(StoreError) in
            try rows.updateObject(id, attributes: attributes, relationships: relationships)
        }
    }

    public func delete(_ id: ObjectID) throws(StoreError) {
        _ = try change(writesOnce: false) { (rows: inout SQLRowObjects) throws(StoreError) in
            try rows.deleteObjects([id])
        }
    }

    /// Validates the objects the transaction changed (required values, relationship counts,
    /// uniqueness) and commits. On any error nothing is committed and the changes stay pending.
    public func save() throws(StoreError) {
        lock.lock(); defer { lock.unlock() }
        guard hasChanges else { return }
        try rows.validateChanges()
        do {
            try database.execute("COMMIT")
        } catch {
            throw failedChange(error)
        }
        hasChanges = false
    }

    /// Discards the changes since the last save (rolls the transaction back).
    public func rollback() {
        lock.lock(); defer { lock.unlock() }
        if database.isInTransaction { try? database.execute("ROLLBACK") }
        generation &+= 1
        hasChanges = false
    }

    /// Runs `body` as one unit: if it throws, every change it made is undone (changes made before
    /// it stay pending). Changes inside it skip the savepoint each would otherwise take, so many
    /// changes (an import) cost what their rows cost.
    public func performChanges<T>(_ body: () throws -> T) throws -> T {
        lock.lock(); defer { lock.unlock() }
        try beginChanges()
        // With nothing pending, undoing the unit is rolling the transaction back.
        let savepoint = hasChanges || unitDepth > 0
        if savepoint { try execute("SAVEPOINT sift_unit") }
        unitDepth += 1
        defer { unitDepth -= 1 }
        let result: T
        do {
            result = try body()
        } catch {
            if savepoint, database.isInTransaction {
                try? database.execute("ROLLBACK TO sift_unit; RELEASE sift_unit")
            } else {
                rollback()
            }
            generation &+= 1
            throw error
        }
        if savepoint { try execute("RELEASE sift_unit") }
        if !hasChanges && !savepoint { rollback() }
        return result
    }

    // MARK: The transaction

    /// Runs one change on the rows. A change that writes more than one statement runs in a
    /// savepoint, so an error half-way leaves nothing of it.
    func change<T>(writesOnce: Bool, _ body: (inout SQLRowObjects) throws(StoreError) -> T) throws(StoreError) -> T {
        lock.lock(); defer { lock.unlock() }
        try beginChanges()
        generation &+= 1
        let savepoint = !writesOnce && unitDepth == 0
        if savepoint { try execute("SAVEPOINT sift_change") }
        var rows = self.rows
        do throws(StoreError) {
            let result = try body(&rows)
            if savepoint { try execute("RELEASE sift_change") }
            hasChanges = true
            return result
        } catch {
            if savepoint, database.isInTransaction {
                try? database.execute("ROLLBACK TO sift_change; RELEASE sift_change")
            }
            // A first change that failed leaves no transaction holding the write lock.
            if !hasChanges && unitDepth == 0 && database.isInTransaction && !rows.hasChangedObjects {
                try? database.execute("ROLLBACK")
            }
            throw failedChange(error)
        }
    }

    /// Begins the write transaction, unless it is open: takes the write lock (waiting up to the
    /// busy timeout) and reads where row keys continue.
    private func beginChanges() throws(StoreError) {
        guard schema.isSiftLayout else {
            throw StoreError(.readOnly, "\(url?.lastPathComponent ?? "this database") was not created by Sift; it can be queried but not changed")
        }
        guard !database.isInTransaction else { return }
        do {
            try database.execute("BEGIN IMMEDIATE")
        } catch {
            throw Self.storeError(error, file: url)
        }
        do throws(StoreError) {
            try StoreLayoutMigration.migrate(database: database, schema: schema)
            try rows.transactionBegan()
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    private func execute(_ sql: String) throws(StoreError) {
        do { try database.execute(sql) } catch { throw failedChange(error) }
    }

    /// The error a failed change or commit reports. SQLite rolls the whole transaction back on
    /// some failures (a full disk, an I/O error): the pending changes are then gone, and the
    /// error says so.
    private func failedChange(_ error: any Error) -> StoreError {
        let storeError = Self.storeError(error, file: url)
        guard hasChanges, !database.isInTransaction else { return storeError }
        hasChanges = false
        generation &+= 1
        return StoreError(storeError.code, storeError.message + " (SQLite rolled the transaction back: the unsaved changes are lost)",
                          entity: storeError.entity, objectID: storeError.objectID, key: storeError.key)
    }
}
