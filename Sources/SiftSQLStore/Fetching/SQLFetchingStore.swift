import SiftEvaluation
import SiftStore

/// What a SQL store's fetch executor answers, one request at a time: the SQLite store's
/// `SQLFetchExecutor`, the PostgreSQL store's `PostgreSQLFetchExecutor`, both answering through
/// the core's ``SQLFetchDriver``.
package protocol SQLStoreFetchExecutor {
    func objects(_ request: FetchRequest) throws -> FetchedObjects
    func count(_ request: FetchRequest) throws -> Int
    func dictionaries(_ request: FetchRequest) throws -> [ValueDictionary]
    func sections(_ request: FetchRequest) throws -> SectionedFetchResults
}

/// A SQL store's fetches as the core runs them, whatever the engine: each result type
/// dispatched to the store's executor (``executeFetch(_:)``), inside ``interruptible(_:)``, which
/// `interrupt()` can stop and which reports errors as the store reports them.
///
/// A store gives its executor for a request, what must happen before a fetch (the PostgreSQL
/// store sends the rows an import holds back) and how its connection's errors read.
package protocol SQLFetchingStore: InterruptibleStore {
    /// The executor of `request` (which may read what the request needs first, as a foreign
    /// SQLite database reads the tables it names).
    func fetchExecutor(for request: FetchRequest) throws -> any SQLStoreFetchExecutor
    /// What must be done before any fetch runs (nothing, unless the store says otherwise).
    func prepareFetch() throws
    /// An error a fetch threw, as the store reports it (its connection's errors in words).
    func fetchError(_ error: any Error) -> any Error
}

extension SQLFetchingStore {
    package func prepareFetch() throws {}

    /// `PersistentStore.execute(_:)`: objects, their IDs, the count or dictionaries.
    package func executeFetch(_ request: FetchRequest) throws -> FetchResult {
        try interruptible {
            switch request.resultType {
            case .objects: .objects(try fetchObjects(request))
            case .objectIDs: .objectIDs(try fetchObjects(request).checkedObjectIDs())
            case .count: .count(try fetchExecutor(for: request).count(request))
            case .dictionaries: .dictionaries(try fetchExecutor(for: request).dictionaries(request))
            }
        }
    }

    /// `PersistentStore.fetch(_:)`.
    package func fetchObjects(_ request: FetchRequest) throws -> FetchedObjects {
        try interruptible { try fetchExecutor(for: request).objects(request) }
    }

    /// `PersistentStore.fetchSections(_:)`.
    package func fetchSectionedObjects(_ request: FetchRequest) throws -> SectionedFetchResults {
        try interruptible { try fetchExecutor(for: request).sections(request) }
    }

    /// Runs a fetch that `interrupt()` can stop (``FetchInterruption``): a fetch the store, its
    /// connection or the evaluator stopped throws ``StoreError/interrupted``; any other error is
    /// the store's (``fetchError(_:)``).
    package func interruptible<T>(_ fetch: () throws -> T) throws -> T {
        do {
            try prepareFetch()
            return try interruption.whileRunning(fetch)
        } catch {
            let reported = fetchError(error)
            if let stopped = reported as? StoreError, stopped.code == .interrupted { throw StoreError.interrupted }
            if let stopped = reported as? EvaluationError, stopped.code == .interrupted { throw StoreError.interrupted }
            throw reported
        }
    }
}
