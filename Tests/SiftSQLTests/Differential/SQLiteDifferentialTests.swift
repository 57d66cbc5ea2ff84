import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
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
            candidate: DifferentialStore("SQLiteStore.inMemory", make: { model in try SQLiteStore.inMemory(model: model) },
                                         runsPredicateNatively: Self.runsPredicateInSQL),
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
        }, runsPredicateNatively: Self.runsPredicateInSQL)
        let summary = DifferentialHarness.run(reference: DifferentialTests.inMemory, candidate: candidate, configuration: configuration)
        print("differential (in-memory vs SQLite file): \(summary)")
    }

    /// Whether a SQLite store runs the whole of a request's predicate in SQL (nothing left to
    /// the evaluator); nil for another store or a request it refuses.
    static func runsPredicateInSQL(_ store: any PersistentStore, _ request: FetchRequest) -> Bool? {
        guard let store = store as? SQLiteStore, let generated = try? store.generatedSQL(for: request) else { return nil }
        return generated.inMemoryPredicate == nil
    }

    /// How much of the generated language compiles to SQL: of the predicates the generators make
    /// (a fixed seed, 4000 requests), the share whose SQL leaves nothing to the evaluator must not
    /// fall below what the compiler reaches today (so a construct that stops compiling is
    /// noticed). Prints the share and the commonest reasons for falling back.
    @Test func mostGeneratedPredicatesRunEntirelyInSQL() throws {
        let model = try DifferentialModel.make()
        var dataGenerator = DataSetGenerator(model: model)
        let requests = RequestGenerator(model: model)
        var measured = 0, inSQL = 0
        var reasons: [String: Int] = [:]
        for dataSet in 0..<100 {
            let data = dataGenerator.make(seed: DifferentialRandom.derive(0x5_1C0, dataSet))
            let store = try SQLiteStore.inMemory(model: model)
            try data.fill(store)
            for index in 0..<40 {
                let request = requests.make(dataSet: data, seed: DifferentialRandom.derive(UInt64(dataSet), index)).request
                // Predicates of object fetches (dictionary fetches have their own fallbacks).
                guard request.predicate != nil, request.resultType != .dictionaries,
                      let generated = try? store.generatedSQL(for: request) else { continue }
                measured += 1
                if generated.inMemoryPredicate == nil {
                    inSQL += 1
                } else {
                    let reason = generated.inMemoryReason ?? "?"
                    reasons[reason, default: 0] += 1
                }
            }
        }
        let share = measured == 0 ? 0 : Double(inSQL) / Double(measured)
        print("predicates entirely in SQL: \(inSQL) of \(measured) (\(String(format: "%.1f", share * 100))%)")
        for (reason, count) in reasons.sorted(by: { $0.value > $1.value }).prefix(12) { print("  in memory \(count)×: \(reason)") }
        #expect(measured > 2500)
        #expect(share >= Self.minimumShareInSQL, "only \(inSQL) of \(measured) generated predicates run entirely in SQL")
    }

    /// The share ``mostGeneratedPredicatesRunEntirelyInSQL`` must reach (a little below what it
    /// measures).
    static let minimumShareInSQL = 0.98
}
