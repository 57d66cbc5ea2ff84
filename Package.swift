// swift-tools-version: 6.1
//
// Sift: Apple's NSPredicate language and Core Data's query layer, rebuilt in Swift for Linux.
//
// Layers (each module imports only the ones above it):
//
//   SiftLanguage   lexer, parser, AST, canonical printer, format arguments, errors
//   SiftEvaluation values, key-value access, the in-memory evaluator, strings, sorting, sections
//   SiftStore      models, records, the store interface, atomic stores, fetch requests, import
//   SiftSQLite     a thin wrapper of the system SQLite C API (connections, statements, functions)
//   SiftPostgreSQL a thin wrapper of the system libpq (connections, prepared statements, streaming,
//                  cancel, catalog introspection); like SiftSQLite, it knows nothing of Sift
//   SiftSQL        the SQL tree, the dialect protocol, the compiler from fetch requests to SQL,
//                  schemas from a model and the introspected layout; no store, no engine
//   SiftSQLStore   what every SQL store shares whatever its engine: rows written as objects
//                  (SQLRowObjects over a SQLRowDatabase), objects read from rows, the fetch core
//                  (request checks, dispatch, interrupts) over SQLFetchingStore
//   SiftSQLiteStore the SQLite store: Sift's layout, foreign databases and their introspection,
//                  SQLite's dialect and registered functions; it imports SiftSQLite, never SiftPostgreSQL
//   SiftPostgreSQLStore the PostgreSQL store: its dialect and server functions, SiftSQL's layout in
//                  PostgreSQL types, writes as rows; it imports SiftPostgreSQL, never SiftSQLite
//   Sift           the umbrella module users import
//   SiftCLI        the `sift` commands (argument parsing, rendering); `sift` is only `main`
//
// CSQLite, CPCRE2, CLibPQ, CEditLine and CZlib wrap the system libraries (apt: libsqlite3-dev,
// libpcre2-dev, libpq-dev, libedit-dev, zlib1g-dev; CEditLine's shim spells out libedit's variadic calls for
// Swift);
// CSiftSupport is a few lines of C (the thread's stack bounds, for the parser's depth guard).
import PackageDescription

