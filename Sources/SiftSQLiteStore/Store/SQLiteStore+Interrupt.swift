import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

extension SQLiteStore {
    /// Stops the statements this store's connection is running (`sqlite3_interrupt`; from any
    /// thread): the fetch under way throws ``StoreError/interrupted``. A fetch that starts after
    /// the last statement under way has ended runs normally.
    ///
    /// A fetch whose objects are being read a batch at a time ends early instead (iteration
    /// cannot throw): the objects read so far are all there is. A part of the predicate the
    /// evaluator checks on SQL's rows stops at its next row.
    public func interrupt() {
        database.interrupt()
        interruption.interrupt()
    }
}

/// The SQL stores' core runs the fetches (`SQLFetchingStore.interruptible`): SQLite's
/// `SQLITE_INTERRUPT` is ``StoreError/interrupted``, every other SQLite error what it means to
/// the user (``translated(_:)``).
extension SQLiteStore: SQLFetchingStore {
    // `PersistentStore`'s fetches, each run by the core (`executeFetch`, `fetchObjects`,
    // `fetchSectionedObjects`: the dispatch, the interrupt and error shell) with this store's
    // executor.
    public func execute(_ request: FetchRequest) throws -> FetchResult { try executeFetch(request) }
    public func fetch(_ request: FetchRequest) throws -> FetchedObjects { try fetchObjects(request) }
    public func fetchSections(_ request: FetchRequest) throws -> SectionedFetchResults { try fetchSectionedObjects(request) }

    package func fetchExecutor(for request: FetchRequest) throws -> any SQLStoreFetchExecutor {
        try SQLFetchExecutor(store: self, reading: request)
    }

    package func fetchError(_ error: any Error) -> any Error { translated(error) }
}

extension SQLiteStore: InterruptibleFetches, AccessReportingStore, IntrospectedModelStore {}
