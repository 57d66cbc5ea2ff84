import SiftEvaluation
import SiftLanguage

/// Where a fetch's objects come from: a store that can materialise the object at a position
/// of the results.
protocol FetchedObjectSource: Sendable {
    var count: Int { get }
    func objectID(at index: Int) -> ObjectID
    func object(at index: Int) -> ManagedObject
}

/// The objects a fetch returned, in order. Objects are materialised when they are read —
/// while iterating, `batchSize` at a time (the fetch request's `fetchBatchSize`; 0 = all at
/// once) — so memory stays flat however many results there are.
public struct FetchedObjects: RandomAccessCollection, Sendable {
    let source: any FetchedObjectSource
    /// How many objects iteration materialises at a time.
    public let batchSize: Int

    init(source: any FetchedObjectSource, batchSize: Int) {
        self.source = source
        self.batchSize = batchSize
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { source.count }

    public subscript(position: Int) -> ManagedObject { source.object(at: position) }

    /// The results' IDs, without materialising the objects.
    public var objectIDs: [ObjectID] { (0..<source.count).map(source.objectID(at:)) }

    public func makeIterator() -> Iterator { Iterator(source: source, batchSize: batchSize) }

    /// Materialises one batch at a time, dropping the previous one.
    public struct Iterator: IteratorProtocol {
        let source: any FetchedObjectSource
        let batchSize: Int
        private var position = 0
        private var batch: [ManagedObject] = []
        private var batchStart = 0

        init(source: any FetchedObjectSource, batchSize: Int) {
            self.source = source
            self.batchSize = batchSize > 0 ? batchSize : Swift.max(source.count, 1)
        }

        public mutating func next() -> ManagedObject? {
            guard position < source.count else {
                batch = []
                return nil
            }
            if position - batchStart >= batch.count {
                batch = []  // release the previous batch before making the next
                batchStart = position
                let end = Swift.min(source.count, position + batchSize)
                batch = (position..<end).map(source.object(at:))
            }
            defer { position += 1 }
            return batch[position - batchStart]
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
}

/// A fetch's results grouped by its section key path (FETCH.md §4).
public struct SectionedFetchResults: Sendable {
    public let sections: [FetchedSection]
    public var sectionIndexTitles: [String] { sections.map(\.indexTitle) }
    /// Set when the sections' objects are not contiguous in the sorted results.
    public let warning: String?
}

/// Results of an in-memory store: positions in a graph snapshot.
struct SnapshotObjectSource: FetchedObjectSource {
    let snapshot: GraphSnapshot
    let positions: [Int]

    var count: Int { positions.count }
    func objectID(at index: Int) -> ObjectID { snapshot.graph.objects[positions[index]]?.id ?? ObjectID("") }
    func object(at index: Int) -> ManagedObject { ManagedObject(snapshot: snapshot, position: positions[index]) }
}
