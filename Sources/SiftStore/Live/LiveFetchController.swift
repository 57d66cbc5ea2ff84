import Foundation
import SiftLanguage

/// Told each change set of a ``LiveFetchController`` (Core Data's
/// `NSFetchedResultsControllerDelegate`, in one call per change set).
public protocol LiveFetchControllerDelegate: AnyObject {
    /// The controller's results changed; `changes` says how (in order of application) and ends
    /// with the new snapshot. Called on the thread that saved the change.
    func controller(_ controller: LiveFetchController, didChange changes: ResultsChangeSet)
}

/// Sectioned results that stay live (Core Data's `NSFetchedResultsController`): a fetch
/// request with sort descriptors, an optional section key path and a batch size, fetched by
/// ``performFetch()``, then kept up to date as the store changes — each change arriving as a
/// ``ResultsChangeSet`` through ``changes`` (an `AsyncSequence`) and the ``delegate``.
///
///     var request = try FetchRequest(statement: "Note SORT BY category.name, title")
///     request.sectionNameKeyPath = "category.name"
///     let controller = try LiveFetchController(store: store, request: request)
///     try controller.performFetch()
///     for await change in controller.changes { print(change.inserts.count, "inserted") }
///
/// Where changes come from: the saves of a ``ChangeReportingStore`` (every store of the
/// library) in this process, and the commits of other processes to an
/// ``ExternalChangeObservingStore`` (SQLite, JSON, plist, PostgreSQL), observed from ``performFetch()`` on;
/// for any other store call ``refresh()``. Each change is found by fetching the results' IDs
/// again and diffing them with the previous ones (``ResultsDiff``); the store's report of which
/// objects changed which keys decides the updates: an object is an update when a key the fetch
/// reads changed — the request's `propertiesToFetch` (every attribute when it has none), its
/// sort keys and its section key path. A change to any other key is no change. After a
/// ``refresh()`` the store has not said what changed, so there are no updates, only inserts,
/// deletes and moves.
public final class LiveFetchController: @unchecked Sendable {
    /// The store the results come from.
    public let store: any PersistentStore
    /// The fetch the results are.
    public let request: FetchRequest
    /// Told each change set, after the stream's subscribers.
    public weak var delegate: (any LiveFetchControllerDelegate)?

    private let lock = NSLock()
    /// Held through each fetch and diff, so that changes are followed one at a time, in order
    /// (a save in this process and another process's commit may come on two threads);
    /// recursive, for a delegate that saves.
    private let followLock = NSRecursiveLock()
    private var externalObservation: StoreChangeObservation?
    /// Whether ``performFetch()`` starts following other processes' commits.
    private let followsOtherProcesses: Bool
    private var results: SectionedFetchResults?
    private var current = ResultsSnapshot()
    private var places: [ObjectID: ResultIndexPath] = [:]
    private var observation: StoreChangeObservation?
    private var streams: [UInt64: AsyncStream<ResultsChangeSet>.Continuation] = [:]
    private var nextStream: UInt64 = 0
    private var failure: (any Error)?
    /// The keys whose change makes an object an update (nil: every key that is not a
    /// relationship of the entity, and the relationship heads in `alwaysRead`).
    private let readKeys: Set<String>?
    private let alwaysRead: Set<String>
    private let relationshipNames: Set<String>

