import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore
import Testing

/// A store under test: how to make an empty one for a model, and, optionally, what to do
/// once it is filled and saved (a file store is closed and opened again, so the fetches read
/// what the file kept).
struct DifferentialStore {
    var name: String
    var make: (DataModel) throws -> any PersistentStore
    var reopen: ((any PersistentStore) throws -> any PersistentStore)?
    /// Whether the store runs a request's whole predicate in its query language (for the SQLite
    /// store: no part of it is left to the evaluator); nil when it cannot say.
    var runsPredicateNatively: ((any PersistentStore, FetchRequest) -> Bool?)?

    init(_ name: String, make: @escaping (DataModel) throws -> any PersistentStore,
         reopen: ((any PersistentStore) throws -> any PersistentStore)? = nil,
         runsPredicateNatively: ((any PersistentStore, FetchRequest) -> Bool?)? = nil) {
        self.name = name
        self.make = make
        self.reopen = reopen
        self.runsPredicateNatively = runsPredicateNatively
    }

    /// A store holding `data`: made, filled through the `PersistentStore` API, saved, reopened.
    func filled(with data: DifferentialDataSet, model: DataModel) throws -> any PersistentStore {
        let store = try make(model)
        try data.fill(store)
        return try reopen?(store) ?? store
    }
}

/// The differential test: random fetch requests over random data sets must return identical
/// results — the same object IDs in the same order, the same counts and sections, and an error
/// exactly when the other store errs — from a reference store and a candidate store holding the
/// same data. A disagreement is shrunk to a small case and reported through `Issue.record`.
///
/// The SQLite store's acceptance test is one call:
///
///     DifferentialHarness.run(reference: { model in AtomicStore.inMemory(model: model) },
///                             candidate: { model in try SQLiteStore.inMemory(model: model) })
///
/// Cases run in data sets of ``Configuration/casesPerDataSet`` requests each. Everything comes
/// from the seed: data set `d` from `derive(seed, d)`, its request `c` from
/// `derive(dataSeed, c)`, so a reported case regenerates with ``check(dataSeed:requestSeed:reference:candidate:)``.
/// `SIFT_DIFFERENTIAL_CASES` and `SIFT_DIFFERENTIAL_SEED` (decimal or 0x hex) set the defaults.
enum DifferentialHarness {
    typealias StoreFactory = (DataModel) throws -> any PersistentStore

    struct Configuration: Sendable {
        var cases: Int
        var seed: UInt64
        /// Requests per data set (each data set is filled into two new stores).
        var casesPerDataSet = 40
        /// Mismatches shrunk and reported in full; later ones are counted.
        var reportLimit = 3
        /// Store runs one shrink may take.
        var shrinkBudget = 1500
        /// Changes each generated data set before both stores are filled with it (a store that
        /// cannot hold some values, such as PostgreSQL's text and NUL, is compared on the rest).
        var adaptData: (@Sendable (DifferentialDataSet) -> DifferentialDataSet)?

        static let defaultCases = 2000
        static let defaultSeed: UInt64 = 0x51F7_D1FF_2026

        /// The defaults, or what `SIFT_DIFFERENTIAL_CASES` and `SIFT_DIFFERENTIAL_SEED` say.
        static var standard: Configuration {
            let environment = ProcessInfo.processInfo.environment
            let cases = environment["SIFT_DIFFERENTIAL_CASES"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? defaultCases
            let seed = environment["SIFT_DIFFERENTIAL_SEED"].flatMap(parseSeed) ?? defaultSeed
            return Configuration(cases: max(0, cases), seed: seed)
        }

        static func parseSeed(_ text: String) -> UInt64? {
            let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
            if trimmed.hasPrefix("0x") { return UInt64(trimmed.dropFirst(2), radix: 16) }
            return UInt64(trimmed)
        }
    }

    /// What a run did.
    struct Summary: Sendable, CustomStringConvertible {
        var cases = 0
        var dataSets = 0
        var objects = 0
        /// Disagreements found (all of them; ``mismatches`` holds the reported ones).
        var mismatchCount = 0
        var mismatches: [DifferentialMismatch] = []
        /// Cases both stores refused.
        var agreedErrors = 0
        /// Object / ID results that held some but not all of the entity's objects: a measure
        /// of how often predicates select something interesting.
        var selectiveResults = 0
        var emptyResults = 0
        var sectioned = 0
        /// Dictionary results both stores gave (and how many of them were empty).
        var dictionaryResults = 0
        var emptyDictionaryResults = 0
        /// Problems of the generators or the language (predicates that did not parse or
        /// print), reported apart from disagreements.
        var generatorProblems: [String] = []
        /// Cases with a predicate the candidate could say how it runs, and those of them whose
        /// whole predicate ran natively (in SQL): a measure of how much the SQL compiler covers.
        var predicatesMeasured = 0
        var predicatesRunNatively = 0
        var duration: Duration = .zero

