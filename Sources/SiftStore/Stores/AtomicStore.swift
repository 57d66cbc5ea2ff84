import Foundation
import SiftEvaluation
import SiftLanguage

/// A store held entirely in memory and, unless it is the pure in-memory kind, written whole to
/// one file on save (FETCH.md §2): a JSON store (`.json`) or a binary property list store
/// (`.plist`). Fetches run the in-memory evaluator.
///
/// Saving writes a temporary file beside the store, syncs it to disk and renames it over the
/// old file, so a crash mid-save leaves the old file or the new one, never a torn one. A file
/// that is not a Sift store of the expected kind is an error when opening, and is never
/// written over.
///
/// Many processes, one file (docs/STORES.md): writers take an advisory lock on the store file
/// (`flock`; a save locks its new file before renaming it into place), from reading
/// the store to renaming the new file, so no save is built on contents another writer has
/// replaced. ``openForWriting(at:kind:creatingWith:lockTimeout:)``
/// holds the lock from reading the file until ``unlockForWriting()`` (a command that opens,
/// changes and saves); ``withWriteLock(_:)`` holds it around a change of a long-lived store,
/// first reading the file again if another process saved it. A store opened with
/// ``open(at:kind:)`` reads without the lock and remembers which version of the file it read
/// (its generation); its `save()` takes the lock and refuses with a ``StoreError/Code/conflict``
/// error when another process saved the file since, instead of writing over that process's
/// objects. Waiting for the lock ends after ``lockTimeout`` with a ``StoreError/Code/locked``
/// error.
///
///     let store = try AtomicStore.create(at: URL(fileURLWithPath: "notes.json"), model: model)
///     let c1 = try store.insert("Category", id: "C1", ["name": .string("Work")])
///     try store.insert("Note", ["title": .string("Hello")], relationships: ["category": [c1]])
///     try store.save()
public final class AtomicStore: PersistentStore, SlotInsertingStore, BatchDeletingStore, InterruptibleStore, ChangeReportingStore, @unchecked Sendable {
    /// How the store is kept.
    public enum Kind: String, Sendable, CaseIterable {
        /// Only in memory; `save()` validates and keeps the changes.
        case inMemory
        /// A JSON file (docs/STORES.md).
        case json
        /// A binary property list file.
        case binaryPropertyList

        /// The kind a file name's extension selects: `.json` or `.plist`.
        public init?(fileExtension: String) {
            switch fileExtension.lowercased() {
            case "json": self = .json
            case "plist": self = .binaryPropertyList
            default: return nil
            }
        }
    }

    public let kind: Kind
    /// The store file (nil for an in-memory store).
    public let url: URL?
    public var model: DataModel { graph.model }

    private let lock = NSLock()
    private var graph: ObjectGraph
    private var savedGraph: ObjectGraph
    private var snapshotCache: GraphSnapshot?
    private let liveObjects = LiveObjectCounter()
    /// Stops the fetches under way (`interrupt()`).
    package let interruption = FetchInterruption()
    public private(set) var hasChanges = false
    /// Told each save's changes (computed only while someone observes).
    public let changeCenter = StoreChangeCenter()
    /// The state each open ``performChanges(_:)`` unit returns to if it fails, innermost last.
    private var unitBaselines: [(graph: ObjectGraph, hadChanges: Bool)] = []

    /// The store file's write lock (nil in memory).
    private let fileLock: StoreFileLock?
    /// The version of the file this store read or last wrote (nil in memory, and while staged).
    private var generation: StoreFileGeneration?
    /// Whether the store is being made by ``create(at:model:kind:filling:)``: its file is not
    /// written until it is whole, and saves keep the changes in memory until then.
    private var isStaged = false
    private var waitLimit: Duration = AtomicStore.defaultLockTimeout

    /// How long opening for writing, a save and ``withWriteLock(_:)`` wait for another writer
    /// to release the store file's lock before failing with a ``StoreError/Code/locked`` error:
    /// 5 seconds unless set (as the SQLite store's `busyTimeout`).
    public var lockTimeout: Duration {
        get { lock.lock(); defer { lock.unlock() }; return waitLimit }
        set { lock.lock(); defer { lock.unlock() }; waitLimit = newValue }
    }

    /// 5 seconds.
    public static let defaultLockTimeout: Duration = .seconds(5)

