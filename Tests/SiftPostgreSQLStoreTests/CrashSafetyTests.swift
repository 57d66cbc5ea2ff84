import Foundation
import PostgreSQLTestSupport
import SiftPostgreSQL
import SiftPostgreSQLStore
import SiftStore
import Synchronization
import Testing

/// The server stopped at once (`pg_ctl stop -m immediate`, as a crash) while a writer saves, on a
/// cluster of the test's own with `synchronous_commit` on (issue 30 §6; the shared test server runs
/// with it off, under which such a stop lost acknowledged commits): after recovery every save that
/// returned is there, whole, a save in flight is there whole or not at all, and unsaved changes
/// are gone.
@Suite struct CrashSafetyTests {
    static let model = StoreTestModels.model("""
        {"name": "Crash", "entities": [{"name": "Item", "attributes": [
          {"name": "batch", "type": "integer64"}, {"name": "n", "type": "integer64"}]}]}
        """)

    static let batchSize = 40

    @Test func acknowledgedSavesSurviveAnImmediateStop() throws {
        let cluster = try PostgreSQLDurableCluster.start()
        defer { cluster.stop() }
        let check = try PostgreSQLConnection(cluster.conninfo)
        #expect(try check.scalar("SHOW synchronous_commit").stringValue == "on")
        #expect(try check.scalar("SHOW fsync").stringValue == "on")
        _ = try PostgreSQLStore.create(conninfo: cluster.conninfo, model: Self.model)

        for round in 0..<2 {
            // A writer saving batch after batch, each save acknowledged before the next begins.
            let acknowledged = Atomic<Int>(0)
            let failure = Mutex<String?>(nil)
            let done = DispatchSemaphore(value: 0)
            let before = try Self.batches(cluster.conninfo)
            let writer = Thread {
                defer { done.signal() }
                do {
                    let store = try PostgreSQLStore.open(conninfo: cluster.conninfo)
                    for batch in (before.count)... {
                        for n in 0..<Self.batchSize {
                            try store.insert("Item", ["batch": .int(Int64(batch)), "n": .int(Int64(n))])
                        }
                        try store.save()
                        acknowledged.add(1, ordering: .sequentiallyConsistent)
                    }
                } catch {
                    failure.withLock { $0 = "\(error)" }
                }
            }
            writer.start()
            // Let some saves through, then crash mid-write.
            let started = ContinuousClock.now
            while acknowledged.load(ordering: .sequentiallyConsistent) < 5 + round * 3, ContinuousClock.now - started < .seconds(120) {
                Thread.sleep(forTimeInterval: 0.01)
            }
            Thread.sleep(forTimeInterval: Double(round) * 0.013)
            try cluster.crash()
            let saved = acknowledged.load(ordering: .sequentiallyConsistent)
            done.wait()
            #expect(failure.withLock { $0 } != nil, "the writer should have lost its connection")
            try cluster.restart()

            let after = try Self.batches(cluster.conninfo)
            let batchesAfter = after.count - before.count
            // Every acknowledged save is there; the one in flight whole or not at all.
            #expect(batchesAfter == saved || batchesAfter == saved + 1, "round \(round): \(saved) saves acknowledged, \(batchesAfter) batches found")
            #expect(after.values.allSatisfy { $0 == Self.batchSize }, "a batch saved in part: \(after.filter { $0.value != Self.batchSize })")
            #expect(after.keys.sorted() == Array(0..<after.count).map(Int64.init), "batches missing: \(after.keys.sorted())")
        }

        // Changes pending (not saved) when the server stops leave nothing.
        let store = try PostgreSQLStore.open(conninfo: cluster.conninfo)
        let before = try Self.batches(cluster.conninfo)
        for n in 0..<Self.batchSize { try store.insert("Item", ["batch": .int(-1), "n": .int(Int64(n))]) }
        try cluster.crash()
        try cluster.restart()
        #expect(try Self.batches(cluster.conninfo) == before)
    }

    /// The store's rows by batch: how many of each (the store opened first, as a reader would).
    static func batches(_ conninfo: String) throws -> [Int64: Int] {
        _ = try PostgreSQLStore.open(conninfo: conninfo)
        let connection = try PostgreSQLConnection(conninfo)
        var counts: [Int64: Int] = [:]
        for row in try connection.query(#"SELECT "batch", count(*) FROM "Item" GROUP BY "batch""#) {
            counts[row[0].int64Value ?? -99] = Int(row[1].int64Value ?? 0)
        }
        return counts
    }
}