        /// The share of measured predicates that ran entirely natively (nil: none measured).
        var nativeShare: Double? {
            predicatesMeasured == 0 ? nil : Double(predicatesRunNatively) / Double(predicatesMeasured)
        }

        var description: String {
            "\(cases) cases over \(dataSets) data sets (\(objects) objects) in \(duration.formatted(.units(allowed: [.seconds, .milliseconds]))): "
                + "\(mismatchCount) mismatches, \(agreedErrors) refused by both, \(selectiveResults) selective and \(emptyResults) empty results, "
                + "\(sectioned) sectioned, \(dictionaryResults) dictionary results (\(emptyDictionaryResults) empty), \(generatorProblems.count) generator problems"
                + (nativeShare.map { ", \(predicatesRunNatively) of \(predicatesMeasured) predicates (\(String(format: "%.1f", $0 * 100))%) fully in the candidate's query language" } ?? "")
        }
    }

    // MARK: Entry points

    /// Runs `cases` random cases with stores made by `reference` and `candidate`, recording an
    /// issue for each disagreement (shrunk), and returns what happened.
    @discardableResult
    static func run(reference: @escaping StoreFactory, candidate: @escaping StoreFactory,
                    cases: Int = Configuration.standard.cases, seed: UInt64 = Configuration.standard.seed,
                    sourceLocation: SourceLocation = #_sourceLocation) -> Summary {
        var configuration = Configuration.standard
        configuration.cases = cases
        configuration.seed = seed
        return run(reference: DifferentialStore("reference", make: reference), candidate: DifferentialStore("candidate", make: candidate),
                   configuration: configuration, sourceLocation: sourceLocation)
    }

    /// Runs the cases a configuration says with two stores, recording issues when
    /// `recordIssues` (a test of the harness itself may look at the summary instead).
    @discardableResult
    static func run(reference: DifferentialStore, candidate: DifferentialStore, configuration: Configuration,
                    recordIssues: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) -> Summary {
        let clock = ContinuousClock()
        let start = clock.now
        var summary = Summary()
        let model: DataModel
        do {
            model = try DifferentialModel.make()
        } catch {
            if recordIssues { Issue.record("the differential model does not load: \(error)", sourceLocation: sourceLocation) }
            return summary
        }
        var dataGenerator = DataSetGenerator(model: model)
        let requestGenerator = RequestGenerator(model: model)
        let perDataSet = max(1, configuration.casesPerDataSet)
        let dataSetCount = (configuration.cases + perDataSet - 1) / perDataSet

        for dataSetIndex in 0..<dataSetCount {
            let dataSeed = DifferentialRandom.derive(configuration.seed, dataSetIndex)
            let generated = dataGenerator.make(seed: dataSeed)
            let data = configuration.adaptData.map { $0(generated) } ?? generated
            summary.dataSets += 1
            summary.objects += data.objects.count
            let referenceStore: any PersistentStore
            do {
                referenceStore = try reference.filled(with: data, model: model)
            } catch {
                // The generator made data the reference refuses: a bug of the generator.
                summary.generatorProblems.append("data set 0x\(String(dataSeed, radix: 16)) cannot be stored in \(reference.name): \(error)\n\(data.importJSON)")
                continue
            }
            let candidateStore: any PersistentStore
            do {
                candidateStore = try candidate.filled(with: data, model: model)
            } catch {
                summary.mismatchCount += 1
                if recordIssues {
                    Issue.record(Comment(rawValue: "\(candidate.name) refuses a data set \(reference.name) stores: \(error)\nData (dataSeed 0x\(String(dataSeed, radix: 16))):\n\(data.importJSON)"),
                                 sourceLocation: sourceLocation)
                }
                continue
            }
            let casesHere = min(perDataSet, configuration.cases - dataSetIndex * perDataSet)
            for caseIndex in 0..<casesHere {
                let requestSeed = DifferentialRandom.derive(dataSeed, caseIndex)
                let generated = requestGenerator.make(dataSet: data, seed: requestSeed)
                summary.cases += 1
                summary.generatorProblems += generated.problems
                let request = generated.request
                let expected = DifferentialObservation.observe(request, on: referenceStore)
                let actual = DifferentialObservation.observe(request, on: candidateStore)
                if request.predicate != nil, let native = candidate.runsPredicateNatively?(candidateStore, request) {
                    summary.predicatesMeasured += 1
                    if native { summary.predicatesRunNatively += 1 }
                }
                guard let difference = expected.difference(from: actual) else {
                    tally(expected, request: request, data: data, into: &summary)
                    continue
                }
                summary.mismatchCount += 1
                guard summary.mismatches.count < configuration.reportLimit else { continue }
                let mismatch = shrink(
                    data: data, request: request, difference: difference, model: model, reference: reference, candidate: candidate,
                    caseNumber: dataSetIndex * perDataSet + caseIndex, dataSeed: dataSeed, requestSeed: requestSeed, budget: configuration.shrinkBudget)
                summary.mismatches.append(mismatch)
                if recordIssues { Issue.record(Comment(rawValue: mismatch.report), sourceLocation: sourceLocation) }
            }
        }
        if recordIssues {
            if summary.mismatchCount > summary.mismatches.count {
                Issue.record("\(summary.mismatchCount) mismatches in all; the first \(summary.mismatches.count) are reported above", sourceLocation: sourceLocation)
            }
            for problem in summary.generatorProblems.prefix(5) {
                Issue.record(Comment(rawValue: "generator problem: \(problem)"), sourceLocation: sourceLocation)
            }
        }
        summary.duration = clock.now - start
        return summary
    }

