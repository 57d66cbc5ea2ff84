import CSQLite
import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLStore
import SiftSQLite
import SiftStore

/// SQLite's errors as a user reads them: what happened, to which file, and what to do — never
/// SQLite's codes or the SQL text alone.
///
///     notes.sqlite is damaged (SQLite: database disk image is malformed); recover what it holds
///     with `sqlite3 notes.sqlite .recover > notes.sql`, or restore a copy
///
/// An error a registered function threw (a MATCHES past its backtracking limit, a CAST that
/// cannot convert) is the evaluator's own error, with the message the evaluator gives.
extension SQLiteStore {
    /// `error` as this store reports it: an `EvaluationError` or `StoreError` a registered
    /// function threw, itself; any other SQLite error, a ``StoreError`` (``storeError(_:file:)``).
    /// An unknown entity that is a table of the database Sift does not read (`WITHOUT ROWID`,
    /// virtual) says so.
    func translated(_ error: any Error) -> any Error {
        let translated = Self.translated(error, file: url)
        if let unknown = translated as? StoreError, unknown.code == .unknownEntity, let entity = unknown.entity,
           let skipped = foreign?.catalog.skippedTableError(entity) {
            return skipped
        }
        return translated
    }

    /// `error` as a store on `file` reports it (see `translated(_:)`); the evaluator stopped by
    /// an interrupt while it read relationships is ``StoreError/interrupted``, as SQLite stopped is.
    public static func translated(_ error: any Error, file: URL?) -> any Error {
        if let error = error as? SQLiteError, let evaluation = error.underlying as? EvaluationError { return translated(evaluation, file: file) }
        if let error = error as? EvaluationError { return error.code == .interrupted ? StoreError.interrupted : error }
        return storeError(error, file: file)
    }

    /// The message of a SQLite error that escaped the store it came from (without its file),
    /// or nil for any other error.
    public static func message(ofSQLiteError error: any Error) -> String? {
        guard error is SQLiteError else { return nil }
        return "\(translated(error, file: nil))"
    }

    /// A store error for `error`: a ``StoreError`` itself; a SQLite error in words, naming
    /// `file` (or "the store" without one), with what to do about it.
    public static func storeError(_ error: any Error, file: URL? = nil) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? SQLiteError else { return StoreError(.database, "\(error)") }
        if let underlying = error.underlying as? StoreError { return underlying }
        if let underlying = error.underlying as? EvaluationError { return StoreError(.database, underlying.message) }
        let name = file?.path ?? "the store"
        let sqlite = "(SQLite: \(error.message))"
        switch error.primaryCode {
        case SQLITE_INTERRUPT:
            return .interrupted
        case SQLITE_BUSY, SQLITE_LOCKED:
            return StoreError(.locked, "\(file?.lastPathComponent ?? "the store") is locked by another connection writing to it; try again once it has saved \(sqlite)")
        case SQLITE_CONSTRAINT:
            return StoreError(.constraintViolation, "SQLite: \(error.message)")
        case SQLITE_CORRUPT:
            guard let file else {
                return StoreError(.corruptStore, "the store is damaged \(sqlite); restore it from a copy, or make it again")
            }
            return StoreError(.corruptStore, "\(file.path) is damaged \(sqlite); recover what it holds with "
                              + "`sqlite3 \(file.path) .recover > \(file.deletingPathExtension().lastPathComponent).sql`, or restore a copy")
        case SQLITE_NOTADB:
            return StoreError(.corruptStore, "\(name) is not a SQLite database, or is encrypted or damaged at its start \(sqlite); check that the path names a store")
        case SQLITE_IOERR:
            return StoreError(.database, "reading or writing \(name) failed \(sqlite); check the disk, and that the file is still there and readable")
        case SQLITE_FULL:
            return StoreError(.database, "\(name): the disk is full \(sqlite); free some space and try again")
        case SQLITE_CANTOPEN:
            return StoreError(.database, "cannot open \(name) \(sqlite); check that it exists and that it and its directory can be read")
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH:
            return StoreError(.database, "\(name) cannot be written \(sqlite); check the permissions of the file and of its directory")
        case SQLITE_NOMEM:
            return StoreError(.database, "SQLite ran out of memory working on \(name) \(sqlite); fetch less at once (a narrower predicate, a LIMIT)")
        case SQLITE_TOOBIG:
            return StoreError(.database, "a string or binary value is too big for \(name) \(sqlite); SQLite holds values up to 1 GB")
        case SQLITE_SCHEMA, SQLITE_ERROR:
            return StoreError(.database, "SQLite could not run the query on \(name) \(sqlite); if another program changed the file, its tables may no longer be the ones the store expects")
        default:
            return StoreError(.database, "SQLite failed on \(name) \(sqlite), code \(error.code)")
        }
    }
}
