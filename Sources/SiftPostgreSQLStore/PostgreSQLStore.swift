import Foundation
import SiftEvaluation
import SiftLanguage
import SiftPostgreSQL
import SiftSQL
@_spi(SQLStoreCore) import SiftSQLStore
import SiftStore

/// A Sift store in a PostgreSQL database, through libpq (docs/POSTGRESQL.md): the SQLite store's
/// layout (``SQLSchema``: a table per entity hierarchy, a column per attribute, join tables) in
/// PostgreSQL types (`PostgreSQLColumnCodec`; every String attribute with hidden columns holding
/// its folds and sort key), with the model kept in the table
/// `"sift.metadata"`, so opening a store needs only its connection string.
///
/// Changes follow the store rules of every store (`StoreObjects`, on the SQLite store's row code):
/// the first change begins a transaction (taking the store's write lock, so writers queue as in
/// SQLite; readers are not blocked); each change is written into it at once inside a savepoint,
/// so a failed change leaves nothing of itself; `save()` validates the changed objects and
/// commits, `rollback()` rolls back. A failed save leaves the database as it was and the
/// changes pending.
///
/// Fetches are compiled by the SQLite store's compiler in PostgreSQL's dialect (`PostgreSQLFetchPlan`):
/// the WHERE, ORDER BY, LIMIT and OFFSET run in the server, streamed through a cursor, and so do
/// sections and dictionary fetches (GROUP BY and aggregates) when every part of them compiles;
/// what the server cannot compute exactly as the evaluator does runs in memory on the rows it
/// returns, so every answer is the in-memory stores' answer. ``generatedSQL(for:)`` shows which.
///
///     let store = try PostgreSQLStore.create(conninfo: "postgres://me@localhost/notes", model: model)
///     try store.insert("Note", ["title": .string("Hello")])
///     try store.save()
public final class PostgreSQLStore: PersistentStore, SlotInsertingStore, InterruptibleStore, ChangeReportingStore, @unchecked Sendable {
    /// The store's model, as it was given (its layout's model, `schema`, has every String
    /// attribute searchable).
    public let model: DataModel
    package let schema: SQLSchema
    let connection: PostgreSQLConnection
    @_spi(SQLStoreCore) public let lock = NSRecursiveLock()

    /// The rows as the store rules see them, and what the open transaction changed.
    private(set) lazy var rows = PostgreSQLRowObjects(schema: schema, database: rowDatabase)
    /// The connection as the rows' code uses it, with the import's rows waiting to be inserted.
    private(set) lazy var rowDatabase = PostgreSQLRowDatabase(connection)
    /// The open ``performChanges(_:)`` units, innermost last.
    @_spi(SQLStoreCore) public var units: [SQLChangeUnit<Int64>] = []
    /// Whether the store's write transaction is open.
    var writing = false
    public package(set) var hasChanges = false
    /// Where each save is posted (``ChangeReportingStore``): as ``StoreChanges/unknown``, the
    /// store does not record what its transaction changed.
    public let changeCenter = StoreChangeCenter()
    /// How the store follows other sessions' commits since its changes were last observed
    /// (``observeExternalChanges(_:)``): their triggers' notifications, or polling and why; nil
    /// before.
    public internal(set) var changeWatch: PostgreSQLChangeWatch?
    /// For the tests: follow other sessions' commits by polling, as where triggers cannot be
    /// installed.
    package var forcesChangePolling = false
    /// How fetches are written for this store's columns (their types, by table).
    let dialect: PostgreSQLDialect
    /// How the fetches made so far ran: in the server or partly in memory.
    package internal(set) var fetchStatistics = PostgreSQLFetchStatistics()
    /// Names the cursors fetches declare.
    var cursorCounter = 0
    /// The fetches streaming from a cursor, and their transaction (``PostgreSQLCursorRows``).
    let streams = PostgreSQLStreams()
    /// Lets ``interrupt()`` stop the fetches under way.
    package let interruption = FetchInterruption()
    /// How long the first change waits for another writer's lock on the store before failing
    /// with a `locked` error: 5 seconds unless set (as the SQLite store's busy timeout).
    public var lockTimeout: Duration = .seconds(5)
    /// The longest a save's checks (required values, relationship counts, uniqueness) may run
    /// before the server cancels them and the save fails, its changes pending: 5 minutes unless
    /// set; nil for no limit. A session with a `statement_timeout` of its own (given in the URL,
    /// `options=-c statement_timeout=10min`, or by `ALTER ROLE … SET`) keeps it instead. It bounds
    /// what a client that died during a save leaves running in a server that cannot notice (one
    /// before PostgreSQL 14, without `client_connection_check_interval`).
    public var checkTimeout: Duration? = .seconds(300)
    /// For the tests: seconds a save's checks sleep first (``environmentCheckDelay``).
    package var testCheckDelay: Double? = PostgreSQLStore.environmentCheckDelay
    /// Changes whenever the rows may change under fetched objects (a change, a rollback):
    /// prefetched relationships read in an earlier generation are read again.
    @_spi(SQLStoreCore) public var generation: UInt64 = 0

