import Benchmark
import Foundation
import Sift
import SQLiteFetchFixture

/// A million-row fetch on a SQLite store: Sift's fetch, and raw sqlite3 calls running the
/// equivalent hand-written SQL (the target is Sift within 1.2× of that).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration.maxDuration = .seconds(10)
    Benchmark.defaultConfiguration.maxIterations = 10
    Benchmark.defaultConfiguration.metrics = [.wallClock, .mallocCountTotal, .peakMemoryResident]

    let rows = 1_000_000
    Benchmark("raw sqlite3: hand-written SQL, \(rows) rows") { benchmark in
        let db = try SQLiteFetchFixture.openRaw(try SQLiteFetchFixture.storeURL(rows: rows))
        benchmark.startMeasurement()
        blackHole(try SQLiteFetchFixture.fetchRaw(db))
    }

    Benchmark("Sift fetch: \(SQLiteFetchFixture.statement), \(rows) rows") { benchmark in
        let store = try SQLiteStore.open(at: try SQLiteFetchFixture.storeURL(rows: rows))
        benchmark.startMeasurement()
        blackHole(try SQLiteFetchFixture.fetchSift(store))
    }
}
