import Foundation
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
import SiftStore

/// Other sessions' commits to a PostgreSQL store, for live results
/// (``ExternalChangeObservingStore``, docs/LIVE-RESULTS.md).
extension PostgreSQLStore: ExternalChangeObservingStore {
    /// Calls `handler`, on a thread of its own, with what each commit by another session
    /// changed, until the observation is cancelled or freed. A session of its own (a second
    /// connection with the store's parameters) installs the store's triggers where they are
    /// missing (`PostgreSQLChangeTriggers`) and `LISTEN`s to their notifications: inserts,
    /// deletes and updates with the attributes they changed, or "unknown" where a notification
    /// does not name the rows. Where the triggers cannot be installed — a database Sift did not
    /// create (it is not changed), a role that neither owns the tables nor has the privilege, a
    /// table locked for more than a second — it polls the server's transaction snapshot every
    /// 100 ms instead, each commit "unknown" (``changeWatch`` says which).
    public func observeExternalChanges(_ handler: @escaping @Sendable (StoreChanges) -> Void) throws(StoreError) -> StoreChangeObservation {
        let (ownPID, searchPath, schemaName) = try sessionFacts()
        let watcher: PostgreSQLConnection
        do {
            watcher = try connection.openedAgain()
            _ = try watcher.query("SELECT set_config('search_path', $1, false)", [.text(searchPath)])
        } catch {
            throw Self.storeError(error).prefixed("the session following other sessions' changes could not be opened: ")
        }
        let watch = Self.prepare(watcher, schema: schema, forcePolling: forcesChangePolling)
        lock.lock(); changeWatch = watch; lock.unlock()
        let decode = Self.decoder(schema: schema, schemaName: schemaName)
        let reconnect: @Sendable () throws -> PostgreSQLConnection = { [connection] in
            let again = try connection.openedAgain()
            _ = try again.query("SELECT set_config('search_path', $1, false)", [.text(searchPath)])
            if watch == .notifications { try again.execute("LISTEN \(q(PostgreSQLChangeTriggers.channel))") }
            return again
        }
        let running = PostgreSQLChangeWatcher(connection: watcher, watch: watch, ownPID: ownPID, reconnect: reconnect,
                                              decode: decode, handler: handler)
        return StoreChangeObservation { running.cancel() }
    }

    /// Runs `body` (a live result's fetch and the reading of its IDs, sort keys and values) in
    /// one snapshot: a `REPEATABLE READ` read-only transaction on the store's session, holding
    /// the store's lock, so another session committing half-way does not mix two states (each
    /// fetch in it runs in a savepoint). Inside a transaction already open (pending changes, or
    /// streams reading a result) the reads are that transaction's; there, a read that fails
    /// because another session committed between two statements is tried again, up to twice.
    public func readingOneState<T>(_ body: () throws -> T) throws -> T {
        lock.lock(); defer { lock.unlock() }
        guard !connection.isInTransaction else {
            for _ in 0..<2 {
                if let result = try? body() { return result }
            }
            return try body()
        }
        do {
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        } catch {
            throw Self.storeError(error)
        }
        do {
            let result = try body()
            if connection.isInTransaction && !streams.holdsTransaction {
                try? connection.execute(connection.isInFailedTransaction ? "ROLLBACK" : "COMMIT")
            }
            return result
        } catch {
            if connection.isInTransaction && !streams.holdsTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// The store's session's process ID, search path and schema.
    private func sessionFacts() throws(StoreError) -> (Int32, String, String) {
        lock.lock(); defer { lock.unlock() }
        let row = try read { () throws(StoreError) in
            try query("SELECT pg_backend_pid(), current_setting('search_path'), current_schema()::text")
        }.first
        guard let row, let pid = row[0].int64Value, let searchPath = row[1].stringValue, let schemaName = row[2].stringValue else {
            throw StoreError(.database, "the store's session has no schema: other sessions' changes cannot be followed")
        }
        return (Int32(truncatingIfNeeded: pid), searchPath, schemaName)
    }

    /// Installs the triggers and listens through `watcher`, or says why it polls.
    private static func prepare(_ watcher: PostgreSQLConnection, schema: SQLSchema, forcePolling: Bool) -> PostgreSQLChangeWatch {
        guard schema.isSiftLayout else {
            return .polling(reason: "the database holds no Sift store, and Sift does not change it")
        }
        guard !forcePolling else { return .polling(reason: "polling was asked for") }
        do {
            try PostgreSQLChangeTriggers.install(for: schema, through: watcher)
            try watcher.execute("LISTEN \(q(PostgreSQLChangeTriggers.channel))")
            return .notifications
        } catch {
            let message = (error as? PostgreSQLError).map { "PostgreSQL \($0.sqlState): \($0.message)" } ?? "\(error)"
            return .polling(reason: "the triggers could not be installed (\(message))")
        }
    }

    /// Reads a notification's payload into what it changed, for the tables of `schema` in the
    /// schema named `schemaName` (nil for another's).
    static func decoder(schema: SQLSchema, schemaName: String) -> PostgreSQLChangeWatcher.Decoder {
        // Each entity table's property names (the columns are named after them) and which of
        // them are relationships; the join tables (whose changes are "unknown").
        var properties: [String: Set<String>] = [:]
        var relationships: [String: Set<String>] = [:]
        var joinTables: Set<String> = []
        for table in schema.tables.values {
            properties[table.table, default: []].formUnion(table.columns.keys)
            for (name, storage) in table.relationships {
                switch storage {
                case .foreignKey: properties[table.table, default: []].insert(name); relationships[table.table, default: []].insert(name)
                case .inverseForeignKey: break
                case .joinTable(let join, _, _): joinTables.insert(join)
                }
            }
        }
        return { [properties, relationships, joinTables] notification in
            guard let object = try? JSONSerialization.jsonObject(with: Data(notification.payload.utf8)) as? [String: Any],
                  object["schema"] as? String == schemaName, let table = object["table"] as? String else { return nil }
            guard let names = properties[table] else { return joinTables.contains(table) ? .unknown : nil }
            let rows = object["rows"] as? [Any]
            var changes = StoreChanges()
            switch object["op"] as? String {
            case "INSERT"?, "DELETE"?:
                guard let ids = rows?.compactMap({ $0 as? String }), ids.count == rows?.count else { return .unknown }
                if object["op"] as? String == "INSERT" { changes.inserted = Set(ids.map { ObjectID($0) }) } else { changes.deleted = Set(ids.map { ObjectID($0) }) }
            case "UPDATE"?:
                guard let rows else { return .unknown }
                for row in rows {
                    guard let pair = row as? [Any], pair.count == 2, let id = pair[0] as? String, let columns = pair[1] as? [String] else { return .unknown }
                    let keys = Set(columns).intersection(names)
                    if !keys.isDisjoint(with: relationships[table] ?? []) { changes.isComplete = false }
                    if !keys.isEmpty { changes.updated[ObjectID(id), default: []].formUnion(keys) }
                }
            default:
                return .unknown
            }
            return changes
        }
    }
}
