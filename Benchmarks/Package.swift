// swift-tools-version: 6.1
//
// Sift's benchmarks, kept apart so the normal build never compiles them.
//
//     cd Benchmarks && swift package benchmark
//
// Parsing: mixed predicates per second (the design target is ten times GNUstep's
// NSPredicate parser, which manages about 62,000 mixed predicates per second on the
// project's 2-core machine).
//
// Evaluation: `age > 30` per second over dictionaries (the target is ten times GNUstep's
// 1.9 million evaluations per second) and over Swift structs (PredicateQueryable; the target
// is Foundation's #Predicate on the same structs, which is measured alongside).
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
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "Parsing",
            dependencies: [
                .product(name: "Sift", package: "main"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Parsing",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Evaluation",
            dependencies: [
                .product(name: "Sift", package: "main"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Evaluation",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // A plain loop over the same evaluations, for perf and callgrind.
        .executableTarget(
            name: "EvaluationLoop",
            dependencies: [.product(name: "Sift", package: "main")],
            path: "Benchmarks/EvaluationLoop"
        ),
    ],
    swiftLanguageModes: [.v6]
)
