// swift-tools-version: 6.1
//
// Sift's benchmarks, kept apart so the normal build never compiles them.
//
//     Benchmarks/run                    (from the repository's root) every workload against its
//                                       peer, interleaved, as one table (docs/PERFORMANCE.md)
//     cd Benchmarks && swift package benchmark
//
// PeerWorkloads is Sift's side of Benchmarks/run's library workloads (and the Swift peers':
// Foundation's #Predicate, a hand-written closure); Peers/ holds GNUstep's side.
//
// Parsing: mixed predicates per second (the design target is ten times GNUstep's
// NSPredicate parser, which manages about 62,000 mixed predicates per second on the
// project's 2-core machine).
//
// Evaluation: `age > 30` per second over dictionaries (the target is ten times GNUstep's
// 1.9 million evaluations per second) and over Swift structs (PredicateQueryable; the target
// is Foundation's #Predicate on the same structs, which is measured alongside).
//
// SQLite: a million-row fetch against raw sqlite3 calls running the equivalent hand-written
// SQL (the target is within 1.2×); SQLiteFetchLoop prints the ratio:
//
//     swift build -c release --product SQLiteFetchLoop && .build/release/SQLiteFetchLoop
//
// StoreWrites: importing a million rows against the sqlite3 shell's .import (the target is
// within 2×, under 200 MB), one insert and save in the million-row store (< 5 ms), a batch
// update of 1,000 objects chosen by a predicate (< 50 ms):
//
//     swift build -c release --product StoreWrites && .build/release/StoreWrites [rows] [rounds]
//
// REPLLatency: `sift STORE` under a pseudo-terminal, from starting until the prompt (< 100 ms)
// and from Enter on `FETCH Item` in a million-row store until its first row (< 50 ms):
//
//     swift build -c release --product sift        (in the main package)
//     swift build -c release --product REPLLatency && .build/release/REPLLatency [SIFT] [rounds]
//
// EvaluationLoop is the same evaluations as a plain loop, for perf and callgrind:
//
//     swift build -c release --product EvaluationLoop
//     .build/release/EvaluationLoop [dictionaries|values|structs|foundation|all] [evaluations]
import PackageDescription

let package = Package(
    name: "SiftBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Sift", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "Parsing",
            dependencies: [
                .product(name: "Sift", package: "Sift"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Parsing",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Evaluation",
            dependencies: [
                .product(name: "Sift", package: "Sift"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Evaluation",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // A million-row fetch on a SQLite store against raw sqlite3 running hand-written SQL.
        .systemLibrary(name: "CSQLite3Raw", path: "Benchmarks/CSQLite3Raw", pkgConfig: "sqlite3"),
        .target(
            name: "SQLiteFetchFixture",
            dependencies: [.product(name: "Sift", package: "Sift"), "CSQLite3Raw"],
            path: "Benchmarks/SQLiteFetchFixture"
        ),
        .executableTarget(
            name: "SQLiteFetch",
            dependencies: [
                "SQLiteFetchFixture",
                .product(name: "Sift", package: "Sift"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SQLiteFetch",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The same fetch as a plain loop printing the ratio, for perf and callgrind.
        .executableTarget(
            name: "SQLiteFetchLoop",
            dependencies: ["SQLiteFetchFixture", .product(name: "Sift", package: "Sift")],
            path: "Benchmarks/SQLiteFetchLoop"
        ),
        // Imports, single inserts and batch updates on a million-row SQLite store, against the
        // sqlite3 shell; prints the ratios.
        .executableTarget(
            name: "StoreWrites",
            dependencies: [.product(name: "Sift", package: "Sift")],
            path: "Benchmarks/StoreWrites"
        ),
        // The REPL under a pseudo-terminal: starting until the prompt, Enter on a million-row
        // fetch until its first row.
        .executableTarget(
            name: "REPLLatency",
            dependencies: ["SQLiteFetchFixture"],
            path: "Benchmarks/REPLLatency"
        ),
        // Sift's side of the library workloads Benchmarks/run times against their peers.
        .executableTarget(
            name: "PeerWorkloads",
            dependencies: [.product(name: "Sift", package: "Sift"), "CSQLite3Raw"],
            path: "Benchmarks/PeerWorkloads"
        ),
        // A plain loop over the same evaluations, for perf and callgrind.
        .executableTarget(
            name: "EvaluationLoop",
            dependencies: [.product(name: "Sift", package: "Sift")],
            path: "Benchmarks/EvaluationLoop"
        ),
    ],
    swiftLanguageModes: [.v6]
)