    private init(kind: Kind, url: URL?, graph: ObjectGraph, generation: StoreFileGeneration? = nil, fileLock: StoreFileLock? = nil) {
        self.kind = kind
        self.url = url
        self.graph = graph
        self.savedGraph = graph
        self.generation = generation
        self.fileLock = fileLock ?? url.map { StoreFileLock(storeURL: $0) }
    }

    /// A new, empty in-memory store.
    public static func inMemory(model: DataModel) -> AtomicStore {
        AtomicStore(kind: .inMemory, url: nil, graph: ObjectGraph(model: model))
    }

    /// Creates a new store file (of the kind its extension names, unless `kind` is given). The
    /// file is written at once, holding the model and no objects (a temporary file linked into
    /// place, so another process sees the whole file or none); an existing file is an error.
    public static func create(at url: URL, model: DataModel, kind: Kind? = nil) throws(StoreError) -> AtomicStore {
        try StoreNamingRules.check(model)
        let kind = try Self.resolveKind(kind, url)
        guard !FileManager.default.fileExists(atPath: url.path) else { throw StoreError.alreadyExists(url) }
        let fileLock = StoreFileLock(storeURL: url)
        let graph = ObjectGraph(model: model)
        let generation = try create(graph, kind: kind, at: url, lock: fileLock)
        fileLock.release()
        return AtomicStore(kind: kind, url: url, graph: graph, generation: generation, fileLock: fileLock)
    }

    /// Creates a store file holding what `fill` saves into the store: the file is written once,
    /// when `fill` has returned, and if `fill` throws there is no file at all — a new store that
    /// an import fills, all or nothing. Until then the store's saves keep their changes in
    /// memory (changes left unsaved are not written), and it takes no lock (there is no file to
    /// lock). An existing file is an error, before `fill` runs or, if another process created
    /// the file meanwhile, after it (nothing of this store is then written).
    ///
    ///     let store = try AtomicStore.create(at: url, model: model) { store in
    ///         try StoreImporter.importCSV(CSVReader(fileHandle: handle), entity: "Person", into: store)
    ///     }
    public static func create(at url: URL, model: DataModel, kind: Kind? = nil, filling fill: (AtomicStore) throws -> Void) throws -> AtomicStore {
        try StoreNamingRules.check(model)
        let kind = try Self.resolveKind(kind, url)
        guard kind != .inMemory else { throw StoreError(.fileSystem, "an in-memory store has no file") }
        guard !FileManager.default.fileExists(atPath: url.path) else { throw StoreError.alreadyExists(url) }
        let fileLock = StoreFileLock(storeURL: url)
        let store = AtomicStore(kind: kind, url: url, graph: ObjectGraph(model: model), fileLock: fileLock)
        store.isStaged = true
        try fill(store)
        store.lock.lock(); defer { store.lock.unlock() }
        let generation = try create(store.savedGraph, kind: kind, at: url, lock: fileLock)
        fileLock.release()
        store.graph = store.savedGraph
        store.snapshotCache = nil
        store.hasChanges = false
        store.generation = generation
        store.isStaged = false
        return store
    }

    /// Opens a store file to read it; its model comes from the file. No lock is taken and
    /// nothing is written: the store remembers which version of the file it read, and a
    /// `save()` after another process saved the file is refused (a `conflict` error). To change
    /// the file, prefer ``openForWriting(at:kind:creatingWith:lockTimeout:)`` (a short-lived
    /// command) or ``withWriteLock(_:)`` around each change (a long-lived store).
    public static func open(at url: URL, kind: Kind? = nil) throws(StoreError) -> AtomicStore {
        let kind = try Self.resolveKind(kind, url)
        guard kind != .inMemory else { throw StoreError(.fileSystem, "an in-memory store has no file") }
        let (graph, generation) = try read(url, kind: kind)
        return AtomicStore(kind: kind, url: url, graph: graph, generation: generation)
    }

