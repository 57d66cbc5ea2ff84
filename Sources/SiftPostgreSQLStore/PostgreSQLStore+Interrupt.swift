import SiftEvaluation
import SiftPostgreSQL
import SiftSQLStore
import SiftStore

extension PostgreSQLStore {
    /// Stops the fetches this store is running (from any thread): the fetch under way throws
    /// ``StoreError/interrupted`` — at its next row if the evaluator is working, or at once if the
    /// server is (its query is cancelled). A fetch that starts after the last one under way has
    /// ended runs normally.
    public func interrupt() {
        interruption.interrupt()
        _ = connection.cancel()
    }
}

/// The SQL stores' core runs the fetches (`SQLFetchingStore.interruptible`): a query the server
/// cancelled, or the evaluator stopped while it read relationships from the server, is
/// ``StoreError/interrupted``; the executor's errors are store errors already.
extension PostgreSQLStore: SQLFetchingStore {
    // `PersistentStore`'s fetches, each run by the core (`executeFetch`, `fetchObjects`,
    // `fetchSectionedObjects`: the dispatch, the interrupt and error shell) with this store's
    // executor.
    public func execute(_ request: FetchRequest) throws -> FetchResult { try executeFetch(request) }
    public func fetch(_ request: FetchRequest) throws -> FetchedObjects { try fetchObjects(request) }
    public func fetchSections(_ request: FetchRequest) throws -> SectionedFetchResults { try fetchSectionedObjects(request) }

    package func fetchExecutor(for request: FetchRequest) throws -> any SQLStoreFetchExecutor {
        PostgreSQLFetchExecutor(store: self)
    }

    /// A fetch sees the rows an import has given.
    package func prepareFetch() throws { try rowDatabase.flushInserts() }

    package func fetchError(_ error: any Error) -> any Error { error }
}

extension PostgreSQLStore: InterruptibleFetches, AccessReportingStore, IntrospectedModelStore {}