    /// A controller of `request`'s results in `store`. The request must return objects and
    /// name sort descriptors (as Core Data requires).
    ///
    /// With `followingOtherProcesses` (the default), a store whose file other processes may
    /// write (``ExternalChangeObservingStore``: SQLite, JSON, plist, PostgreSQL) is watched from
    /// ``performFetch()`` on, and their commits are followed too.
    public init(store: any PersistentStore, request: FetchRequest, followingOtherProcesses: Bool = true) throws(StoreError) {
        followsOtherProcesses = followingOtherProcesses
        guard request.resultType == .objects else {
            throw StoreError(.invalidRequest, "live results are objects; this request returns \(request.resultType.rawValue)")
        }
        guard !request.sortDescriptors.isEmpty else {
            throw StoreError(.invalidRequest, "live results need sort descriptors (as NSFetchedResultsController does): add SORT BY")
        }
        let entity = try BatchChanges.requireEntity(request.entityName, in: store.model(for: request))
        self.store = store
        self.request = request
        func head(_ keyPath: String) -> String { String(keyPath.split(separator: ".", maxSplits: 1).first ?? "") }
        var always = Set(request.sortDescriptors.map { head($0.keyPath) })
        if let section = request.sectionNameKeyPath { always.insert(head(section)) }
        alwaysRead = always
        relationshipNames = Set(entity.relationships.map(\.name))
        if request.propertiesToFetch.isEmpty {
            readKeys = nil
        } else {
            readKeys = Set(request.propertiesToFetch.map(\.name)).union(always)
        }
    }

    deinit {
        observation?.cancel()
        externalObservation?.cancel()
        for stream in streams.values { stream.finish() }
    }

    /// Fetches the results (again) and, for a ``ChangeReportingStore``, starts following its
    /// saves (and, for an ``ExternalChangeObservingStore``, other processes' commits).
    public func performFetch() throws { try performFetch(reportingTheResult: false) }

    /// ``performFetch()``, telling the result first when asked.
    /// With `reportingTheResult`, the whole result is told first as a change set of inserts
    /// (``ResultsChangeSet/inserting(_:)``), before any change that follows it (`sift watch`'s
    /// first line).
    public func performFetch(reportingTheResult: Bool) throws {
        followLock.lock(); defer { followLock.unlock() }
        let (fetched, snapshot) = try fetchWithIDs()
        lock.lock()
        results = fetched
        current = snapshot
        places = Self.places(of: snapshot)
        let observe = observation == nil
        let subscribers = Array(streams.values)
        lock.unlock()
        if reportingTheResult {
            let whole = ResultsChangeSet.inserting(snapshot)
            for subscriber in subscribers { subscriber.yield(whole) }
            delegate?.controller(self, didChange: whole)
        }
        if observe, let reporting = store as? any ChangeReportingStore {
            let observation = reporting.changeCenter.observe { [weak self] changes in
                guard let self else { return }
                do {
                    try self.storeDidChange(changes)
                } catch {
                    self.lock.lock(); self.failure = error; self.lock.unlock()
                }
            }
            lock.lock(); self.observation = observation; lock.unlock()
        }
        lock.lock()
        let watch = followsOtherProcesses && externalObservation == nil
        lock.unlock()
        if watch, let watched = store as? any ExternalChangeObservingStore {
            let observation = try watched.observeExternalChanges { [weak self] changes in
                guard let self else { return }
                do {
                    try self.storeDidChange(changes)
                } catch {
                    self.lock.lock(); self.failure = error; self.lock.unlock()
                }
            }
            lock.lock(); externalObservation = observation; lock.unlock()
        }
    }

    /// Stops following the store (its saves and other processes' commits); the results stay
    /// as they are until ``performFetch()`` or ``refresh()``.
    public func stopFollowing() {
        lock.lock()
        let observations = [observation, externalObservation]
        observation = nil
        externalObservation = nil
        lock.unlock()
        for observation in observations { observation?.cancel() }
    }

    /// The sections, as of the last fetch or change (empty before ``performFetch()``).
    public var sections: [FetchedSection] {
        lock.lock(); defer { lock.unlock() }
        return results?.sections ?? []
    }

    /// The sections' index titles.
    public var sectionIndexTitles: [String] { sections.map(\.indexTitle) }

    /// The results' IDs by section.
    public var snapshot: ResultsSnapshot {
        lock.lock(); defer { lock.unlock() }
        return current
    }

    /// The error that stopped the last change from being followed (a refetch after a save
    /// that failed); nil when the results are current.
    public var lastError: (any Error)? {
        lock.lock(); defer { lock.unlock() }
        return failure
    }

    /// The object at an index path, or nil outside the results.
    public func object(at indexPath: ResultIndexPath) -> ManagedObject? {
        let sections = self.sections
        guard sections.indices.contains(indexPath.section) else { return nil }
        let objects = sections[indexPath.section].objects
        return objects.indices.contains(indexPath.row) ? objects[indexPath.row] : nil
    }

