import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftSQLStore
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
    public func save() throws(StoreError) {
        // Posted once the store's lock is released (``ChangeReportingStore``).
        if try commit() { changeCenter.post(.unknown) }
    }

    /// Validates and commits; whether there was anything to commit.
    private func commit() throws(StoreError) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard hasChanges else { return false }
        // (In a savepoint: a check that fails or is cancelled leaves the changes pending.)
        try read { () throws(StoreError) in
            try withCheckTimeout { () throws(StoreError) in
                try analyzeFilledTables()
                try testCheckDelay.map { seconds throws(StoreError) in _ = try query("SELECT pg_sleep(\(seconds))") }
                try rows.validateChanges()
            }
        }
        try rowDatabase.flushInserts()
        // The last point where an interrupt (of a change under way) leaves the store as it was.
        try interruption.check()
        do {
            try connection.execute("COMMIT")
        } catch {
            // A COMMIT that fails (a lost connection) ends the transaction: the changes are gone.
            endTransaction()
            throw Self.storeError(error).suffixed(" (the transaction could not be committed: the unsaved changes are lost)")
        }
        endTransaction()
        return true
    }

    /// Discards the changes since the last save (rolls the transaction back).
    public func rollback() {
        lock.lock(); defer { lock.unlock() }
        generation &+= 1
        rowDatabase.discardInserts()
        // (Not the read-only transaction of fetches still streaming: nothing to undo there.)
        if connection.isInTransaction && !streams.holdsTransaction { try? connection.execute("ROLLBACK") }
        endTransaction()
    }

    /// The transaction ended: no change is pending, and each open unit starts from here.
    private func endTransaction() {
        writing = false
        hasChanges = false
        rowDatabase.transactionEnded()
        for index in units.indices { units[index] = PostgreSQLChangeUnit(savepoint: nil, hadChanges: false, nextKey: 0) }
    }

    /// Runs `body` as one unit: if it throws, every change it made is undone (changes made before
    /// it stay pending).
    public func performChanges<T>(_ body: () throws -> T) throws -> T {
        lock.lock(); defer { lock.unlock() }
        try beginChanges()
        let name = "sift_unit_\(units.count)"
        try execute("SAVEPOINT \(name)")
        units.append(PostgreSQLChangeUnit(savepoint: name, hadChanges: hasChanges, nextKey: rows.nextKey))
        let result: T
        do {
            result = try body()
        } catch {
            let unit = units.removeLast()
            generation &+= 1
            // (Rows waiting to be inserted came after the savepoint: they go with it.)
            rowDatabase.discardInserts()
            if let savepoint = unit.savepoint, connection.isInTransaction {
                try? connection.execute("ROLLBACK TO SAVEPOINT \(savepoint); RELEASE SAVEPOINT \(savepoint)")
                rows.rewind(nextKey: unit.nextKey)
                hasChanges = unit.hadChanges
                if !hasChanges && units.isEmpty { rollback() }
            } else {
                // A save or rollback inside the unit ended its transaction: what came after goes.
                rollback()
            }
            throw error
        }
        let unit = units.removeLast()
        if let savepoint = unit.savepoint, connection.isInTransaction { try execute("RELEASE SAVEPOINT \(savepoint)") }
        if !hasChanges && units.isEmpty && connection.isInTransaction { rollback() }
        return result
    }

    // MARK: The transaction

    /// Runs one change on the rows inside a savepoint: an error leaves nothing of it.
    func change<T>(_ body: (inout PostgreSQLRowObjects) throws(StoreError) -> T) throws(StoreError) -> T {
        lock.lock(); defer { lock.unlock() }
        try beginChanges()
        generation &+= 1
        let mark = rows.nextKey
        try execute("SAVEPOINT sift_change")
        var rows = self.rows
        do throws(StoreError) {
            let result = try body(&rows)
            try execute("RELEASE SAVEPOINT sift_change")
            hasChanges = true
            return result
        } catch {
            rowDatabase.discardInserts()
            if connection.isInTransaction {
                try? connection.execute("ROLLBACK TO SAVEPOINT sift_change; RELEASE SAVEPOINT sift_change")
            }
            rows.rewind(nextKey: mark)
            // A first change that failed leaves no transaction holding the write lock.
            if !hasChanges && units.isEmpty { rollback() }
            throw error
        }
    }

    /// Begins the write transaction, unless it is open: takes the store's write lock (one writer
    /// at a time, as in SQLite; readers go on) and reads where row keys continue.
    private func beginChanges() throws(StoreError) {
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

/// An open unit of changes (``PostgreSQLStore/performChanges(_:)``): its savepoint (nil once a
/// save or rollback inside it ended the transaction), whether changes were pending when it
/// began, and the row key inserts had reached.
struct PostgreSQLChangeUnit {
    var savepoint: String?
    var hadChanges: Bool
    var nextKey: Int64
}
