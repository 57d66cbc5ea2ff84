import ArgumentParser
import Foundation
import Sift

/// Opening the store a `--store` option names; the kind follows the extension: `.sqlite` or
/// `.db` SQLite store (any SQLite database opens; one Sift did not create is read into a model
/// from its tables, to query and change), `.json` JSON store, `.plist` binary store.
/// When the extension says nothing, an existing file's first bytes do (``StoreFileKind``).
/// A `postgres://` or `postgresql://` URI, or a libpq `key=value` string that names no file
/// (`host=/tmp dbname=notes`), is a PostgreSQL database: one holding a Sift store, or any other,
/// read into a model from its catalog and queried, not changed.
enum StoreFile {
    /// The kinds of store file, by extension or header.
    enum Kind {
        case sqlite
        case atomic
        case postgres

        init(path: String) {
            if PostgreSQLStore.isConnectionString(path) && !FileManager.default.fileExists(atPath: path) {
                self = .postgres
                return
            }
            switch StoreFileKind.of(URL(fileURLWithPath: path)) {
            case .sqlite?: self = .sqlite
            default: self = .atomic
            }
        }
    }

    /// With `readOnly`, a SQLite file is opened for reading only (`--read-only`): it is never
    /// written, and every change to it is refused. `model` is the model file of a Core Data
    /// store (`--model`); for another store it is an error.
    static func open(_ path: String, readOnly: Bool = false, model: String? = nil) throws -> any PersistentStore {
        if Kind(path: path) == .postgres {
            try refuseModel(model, path)
            return try report { () throws(StoreError) in try PostgreSQLStore.open(conninfo: path) }
        }
        try requireExisting(path)
        let url = URL(fileURLWithPath: path)
        switch Kind(path: path) {
        case .postgres: return try report { () throws(StoreError) in try PostgreSQLStore.open(conninfo: path) }
        case .sqlite:
            let coreDataModel = try model.map(loadCoreDataModel)
            let store = try report { () throws(StoreError) in
                try SQLiteStore.open(at: url, readOnly: readOnly, typeCache: typeCache, coreDataModel: coreDataModel, coreDataModelPath: model)
            }
            printOpeningWarnings(store, path)
            return store
        case .atomic:
            try refuseModel(model, path)
            return try report { () throws(StoreError) in
                do throws(StoreError) {
                    return try AtomicStore.open(at: url)
                } catch {
                    // A data file given where a store goes: say what reads it.
                    if let hint = dataFileHint(path) { throw StoreError(error.code, hint) }
                    throw error
                }
            }
        }
    }

    /// Where the column types chosen for SQLite databases Sift did not create are kept between
    /// commands (`$SIFT_CACHE_DIR`, `$XDG_CACHE_HOME/sift`, `~/.cache/sift`; none with
    /// `SIFT_CACHE=off`).
    static let typeCache = SQLiteTypeCache.fromEnvironment()

    /// What to do with a file of data (JSON, JSON Lines, CSV) opened as a store, which it is not:
    /// `sift filter` reads its records, `sift import` makes a store of them. Nil for a file that
    /// looks like none of these (a damaged store is then reported as one).
    static func dataFileHint(_ path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 1 << 16) else { return nil }
        let name = url.lastPathComponent
        let text = head.filter { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }.drop { [0xEF, 0xBB, 0xBF].contains($0) }
        let store = url.deletingPathExtension().lastPathComponent + ".sqlite"
        let importing = "'sift import --store \(store) --entity NAME \(path)'"
        if text.first == UInt8(ascii: "{") || text.first == UInt8(ascii: "[") {
            // A JSON or binary store that is damaged is reported as one.
            guard !text.starts(with: Array(#"{"sift":"store""#.utf8)) else { return nil }
            let isLines = ImportFormat(fileExtension: url.pathExtension) == .jsonLines
            // Records in a file of another extension are JSON Lines to sift import only when it says so.
            let importing = "'sift import --store \(store) --entity NAME\(isLines ? "" : " --format jsonl") \(path)'"
            return "\(name) is \(isLines ? "JSON Lines data" : "JSON data"), not a Sift store: filter its records with 'sift filter PREDICATE \(path)', "
                + "or import them into a store with \(importing)"
        }
        if ImportFormat(fileExtension: url.pathExtension) == .csv {
            return "\(name) is CSV data, not a Sift store: import its rows into a store with \(importing)"
        }
        return nil
    }

    /// Opens the store a command changes (`sift import`): a JSON or binary store under its
    /// write lock, held until the process ends, so commands changing one store at once wait for
    /// each other (``AtomicStore/openForWriting(at:kind:creatingWith:lockTimeout:)``); a SQLite
    /// store takes its own lock at the first change. With `model`, a missing store is created.
    static func openForWriting(_ path: String, creatingWith model: DataModel?, coreDataModel: String? = nil) throws -> any PersistentStore {
        let url = URL(fileURLWithPath: path)
        switch Kind(path: path) {
        case .postgres:
            return try report { () throws(StoreError) in try openPostgreSQL(path, creatingWith: model) }
        case .sqlite:
            if let model, !FileManager.default.fileExists(atPath: path) {
                do {
                    return try SQLiteStore.create(at: url, model: model)
                } catch where FileManager.default.fileExists(atPath: path) {
                    // Another process created it first: change the store it made.
                } catch {
                    return try report { () throws(StoreError) in throw error }
                }
            }
            return try open(path, model: coreDataModel)
        case .atomic:
            if model == nil { try requireExisting(path) }
            return try report { () throws(StoreError) in try AtomicStore.openForWriting(at: url, creatingWith: model) }
        }
    }

    /// Opens the Sift store of a PostgreSQL database; with `model`, a database holding none gets
    /// one (without, it opens read-only, read from its catalog).
    static func openPostgreSQL(_ conninfo: String, creatingWith model: DataModel?) throws(StoreError) -> PostgreSQLStore {
        let store: PostgreSQLStore
        do {
            store = try PostgreSQLStore.open(conninfo: conninfo)
        } catch where error.code == .unsupportedModel {
            // Tables that cannot be read as a model: a store for `model` may still be made beside them.
            guard let model else { throw error }
            return try PostgreSQLStore.create(conninfo: conninfo, model: model)
        }
        guard store.isReadOnly, let model else { return store }
        return try PostgreSQLStore.create(conninfo: conninfo, model: model)
    }

    /// Prints `error: no store at PATH` and exits with status 1 when there is no file at `path`.
    private static func requireExisting(_ path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            Output.error("error: no store at \(path) (create one with 'sift import --store \(path) --model MODEL DATA')")
            throw ExitCode(1)
        }
    }

