import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftSQLite
import SiftStore

/// Changes to a SQLite store: the store rules (``StoreObjects``) run on the rows
/// (``SQLiteRowChanges``: ``SQLRowObjects`` in a store Sift created, ``ForeignRowObjects`` in
/// another database) inside one write transaction, which `save()` commits after validating the
/// objects it changed.
///
/// Each change is also kept in a journal until the transaction ends (up to
/// ``journalLimit`` of them): SQLite rolls a whole transaction back on its own when a disk fills
/// or an I/O error strikes, and the journal makes the pending changes again, so such an error
/// fails only the change (or the save) it hit.
extension SQLiteStore {
    /// How long a change waits for another connection's write lock (or a read for a
    /// checkpoint's) before failing: 5 seconds unless set.
    static var defaultBusyTimeout: Int32 { 5_000 }

    /// The most changes the journal keeps; a transaction with more (a large import) is not made
    /// again after SQLite rolls it back.
    static var journalLimit: Int { 100_000 }

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
        try change(writesOnce: relationships.isEmpty, journal: { .insert(entity: entity, id: $0, attributes: attributes, relationships: relationships) }) {
            (rows: any SQLiteRowChanges) throws(StoreError) in
            try rows.insert(entity: entity, id: id, attributes: attributes, relationships: relationships)
        }
    }

    /// In a database Sift did not create, where a to-one is the row's foreign key column.
    package var keepsToOnesInRows: Bool { foreign != nil }
    /// Not in Core Data's layout, where each object's ID is its table's key
    /// (`x-coredata://…/p<Z_PK>`), which the store takes from `Z_PRIMARYKEY`.
    package var keepsGivenObjectIDs: Bool { coreData == nil }

    /// Not kept in the journal (``SlotInsertingStore``): an import's rows, which any error undoes
    /// whole, and which would hold the memory of 100,000 rows.
    package func insert(entityPosition: Int, id: ObjectID?, values: [SlotValue]) throws(StoreError) -> ObjectID {
        try change(writesOnce: true, journal: { _ in nil }) {
            (rows: any SQLiteRowChanges) throws(StoreError) in
            if !readsWithoutMap { readWithoutMap() }
            return try rows.insert(entityPosition: entityPosition, id: id, values: values)
        }
    }

    /// Turns the memory map off until the transaction ends: an import's (``insert(entityPosition:id:values:)``).
    /// A changed page that leaves the write cache is written out and, when needed again, read
    /// back: through the map, each such page read stays in the process's resident memory
    /// (the file's pages it maps) until the map goes, so an import's peak grew with its rows (83
    /// MB of mapped pages for a million rows with a 2 MB cache); read with `pread` into the
    /// cache, the memory is the cache's. Only an import pays: the next read maps the file again.
    private func readWithoutMap() {
        readsWithoutMap = true
        try? database.execute("PRAGMA mmap_size = 0")
    }

    public func update(_ id: ObjectID, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) {
        try change(writesOnce: relationships.isEmpty, journal: { _ in .update(id, attributes: attributes, relationships: relationships) }) {
            (rows: any SQLiteRowChanges) throws(StoreError) in
            try rows.update(id, attributes: attributes, relationships: relationships)
        }
    }

    public func delete(_ id: ObjectID) throws(StoreError) {
        try delete([id])
    }

    package func delete(_ ids: [ObjectID]) throws(StoreError) {
        try change(writesOnce: false, journal: { _ in .delete(ids) }) { (rows: any SQLiteRowChanges) throws(StoreError) in
            try rows.delete(ids)
        }
    }

    /// Validates the objects the transaction changed (required values, relationship counts,
    /// uniqueness) and commits. On any error nothing is committed and the changes stay pending.
    public func save() throws(StoreError) { try saveChanges() }

    /// Discards the changes since the last save (rolls the transaction back).
    public func rollback() { rollbackChanges() }

    /// Runs `body` as one unit: if it throws, every change it made is undone (changes made before
    /// it stay pending). Changes inside it skip the savepoint each would otherwise take, so many
    /// changes (an import) cost what their rows cost.
    public func performChanges<T>(_ body: () throws -> T) throws -> T { try performChangeUnit(body) }

    /// A rolled-back transaction takes hidden search columns its migration added with it.
    private func rereadSearchColumnPresence() {
        guard !schema.searchColumnsByTable.isEmpty else { return }
        schema.searchColumns.isPresent = (try? SearchColumnPresence.check(schema, in: database)) ?? false
    }

    // MARK: The transaction

    /// Runs one change on the rows (in the core's shell, ``SQLChangeDriver``) and keeps it in the
    /// journal. A change that writes more than one statement runs in a savepoint, so an error
    /// half-way leaves nothing of it; inside a unit it needs none (the unit's undoes it). The
    /// store's lock is held from the change through its journal entry (taken once: the shell
    /// runs under it).
    @discardableResult
    func change<T>(writesOnce: Bool, journal entry: (T) -> JournaledChange?,
                   _ body: (any SQLiteRowChanges) throws(StoreError) -> T) throws(StoreError) -> T {
        lock.lock(); defer { lock.unlock() }
        let result = try changeRowsHoldingLock(inSavepoint: !writesOnce && units.isEmpty) { () throws(StoreError) in try body(rows) }
        if let entry = entry(result) {
            if journal != nil {
                journal?.append(entry)
                if (journal?.count ?? 0) > Self.journalLimit { journal = nil }
            }
        } else {
            changesUnrecorded = true
        }
        return result
    }

    /// Begins the write transaction, unless it is open: takes the write lock (waiting up to the
    /// busy timeout), brings an older store's layout up to date, and reads where row keys
    /// continue.
    @_spi(SQLStoreCore) public func beginChanges() throws(StoreError) {
        guard !database.isInTransaction else { return }
        if let refusal = changesRefusal { throw refusal }
        try openCoreDataForWriting()
        if !hasChanges { journal = []; changesUnrecorded = false }
        try rows.transactionWillBegin()
        do {
            try database.execute("BEGIN IMMEDIATE")
        } catch {
            throw Self.storeError(error, file: url)
        }
        do throws(StoreError) {
            if schema.isSiftLayout { try StoreLayoutMigration.migrate(database: database, schema: schema) }
            try rows.transactionBegan()
        } catch {
            try? database.execute("ROLLBACK")
            rereadSearchColumnPresence()
            throw error
        }
        transactionBegan()
    }

    /// SQLite's page cache while a write transaction is open, in KiB: what the pages the
    /// transaction changes need, which depends on where its rows land.
    ///
    /// Rows go at the end of their table, and an import's object IDs (and small integers, such as
    /// an age) land in few places of their indexes, so the pages a row changes are few and hot:
    /// ``smallWriteCacheKibibytes`` holds them, and an import's memory stays flat (a changed
    /// page that leaves the cache is written to the WAL and read back from there if it is needed
    /// again). Text in an index — a searchable attribute's folded columns, an index or a
    /// uniqueness constraint over a String attribute — lands anywhere in it, so every page of
    /// such an index is changed again and again: with a small cache each would be written out and
    /// read back each time (a million-row import with `name` searchable spent more time in
    /// `pread` and `pwrite` than in SQLite itself with the default 2 MB), so a store that has one
    /// gets ``largeWriteCacheKibibytes``. Only the pages a transaction touches are cached, so a
    /// small change costs nothing more; the cache goes back to its size when the transaction
    /// ends, so fetches keep their memory flat. A database Sift did not create (its indexes are
    /// not in the model) gets the large cache.
    var writeCacheKibibytes: Int {
        guard schema.isSiftLayout || coreData != nil else { return Self.largeWriteCacheKibibytes }
        let textIndexed = schema.model.entities.contains { entity in
            if entity.ownAttributes.contains(where: \.isSearchable) { return true }
            let keys = entity.indexes + entity.uniquenessConstraints
            guard !keys.isEmpty else { return false }
            let text = Set(entity.attributes.lazy.filter { $0.type == .string }.map(\.name))
            return keys.contains { $0.contains(where: text.contains) }
        }
        return textIndexed ? Self.largeWriteCacheKibibytes : Self.smallWriteCacheKibibytes
    }

    /// The write cache of a store with no index over text: 8 MiB (SQLite's default is 2 MB).
    static var smallWriteCacheKibibytes: Int { 8_192 }
    /// The write cache of a store with an index over text: 64 MiB.
    static var largeWriteCacheKibibytes: Int { 65_536 }

    private func transactionBegan() {
        guard readCacheSize == nil else { return }
        guard case .integer(let size) = (try? database.scalar("PRAGMA cache_size")) ?? .null else { return }
        readCacheSize = size
        try? database.execute("PRAGMA cache_size = -\(writeCacheKibibytes)")
    }

    /// Gives the page cache back its size once no transaction is open (dropping the pages
    /// beyond it).
    private func transactionEnded() {
        guard !database.isInTransaction else { return }
        if let schema = schemaBeforeTransaction {
            // The entities the transaction added are gone with it.
            self.ownSchema = schema
            rows = SQLiteRowObjects(schema: schema, database: SQLiteRowDatabase(database))
            schemaBeforeTransaction = nil
        }
        if readsWithoutMap {
            readsWithoutMap = false
            try? database.execute("PRAGMA mmap_size = \(Self.memoryMapBytes)")
        }
        guard let size = readCacheSize else { return }
        readCacheSize = nil
        try? database.execute("PRAGMA cache_size = \(size)")
    }

    @_spi(SQLStoreCore) public func execute(_ sql: String) throws(StoreError) {
        do { try database.execute(sql) } catch { throw failedChange(error) }
    }

    /// The error a failed change or commit reports. SQLite rolls the whole transaction back on
    /// some failures (a full disk, an I/O error): the journal then makes the pending changes
    /// again; if it cannot, they are gone, and the error says so.
    private func failedChange(_ error: any Error) -> StoreError {
        let storeError = Self.storeError(error, file: url)
        transactionEnded()
        guard hasChanges, !database.isInTransaction else { return storeError }
        rereadSearchColumnPresence()
        generation &+= 1
        if replayJournal() { return storeError }
        hasChanges = false
        journal = []
        return storeError.suffixed(" (SQLite rolled the transaction back, and its changes could not be made again: the unsaved changes are lost)")
    }

    /// Makes the journal's changes again in a new transaction; false (and no transaction) if
    /// there is no journal or a change fails.
    private func replayJournal() -> Bool {
        guard let changes = journal else { return false }
        do {
            try rows.transactionWillBegin()
            try database.execute("BEGIN IMMEDIATE")
            if schema.isSiftLayout { try StoreLayoutMigration.migrate(database: database, schema: schema) }
            try rows.transactionBegan()
            for change in changes {
                switch change {
                case .insert(let entity, let id, let attributes, let relationships):
                    try rows.insert(entity: entity, id: id, attributes: attributes, relationships: relationships)
                case .insertValues(let entityPosition, let id, let values):
                    try rows.insert(entityPosition: entityPosition, id: id, values: values)
                case .update(let id, let attributes, let relationships):
                    try rows.update(id, attributes: attributes, relationships: relationships)
                case .delete(let ids):
                    try rows.delete(ids)
                case .unitBegan:
                    try database.execute("SAVEPOINT sift_unit")
                }
            }
            return true
        } catch {
            if database.isInTransaction { try? database.execute("ROLLBACK") }
            return false
        }
    }
}

