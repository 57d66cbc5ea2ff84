import SiftEvaluation
import SiftPostgreSQL
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

    /// Runs a fetch that ``interrupt()`` can stop; a query the server cancelled is reported as
    /// ``StoreError/interrupted``.
    func interruptible<T>(_ fetch: () throws -> T) throws -> T {
        do {
            // A fetch sees the rows an import has given.
            try rowDatabase.flushInserts()
            return try interruption.whileRunning(fetch)
        } catch let error as StoreError where error.code == .interrupted {
            throw StoreError.interrupted
        } catch let error as EvaluationError where error.code == .interrupted {
            // The evaluator stopped while it read relationships from the server.
            throw StoreError.interrupted
        }
    }
}

extension PostgreSQLStore: InterruptibleFetches, AccessReportingStore, IntrospectedModelStore {}
