import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftStore

/// Changes to a PostgreSQL store: the store rules (``StoreObjects``) run on the rows
/// (``PostgreSQLRowObjects``) inside one transaction, which `save()` commits after validating
/// the objects it changed.
///
/// PostgreSQL aborts a whole transaction at its first error, so every change runs in a savepoint:
/// a change that fails is rolled back to it, and the changes before it stay pending.
extension PostgreSQLStore {
    @discardableResult
    public func insert(entity: String, id: ObjectID?, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) -> ObjectID {
        try change { (rows: inout PostgreSQLRowObjects) throws(StoreError) in
            try rows.insertObject(entity: entity, id: id, attributes: attributes, relationships: relationships)
        }
    }

    /// An import's row (``SlotInsertingStore``): inside a unit of changes, which any error undoes
    /// whole, it needs no savepoint of its own — one statement a row instead of three.
    package func insert(entityPosition: Int, id: ObjectID?, values: [SlotValue]) throws(StoreError) -> ObjectID {
        lock.lock(); defer { lock.unlock() }
        guard !units.isEmpty else {
            return try change { (rows: inout PostgreSQLRowObjects) throws(StoreError) in
                try rows.insertObject(entityPosition: entityPosition, id: id, values: values)
            }
        }
        try beginChanges()
        generation &+= 1
        // (A failed insert leaves the transaction aborted until the unit rolls back to its
        // savepoint, which it does on the error.)
        var rows = self.rows
        // Its row may wait to go in with the next ones (``PostgreSQLRowDatabase/pend``).
        rowDatabase.batching = true
        defer { rowDatabase.batching = false }
        let inserted = try rows.insertObject(entityPosition: entityPosition, id: id, values: values)
        hasChanges = true
        return inserted
    }

    public func update(_ id: ObjectID, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) {
        try change { (rows: inout PostgreSQLRowObjects) throws(StoreError) in
            try rows.updateObject(id, attributes: attributes, relationships: relationships)
        }
    }

    public func delete(_ id: ObjectID) throws(StoreError) {
        _ = try change { (rows: inout PostgreSQLRowObjects) throws(StoreError) in
            try rows.deleteObjects([id])
        }
    }

    /// Validates the objects the transaction changed (required values, relationship counts,
    /// uniqueness) and commits. On any error nothing is committed and the changes stay pending.
    public func save() throws(StoreError) { try saveChanges() }

    /// Discards the changes since the last save (rolls the transaction back).
    public func rollback() { rollbackChanges() }

    /// Runs `body` as one unit: if it throws, every change it made is undone (changes made before
    /// it stay pending).
    public func performChanges<T>(_ body: () throws -> T) throws -> T { try performChangeUnit(body) }

    // MARK: The transaction

    /// Runs one change on the rows (in the core's shell, ``SQLChangeDriver``) inside a savepoint:
    /// an error leaves nothing of it.
    func change<T>(_ body: (inout PostgreSQLRowObjects) throws(StoreError) -> T) throws(StoreError) -> T {
        try changeRows(inSavepoint: true) { () throws(StoreError) in
            var rows = self.rows
            return try body(&rows)
        }
    }