    /// The layout version a PostgreSQL store records in its metadata.
    ///
    /// - 1: the first layout.
    /// - 2: text columns `COLLATE "C"`; every String attribute has hidden columns holding its
    ///   `[cd]` and `[c]` folds and `localizedStandardCompare`'s sort key (``PostgreSQLSchemaDDL``).
    ///   A store of layout 1 opens, with fetches run in memory as they were then.
    static let layoutVersion = "2"
    /// `bigint[]` and `text[]`, for lists of keys and names sent as one parameter.
    static let bigintArray = PostgreSQLTypeOID(rawValue: 1016)
    static let textArray = PostgreSQLTypeOID(rawValue: 1009)

    /// Whether fetches are compiled for the server (a store of layout 1, made before its text
    /// columns were `COLLATE "C"` and had their folds, runs them in memory).
    let compilesFetches: Bool
    /// Whether the database has the store's text functions (``PostgreSQLTextFunctions``), so
    /// string tests with options and case mappings of computed text run in the server.
    let hasTextFunctions: Bool
    /// Whether the database has the store's number functions (``PostgreSQLNumberFunctions``),
    /// so a decimal meeting a double is converted in the server.
    let hasNumberFunctions: Bool

    /// With `columnTypes`, the types of the columns of a database Sift did not create that are
    /// read in another form than as they are (``PostgreSQLIntrospection``); without, those of
    /// the store's layout.
    init(connection: PostgreSQLConnection, model: DataModel, schema: SQLSchema, compilesFetches: Bool = true, hasTextFunctions: Bool = false,
         hasNumberFunctions: Bool = false, columnTypes: [String: [String: String]]? = nil, columnTypeReasons: [String: [String: String]] = [:]) {
        self.connection = connection
        self.model = model
        self.schema = schema
        self.compilesFetches = compilesFetches
        self.hasTextFunctions = hasTextFunctions
        self.hasNumberFunctions = hasNumberFunctions
        self.dialect = PostgreSQLDialect(columnTypes: columnTypes ?? Self.columnTypes(schema), hasTextFunctions: hasTextFunctions,
                                         hasNumberFunctions: hasNumberFunctions)
        self.columnTypeReasons = columnTypeReasons
    }

    /// The metadata key recording whether the store installed its text functions ("1").
    static let textFunctionsKey = "text functions"
    /// The metadata key recording whether the store installed its number functions ("1").
    static let numberFunctionsKey = "number functions"

    /// Why each attribute of a database read from its catalog has its type, by entity and
    /// attribute (`"declared character varying(160)"`, `"declared integer; the row's key"`):
    /// what `sift schema` prints beside it. Empty for a Sift store.
    public let columnTypeReasons: [String: [String: String]]

    /// Whether the database holds no Sift store, and was read from its catalog instead: its
    /// tables can be fetched from, not changed (every change fails with a `readOnly` error).
    public var isReadOnly: Bool { !schema.isSiftLayout }

    /// `model` with every String attribute searchable: the layout of a PostgreSQL store, whose
    /// every text attribute keeps its folds and sort key (the server has no Sift functions).
    static func searchableModel(_ model: DataModel) throws(StoreError) -> DataModel {
        try rebuilt(model) { attribute in attribute.type == .string }
    }

