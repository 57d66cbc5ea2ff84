// The million-row fetch against raw sqlite3, as a plain loop that prints the ratio (the
// target is Sift within 1.2× of the hand-written baseline), and for perf and callgrind:
//
//     swift build -c release --product SQLiteFetchLoop
//     .build/release/SQLiteFetchLoop [rows] [rounds] [sift|raw|rows|both|all]
//
// `sift` is `SQLiteStore.fetch` (an object per row), `rows` is `SQLiteStore.forEachRow` (a
// row read in place), `raw` the baseline; `both` is raw and sift, `all` the three.
import Foundation
import Sift
import SQLiteFetchFixture

let arguments = CommandLine.arguments
let rows = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let which = arguments.count > 3 ? arguments[3] : "both"

let url = try SQLiteFetchFixture.storeURL(rows: rows)
let store = try SQLiteStore.open(at: url)
let db = try SQLiteFetchFixture.openRaw(url)

/// The thread's CPU time in seconds: steadier than the wall clock on a busy machine.
func cpuTime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// The best CPU time of `rounds` runs (the wall clock of that run alongside).
func best(_ name: String, _ body: () throws -> SQLiteFetchFixture.Checksum) rethrows -> Double {
    var fastest = Double.infinity
    var wall = Double.infinity
    var checksum = SQLiteFetchFixture.Checksum()
    for _ in 0..<rounds {
        let start = ContinuousClock.now
        let startCPU = cpuTime()
        checksum = try body()
        let cpu = cpuTime() - startCPU
        let elapsed = ContinuousClock.now - start
        if cpu < fastest { (fastest, wall) = (cpu, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) }
    }
    print("\(name): best of \(rounds) \(String(format: "%.3f", fastest)) s CPU, \(String(format: "%.3f", wall)) s wall (\(checksum))")
    return fastest
}

print("\(rows) rows; \(SQLiteFetchFixture.statement)")
let raw = ["raw", "both", "all"].contains(which) ? try best("raw sqlite3, hand-written SQL") { try SQLiteFetchFixture.fetchRaw(db) } : nil
let sift = ["sift", "both", "all"].contains(which) ? try best("Sift fetch") { try SQLiteFetchFixture.fetchSift(store) } : nil
let rowsRead = ["rows", "all"].contains(which) ? try best("Sift forEachRow") { try SQLiteFetchFixture.fetchRows(store) } : nil
if let raw, let sift { print("Sift / raw = \(String(format: "%.2f", sift / raw))× (target ≤ 1.20×)") }
if let raw, let rowsRead { print("Sift forEachRow / raw = \(String(format: "%.2f", rowsRead / raw))× (target ≤ 1.20×)") }
