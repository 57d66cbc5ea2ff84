import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftStore
import Testing

/// The SQLite store's acceptance test (FETCH.md §5): random fetch requests over random data
/// sets give identical object IDs in identical order, counts and sections from the SQLite
/// store and from the in-memory atomic store holding the same data. A mismatch is reported
/// shrunk to a minimal reproduction (data as import JSON, the request as fetch-request JSON).
@Suite struct SQLiteDifferentialTests {
    /// `SIFT_DIFFERENTIAL_CASES` cases (default 2000) against a SQLite store in memory.
    @Test func sqliteStoreAgreesWithTheEvaluator() throws {
        let summary = DifferentialHarness.run(
            reference: DifferentialTests.inMemory,
            candidate: DifferentialStore("SQLiteStore.inMemory") { model in try SQLiteStore.inMemory(model: model) },
            configuration: .standard)
        print("differential (in-memory vs SQLite): \(summary)")
        #expect(summary.cases == DifferentialHarness.Configuration.standard.cases)
    }

    /// Another seed, against a SQLite file reopened from disk.
    @Test func reopenedSQLiteFileAgreesWithTheEvaluator() throws {
        let directory = try DifferentialTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = DifferentialHarness.Configuration.standard
        configuration.cases /= 2
        configuration.seed &+= 11
        let candidate = DifferentialStore("SQLiteStore (file, reopened)", make: { model in
            try SQLiteStore.create(at: directory.appendingPathComponent("\(UUID().uuidString).sqlite"), model: model)
        }, reopen: { store in
            guard let url = (store as? SQLiteStore)?.url else { return store }
            return try SQLiteStore.open(at: url)
        })
        let summary = DifferentialHarness.run(reference: DifferentialTests.inMemory, candidate: candidate, configuration: configuration)
        print("differential (in-memory vs SQLite file): \(summary)")
    }
}