    /// Opens a store file to change it: takes the store's write lock (waiting up to
    /// `lockTimeout` for another writer, then a `locked` error), removes temporary files left by
    /// saves that were killed, then reads the file — or, when there is none and `model` is given,
    /// creates it. The lock is held until ``unlockForWriting()`` or the store is released (or the
    /// process ends), so every save of the store is built on the file as it is: other writers,
    /// in this process or another, wait. `sift import` opens its store this way.
    ///
    ///     let store = try AtomicStore.openForWriting(at: url, creatingWith: model)
    ///     try store.insert("Tag", ["name": .string("new")])
    ///     try store.save()
    ///     store.unlockForWriting()
    public static func openForWriting(at url: URL, kind: Kind? = nil, creatingWith model: DataModel? = nil,
                                      lockTimeout: Duration = defaultLockTimeout) throws(StoreError) -> AtomicStore {
        let kind = try Self.resolveKind(kind, url)
        guard kind != .inMemory else { throw StoreError(.fileSystem, "an in-memory store has no file") }
        let fileLock = StoreFileLock(storeURL: url)
        if let model, !FileManager.default.fileExists(atPath: url.path) {
            // Created under its lock, unless another writer creates it first: then opened.
            let graph = ObjectGraph(model: model)
            do throws(StoreError) {
                let generation = try create(graph, kind: kind, at: url, lock: fileLock)
                let store = AtomicStore(kind: kind, url: url, graph: graph, generation: generation, fileLock: fileLock)
                store.waitLimit = lockTimeout
                return store
            } catch where FileManager.default.fileExists(atPath: url.path) {}
        }
        try fileLock.acquire(timeout: lockTimeout)
        do throws(StoreError) {
            AtomicFileWriter.removeStaleTemporaryFiles(of: url)
            let (graph, generation) = try read(url, kind: kind)
            let store = AtomicStore(kind: kind, url: url, graph: graph, generation: generation, fileLock: fileLock)
            store.waitLimit = lockTimeout
            return store
        } catch {
            fileLock.release()
            throw error
        }
    }

    /// The objects of a store file and the version of it read.
    private static func read(_ url: URL, kind: Kind) throws(StoreError) -> (ObjectGraph, StoreFileGeneration) {
        let (data, generation) = try StoreFileGeneration.read(url)
        switch kind {
        case .json: return (try StoreFileFormat.readJSON(data, path: url.path), generation)
        case .binaryPropertyList: return (try StoreFileFormat.readPropertyList(data, path: url.path), generation)
        case .inMemory: throw StoreError(.fileSystem, "an in-memory store has no file")
        }
    }

    private static func resolveKind(_ kind: Kind?, _ url: URL) throws(StoreError) -> Kind {
        if let kind { return kind }
        return try Self.kind(of: url)
    }

    /// The kind the extension names; when it names none, the kind an existing file's first
    /// bytes show (``StoreFileKind``).
    private static func kind(of url: URL) throws(StoreError) -> Kind {
        if let kind = Kind(fileExtension: url.pathExtension) { return kind }
        switch StoreFileKind.headerKind(of: url) {
        case .json?: return .json
        case .binaryPropertyList?: return .binaryPropertyList
        case .sqlite?:
            throw StoreError(.fileSystem, "\(url.lastPathComponent) is a SQLite database, not a JSON or binary store: open it as a SQLite store")
        case nil:
            throw StoreError(.fileSystem, "cannot tell the store kind of \(url.lastPathComponent): use .json (JSON store) or .plist (binary store)")
        }
    }

    // MARK: Changes

    @discardableResult
    public func insert(entity: String, id: ObjectID?, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) -> ObjectID {
        lock.lock(); defer { lock.unlock() }
        let objectID = try graph.insert(entity: entity, id: id, attributes: attributes, relationships: relationships)
        changed()
        return objectID
    }

    package func insert(entityPosition: Int, id: ObjectID?, values: [SlotValue]) throws(StoreError) -> ObjectID {
        lock.lock(); defer { lock.unlock() }
        let objectID = try graph.insertObject(entityPosition: entityPosition, id: id, values: values)
        changed()
        return objectID
    }

    public func update(_ id: ObjectID, attributes: [String: Value], relationships: [String: [ObjectID]]) throws(StoreError) {
        lock.lock(); defer { lock.unlock() }
        try graph.update(id, attributes: attributes, relationships: relationships)
        changed()
    }

    public func delete(_ id: ObjectID) throws(StoreError) {
        lock.lock(); defer { lock.unlock() }
        try graph.delete(id)
        changed()
    }

    package func delete(_ ids: [ObjectID]) throws(StoreError) {
        lock.lock(); defer { lock.unlock() }
        try graph.deleteObjects(ids)
        changed()
    }