    /// Prints what was guessed or set aside when a store opened (a Core Data store without a
    /// usable model cache), as `warning: NAME: …` on standard error.
    static func printOpeningWarnings(_ store: any PersistentStore, _ path: String) {
        guard let reporting = store as? any ModelOriginReportingStore else { return }
        let name = URL(fileURLWithPath: path).lastPathComponent
        for warning in reporting.openingWarnings { Output.error("warning: \(name): \(warning)") }
    }

    /// `--model` is given only with a Core Data store: a usage error for another kind.
    private static func refuseModel(_ model: String?, _ path: String) throws {
        guard model != nil else { return }
        Output.error("error: --model is for a Core Data store (a SQLite file Core Data wrote); \(path) is not one")
        throw ExitCode(64)
    }

    /// Opens a SQLite or PostgreSQL store (for `sift sql` and `sift explain`); any other kind
    /// is a usage error.
    static func openSQLStore(_ path: String, command: String, readOnly: Bool = false, model: String? = nil) throws -> any SQLShowingStore {
        switch Kind(path: path) {
        case .postgres:
            try refuseModel(model, path)
            return try report { () throws(StoreError) in try PostgreSQLStore.open(conninfo: path) }
        case .sqlite:
            guard let store = try open(path, readOnly: readOnly, model: model) as? any SQLShowingStore else { throw ExitCode(1) }
            return store
        case .atomic:
            Output.error("error: \(path) is not a SQLite store or a PostgreSQL database; 'sift \(command)' needs a .sqlite or .db store or a postgres:// URL (JSON and binary stores run fetches in memory, without SQL)")
            throw ExitCode(64)
        }
    }

    /// Creates a store file holding what `fill` saves into it: the file appears only when `fill`
    /// has returned, and not at all if it throws (the SQLite, JSON and binary stores; a
    /// PostgreSQL database gets its store first). A store file another process created
    /// meanwhile is a `conflict` error.
    static func create(_ path: String, model: DataModel, filling fill: (any PersistentStore) throws -> Void) throws {
        let url = URL(fileURLWithPath: path)
        switch Kind(path: path) {
        case .sqlite: _ = try SQLiteStore.create(at: url, model: model, filling: fill)
        case .atomic: _ = try AtomicStore.create(at: url, model: model, filling: fill)
        case .postgres: try fill(try openPostgreSQL(path, creatingWith: model))
        }
    }

    static func create(_ path: String, model: DataModel) throws -> any PersistentStore {
        let url = URL(fileURLWithPath: path)
        switch Kind(path: path) {
        case .sqlite: return try report { () throws(StoreError) in try SQLiteStore.create(at: url, model: model) }
        case .atomic: return try report { () throws(StoreError) in try AtomicStore.create(at: url, model: model) }
        case .postgres: return try report { () throws(StoreError) in try openPostgreSQL(path, creatingWith: model) }
        }
    }

    /// A model file in Core Data's terms (its version hashes too), `error: ...` and status 1
    /// when it cannot be read.
    static func loadCoreDataModel(_ path: String) throws -> CoreDataModel {
        do {
            return try ModelFile.loadCoreData(URL(fileURLWithPath: path))
        } catch {
            Output.error("error: \(error.message)")
            throw ExitCode(1)
        }
    }

    static func loadModel(_ path: String) throws -> DataModel {
        do {
            return try ModelFile.load(URL(fileURLWithPath: path))
        } catch {
            Output.error("error: \(error.message)")
            throw ExitCode(1)
        }
    }

    /// Runs `body`, printing a store error as `error: ...` and exiting with status 1.
    static func report<T>(_ body: () throws(StoreError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            Output.error("error: \(error.message)")
            throw ExitCode(1)
        }
    }
}