    /// Where an object is in the results, or nil when it is not one of them.
    public func indexPath(of objectID: ObjectID) -> ResultIndexPath? {
        lock.lock(); defer { lock.unlock() }
        return places[objectID]
    }

    /// The change sets from now on, each once, until the controller is freed (each call is a
    /// stream of its own).
    public var changes: AsyncStream<ResultsChangeSet> {
        let (stream, continuation) = AsyncStream<ResultsChangeSet>.makeStream(bufferingPolicy: .unbounded)
        lock.lock()
        nextStream += 1
        let token = nextStream
        streams[token] = continuation
        lock.unlock()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.lock(); self.streams[token] = nil; self.lock.unlock()
        }
        return stream
    }

    /// Fetches the results again and reports what changed (no updates: the store has not said
    /// what changed): for a store that does not report its saves, and after another process
    /// wrote the store. Returns the change set, or nil when nothing changed.
    @discardableResult
    public func refresh() throws -> ResultsChangeSet? {
        try follow(updated: [])
    }

    /// Follows one save's changes (a ``ChangeReportingStore`` calls it by itself; a store of
    /// your own may call it with what it knows). Returns the change set, or nil when nothing
    /// the controller shows changed.
    @discardableResult
    public func storeDidChange(_ changes: StoreChanges) throws -> ResultsChangeSet? {
        guard !changes.isEmpty else { return nil }
        var updated: Set<ObjectID> = []
        for (id, keys) in changes.updated where keys.contains(where: reads) { updated.insert(id) }
        return try follow(updated: updated)
    }

    /// Whether a change to `key` changes what the fetch shows.
    private func reads(_ key: String) -> Bool {
        if alwaysRead.contains(key) { return true }
        if let readKeys { return readKeys.contains(key) }
        return !relationshipNames.contains(key)
    }

    private func follow(updated: Set<ObjectID>) throws -> ResultsChangeSet? {
        followLock.lock(); defer { followLock.unlock() }
        let (fetched, snapshot) = try fetchWithIDs()
        lock.lock()
        let changeSet = ResultsDiff.changes(from: current, to: snapshot, updated: updated)
        results = fetched
        current = snapshot
        failure = nil
        if !changeSet.deletes.isEmpty || !changeSet.inserts.isEmpty || !changeSet.moves.isEmpty || !changeSet.sectionDeletes.isEmpty || !changeSet.sectionInserts.isEmpty {
            places = Self.places(of: snapshot)
        }
        let subscribers = Array(streams.values)
        lock.unlock()
        guard !changeSet.isEmpty else { return nil }
        for subscriber in subscribers { subscriber.yield(changeSet) }
        delegate?.controller(self, didChange: changeSet)
        return changeSet
    }

    /// The results and their IDs, read from one state of the store (another process may be
    /// committing while they are read).
    private func fetchWithIDs() throws -> (SectionedFetchResults, ResultsSnapshot) {
        func read() throws -> (SectionedFetchResults, ResultsSnapshot) {
            // Without a section key path, one section named "" holds every object (as in Core Data).
            let fetched = request.sectionNameKeyPath == nil
                ? SectionedFetchResults(sections: [FetchedSection(name: "", indexTitle: "", objects: try store.fetch(request))], warning: nil)
                : try store.fetchSections(request)
            return (fetched, try ResultsSnapshot(fetched))
        }
        guard let watched = store as? any ExternalChangeObservingStore else { return try read() }
        return try watched.readingOneState(read)
    }

    private static func places(of snapshot: ResultsSnapshot) -> [ObjectID: ResultIndexPath] {
        var places: [ObjectID: ResultIndexPath] = [:]
        places.reserveCapacity(snapshot.objectCount)
        for (s, section) in snapshot.sections.enumerated() {
            for (r, id) in section.objectIDs.enumerated() { places[id] = ResultIndexPath(section: s, row: r) }
        }
        return places
    }
}
