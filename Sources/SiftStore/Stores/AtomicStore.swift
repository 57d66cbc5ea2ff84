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
///     let store = try AtomicStore.create(at: URL(fileURLWithPath: "notes.json"), model: model)
///     let c1 = try store.insert("Category", id: "C1", ["name": .string("Work")])
///     try store.insert("Note", ["title": .string("Hello")], relationships: ["category": [c1]])
///     try store.save()
public final class AtomicStore: PersistentStore, SlotInsertingStore, BatchDeletingStore, @unchecked Sendable {
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
    let interruption = FetchInterruption()
    public private(set) var hasChanges = false
    /// The state each open ``performChanges(_:)`` unit returns to if it fails, innermost last.
    private var unitBaselines: [(graph: ObjectGraph, hadChanges: Bool)] = []

    private init(kind: Kind, url: URL?, graph: ObjectGraph) {
        self.kind = kind
        self.url = url
        self.graph = graph
        self.savedGraph = graph
    }

    /// A new, empty in-memory store.
    public static func inMemory(model: DataModel) -> AtomicStore {
        AtomicStore(kind: .inMemory, url: nil, graph: ObjectGraph(model: model))
    }

    /// Creates a new store file (of the kind its extension names, unless `kind` is given). The
    /// file is written at once, holding the model and no objects; an existing file is an error.
    public static func create(at url: URL, model: DataModel, kind: Kind? = nil) throws(StoreError) -> AtomicStore {
        let kind = try Self.resolveKind(kind, url)
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw StoreError(.fileSystem, "\(url.path) already exists")
        }
        let store = AtomicStore(kind: kind, url: url, graph: ObjectGraph(model: model))
        try store.write(store.graph)
        return store
    }

    /// Opens a store file; its model comes from the file.
    public static func open(at url: URL, kind: Kind? = nil) throws(StoreError) -> AtomicStore {
        let kind = try Self.resolveKind(kind, url)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw StoreError(.fileSystem, "cannot read \(url.path): \(error.localizedDescription)")
        }
        let graph: ObjectGraph
        switch kind {
        case .json: graph = try StoreFileFormat.readJSON(data, path: url.path)
        case .binaryPropertyList: graph = try StoreFileFormat.readPropertyList(data, path: url.path)
        case .inMemory: throw StoreError(.fileSystem, "an in-memory store has no file")
        }
        return AtomicStore(kind: kind, url: url, graph: graph)
    }

    private static func resolveKind(_ kind: Kind?, _ url: URL) throws(StoreError) -> Kind {
        if let kind { return kind }
        return try Self.kind(of: url)
    }

    private static func kind(of url: URL) throws(StoreError) -> Kind {
        guard let kind = Kind(fileExtension: url.pathExtension) else {
            throw StoreError(.fileSystem, "cannot tell the store kind of \(url.lastPathComponent): use .json (JSON store) or .plist (binary store)")
        }
        return kind
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

    public func save() throws(StoreError) {
        lock.lock(); defer { lock.unlock() }
        try graph.validate()
        if kind != .inMemory { try write(graph) }
        savedGraph = graph
        hasChanges = false
        restartUnits()
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

    public func execute(_ request: FetchRequest) throws -> FetchResult {
        try MemoryFetchExecutor(snapshot: snapshot(), interruption: interruption).execute(request)
    }

    /// How many objects this store's fetches have made that exist right now: lets a program
    /// (and the tests) check that a batched fetch materialises its results a batch at a time.
    public var liveObjectCount: Int { liveObjects.value }

    public func fetch(_ request: FetchRequest) throws -> FetchedObjects {
        try MemoryFetchExecutor(snapshot: snapshot(), interruption: interruption).objects(request)
    }

    public func fetchSections(_ request: FetchRequest) throws -> SectionedFetchResults {
        try MemoryFetchExecutor(snapshot: snapshot(), interruption: interruption).sections(request)
    }

    public func object(with id: ObjectID) -> ManagedObject? {
        let snapshot = snapshot()
        guard let position = snapshot.graph.position(of: id) else { return nil }
        return ManagedObject(snapshot: snapshot, position: position)
    }

    // MARK: Writing

    private func write(_ graph: ObjectGraph) throws(StoreError) {
        guard let url else { return }
        let data: Data
        switch kind {
        case .json: data = StoreFileFormat.jsonData(graph)
        case .binaryPropertyList: data = try StoreFileFormat.propertyListData(graph)
        case .inMemory: return
        }
        try AtomicFileWriter.write(data, to: url)
    }
}
