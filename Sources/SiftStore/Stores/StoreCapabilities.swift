/// What some stores can do beyond ``PersistentStore``, asked of a store by capability
/// (`store as? any InterruptibleFetches`) rather than by its concrete type: the command line
/// and the REPL never name a store kind to reach a feature, so a new kind gets each feature by
/// adopting its protocol.

/// A store whose running fetch or change another thread may stop (Ctrl-C): what is running
/// ends with an `interrupted` error, and the store stays usable.
public protocol InterruptibleFetches: PersistentStore, Sendable {
    /// Stops what is running on the store now; safe from any thread (a signal handler's queue).
    func interrupt()
}

/// A store that may refuse every change though it was opened for writing: a database Sift did
/// not create that it can only read, a file without write permission, a Core Data store.
public protocol AccessReportingStore: PersistentStore {
    /// Whether every change is refused (with a ``StoreError/Code/readOnly`` error saying why).
    var isReadOnly: Bool { get }
}

/// A store another process may also write, which it locks for the length of a change: the
/// JSON and binary stores (read again under the lock if another process saved meanwhile).
public protocol WriteLockingStore: PersistentStore {
    /// Takes the store's write lock, reading the store again if another process saved it.
    func lockForWriting() throws(StoreError)
    /// Lets the write lock go.
    func unlockForWriting()
}

/// A store whose model was read from a database's own tables (a database Sift did not create):
/// its attribute types are chosen from the columns, lazily where reading them costs rows, and
/// each has a reason `sift schema` prints.
public protocol IntrospectedModelStore: PersistentStore {
    /// Every entity, attribute and relationship; attribute types only as far as the store has
    /// chosen them (reads no rows).
    var catalogModel: DataModel { get }
    /// The model with the attribute types of `entities` chosen (reading their tables' rows
    /// where needed).
    func model(reading entities: [String]) -> DataModel
    /// Why each attribute has its type, by entity and attribute (`declared INTEGER; the row's
    /// key`); empty for a store with its own model.
    var columnTypeReasons: [String: [String: String]] { get }
    /// The reasons of one entity's attributes (only its table is read).
    func columnTypeReasons(of entity: String) -> [String: String]
    /// For each entity whose types were chosen from a sample of its rows, what was read.
    var columnTypeSampling: [String: String] { get }
}

extension IntrospectedModelStore {
    public var catalogModel: DataModel { model }
    public func model(reading entities: [String]) -> DataModel { model }
    public func columnTypeReasons(of entity: String) -> [String: String] { columnTypeReasons[entity] ?? [:] }
    public var columnTypeSampling: [String: String] { [:] }
}

/// A store whose fetches the evaluator runs in memory, without SQL: the JSON, binary and
/// in-memory stores.
public protocol InMemoryFetchingStore: PersistentStore {
    /// The kind of store, as a sentence names it: `a JSON store`.
    var kindDescription: String { get }
}

/// A store whose model did not come with it in Sift's own form, and which can say where it came
/// from: a Core Data store's model cache, a model file, or a guess from its tables.
public protocol ModelOriginReportingStore: PersistentStore {
    /// One line saying the store's layout and where its model came from; nil for a store in
    /// Sift's layout (its model is its own) or a database read from its catalogue.
    var modelOrigin: String? { get }
    /// What was guessed or set aside when the store opened, one sentence each (shown as
    /// warnings).
    var openingWarnings: [String] { get }
}

/// A store whose saved changes leave out something its own writer would also record: a Core
/// Data store that tracks persistent history, which Sift does not write. The command line says
/// so after each change it saves.
public protocol ChangeCaveatReportingStore: PersistentStore {
    /// What a saved change leaves undone, one sentence each; empty when nothing.
    var changeCaveats: [String] { get }
}

/// A store whose fetched objects know some to-ones' destination IDs from their own rows (a
/// foreign database's key columns, Core Data's): printing those IDs needs no prefetch.
public protocol RowMadeToOneStore: PersistentStore {
    /// Whether objects of `entity` this store fetches make `relationship`'s destination ID
    /// from their own row, without a query.
    func makesDestinationIDFromRow(_ relationship: String, of entity: String) -> Bool
}
