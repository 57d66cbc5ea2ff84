import CSQLite
import Foundation
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

extension SQLiteStore {
    /// Whether the store refuses changes (each with a ``StoreError/Code/readOnly`` error that
    /// says why): it was opened read-only, its file (or, in the rollback-journal mode, its
    /// directory) cannot be written, or it is a Core Data store whose model was guessed from its
    /// tables. Fetches work all the same.
    public var isReadOnly: Bool {
        lock.lock(); defer { lock.unlock() }
        return changesRefusal != nil
    }

    /// Why changes are refused, if they are. Nothing here writes: the journal mode is read,
    /// not set.
    var changesRefusal: StoreError? {
        let name = url?.lastPathComponent ?? "this database"
        let unchanged = "it can be queried but not changed"
        if isOpenedReadOnly { return StoreError(.readOnly, "\(name) was opened read-only; \(unchanged)") }
        // (Before the permission check: a Core Data store is read through a read-only connection
        // until its first change.)
        if coreData != nil { return coreDataChangesRefusal }
        if foreign?.catalog.isCoreDataStore == true {
            return StoreError(.readOnly, "\(name) has Core Data's tables but no model could be read from it; \(unchanged) (Sift writes a Core Data store only with its model: give it with --model)")
        }
        if sqlite3_db_readonly(database.handle, "main") == 1 {
            return StoreError(.readOnly, "\(name) cannot be written (no write permission); \(unchanged)")
        }
        if let url, access(url.deletingLastPathComponent().path, W_OK) != 0,
           case .text(let mode)? = try? database.scalar("PRAGMA journal_mode"), mode.lowercased() != "wal" {
            return StoreError(.readOnly, "\(name) is in a directory that cannot be written, where SQLite keeps the journal that makes a change all or nothing; \(unchanged)")
        }
        return nil
    }
}