/// The SQLite store's part of the change shell (``SQLChangeDriver``): its transaction begins
/// with `BEGIN IMMEDIATE` and the layout's migration; an outermost unit with nothing pending
/// takes no savepoint (undoing it is rolling back), and a change inside a unit none; every change
/// and unit is kept in the journal, made again when SQLite rolls the transaction back on its own
/// (so a unit's savepoint counts as held then: the journal took it again); a failed first
/// change rolls back only if it left nothing changed (the rows may hold a migration's work).
@_spi(SQLStoreCore) extension SQLiteStore: SQLChangeDriver {
    @_spi(SQLStoreCore) public var isInTransaction: Bool { database.isInTransaction }

    @_spi(SQLStoreCore) public func setHasChanges(_ pending: Bool) { hasChanges = pending }

    @_spi(SQLStoreCore) public func checkInterruption() throws(StoreError) { try interruption.check() }

    @_spi(SQLStoreCore) public func executeDirectly(_ sql: String) throws { try database.execute(sql) }

    @_spi(SQLStoreCore) public func unitSavepoint(depth: Int) -> String? { hasChanges || depth > 0 ? "sift_unit" : nil }

    /// Where the journal stands.
    @_spi(SQLStoreCore) public var unitMark: Int { journal?.count ?? 0 }