let package = Package(
    name: "Sift",
    products: [
        .library(name: "Sift", targets: ["Sift"]),
        .executable(name: "sift", targets: ["sift"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // System libraries.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        // zlib, for Core Data's compressed model cache (raw deflate).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // PostgreSQL's client library, opened with dlopen when a PostgreSQL connection is first
        // made (Sources/CLibPQ/include/CLibPQ.h says why): its header from apt libpq-dev, the
        // library itself (libpq.so.5, apt libpq5) only where PostgreSQL is used.
        .target(name: "CLibPQ"),
        // The REPL's line editing and history.
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),

        // A few lines of C the language layer needs: the current thread's remaining stack.
        .target(name: "CSiftSupport"),

        // Layer 1: the predicate language.
        .target(name: "SiftLanguage", dependencies: ["CSiftSupport"]),

        // Layer 2: evaluation in memory (values, key paths, the evaluator, strings, sorting, sections).
        .target(name: "SiftEvaluation", dependencies: ["SiftLanguage", "CPCRE2"]),

        // Layer 3: models, stores (atomic: in-memory, JSON, binary plist), fetch requests, import.
        .target(name: "SiftStore", dependencies: ["SiftLanguage", "SiftEvaluation", "CZlib"]),

        // A thin wrapper of SQLite's C API, knowing nothing of Sift.
        .target(name: "SiftSQLite", dependencies: ["CSQLite"]),

        // A thin wrapper of libpq, knowing nothing of Sift.
        .target(name: "SiftPostgreSQL", dependencies: ["CLibPQ"]),

        // Layer 4: the SQL compiler (no store, no engine).
        .target(name: "SiftSQL", dependencies: ["SiftLanguage", "SiftEvaluation", "SiftStore"]),

        // Layer 5: what the SQL stores share, whatever their engine.
        .target(name: "SiftSQLStore", dependencies: ["SiftLanguage", "SiftEvaluation", "SiftStore", "SiftSQL"]),

        // Layer 6: the SQLite store (Sift's layout, foreign databases, SQLite's dialect and functions).
        .target(name: "SiftSQLiteStore", dependencies: ["SiftLanguage", "SiftEvaluation", "SiftStore", "SiftSQL", "SiftSQLStore", "SiftSQLite", "CSQLite"]),

        // Layer 6: the PostgreSQL store (the SQLite store's layout, in PostgreSQL types, through libpq).
        .target(name: "SiftPostgreSQLStore", dependencies: ["SiftLanguage", "SiftEvaluation", "SiftStore", "SiftSQL", "SiftSQLStore", "SiftPostgreSQL"]),

        // The umbrella.
        .target(name: "Sift", dependencies: ["SiftLanguage", "SiftEvaluation", "SiftStore", "SiftSQL", "SiftSQLStore", "SiftSQLiteStore", "SiftPostgreSQL",
                                             "SiftPostgreSQLStore"]),

        // Command line.
        .target(
            name: "SiftCLI",
            dependencies: [
                "Sift",
                "SiftPostgreSQLStore",
                "CEditLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "sift", dependencies: ["SiftCLI"]),

        // Tests.
        // The bound on tests that would hang if their work went quadratic, scaled for sanitizers.
        .target(name: "TestTimeLimits", path: "Tests/TestTimeLimits"),
        .testTarget(name: "SiftLanguageTests", dependencies: ["SiftLanguage"]),
        .testTarget(name: "SiftEvaluationTests", dependencies: ["TestTimeLimits", "SiftEvaluation"]),
        .testTarget(name: "SiftStoreTests", dependencies: ["TestTimeLimits", "SiftStore", "SiftSQL", "SiftSQLiteStore", "SeedAppSupport", "CoreDataFixtures"]),
        .testTarget(name: "SiftSQLiteTests", dependencies: ["SiftSQLite"]),
        .testTarget(name: "SiftSQLTests", dependencies: ["SiftSQL", "SiftSQLStore", "SiftSQLiteStore", "SiftPostgreSQLStore", "ChinookSupport", "CoreDataFixtures", "SeedAppSupport"]),
        // A throw-away PostgreSQL server for any test target that needs one (scripts/postgres-cluster).
        .target(name: "PostgreSQLTestSupport", dependencies: ["SiftPostgreSQL"], path: "Tests/PostgreSQLTestSupport"),
        .testTarget(name: "SiftPostgreSQLTests", dependencies: ["SiftPostgreSQL", "PostgreSQLTestSupport"]),
        // The seed apps' example fetches (Examples/<App>/fetches.json), for the tests of each store.
        .target(name: "SeedAppSupport", dependencies: ["SiftStore"], path: "Tests/SeedAppSupport"),
        // A database shaped like Chinook (its DDL, deterministic rows of its sizes), for the tests
        // that compare Sift with hand-written SQL on a database Sift did not create, and the
        // generated differential test of the typed comparisons that runs on it in every store.
        .target(name: "ChinookSupport", dependencies: ["SiftSQLite", "SiftStore"], path: "Tests/ChinookSupport"),
        // Real Core Data stores and model files (Tests/CoreDataFixtures/Files/README.md), by name.
        .target(name: "CoreDataFixtures", path: "Tests/CoreDataFixtures", resources: [.copy("Files")]),
        .testTarget(name: "SiftPostgreSQLStoreTests", dependencies: ["SiftPostgreSQLStore", "SiftSQL", "SiftSQLStore", "SiftSQLiteStore", "SiftStore", "PostgreSQLTestSupport", "SeedAppSupport", "CoreDataFixtures",
                                                               "ChinookSupport"]),
        .testTarget(name: "SiftCLITests", dependencies: ["TestTimeLimits", "SiftCLI", "sift", "PostgreSQLTestSupport", "ChinookSupport", "CoreDataFixtures"],
                    exclude: ["Transcripts", "ExampleScripts", "RenderGolden"]),
        .testTarget(name: "SystemLibrariesTests", dependencies: ["CSQLite", "CPCRE2", "CLibPQ"]),
        // The README's and docs' Swift examples, compiled (DocumentationSnippetTests).
        .testTarget(name: "SiftDocumentationTests", dependencies: ["Sift"]),
    ],
    swiftLanguageModes: [.v6]
)