    /// Validates the pending changes and writes the whole store (nothing, when nothing is
    /// pending). A store file is written under its write lock (waiting up to ``lockTimeout``),
    /// and only over the version this store read or last wrote: when another process saved the
    /// file since, the save is refused with a ``StoreError/Code/conflict`` error, and nothing is
    /// written (the changes stay pending; open the file again and make them there).
    public func save() throws(StoreError) {
        // Observers are told once the save is written and the lock released.
        if let changes = try saveLocked(), !changes.isEmpty { changeCenter.post(changes) }
    }

    /// The save, under the store's lock; returns what it committed when someone observes.
    private func saveLocked() throws(StoreError) -> StoreChanges? {
        lock.lock(); defer { lock.unlock() }
        try graph.validate()
        // The last point where an interrupt (of a change under way) leaves the file as it was.
        try interruption.check()
        if let url, let fileLock, hasChanges, !isStaged {
            generation = try fileLock.holding(timeout: waitLimit) { (acquired) throws(StoreError) -> StoreFileGeneration in
                if acquired { AtomicFileWriter.removeStaleTemporaryFiles(of: url) }
                guard let generation, generation.isCurrent(at: url.path) else { throw conflict(url) }
                return try Self.write(graph, kind: kind, to: url, lock: fileLock)
            }
        }
        let changes = changeCenter.hasObservers ? StoreChanges(from: savedGraph, to: graph) : nil
        savedGraph = graph
        hasChanges = false
        restartUnits()
        return changes
    }

    private func conflict(_ url: URL) -> StoreError {
        StoreError(.conflict, "\(url.path) changed since it was opened (another process saved it); open it again and redo the changes")
    }

    public func rollback() {
        lock.lock(); defer { lock.unlock() }
        graph = savedGraph
        snapshotCache = nil
        hasChanges = false
        restartUnits()
    }

    private func changed() {
        hasChanges = true
        snapshotCache = nil
    }

