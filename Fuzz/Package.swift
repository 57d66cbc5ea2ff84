// swift-tools-version: 6.1
//
// Sift's fuzzers: libFuzzer harnesses, kept apart so the normal build never compiles them
// (docs/FUZZING.md). Build them with the fuzzer and address sanitizer instrumentation, which
// the flag applies to the Sift modules too:
//
//     cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer,address
//     .build/release/fuzz-parse Corpus/parse -max_total_time=60
//
// or run them all as CI does: `bash Fuzz/run-ci` (bounded), `bash scripts/fuzz` (longer).
//
// Each harness is an executable target of one file: `LLVMFuzzerTestOneInput`, and the
// `<module>_main` function SwiftPM aliases `main` to, which hands over to libFuzzer's driver.
// What the harnesses check is in FuzzSupport.
import PackageDescription

// The Sift package is found by path. It is named explicitly, so it is known as "Sift"
// whatever the clone's directory is called.
let harnesses = [
    "fuzz-parse", "fuzz-roundtrip", "fuzz-statements", "fuzz-evaluate", "fuzz-sql",
    "fuzz-json-records", "fuzz-csv", "fuzz-models", "fuzz-atomic-store", "fuzz-sqlite-store",
    "fuzz-coredata-model",
]

let package = Package(
    name: "SiftFuzz",
    dependencies: [.package(name: "Sift", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "Sift", package: "Sift")]),
    ] + harnesses.map { name in
        // -parse-as-library: the harness has no top-level code; libFuzzer's driver is the main.
        .executableTarget(name: name, dependencies: ["FuzzSupport"], swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    },
    swiftLanguageModes: [.v6]
)
