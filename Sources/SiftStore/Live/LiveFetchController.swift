import Foundation
import SiftEvaluation
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
/// for any other store call ``refresh()``. Where the store says which objects changed and the
/// request reads only its entity's attributes, only those objects are fetched again and placed
/// by the sort key values the controller keeps; otherwise the whole result is fetched again and
/// diffed with the previous one (``ResultsDiff``). An object is an update when a key the fetch
/// reads changed — the request's `propertiesToFetch` (every attribute when it has none), its
/// sort keys and its section key path — as the store reports, or, after a refetch, as the hash
/// of its shown values says. A change to any other key is no change. The controller keeps
/// identifiers, sort keys and hashes, not objects: sections read their objects by identifier a
/// batch at a time when accessed.
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
    /// Each section's index title, sort key values and hashes of shown values (by row).
    private var rows: [LiveSectionRows] = []
    /// Where each object is: built when asked, after each change that moved objects.
    private var places: [ObjectID: ResultIndexPath]?
    private let ordering: LiveOrdering
    /// How many changes were followed by their rows alone (for the tests).
    private(set) var rowFollowedChanges = 0
    /// How many change sets were made from the named objects' places alone (for the tests).
    private(set) var directChangeSets = 0
    /// How many of those differed from ``ResultsDiff``'s (debug builds, for the tests).
    private(set) var directChangeSetsDiffering = 0
    /// How many objects were placed among ties by the store's order (for the tests).
    private(set) var tiesPlaced = 0
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
        ordering = LiveOrdering(request: request, entity: entity, readKeys: readKeys)
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
        let (snapshot, rows) = try readWhole()
        lock.lock()
        install(snapshot, rows)
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
        if let places { return places[objectID] }
        let built = Self.places(of: current)
        places = built
        return built[objectID]
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

    /// Fetches the results again and reports what changed: for a store that does not report
    /// its saves, and after another process wrote the store. Updates are the objects whose
    /// shown values (the hash of the attributes the fetch reads) changed. Returns the change
    /// set, or nil when nothing changed.
    @discardableResult
    public func refresh() throws -> ResultsChangeSet? {
        followLock.lock(); defer { followLock.unlock() }
        return try followByRefetching(updated: [])
    }

    /// Follows one save's changes (a ``ChangeReportingStore`` calls it by itself; a store of
    /// your own may call it with what it knows). Returns the change set, or nil when nothing
    /// the controller shows changed.
    ///
    /// Where the store says which objects changed (``StoreChanges/isComplete``) and the request
    /// reads only its entity's attributes, only those objects are fetched again (the request's
    /// predicate and `SELF IN` their IDs) and placed by their sort keys; otherwise the whole
    /// result is fetched again and diffed.
    @discardableResult
    public func storeDidChange(_ changes: StoreChanges) throws -> ResultsChangeSet? {
        guard !changes.isEmpty else { return nil }
        var updated: Set<ObjectID> = []
        for (id, keys) in changes.updated where keys.contains(where: reads) { updated.insert(id) }
        followLock.lock(); defer { followLock.unlock() }
        if changes.isComplete, let changeSet = try followByRows(changes, updated: updated) {
            lock.lock(); rowFollowedChanges += 1; lock.unlock()
            return changeSet.isEmpty ? nil : publish(changeSet)
        }
        return try followByRefetching(updated: updated)
    }

    /// Whether a change to `key` changes what the fetch shows.
    private func reads(_ key: String) -> Bool {
        if alwaysRead.contains(key) { return true }
        if let readKeys { return readKeys.contains(key) }
        return !relationshipNames.contains(key)
    }

    /// How many changed objects are followed by rows at most; more are refetched whole.
    static let rowFollowingLimit = 500

    /// Follows a change the store described completely by the objects it names: fetches those
    /// whose place may have changed, takes every named object out of the result and puts the
    /// fetched ones back where their sort keys place them. Returns nil where that cannot be
    /// done exactly (the request reads other objects, an object ties with another on every
    /// sort key — a new fetch orders ties by insertion —, a section would split or merge):
    /// the caller then refetches the whole result.
    private func followByRows(_ changes: StoreChanges, updated: Set<ObjectID>) throws -> ResultsChangeSet? {
        guard let positionKeys = ordering.positionKeys, ordering.sortAttributes != nil else { return nil }
        lock.lock()
        let old = current
        var rows = self.rows
        lock.unlock()
        guard rows.count == old.sections.count else { return nil }
        // The objects whose place, membership or shown values may have changed.
        var refetch = changes.inserted
        for (id, keys) in changes.updated where keys.contains(where: { positionKeys.contains($0) || reads($0) }) {
            refetch.insert(id)
        }
        refetch.subtract(changes.deleted)
        let named = refetch.union(changes.deleted)
        guard named.count <= Self.rowFollowingLimit else { return nil }
        if named.isEmpty { return ResultsChangeSet(snapshot: old) }
        // Their values now, read from one state of the store.
        var fetched: [(id: ObjectID, section: String, title: String, values: [Value], hash: Int)] = []
        if !refetch.isEmpty {
            try readingOneState {
                var request = self.request
                let byID = try LiveObjectSource.request(request.entityName, ids: Array(refetch), includesSubentities: request.includesSubentities,
                                                        predicate: request.predicate)
                request.predicate = byID.predicate
                request.fetchBatchSize = 0
                let sections = request.sectionNameKeyPath == nil
                    ? [FetchedSection(name: "", indexTitle: "", objects: try store.fetch(request))]
                    : try store.fetchSections(request).sections
                for section in sections {
                    try section.objects.forEachObject { object in
                        fetched.append((object.objectID, section.name, section.indexTitle, ordering.sortValues(of: object), ordering.shownHash(of: object)))
                    }
                }
            }
        }
        // Where each named object was. One whose sort key values the store says are as before
        // (no sort key among its changed keys) and that is fetched is looked for among the
        // objects with its values (a binary search); not there, it was not in the result. The
        // others (deleted, gone from the fetch, or with a sort key changed) are looked for
        // among the IDs, chunk by chunk, until all are found.
        var fetchedByID: [ObjectID: Int] = [:]
        for (index, object) in fetched.enumerated() { fetchedByID[object.id] = index }
        let sortAttributes = Set(ordering.sortAttributes ?? [])
        var oldPlaces: [ObjectID: ResultIndexPath] = [:]
        var unknown: Set<ObjectID> = []
        for id in named {
            let sortKeyChanged = changes.updated[id].map { !$0.isDisjoint(with: sortAttributes) } ?? false
            if !changes.deleted.contains(id), !sortKeyChanged, let index = fetchedByID[id] {
                if let place = find(id, fetched[index].values, in: old.sections, rows: rows) { oldPlaces[id] = place }
            } else {
                unknown.insert(id)
            }
        }
        if !unknown.isEmpty {
            let few = unknown.count <= 8 ? Array(unknown) : nil
            var left = unknown.count
            search: for (s, section) in old.sections.enumerated() {
                var r = 0
                for chunk in section.ids.chunks {
                    for id in chunk {
                        // A few IDs: compared directly, not hashed.
                        if few?.contains(id) ?? unknown.contains(id) {
                            oldPlaces[id] = ResultIndexPath(section: s, row: r)
                            left -= 1
                            if left == 0 { break search }
                        }
                        r += 1
                    }
                }
            }
        }
        // Take every named object out of the result — but one whose sort keys and section are
        // as before stays where it is (a new fetch orders it among its ties as before), its
        // values renewed.
        var stayed = Set<Int>()
        var sections = old.sections
        var removals: [[Int]] = Array(repeating: [], count: sections.count)
        for (id, place) in oldPlaces {
            let s = place.section, r = place.row
            if let index = fetchedByID[id], fetched[index].section == sections[s].name, ordering.order(fetched[index].values, rows[s], r) == 0 {
                stayed.insert(index)
                rows[s].set(fetched[index].values, hash: fetched[index].hash, at: r)
            } else {
                removals[s].append(r)
            }
        }
        let found = oldPlaces.count
        for s in removals.indices where !removals[s].isEmpty {
            for r in removals[s].sorted(by: >) {
                sections[s].ids.remove(at: r)
                rows[s].remove(at: r)
            }
        }
        let sectioned = request.sectionNameKeyPath != nil
        if sectioned {
            // Sections left empty go; two of one name meeting would merge (a new fetch's sections
            // are the runs of equal names): refetch then.
            for s in sections.indices.reversed() where sections[s].ids.isEmpty {
                sections.remove(at: s)
                rows.remove(at: s)
                if s > 0, s < sections.count, sections[s - 1].name == sections[s].name { return nil }
            }
        }
        // Put the fetched objects back in their places.
        for (index, object) in fetched.enumerated() where !stayed.contains(index) {
            guard let place = try place(object.id, object.values, name: object.section, in: sections, rows: rows, sectioned: sectioned) else { return nil }
            if place.newSection {
                sections.insert(.init(name: object.section, ids: ChunkedList()), at: place.section)
                rows.insert(LiveSectionRows(indexTitle: object.title, keys: object.values.count), at: place.section)
            }
            sections[place.section].ids.insert(object.id, at: place.row)
            rows[place.section].insert(object.values, hash: object.hash, at: place.row)
        }
        let snapshot = ResultsSnapshot(sections: sections)
        if found == 0 && fetched.isEmpty { return ResultsChangeSet(snapshot: old) }
        // The change set from the named objects' places alone where the sections are the same
        // (the others keep their order: no look at the span a move passed); else by a diff.
        var newPlaces: [ObjectID: ResultIndexPath]? = [:]
        for object in fetched {
            guard let place = find(object.id, object.values, in: sections, rows: rows) else { newPlaces = nil; break }
            newPlaces?[object.id] = place
        }
        let direct = newPlaces.flatMap { Self.changes(from: old, to: snapshot, oldPlaces: oldPlaces, newPlaces: $0, updated: updated) }
        let changeSet = direct ?? ResultsDiff.changes(from: old, to: snapshot, updated: updated, oldPlaces: oldPlaces)
        #if DEBUG
        if let direct, direct != ResultsDiff.changes(from: old, to: snapshot, updated: updated) { directChangeSetsDiffering += 1 }
        #endif
        lock.lock()
        if direct != nil { directChangeSets += 1 }
        install(snapshot, rows, moved: !changeSet.isEmpty && !(changeSet.moves.isEmpty && changeSet.inserts.isEmpty && changeSet.deletes.isEmpty && changeSet.sectionInserts.isEmpty && changeSet.sectionDeletes.isEmpty))
        failure = nil
        lock.unlock()
        return changeSet
    }

    /// The change set from `old` to `new` where only the objects of `oldPlaces` (their places
    /// in `old`) and `newPlaces` (in `new`) may have come, gone or changed places, and the
    /// sections are the same (nil otherwise): what ``ResultsDiff/changes(from:to:updated:)``
    /// gives, computed from those objects alone. The others keep their order and section, so
    /// one's new row is its rank among them, shifted by the named objects before it.
    static func changes(from old: ResultsSnapshot, to new: ResultsSnapshot, oldPlaces: [ObjectID: ResultIndexPath],
                        newPlaces: [ObjectID: ResultIndexPath], updated: Set<ObjectID>) -> ResultsChangeSet? {
        guard old.sections.count == new.sections.count,
              zip(old.sections, new.sections).allSatisfy({ $0.name == $1.name }) else { return nil }
        let count = old.sections.count
        // The named objects' rows by section, in order, and the named object at each old row.
        var oldRows = [[Int]](repeating: [], count: count), newRows = [[Int]](repeating: [], count: count)
        var named = [[Int: ObjectID]](repeating: [:], count: count)
        for (id, place) in oldPlaces {
            oldRows[place.section].append(place.row)
            named[place.section][place.row] = id
        }
        for place in newPlaces.values { newRows[place.section].append(place.row) }
        for s in 0..<count {
            oldRows[s].sort()
            newRows[s].sort()
        }
        /// The new row of the object at old row `row` of section `s` that is not named: its rank
        /// among the objects not named, moved past each named object before it.
        func newRow(ofUnnamed row: Int, in s: Int) -> Int {
            var low = 0, high = oldRows[s].count
            while low < high {
                let middle = (low + high) / 2
                if oldRows[s][middle] < row { low = middle + 1 } else { high = middle }
            }
            var result = row - low
            for named in newRows[s] {
                guard named <= result else { break }
                result += 1
            }
            return result
        }
        var changeSet = ResultsChangeSet(snapshot: new)
        for s in 0..<count {
            // Whether the named object at each old row stays (decided in old order).
            var stays: [Int: Int] = [:]
            for row in oldRows[s] {
                guard let id = named[s][row] else { return nil }
                let oldPath = ResultIndexPath(section: s, row: row)
                guard let newPath = newPlaces[id] else {
                    changeSet.deletes.append(.init(kind: .delete, objectID: id, oldIndexPath: oldPath, newIndexPath: nil))
                    continue
                }
                guard newPath.section == s else {
                    changeSet.moves.append(.init(kind: .move, objectID: id, oldIndexPath: oldPath, newIndexPath: newPath))
                    continue
                }
                // Not updated: it stays (unless it left its place, which a diff then says).
                guard updated.contains(id) else {
                    stays[row] = newPath.row
                    continue
                }
                // The staying object before it, and the next one after it that is not updated.
                var last = -1
                var r = row - 1
                while r >= 0 {
                    if let other = named[s][r] {
                        if let kept = stays[r] { last = kept; break }
                        if !updated.contains(other), let place = newPlaces[other], place.section == s { last = place.row; break }
                    } else {
                        last = newRow(ofUnnamed: r, in: s)
                        break
                    }
                    r -= 1
                }
                var next = Int.max
                r = row + 1
                while r < old.sections[s].count {
                    if let other = named[s][r] {
                        if !updated.contains(other), let place = newPlaces[other], place.section == s { next = place.row; break }
                    } else {
                        next = newRow(ofUnnamed: r, in: s)
                        break
                    }
                    r += 1
                }
                if newPath.row > last && newPath.row < next {
                    stays[row] = newPath.row
                    changeSet.updates.append(.init(kind: .update, objectID: id, oldIndexPath: oldPath, newIndexPath: newPath))
                } else {
                    changeSet.moves.append(.init(kind: .move, objectID: id, oldIndexPath: oldPath, newIndexPath: newPath))
                }
            }
            // A named object left unupdated where it was must keep its order with the others.
            var previous = -1
            for row in oldRows[s] {
                guard let id = named[s][row], !updated.contains(id), let kept = stays[row] else { continue }
                guard kept > previous else { return nil }
                previous = kept
            }
        }
        for (id, place) in newPlaces where oldPlaces[id] == nil {
            changeSet.inserts.append(.init(kind: .insert, objectID: id, oldIndexPath: nil, newIndexPath: place))
        }
        changeSet.deletes.sort { $0.oldIndexPath! > $1.oldIndexPath! }
        changeSet.inserts.sort { $0.newIndexPath! < $1.newIndexPath! }
        changeSet.moves.sort { $0.oldIndexPath! < $1.oldIndexPath! }
        changeSet.updates.sort { $0.oldIndexPath! < $1.oldIndexPath! }
        return changeSet
    }

    /// Where object `id`, whose sort key values are `values`, is in the result: looked for
    /// among the objects with those values (a binary search, then the run of ties); nil when it
    /// is not there.
    private func find(_ id: ObjectID, _ values: [Value], in sections: [ResultsSnapshot.Section], rows: [LiveSectionRows]) -> ResultIndexPath? {
        // The first section whose last object is not before the values, and so on while the
        // ties go on into the next sections.
        var low = 0, high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].count > 0, ordering.order(values, rows[middle], rows[middle].count - 1) > 0 { low = middle + 1 } else { high = middle }
        }
        var s = low
        while s < rows.count {
            var r = bound(values, in: rows[s], upper: false)
            while r < rows[s].count, ordering.order(values, rows[s], r) == 0 {
                if sections[s].ids[r] == id { return ResultIndexPath(section: s, row: r) }
                r += 1
            }
            guard r == rows[s].count else { return nil }
            s += 1
        }
        return nil
    }

    /// Where object `id` with sort key `values` in the section named `name` goes: its section
    /// (new or not) and row. Where it ties with others on every sort key, the store says its
    /// place among them (``tiePlace(_:_:from:to:sections:)``). Nil where that cannot be told,
    /// or where its section would not be one run of the sorted results.
    private func place(_ id: ObjectID, _ values: [Value], name: String, in sections: [ResultsSnapshot.Section], rows: [LiveSectionRows],
                       sectioned: Bool) throws -> (section: Int, row: Int, newSection: Bool)? {
        guard sectioned else {
            guard let first = rows.first else { return nil }
            let lower = bound(values, in: first, upper: false), upper = bound(values, in: first, upper: true)
            if lower == upper { return (0, lower, false) }
            return try tiePlace(id, values, from: (0, lower), to: (0, upper), sections: sections).map { (0, $0.row, false) }
        }
        // The first section whose last object is not before the object (at or after it, for
        // the upper bound).
        func section(upper: Bool) -> Int {
            var low = 0, high = rows.count
            while low < high {
                let middle = (low + high) / 2
                let order = ordering.order(values, rows[middle], rows[middle].count - 1)
                if upper ? order >= 0 : order > 0 { low = middle + 1 } else { high = middle }
            }
            return low
        }
        func position(upper: Bool) -> (section: Int, row: Int) {
            let s = section(upper: upper)
            guard s < rows.count else { return (rows.count, 0) }
            return (s, bound(values, in: rows[s], upper: upper))
        }
        var lower = position(upper: false)
        let upper = position(upper: true)
        if upper != lower {
            guard let tied = try tiePlace(id, values, from: lower, to: upper, sections: sections) else { return nil }
            lower = tied.row == rows[tied.section].count ? (tied.section + 1, 0) : tied
        }
        // The objects before and after the place.
        let previous: (section: Int, row: Int)? = lower.row > 0 ? (lower.section, lower.row - 1)
            : lower.section > 0 ? (lower.section - 1, rows[lower.section - 1].count - 1) : nil
        let next: (section: Int, row: Int)? = lower.section < rows.count ? lower : nil
        if let previous, sections[previous.section].name == name {
            return (previous.section, previous.row + 1, false)
        }
        if let next, sections[next.section].name == name {
            return (next.section, next.row, false)
        }
        if let previous, let next, previous.section == next.section { return nil }
        if sections.contains(where: { $0.name == name }) { return nil }
        return (previous.map { $0.section + 1 } ?? 0, 0, true)
    }

    /// Where object `id` goes among the objects between `lower` and `upper` (global places)
    /// that tie with it on every sort key: a new fetch orders ties by insertion, which only
    /// the store knows, so it is asked for the tied objects' IDs in its order. Nil where the
    /// sort keys do not compare by equality (another comparator than `compare`, a value a
    /// predicate cannot hold) or the store's order of the others is not the result's.
    private func tiePlace(_ id: ObjectID, _ values: [Value], from lower: (section: Int, row: Int), to upper: (section: Int, row: Int),
                          sections: [ResultsSnapshot.Section]) throws -> (section: Int, row: Int)? {
        guard let attributes = ordering.sortAttributes, ordering.sortKeys.allSatisfy({ $0.comparator == .compare }) else { return nil }
        var tests: [PredicateNode] = request.predicate.map { [$0] } ?? []
        for (attribute, value) in zip(attributes, values) {
            let constant: ConstantValue
            switch value {
            case .null: constant = .null
            case .bool(let x): constant = .bool(x)
            case .int(let x): constant = .int(x)
            case .double(let x): constant = .double(x)
            case .decimal(let x): constant = .decimal(x)
            case .string(let x): constant = .string(x)
            case .date(let x): constant = .date(x)
            case .data(let x): constant = .data(x)
            case .uuid(let x): constant = .uuid(x)
            case .array, .set, .dictionary, .object: return nil
            }
            tests.append(PredicateNode(.comparison(Comparison(.keyPath(keys: [attribute]), .equalTo, .constant(constant)))))
        }
        // The tied objects of the result, in its order.
        var tied: [ObjectID] = []
        var place = lower
        while place < upper {
            guard place.section < sections.count else { break }
            if place.row >= sections[place.section].ids.count {
                place = (place.section + 1, 0)
                continue
            }
            tied.append(sections[place.section].ids[place.row])
            place.row += 1
        }
        var tieRequest = FetchRequest(entityName: request.entityName, predicate: tests.count == 1 ? tests[0] : .and(tests),
                                      sortDescriptors: request.sortDescriptors)
        tieRequest.includesSubentities = request.includesSubentities
        let known = Set(tied)
        let ordered = try readingOneState { try store.fetch(tieRequest).checkedObjectIDs() }.filter { $0 == id || known.contains($0) }
        guard let index = ordered.firstIndex(of: id), ordered.count == tied.count + 1,
              Array(ordered[..<index]) + Array(ordered[(index + 1)...]) == tied else { return nil }
        tiesPlaced += 1
        // `index` objects of the tie come before it.
        place = lower
        var remaining = index
        while remaining > 0 {
            let count = sections[place.section].ids.count
            if place.row + remaining <= count {
                place.row += remaining
                remaining = 0
            } else {
                remaining -= count - place.row
                place = (place.section + 1, 0)
            }
        }
        return place
    }

    /// The first row of a section not before `values` (after them, for the upper bound).
    private func bound(_ values: [Value], in section: LiveSectionRows, upper: Bool) -> Int {
        var low = 0, high = section.count
        while low < high {
            let middle = (low + high) / 2
            let order = ordering.order(values, section, middle)
            if upper ? order >= 0 : order > 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Fetches the whole result again and diffs it with the previous one; updates are the
    /// objects the store names (`updated`) and those whose shown values' hash changed.
    private func followByRefetching(updated: Set<ObjectID>) throws -> ResultsChangeSet? {
        let (snapshot, newRows) = try readWhole()
        lock.lock()
        var updated = updated
        if rows.count == current.sections.count {
            var hashes: [ObjectID: Int] = [:]
            hashes.reserveCapacity(current.objectCount)
            for (s, section) in current.sections.enumerated() {
                for (id, hash) in zip(section.ids, rows[s].hashes) { hashes[id] = hash }
            }
            for (s, section) in snapshot.sections.enumerated() {
                for (id, hash) in zip(section.ids, newRows[s].hashes) {
                    if let old = hashes[id], old != hash { updated.insert(id) }
                }
            }
        }
        let changeSet = ResultsDiff.changes(from: current, to: snapshot, updated: updated)
        install(snapshot, newRows, moved: !(changeSet.deletes.isEmpty && changeSet.inserts.isEmpty && changeSet.moves.isEmpty && changeSet.sectionDeletes.isEmpty && changeSet.sectionInserts.isEmpty))
        failure = nil
        lock.unlock()
        guard !changeSet.isEmpty else { return nil }
        return publish(changeSet)
    }

    /// Tells the subscribers and the delegate.
    private func publish(_ changeSet: ResultsChangeSet) -> ResultsChangeSet {
        lock.lock()
        let subscribers = Array(streams.values)
        lock.unlock()
        for subscriber in subscribers { subscriber.yield(changeSet) }
        delegate?.controller(self, didChange: changeSet)
        return changeSet
    }

    /// Makes `snapshot` the current result (the caller holds `lock`); its objects are read by
    /// ID a batch at a time when accessed.
    private func install(_ snapshot: ResultsSnapshot, _ rows: [LiveSectionRows], moved: Bool = true) {
        current = snapshot
        self.rows = rows
        if moved { places = nil }
        results = SectionedFetchResults(sections: zip(snapshot.sections, rows).map { section, rows in
            FetchedSection(name: section.name, indexTitle: rows.indexTitle,
                           objects: FetchedObjects(source: LiveObjectSource(store: store, request: request, ids: section.ids),
                                                   batchSize: request.fetchBatchSize))
        }, warning: nil)
    }

    /// Runs `body` on one state of the store, where the store can say so.
    private func readingOneState<T>(_ body: () throws -> T) throws -> T {
        guard let watched = store as? any ExternalChangeObservingStore else { return try body() }
        return try watched.readingOneState(body)
    }

    /// The whole result, read from one state of the store (another process may be committing
    /// while it is read): its IDs, and each object's sort key values and hash of shown values,
    /// read a batch at a time; the objects themselves are not kept.
    private func readWhole() throws -> (ResultsSnapshot, [LiveSectionRows]) {
        try readingOneState {
            // Without a section key path, one section named "" holds every object (as in Core Data).
            let fetched = request.sectionNameKeyPath == nil
                ? [FetchedSection(name: "", indexTitle: "", objects: try store.fetch(request))]
                : try store.fetchSections(request).sections
            var sections: [ResultsSnapshot.Section] = []
            var rows: [LiveSectionRows] = []
            sections.reserveCapacity(fetched.count)
            rows.reserveCapacity(fetched.count)
            for section in fetched {
                var ids = ChunkedList<ObjectID>()
                var sectionRows = LiveSectionRows(indexTitle: section.indexTitle, keys: ordering.sortAttributes?.count ?? 0)
                try section.objects.forEachObject { object in
                    ids.append(object.objectID)
                    sectionRows.append(ordering.sortValues(of: object), hash: ordering.shownHash(of: object))
                }
                sections.append(.init(name: section.name, ids: ids))
                rows.append(sectionRows)
            }
            return (ResultsSnapshot(sections: sections), rows)
        }
    }

    private static func places(of snapshot: ResultsSnapshot) -> [ObjectID: ResultIndexPath] {
        var places: [ObjectID: ResultIndexPath] = [:]
        places.reserveCapacity(snapshot.objectCount)
        for (s, section) in snapshot.sections.enumerated() {
            section.ids.forEachIndexed { r, id in places[id] = ResultIndexPath(section: s, row: r) }
        }
        return places
    }
}