    /// Runs `body` as one unit: if it throws, every change it made is rolled back (changes
    /// made before it stay pending). A save or rollback inside the unit is where undoing it
    /// returns to from then on (what was saved stays saved).
    public func performChanges<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        unitBaselines.append((graph, hasChanges))
        lock.unlock()
        do {
            let result = try body()
            lock.lock(); unitBaselines.removeLast(); lock.unlock()
            return result
        } catch {
            lock.lock()
            let baseline = unitBaselines.removeLast()
            graph = baseline.graph
            hasChanges = baseline.hadChanges
            snapshotCache = nil
            lock.unlock()
            throw error
        }
    }

    /// A save or rollback: every open unit now begins here.
    private func restartUnits() {
        for index in unitBaselines.indices { unitBaselines[index] = (graph, false) }
    }

    // MARK: Fetching

    private func snapshot() -> GraphSnapshot {
        lock.lock(); defer { lock.unlock() }
        if let snapshotCache { return snapshotCache }
        let snapshot = GraphSnapshot(graph, liveObjects: liveObjects)
        snapshotCache = snapshot
        return snapshot
    }

    /// On how many threads fetches evaluate their predicates (the tests set it).
    var fetchParallelism: FetchParallelism {
        get { lock.lock(); defer { lock.unlock() }; return parallelism }
        set { lock.lock(); defer { lock.unlock() }; parallelism = newValue }
    }
    private var parallelism = FetchParallelism.automatic

    /// The executor of a fetch on the current snapshot.
    private func executor() -> MemoryFetchExecutor {
        MemoryFetchExecutor(snapshot: snapshot(), interruption: interruption, parallelism: fetchParallelism)
    }

    public func execute(_ request: FetchRequest) throws -> FetchResult {
        try executor().execute(request)
    }

    /// How many objects this store's fetches have made that exist right now: lets a program
    /// (and the tests) check that a batched fetch materialises its results a batch at a time.
    public var liveObjectCount: Int { liveObjects.value }

    public func fetch(_ request: FetchRequest) throws -> FetchedObjects {
        try executor().objects(request)
    }

    public func fetchSections(_ request: FetchRequest) throws -> SectionedFetchResults {
        try executor().sections(request)
    }

    public func object(with id: ObjectID) -> ManagedObject? {
        let snapshot = snapshot()
        guard let position = snapshot.graph.position(of: id) else { return nil }
        return ManagedObject(snapshot: snapshot, position: position)
    }

    // MARK: Writing

    /// Replaces the store file (the caller holds its lock).
    private static func write(_ graph: ObjectGraph, kind: Kind, to url: URL, lock: StoreFileLock) throws(StoreError) -> StoreFileGeneration {
        try AtomicFileWriter.write(try data(of: graph, kind: kind), to: url, lock: lock)
    }

    /// Creates the store file, which must not exist; its lock is then held (one hold).
    private static func create(_ graph: ObjectGraph, kind: Kind, at url: URL, lock: StoreFileLock) throws(StoreError) -> StoreFileGeneration {
        try AtomicFileWriter.create(try data(of: graph, kind: kind), at: url, lock: lock)
    }

    private static func data(of graph: ObjectGraph, kind: Kind) throws(StoreError) -> Data {
        switch kind {
        case .json: StoreFileFormat.jsonData(graph)
        case .binaryPropertyList: try StoreFileFormat.propertyListData(graph)
        case .inMemory: throw StoreError(.fileSystem, "an in-memory store has no file")
        }
    }

    // MARK: The write lock

    /// Takes the store file's write lock (waiting up to ``lockTimeout``; holds nest) for a
    /// change and its save: no other writer, in this process or another, saves the file until
    /// the matching ``unlockForWriting()``. If another process saved the file since this store
    /// read it, the store first reads it again — when no changes are pending; with changes
    /// pending that is a ``StoreError/Code/conflict`` error and the lock is not kept. Does
    /// nothing on an in-memory store.
    public func lockForWriting() throws(StoreError) {
        guard let url, let fileLock, !isStaged else { return }
        let acquired = try fileLock.acquire(timeout: lockTimeout)
        guard acquired else { return }
        do throws(StoreError) {
            AtomicFileWriter.removeStaleTemporaryFiles(of: url)
            try reloadIfReplaced(url)
        } catch {
            fileLock.release()
            throw error
        }
    }

    /// Ends a hold of ``lockForWriting()`` or ``openForWriting(at:kind:creatingWith:lockTimeout:)``;
    /// the last one releases the lock. The store stays open: later saves take the lock for
    /// their own time, as a store opened to read does.
    public func unlockForWriting() {
        fileLock?.release()
    }

    /// Runs `body` (changes and their `save()`) holding the store file's write lock: see
    /// ``lockForWriting()``. The way a long-lived store (the REPL's) changes its file without
    /// holding the lock in between:
    ///
    ///     try store.withWriteLock {
    ///         try store.batchDelete(entity: "Note", predicate: PredicateNode(format: "title == ''"))
    ///         try store.save()
    ///     }
    public func withWriteLock<T>(_ body: () throws -> T) throws -> T {
        try lockForWriting()
        defer { unlockForWriting() }
        return try body()
    }

    /// Whether this store holds its file's write lock.
    public var holdsWriteLock: Bool { fileLock?.isHeld ?? false }

    /// Reads the file again if another process saved it since this store read or last wrote it
    /// and no changes are pending here (with changes pending the next save is a conflict);
    /// returns what the other save changed, or nil when nothing was read. Errors (a file being
    /// replaced, unreadable) leave the store as it was: a later check tries again.
    func reloadIfChangedElsewhere() -> StoreChanges? {
        lock.lock(); defer { lock.unlock() }
        guard let url, !isStaged, !hasChanges, let generation, !generation.isCurrent(at: url.path) else { return nil }
        guard let (graph, newGeneration) = try? Self.read(url, kind: kind) else { return nil }
        let changes = StoreChanges(from: savedGraph, to: graph)
        self.graph = graph
        self.savedGraph = graph
        self.generation = newGeneration
        snapshotCache = nil
        restartUnits()
        return changes
    }

    /// Reads the file again if it is not the version this store read or last wrote (the caller
    /// holds the write lock).
    private func reloadIfReplaced(_ url: URL) throws(StoreError) {
        lock.lock(); defer { lock.unlock() }
        if let generation, generation.isCurrent(at: url.path) { return }
        guard !hasChanges else { throw conflict(url) }
        let (graph, generation) = try Self.read(url, kind: kind)
        self.graph = graph
        self.savedGraph = graph
        self.generation = generation
        snapshotCache = nil
        restartUnits()
    }
}

extension AtomicStore: ModelGrowingStore {
    public func addEntities(_ entities: [EntityDescription]) throws(StoreError) {
        lock.lock(); defer { lock.unlock() }
        graph.grow(to: try grownModel(adding: entities))
        changed()
    }
}
