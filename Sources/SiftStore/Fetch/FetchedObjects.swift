import Foundation
import SiftEvaluation
import SiftLanguage

/// Where a fetch's objects come from: a store that can materialise the object at a position
/// of the results, and read them in order a batch at a time.
package protocol FetchedObjectSource: Sendable {
    var count: Int { get }
    func objectID(at index: Int) -> ObjectID
    func object(at index: Int) -> ManagedObject
    /// Reads the results in order from the start (a store may stream them from one query).
    func makeCursor() -> any FetchedObjectCursor
    /// Where a source that reads as it goes (a SQLite query) keeps the error that ended its
    /// reading early; nil for a source that cannot fail (its objects are in memory).
    var failure: ReadFailure? { get }
}

/// Reads a fetch's objects in order.
package protocol FetchedObjectCursor {
    /// Up to `count` more objects; fewer (or none) at the end. Throws when the store cannot read
    /// them (a damaged file, a MATCHES past its backtracking limit on a later row).
    mutating func next(_ count: Int) throws -> [ManagedObject]
    /// Up to `count` more objects appended to `objects`, which the caller emptied keeping its
    /// capacity: a cursor that keeps its own batch buffers can then read batch after batch
    /// without allocating (or freeing) a large block, which would make malloc consolidate the
    /// freed objects of the batch before and serve the next batch's from its slow path.
    mutating func next(_ count: Int, appendingTo objects: inout [ManagedObject]) throws
}

extension FetchedObjectCursor {
    package mutating func next(_ count: Int, appendingTo objects: inout [ManagedObject]) throws {
        // (An empty array takes the batch's own, as before, rather than copying it.)
        if objects.isEmpty {
            objects = try next(count)
        } else {
            objects.append(contentsOf: try next(count))
        }
    }
}

extension FetchedObjectSource {
    package func makeCursor() -> any FetchedObjectCursor { PositionCursor(source: self) }
    package var failure: ReadFailure? { nil }
}

/// The first error that ended reading a fetch's objects early. Iteration and random access
/// cannot throw, so they stop (or give an empty object) and leave the error here, for
/// ``FetchedObjects/readError``.
package final class ReadFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var first: (any Error)?

    package init() {}

    /// Keeps `error` unless an earlier one is kept.
    package func record(_ error: any Error) {
        lock.lock(); defer { lock.unlock() }
        if first == nil { first = error }
    }

    package var error: (any Error)? {
        lock.lock(); defer { lock.unlock() }
        return first
    }
}

/// Reads a source by position.
struct PositionCursor: FetchedObjectCursor {
    let source: any FetchedObjectSource
    var position = 0

    mutating func next(_ count: Int) throws -> [ManagedObject] {
        let end = Swift.min(source.count, position &+ Swift.min(count, source.count))
        guard position < end else { return [] }
        defer { position = end }
        return (position..<end).map(source.object(at:))
    }
}

/// The objects a fetch returned, in order. Objects are materialised when they are read —
/// while iterating, `batchSize` at a time (the fetch request's `fetchBatchSize`; 0 = all at
/// once) — so memory stays flat however many results there are.
///
/// A store that reads as it goes (SQLite) can fail midway: a damaged page of its file, a
/// MATCHES that passes its backtracking limit on a later row. ``forEachObject(_:)`` throws that
/// error; iteration (which cannot throw) ends early and leaves it in ``readError``.
public struct FetchedObjects: RandomAccessCollection, Sendable {
    package let source: any FetchedObjectSource
    /// How many objects iteration materialises at a time.
    public let batchSize: Int