    @_spi(SQLStoreCore) public func unitBegan() { journal?.append(.unitBegan) }

    @_spi(SQLStoreCore) public func unitReleased(_ unit: SQLChangeUnit<Int>) {
        // Released, the unit's changes are the enclosing transaction's.
        if let count = journal?.count, count > unit.mark { journal?.remove(at: unit.mark) }
    }

    @_spi(SQLStoreCore) public func rewindChanges(to mark: Int) {
        if let count = journal?.count, count > mark { journal?.removeSubrange(mark...) }
    }

    @_spi(SQLStoreCore) public var unitOutlivesLostTransaction: Bool { true }

    @_spi(SQLStoreCore) public func discardHeldChanges() {}

    @_spi(SQLStoreCore) public func endFailedFirstChange() {
        guard database.isInTransaction, !rows.hasChangedObjects else { return }
        try? database.execute("ROLLBACK")
        rows.transactionEnded(committed: false)
    }

    @_spi(SQLStoreCore) public func failedChangeError(_ error: StoreError) -> StoreError {
        transactionEnded()
        return failedChange(error)
    }

    @_spi(SQLStoreCore) public func prepareCommit() throws(StoreError) { try rows.validateChanges() }

    @_spi(SQLStoreCore) public func commitError(_ error: any Error) -> StoreError { failedChange(error) }

    @_spi(SQLStoreCore) public func committedChanges() -> StoreChanges? { changeCenter.hasObservers ? journaledChanges() : nil }

    @_spi(SQLStoreCore) public func transactionCommitted() {
        schemaBeforeTransaction = nil
        transactionEnded()
        rows.transactionEnded(committed: true)
        journal = []
        changesUnrecorded = false
    }

    @_spi(SQLStoreCore) public func rollBackTransaction() {
        if database.isInTransaction { try? database.execute("ROLLBACK") }
        transactionEnded()
        rows.transactionEnded(committed: false)
        journal = []
        changesUnrecorded = false
        rereadSearchColumnPresence()
    }
}

/// A change as the store received it (with the ID an insert was given), for making it again.
enum JournaledChange {
    case insert(entity: String, id: ObjectID, attributes: [String: Value], relationships: [String: [ObjectID]])
    case insertValues(entityPosition: Int, id: ObjectID, values: [SlotValue])
    case update(ObjectID, attributes: [String: Value], relationships: [String: [ObjectID]])
    case delete([ObjectID])
    /// A unit of changes (``SQLiteStore/performChanges(_:)``) began with a savepoint, still open.
    case unitBegan
}
