import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// `fetchBatchSize` (FETCH.md §3): results are materialised a batch at a time while iterating,
/// so memory stays flat on any result size. Measured by counting live ``ManagedObject``s, not
/// by timing.
///
/// `AtomicStore.liveObjectCount` counts the objects of one store, so other suites fetching in
/// parallel do not change it; counts are still taken relative to the count before iterating.
@Suite(.serialized) struct BatchTests {
    static let recordCount = 1_000_000
    static let batchSize = 1_000

    static func model() throws -> DataModel {
        try DataModel(name: "Batch", entities: [
            EntityDescription(name: "Record", attributes: [AttributeDescription(name: "n", type: .integer64, isOptional: false)]),
        ])
    }

    /// A store with `count` records, n = 0..<count, inserted through the public API.
    static func store(count: Int) throws -> AtomicStore {
        let store = AtomicStore.inMemory(model: try model())
        for i in 0..<count {
            try store.insert("Record", ["n": .int(Int64(i))])
        }
        try store.save()
        return store
    }

    /// Iterates `objects`, returning how many there were, the sum of their `n`, and the most
    /// fetched objects alive at once beyond `baseline`.
    static func iterate(_ objects: FetchedObjects, store: AtomicStore, baseline: Int) -> (count: Int, sum: Int64, maxLive: Int, ordered: Bool) {
        var count = 0
        var sum: Int64 = 0
        var maxLive = 0
        var ordered = true
        var previous: Int64 = -1
        for object in objects {
            count += 1
            maxLive = max(maxLive, store.liveObjectCount - baseline)
            if case .int(let n)? = object[attribute: "n"] {
                sum += n
                if n <= previous { ordered = false }
                previous = n
            } else {
                ordered = false
            }
        }
        return (count, sum, maxLive, ordered)
    }

    @Test func iteratingAMillionRecordsMaterialisesOneBatchAtATime() throws {
        let store = try Self.store(count: Self.recordCount)
        let request = FetchRequest(entityName: "Record", fetchBatchSize: Self.batchSize)
        let baseline = store.liveObjectCount
        let objects = try store.fetch(request)
        #expect(objects.count == Self.recordCount)
        #expect(objects.batchSize == Self.batchSize)
        // Fetching materialises nothing; iterating materialises a batch at a time.
        #expect(store.liveObjectCount - baseline < Self.batchSize / 2)
        let result = Self.iterate(objects, store: store, baseline: baseline)
        #expect(result.count == Self.recordCount)
        let n = Int64(Self.recordCount)
        #expect(result.sum == n * (n - 1) / 2)
        #expect(result.ordered, "insertion order")
        #expect(result.maxLive >= Self.batchSize, "a whole batch is materialised at once")
        #expect(result.maxLive <= 2 * Self.batchSize, "at most \(2 * Self.batchSize) objects alive, saw \(result.maxLive)")
        // Once iteration is over, the objects are gone.
        #expect(store.liveObjectCount - baseline < Self.batchSize / 2)
    }

    @Test func aFilteredSortedFetchIsBatchedToo() throws {
        let store = try Self.store(count: 100_000)
        var request = try FetchRequest(statement: "Record WHERE n >= 50000 OR n < 10 SORT BY n DESC")
        request.fetchBatchSize = 500
        let baseline = store.liveObjectCount
        let objects = try store.fetch(request)
        var count = 0
        var maxLive = 0
        var previous = Int64.max
        var ordered = true
        for object in objects {
            count += 1
            maxLive = max(maxLive, store.liveObjectCount - baseline)
            guard case .int(let n)? = object[attribute: "n"], n < previous else { ordered = false; continue }
            previous = n
        }
        #expect(count == 50_010)
        #expect(ordered)
        #expect(maxLive >= 500)
        #expect(maxLive <= 1_000, "saw \(maxLive)")
    }

    /// The counter does see materialised objects: without a batch size, iterating
    /// materialises every result at once.
    @Test func withoutABatchSizeEverythingIsMaterialisedAtOnce() throws {
        let store = try Self.store(count: 20_000)
        let baseline = store.liveObjectCount
        let result = Self.iterate(try store.fetch(FetchRequest(entityName: "Record")), store: store, baseline: baseline)
        #expect(result.count == 20_000)
        #expect(result.maxLive >= 20_000)
    }

    @Test func sectionsAndIDsDoNotMaterialiseObjects() throws {
        let store = try Self.store(count: 10_000)
        var request = FetchRequest(entityName: "Record", fetchBatchSize: 100)
        let baseline = store.liveObjectCount
        let ids = try store.fetch(request).objectIDs
        #expect(ids.count == 10_000)
        guard case .objectIDs(let viaResultType) = try store.execute({ var r = request; r.resultType = .objectIDs; return r }()) else {
            Issue.record("not object IDs")
            return
        }
        #expect(viaResultType == ids)
        #expect(store.liveObjectCount - baseline < 100)

        request.sortDescriptors = [SortKey("n")]
        request.sectionNameKeyPath = "n"
        request.fetchLimit = 2_000
        let sections = try store.fetchSections(request)
        #expect(sections.sections.count == 2_000)
        #expect(store.liveObjectCount - baseline < 100)
        var maxLive = 0
        for section in sections.sections {
            for _ in section.objects { maxLive = max(maxLive, store.liveObjectCount - baseline) }
        }
        #expect(maxLive <= 200, "saw \(maxLive)")
    }

    @Test func aBatchSizeCanBeAnyPositiveSize() throws {
        let store = try Self.store(count: 1_001)
        for size in [1, 2, 7, 1_000, 1_001, 5_000] {
            let objects = try store.fetch(FetchRequest(entityName: "Record", fetchBatchSize: size))
            let result = Self.iterate(objects, store: store, baseline: store.liveObjectCount)
            #expect(result.count == 1_001, "batch size \(size)")
            #expect(result.sum == 1_001 * 1_000 / 2, "batch size \(size)")
            #expect(result.ordered, "batch size \(size)")
        }
        let error = #expect(throws: StoreError.self) { try store.fetch(FetchRequest(entityName: "Record", fetchBatchSize: -1)) }
        #expect(error?.code == .invalidRequest)
    }
}