    /// `model` with no attribute searchable: the layout of a store of layout 1.
    static func unsearchableModel(_ model: DataModel) throws(StoreError) -> DataModel {
        try rebuilt(model) { _ in false }
    }

    private static func rebuilt(_ model: DataModel, searchable: (AttributeDescription) -> Bool) throws(StoreError) -> DataModel {
        let entities = model.entities.map { entity in
            EntityDescription(name: entity.name, parent: entity.parent, isAbstract: entity.isAbstract,
                              attributes: entity.ownAttributes.map { attribute in
                                  var attribute = attribute
                                  attribute.isSearchable = searchable(attribute)
                                  return attribute
                              },
                              relationships: entity.ownRelationships, indexes: entity.indexes, uniquenessConstraints: entity.uniquenessConstraints)
        }
        do {
            return try DataModel(name: model.name, entities: entities)
        } catch {
            throw StoreError(.unsupportedModel, error.message)
        }
    }

    /// The PostgreSQL type of each attribute column, by table.
    static func columnTypes(_ schema: SQLSchema) -> [String: [String: String]] {
        var types: [String: [String: String]] = [:]
        for table in schema.tables.values {
            for attribute in table.entity.attributes {
                guard let column = table.columns[attribute.name], let type = PostgreSQLColumnCodec.columnType(attribute.type) else { continue }
                types[table.table, default: [:]][column] = type
            }
        }
        return types
    }

    // MARK: Opening

    /// Whether `location` names a PostgreSQL database rather than a file: a `postgres://` or
    /// `postgresql://` URI, or a libpq `key=value` string whose first keyword is one of libpq's
    /// (`host=/tmp dbname=notes`, `dbname=notes`).
    public static func isConnectionString(_ location: String) -> Bool {
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") { return true }
        let trimmed = location.drop { $0 == " " }
        guard let equals = trimmed.firstIndex(of: "=") else { return false }
        let keyword = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
        return conninfoKeywords.contains(keyword)
    }

