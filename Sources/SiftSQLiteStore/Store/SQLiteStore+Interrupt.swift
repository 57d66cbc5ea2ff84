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

    /// Runs a fetch, reporting SQLite's `SQLITE_INTERRUPT` as ``StoreError/interrupted``, and
    /// every other SQLite error as what it means to the user (``translated(_:)``).
    func interruptible<T>(_ fetch: () throws -> T) throws -> T {
        do {
            return try interruption.whileRunning(fetch)
        } catch {
            throw translated(error)
        }
    }
}

extension SQLiteStore: InterruptibleFetches, AccessReportingStore, IntrospectedModelStore {}