    /// Regenerates one case from its seeds and runs it: the mismatch (shrunk), or nil when the
    /// stores agree.
    static func check(dataSeed: UInt64, requestSeed: UInt64, reference: DifferentialStore, candidate: DifferentialStore,
                      shrinkBudget: Int = 1500) throws -> DifferentialMismatch? {
        let model = try DifferentialModel.make()
        var dataGenerator = DataSetGenerator(model: model)
        let data = dataGenerator.make(seed: dataSeed)
        let request = RequestGenerator(model: model).make(dataSet: data, seed: requestSeed).request
        let expected = DifferentialObservation.observe(request, on: try reference.filled(with: data, model: model))
        let actual = DifferentialObservation.observe(request, on: try candidate.filled(with: data, model: model))
        guard let difference = expected.difference(from: actual) else { return nil }
        return shrink(data: data, request: request, difference: difference, model: model, reference: reference, candidate: candidate,
                      caseNumber: 0, dataSeed: dataSeed, requestSeed: requestSeed, budget: shrinkBudget)
    }

    // MARK: Shrinking

    /// Shrinks a failing case and describes the result. Stores are made again only when the
    /// data changes; a data set either store refuses counts as no failure.
    static func shrink(data: DifferentialDataSet, request: FetchRequest, difference: String, model: DataModel,
                       reference: DifferentialStore, candidate: DifferentialStore,
                       caseNumber: Int, dataSeed: UInt64, requestSeed: UInt64, budget: Int) -> DifferentialMismatch {
        var cachedKey: String?
        var cachedStores: (any PersistentStore, any PersistentStore)?
        func stores(_ data: DifferentialDataSet) -> (any PersistentStore, any PersistentStore)? {
            let key = data.importJSON
            if key != cachedKey {
                cachedKey = key
                cachedStores = try? (reference.filled(with: data, model: model), candidate.filled(with: data, model: model))
            }
            return cachedStores
        }
        func observations(_ data: DifferentialDataSet, _ request: FetchRequest) -> (DifferentialObservation, DifferentialObservation)? {
            guard let (a, b) = stores(data) else { return nil }
            return (DifferentialObservation.observe(request, on: a), DifferentialObservation.observe(request, on: b))
        }
        var shrinker = DifferentialShrinker(budget: budget) { data, request in
            guard let (a, b) = observations(data, request) else { return false }
            return a.difference(from: b) != nil
        }
        let (smallData, smallRequest) = shrinker.shrink(data, request)
        let (a, b) = observations(smallData, smallRequest)
            ?? (DifferentialObservation(answer: .error("the shrunk data set cannot be stored")), DifferentialObservation(answer: .error("")))
        return DifferentialMismatch(
            referenceName: reference.name, candidateName: candidate.name, caseNumber: caseNumber, dataSeed: dataSeed, requestSeed: requestSeed,
            original: (data, request), originalDifference: difference, minimal: (smallData, smallRequest),
            reference: a, candidate: b, difference: a.difference(from: b) ?? difference, shrinkAttempts: shrinker.attempts)
    }

    // MARK: Statistics

    /// Counts an answer both stores gave.
    private static func tally(_ observation: DifferentialObservation, request: FetchRequest, data: DifferentialDataSet, into summary: inout Summary) {
        if request.sectionNameKeyPath != nil { summary.sectioned += 1 }
        let ids: [ObjectID]
        switch observation.answer {
        case .error:
            summary.agreedErrors += 1
            return
        case .objects(let list, _), .objectIDs(let list): ids = list
        case .count: return
        case .dictionaries(let rows):
            summary.dictionaryResults += 1
            if rows.isEmpty { summary.emptyDictionaryResults += 1 }
            return
        }
        let members: Set<String> = request.entityName == "Item" && request.includesSubentities ? ["Item", "SpecialItem"] : [request.entityName]
        let total = data.objects.filter { members.contains($0.entity) }.count
        if ids.isEmpty { summary.emptyResults += 1 } else if ids.count < total { summary.selectiveResults += 1 }
    }
}