    /// libpq's connection keywords a `key=value` string may begin with.
    static let conninfoKeywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "service", "sslmode",
        "connect_timeout", "application_name", "options", "target_session_attrs",
    ]

    /// Makes a store in the database `conninfo` names (a URI or `key=value` string): the model's
    /// tables and the metadata, in one transaction. A database already holding a Sift store, or
    /// any of the tables, is an error and is left as it was.
    public static func create(conninfo: String, model: DataModel) throws(StoreError) -> PostgreSQLStore {
        try create(connection: try connect(conninfo), model: model)
    }

    /// Makes a store through an open connection (see ``create(conninfo:model:)``).
    public static func create(connection: PostgreSQLConnection, model: DataModel) throws(StoreError) -> PostgreSQLStore {
        try StoreNamingRules.check(model)
        try configureSession(connection)
        let schema = try SQLSchema.forModel(try searchableModel(model))
        let statements = try PostgreSQLSchemaDDL.statements(for: schema)
        var hasTextFunctions = false
        var hasNumberFunctions = false
        do {
            try connection.transaction {
                if try isSiftStore(connection) {
                    throw StoreError(.fileSystem, "the database \(connection.database) already holds a Sift store")
                }
                for statement in statements { try connection.execute(statement) }
                // The text functions need `normalize`, which needs a UTF-8 database.
                if try connection.query("SHOW server_encoding").first?[0].stringValue == "UTF8",
                   case .success(let functions) = PostgreSQLTextFunctions.installation {
                    for function in functions { try connection.execute(function) }
                    hasTextFunctions = true
                }
                // The number functions are PL/pgSQL, present in every database unless removed
                // (`DROP EXTENSION plpgsql`); without them, what they serve runs in memory.
                if try !connection.query("SELECT 1 FROM pg_catalog.pg_language WHERE lanname = 'plpgsql'").isEmpty {
                    for function in PostgreSQLNumberFunctions.statements { try connection.execute(function) }
                    hasNumberFunctions = true
                }
                let insert = "INSERT INTO \(q(SQLSchema.metadataTable)) (\(q("key")), \(q("value"))) VALUES ($1, $2), ($3, $4), ($5, $6), ($7, $8), ($9, $10), ($11, $12)"
                _ = try connection.run(insert, [.text("format"), .text("sift"), .text("version"), .text(layoutVersion),
                                                .text("database"), .text("postgresql"), .text("model"), .text(JSONModelFormat.write(model)),
                                                .text(textFunctionsKey), .text(hasTextFunctions ? "1" : "0"),
                                                .text(numberFunctionsKey), .text(hasNumberFunctions ? "1" : "0")])
            }
        } catch {
            throw storeError(error, on: connection)
        }
        return PostgreSQLStore(connection: connection, model: model, schema: schema, hasTextFunctions: hasTextFunctions,
                               hasNumberFunctions: hasNumberFunctions)
    }

    /// Opens the Sift store in the database `conninfo` names, with the model it keeps.
    ///
    /// A database holding no Sift store opens read-only (``isReadOnly``), its model read from its
    /// catalog, as a SQLite file Sift did not create does: an entity per table of the current
    /// schema with an integer key (its single-column integer primary key, else a `NOT NULL`
    /// integer column with a unique index), named after the table, with objects `<Table>/<key>`;
    /// an attribute per column, typed from its declared type (text, `json` and any type without
    /// an attribute type of its own read as String); a to-one per single-column foreign key to
    /// another such table's key (`artist_id` → `artist`) and a to-many inverse on its destination
    /// (`albums`). Fetches are compiled for the server as a Sift store's are.
    public static func open(conninfo: String) throws(StoreError) -> PostgreSQLStore {
        try open(connection: try connect(conninfo))
    }

    /// Opens the Sift store of an open connection, or reads a database holding none from its
    /// catalog, read-only (see ``open(conninfo:)``).
    public static func open(connection: PostgreSQLConnection) throws(StoreError) -> PostgreSQLStore {
        try configureSession(connection)
        do {
            guard try isSiftStore(connection) else {
                let introspected = try PostgreSQLIntrospection.schema(of: connection)
                return PostgreSQLStore(connection: connection, model: introspected.schema.model, schema: introspected.schema,
                                       columnTypes: introspected.columnTypes, columnTypeReasons: introspected.reasons)
            }
            var metadata: [String: String] = [:]
            for row in try connection.query("SELECT \(q("key")), \(q("value")) FROM \(q(SQLSchema.metadataTable))") {
                if let key = row[0].stringValue, let value = row[1].stringValue { metadata[key] = value }
            }
            guard metadata["format"] == "sift", metadata["database"] == "postgresql" else {
                throw StoreError(.corruptStore, "the Sift metadata of \(connection.database) is not a PostgreSQL store's")
            }
            guard metadata["version"] == layoutVersion || metadata["version"] == "1" else {
                throw StoreError(.corruptStore, "\(connection.database) has store layout \(metadata["version"] ?? "?"); this Sift reads layout \(layoutVersion)")
            }
            let model = try StoredModel.read(metadata["model"], of: connection.database)
            if metadata["version"] == "1" {
                return PostgreSQLStore(connection: connection, model: model, schema: try SQLSchema.forModel(unsearchableModel(model)), compilesFetches: false)
            }
            return PostgreSQLStore(connection: connection, model: model, schema: try SQLSchema.forModel(try searchableModel(model)),
                                   hasTextFunctions: metadata[textFunctionsKey] == "1", hasNumberFunctions: metadata[numberFunctionsKey] == "1")
        } catch {
            throw storeError(error, on: connection)
        }
    }

    private static func connect(_ conninfo: String) throws(StoreError) -> PostgreSQLConnection {
        do {
            return try PostgreSQLConnection(conninfo, defaults: connectionDefaults)
        } catch {
            throw storeError(error)
        }
    }

    /// Whether the connection's schema holds the Sift metadata table.
    private static func isSiftStore(_ connection: PostgreSQLConnection) throws -> Bool {
        try !connection.scalar("SELECT to_regclass($1)::text", [.text(q(SQLSchema.metadataTable))]).isNull
    }

    // MARK: Fetching

    public func object(with id: ObjectID) -> ManagedObject? {
        lock.lock(); defer { lock.unlock() }
        return SQLObjectLookup.object(with: id, in: schema) { lookup in
            // (An ID holding a NUL byte cannot be sent: it names no row.)
            guard let parameters = PostgreSQLFetchPlan.sent([lookup.binding]) else { return nil }
            let layout = PostgreSQLRowLayout(table: lookup.table, schema: schema, alias: "t0", store: self)
            let sql = lookup.sql(selecting: layout.columns, placeholder: "$1")
            guard let row = try? read({ () throws(StoreError) in try query(sql, parameters) }).first else { return nil }
            return try? layout.object(row)
        }
    }

    /// The destinations of a relationship of the row with `key`, in order.
    package func destinations(of relationship: RelationshipDescription, from table: EntityTable, key: Int64) throws(StoreError) -> [ManagedObject] {
        try destinations(of: relationship, from: table, keys: [key])[key] ?? []
    }

    /// The table whose rows a relationship's destinations are read as: its destination's
    /// hierarchy's root (rows of a table shared by a hierarchy decode as the root's layout
    /// decodes them); nil for a destination without a table.
    func destinationRoot(of relationship: RelationshipDescription) -> EntityTable? {
        guard let destination = schema.table(for: relationship.destination) else { return nil }
        return model.entity(named: destination.entity.rootEntity).flatMap { schema.table(for: $0.name) } ?? destination
    }

    /// The destinations of a relationship of the rows with `keys`, each owner's in order (every
    /// owner has an entry), with one query.
    func destinations(of relationship: RelationshipDescription, from table: EntityTable, keys: [Int64]) throws(StoreError) -> [Int64: [ManagedObject]] {
        lock.lock(); defer { lock.unlock() }
        var found: [Int64: [ManagedObject]] = [:]
        for key in keys { found[key] = [] }
        guard let storage = table.relationships[relationship.name], let root = destinationRoot(of: relationship) else { return found }
        let layout = PostgreSQLRowLayout(table: root, schema: schema, alias: "d", store: self)
        // (The owner's key comes last, after the columns the layout decodes.)
        let reading = SQLRelationshipRead(relationship, of: table, held: storage, destination: root, selecting: layout.columns,
                                          owners: .many(keys: "= ANY($1)"), schema: schema, dialect: dialect)
        let sql = reading.sql
        let result = try read { () throws(StoreError) in try query(sql, [PostgreSQLRowObjects.keyArray(keys)]) }
        let ownerColumn = layout.columns.count
        assert(reading.ownerColumn == ownerColumn, "the owner's key follows the destination's columns")
        for row in result {
            guard let owner = row[ownerColumn].int64Value else { continue }
            found[owner, default: []].append(try layout.object(row))
        }
        return found
    }

    // MARK: Statements

    func query(_ sql: String, _ parameters: [PostgreSQLValue] = []) throws(StoreError) -> PostgreSQLResult {
        try rowDatabase.flushInserts()
        do { return try connection.query(sql, parameters) } catch { throw Self.storeError(error) }
    }

    @_spi(SQLStoreCore) public func execute(_ sql: String) throws(StoreError) {
        try rowDatabase.flushInserts()
        do { try connection.execute(sql) } catch { throw Self.storeError(error) }
    }

    /// Runs a read; inside the write transaction, within a savepoint, so a failed read leaves
    /// the pending changes as they were (PostgreSQL would otherwise abort the transaction).
    func read<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        lock.lock(); defer { lock.unlock() }
        guard writing, connection.isInTransaction else { return try body() }
        try execute("SAVEPOINT sift_read")
        do {
            let result = try body()
            try execute("RELEASE SAVEPOINT sift_read")
            return result
        } catch {
            try? connection.execute("ROLLBACK TO SAVEPOINT sift_read; RELEASE SAVEPOINT sift_read")
            throw error
        }
    }
}

extension PostgreSQLStore: SQLObjectReadingStore {}
