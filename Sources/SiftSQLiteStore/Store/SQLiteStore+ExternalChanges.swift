import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQLite
import SiftStore

/// The commits of other connections and processes to a SQLite store file, for live results
/// (``ExternalChangeObservingStore``).
extension SQLiteStore: ExternalChangeObservingStore {
    /// SQLite's count of the commits other connections made (`PRAGMA data_version`, on the
    /// store's own connection, which its own commits leave alone); nil if it cannot be read.
    func otherConnectionsDataVersion() -> Int64? {
        lock.lock(); defer { lock.unlock() }
        guard case .integer(let version)? = try? database.scalar("PRAGMA data_version") else { return nil }
        return version
    }

    /// Calls `handler` on a thread of its own after another connection or process commits to
    /// the store file: inotify reports a write to the file or its `-wal`, and `PRAGMA
    /// data_version` says a commit came (polled every 100 ms where inotify is missing). An
    /// in-memory store has no other writers: the handler is never called.
    public func observeExternalChanges(_ handler: @escaping @Sendable (StoreChanges) -> Void) throws(StoreError) -> StoreChangeObservation {
        guard let url else { return StoreChangeObservation {} }
        guard let first = otherConnectionsDataVersion() else {
            throw StoreError(.database, "\(url.lastPathComponent): SQLite's data version cannot be read, so other processes' changes cannot be followed")
        }
        let last = Locked(first)
        let watcher = FileChangeWatcher(file: url, companions: ["-wal"]) { [weak self] in
            guard let self, let version = self.otherConnectionsDataVersion() else { return false }
            return last.withLock { seen in
                defer { seen = version }
                return seen != version
            }
        } onChange: {
            handler(.unknown)
        }
        return StoreChangeObservation { watcher.cancel() }
    }

    /// Runs `body` in one read transaction (unless a transaction is open), holding the store's
    /// lock, so that a fetch's count, sections and IDs all read the same commit while other
    /// processes write.
    public func readingOneState<T>(_ body: () throws -> T) throws -> T {
        lock.lock(); defer { lock.unlock() }
        guard !database.isInTransaction else { return try body() }
        do { try database.execute("BEGIN") } catch { throw Self.storeError(error, file: url) }
        defer { if database.isInTransaction { try? database.execute("COMMIT") } }
        return try body()
    }
}