    /// Begins the write transaction, unless it is open: takes the store's write lock (one writer
    /// at a time, as in SQLite; readers go on) and reads where row keys continue.
    @_spi(SQLStoreCore) public func beginChanges() throws(StoreError) {
        guard !isReadOnly else {
            throw StoreError(.readOnly, "the database \(connection.database) holds no Sift store (it was read from its catalog); it can be queried but not changed")
        }
        guard !writing else { return }
        // Fetches still streaming read their rest first, and end their read-only transaction.
        endStreams()
        do {
            try connection.execute("BEGIN")
            let (seconds, attoseconds) = lockTimeout.components
            let milliseconds = max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
            try connection.execute("SET LOCAL lock_timeout = \(milliseconds)")
            try connection.execute("LOCK TABLE \(q(SQLSchema.metadataTable)) IN SHARE ROW EXCLUSIVE MODE")
            try connection.execute("SET LOCAL lock_timeout = 0")
        } catch {
            try? connection.execute("ROLLBACK")
            let storeError = Self.storeError(error, on: connection)
            // Waited lockTimeout: say who holds the lock, and what to do.
            throw error.sqlState == "55P03" ? lockTimeoutError(storeError) : storeError
        }
        do throws(StoreError) {
            try rows.transactionBegan()
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        writing = true
    }
}

/// The PostgreSQL store's part of the change shell (``SQLChangeDriver``): its transaction
/// begins with `BEGIN` and the store's table lock (after fetches still streaming read their
/// rest); PostgreSQL aborts a whole transaction at its first error, so every change and every
/// unit takes a savepoint (a unit's named by its depth); an import's rows held back
/// (``PostgreSQLRowDatabase/pend``) are sent before each statement and before `COMMIT`, and
/// dropped when a change or unit is undone; a unit marks the row key inserts had reached; a
/// save's checks run in a savepoint under the check timeout; a failed `COMMIT` (a lost
/// connection) ends the transaction, its changes lost; a save posts ``StoreChanges/unknown``.
@_spi(SQLStoreCore) extension PostgreSQLStore: SQLChangeDriver {
    @_spi(SQLStoreCore) public var isInTransaction: Bool { connection.isInTransaction }

    @_spi(SQLStoreCore) public func setHasChanges(_ pending: Bool) { hasChanges = pending }

    @_spi(SQLStoreCore) public func checkInterruption() throws(StoreError) { try interruption.check() }

    @_spi(SQLStoreCore) public func executeDirectly(_ sql: String) throws { try connection.execute(sql) }

    @_spi(SQLStoreCore) public func unitSavepoint(depth: Int) -> String? { "sift_unit_\(depth)" }

    /// The row key inserts have reached.
    @_spi(SQLStoreCore) public var unitMark: Int64 { rows.nextKey }

    @_spi(SQLStoreCore) public func unitBegan() {}

    @_spi(SQLStoreCore) public func unitReleased(_ unit: SQLChangeUnit<Int64>) {}

    @_spi(SQLStoreCore) public func rewindChanges(to mark: Int64) { rows.rewind(nextKey: mark) }

    @_spi(SQLStoreCore) public var unitOutlivesLostTransaction: Bool { false }

    /// (Rows waiting to be inserted came after the savepoint: they go with it.)
    @_spi(SQLStoreCore) public func discardHeldChanges() { rowDatabase.discardInserts() }

    /// A first change that failed leaves no transaction holding the write lock.
    @_spi(SQLStoreCore) public func endFailedFirstChange() { rollbackChanges() }

    @_spi(SQLStoreCore) public func failedChangeError(_ error: StoreError) -> StoreError { error }

    /// (In a savepoint: a check that fails or is cancelled leaves the changes pending.)
    @_spi(SQLStoreCore) public func prepareCommit() throws(StoreError) {
        try read { () throws(StoreError) in
            try withCheckTimeout { () throws(StoreError) in
                try analyzeFilledTables()
                try testCheckDelay.map { seconds throws(StoreError) in _ = try query("SELECT pg_sleep(\(seconds))") }
                try rows.validateChanges()
            }
        }
        try rowDatabase.flushInserts()
    }

    /// A COMMIT that fails (a lost connection) ends the transaction: the changes are gone.
    @_spi(SQLStoreCore) public func commitError(_ error: any Error) -> StoreError {
        endTransaction()
        pendingChangesEnded()
        return Self.storeError(error).suffixed(" (the transaction could not be committed: the unsaved changes are lost)")
    }

    /// The store does not record what its transaction changed.
    @_spi(SQLStoreCore) public func committedChanges() -> StoreChanges? { .unknown }

    @_spi(SQLStoreCore) public func transactionCommitted() { endTransaction() }

    @_spi(SQLStoreCore) public func rollBackTransaction() {
        rowDatabase.discardInserts()
        // (Not the read-only transaction of fetches still streaming: nothing to undo there.)
        if connection.isInTransaction && !streams.holdsTransaction { try? connection.execute("ROLLBACK") }
        endTransaction()
    }

    /// The transaction ended (committed, rolled back or lost): the store no longer writes, and
    /// the row database drops what it held back or knew of the transaction.
    private func endTransaction() {
        writing = false
        rowDatabase.transactionEnded()
    }
}