    package init(source: any FetchedObjectSource, batchSize: Int) {
        self.source = source
        self.batchSize = batchSize
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { source.count }

    public subscript(position: Int) -> ManagedObject { source.object(at: position) }

    /// The results' IDs, without materialising the objects.
    public var objectIDs: [ObjectID] { (0..<source.count).map(source.objectID(at:)) }

    /// The results' IDs, or the error that stopped the store reading them (``readError``).
    public func checkedObjectIDs() throws -> [ObjectID] {
        let ids = objectIDs
        if let error = readError { throw error }
        return ids
    }

    /// The largest batch array iteration keeps for the next batch (a whole result read as one
    /// batch is not kept).
    static let keptBatchCapacity = 1 << 16

    public func makeIterator() -> Iterator { Iterator(source: source, batchSize: batchSize) }

    /// The error that ended reading the objects early (``StoreError`` or ``EvaluationError``),
    /// if any: iteration stopped there, and the objects before it are all it gave.
    public var readError: (any Error)? { source.failure?.error }

    /// Calls `body` with each object in order, reading them as iteration does (a batch at a
    /// time); throws the error that stops the store reading them, or the first `body` throws.
    public func forEachObject(_ body: (ManagedObject) throws -> Void) throws {
        var cursor = source.makeCursor()
        let size = batchSize > 0 ? batchSize : Int.max
        var batch: [ManagedObject] = []
        while true {
            // (The previous batch's array is reused: see FetchedObjectCursor.next(_:appendingTo:).)
            batch.removeAll(keepingCapacity: batch.capacity <= Self.keptBatchCapacity)
            do {
                try cursor.next(size, appendingTo: &batch)
            } catch {
                source.failure?.record(error)
                throw error
            }
            if batch.isEmpty { break }
            for object in batch { try body(object) }
        }
        if let error = readError { throw error }
    }

    /// The objects transformed in order, read as iteration reads them (a batch at a time,
    /// streamed from one query where the store can, relationships prefetched) rather than one
    /// position at a time, as `Collection.map` would.
    public func map<T, E: Error>(_ transform: (ManagedObject) throws(E) -> T) throws(E) -> [T] {
        var results: [T] = []
        for object in self { results.append(try transform(object)) }
        return results
    }

    /// Materialises one batch at a time, dropping the previous one.
    public struct Iterator: IteratorProtocol {
        private var cursor: any FetchedObjectCursor
        let batchSize: Int
        private var batch: [ManagedObject] = []
        private var index = 0
        private var finished = false

        private let failure: ReadFailure?

        init(source: any FetchedObjectSource, batchSize: Int) {
            self.cursor = source.makeCursor()
            self.failure = source.failure
            self.batchSize = batchSize > 0 ? batchSize : Int.max  // 0: everything in one batch
        }

        public mutating func next() -> ManagedObject? {
            if index >= batch.count {
                guard !finished else { return nil }
                // Release the previous batch before making the next, keeping its array's
                // storage for it (FetchedObjectCursor.next(_:appendingTo:)).
                batch.removeAll(keepingCapacity: batch.capacity <= FetchedObjects.keptBatchCapacity)
                do {
                    try cursor.next(batchSize, appendingTo: &batch)
                } catch {
                    // Iteration cannot throw: it ends here, and readError says why.
                    failure?.record(error)
                    finished = true
                    return nil
                }
                index = 0
                // A short batch is not the end: a store that failed midway gives the objects
                // before the failure, and the error at the next call.
                guard !batch.isEmpty else {
                    finished = true
                    return nil
                }
            }
            defer { index += 1 }
            return batch[index]
        }
    }
}

/// What executing a fetch request returns, by its result type.
public enum FetchResult: Sendable {
    case objects(FetchedObjects)
    case dictionaries([ValueDictionary])
    case count(Int)
    case objectIDs([ObjectID])
}

/// One section of a sectioned fetch (NSFetchedResultsSectionInfo).
public struct FetchedSection: Sendable {
    public let name: String
    public let indexTitle: String
    public var numberOfObjects: Int { objects.count }
    public let objects: FetchedObjects

    package init(name: String, indexTitle: String, objects: FetchedObjects) {
        self.name = name
        self.indexTitle = indexTitle
        self.objects = objects
    }
}

/// A fetch's results grouped by its section key path (FETCH.md §4).
public struct SectionedFetchResults: Sendable {
    public let sections: [FetchedSection]
    public var sectionIndexTitles: [String] { sections.map(\.indexTitle) }
    /// Set when the sections' objects are not contiguous in the sorted results.
    public let warning: String?

    package init(sections: [FetchedSection], warning: String?) {
        self.sections = sections
        self.warning = warning
    }
}

/// Results of an in-memory store: positions in a graph snapshot.
struct SnapshotObjectSource: FetchedObjectSource {
    let snapshot: GraphSnapshot
    let positions: [Int]

    var count: Int { positions.count }
    func objectID(at index: Int) -> ObjectID { snapshot.graph.objects[positions[index]]?.id ?? ObjectID("") }
    func object(at index: Int) -> ManagedObject { ManagedObject(snapshot: snapshot, position: positions[index]) }
}
