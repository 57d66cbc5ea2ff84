import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore
import Testing

/// The differential harness on the stores that exist today: the atomic stores must agree
/// with each other (any disagreement is a bug of a store or of the generators), and the
/// harness must find and shrink a disagreement it is shown. The SQLite store's acceptance test
/// is the same harness with the SQLite store as the candidate.
@Suite struct DifferentialTests {
    // MARK: Stores

    static var inMemory: DifferentialStore { DifferentialStore("AtomicStore.inMemory") { model in AtomicStore.inMemory(model: model) } }

    /// A file store of `kind`, created in `directory`, filled and saved, then opened again from
    /// its file (which is then removed: the reopened store holds everything in memory).
    static func fileStore(_ kind: AtomicStore.Kind, in directory: URL) -> DifferentialStore {
        let suffix = kind == .json ? "json" : "plist"
        return DifferentialStore("\(kind.rawValue) AtomicStore (saved and reopened)", make: { model in
            try AtomicStore.create(at: directory.appendingPathComponent("\(UUID().uuidString).\(suffix)"), model: model, kind: kind)
        }, reopen: { store in
            guard let url = (store as? AtomicStore)?.url else { return store }
            let reopened = try AtomicStore.open(at: url, kind: kind)
            try? FileManager.default.removeItem(at: url)
            return reopened
        })
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-differential-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    // MARK: Atomic stores agree

    /// The in-memory store and a JSON store read back from its file answer every request
    /// alike (`SIFT_DIFFERENTIAL_CASES`, default 2000, in data sets of 40).
    @Test func inMemoryAndReopenedJSONStoresAgree() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let summary = DifferentialHarness.run(reference: Self.inMemory, candidate: Self.fileStore(.json, in: directory),
                                              configuration: .standard)
        print("differential (in-memory vs JSON): \(summary)")
        #expect(summary.cases == DifferentialHarness.Configuration.standard.cases)
    }

    /// The same with the binary property list store, on a quarter of the cases.
    @Test func inMemoryAndReopenedPropertyListStoresAgree() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = DifferentialHarness.Configuration.standard
        configuration.cases /= 4
        configuration.seed &+= 1
        let summary = DifferentialHarness.run(reference: Self.inMemory, candidate: Self.fileStore(.binaryPropertyList, in: directory),
                                              configuration: configuration)
        print("differential (in-memory vs binary plist): \(summary)")
    }

    /// The closure entry point (the one the SQLite store's test calls) runs and finds the
    /// atomic store in agreement with itself.
    @Test func closureEntryPoint() {
        let summary = DifferentialHarness.run(reference: { model in AtomicStore.inMemory(model: model) },
                                              candidate: { model in AtomicStore.inMemory(model: model) },
                                              cases: 80, seed: 7)
        #expect(summary.cases == 80)
        #expect(summary.dataSets == 2)
        #expect(summary.mismatchCount == 0)
    }

    // MARK: The harness finds and shrinks

    /// A store that drops the last of more than two results is caught, and the case shrinks to
    /// what shows it: three objects, no predicate, no sorting, no paging.
    @Test func shrinkerShrinksToAMinimalCase() throws {
        var configuration = DifferentialHarness.Configuration(cases: 200, seed: 42)
        configuration.reportLimit = 1
        let dropping = DifferentialStore("FaultyStore (drops the last result)") { model in FaultyStore(model: model, fault: .dropsLastResult) }
        let summary = DifferentialHarness.run(reference: Self.inMemory, candidate: dropping, configuration: configuration, recordIssues: false)
        #expect(summary.mismatchCount > 0)
        let mismatch = try #require(summary.mismatches.first)
        let (data, request) = mismatch.minimal
        #expect(data.objects.count == 3, "\(mismatch.report)")
        #expect(request.predicate == nil || request.predicate?.kind == .constant(true), "\(mismatch.report)")
        #expect(request.sortDescriptors.isEmpty, "\(mismatch.report)")
        #expect(request.fetchLimit == 0 && request.fetchOffset == 0 && request.sectionNameKeyPath == nil, "\(mismatch.report)")
        #expect(mismatch.original.data.objects.count >= data.objects.count)
        // Every shrunk object is plain: no relationships, and only required values remain.
        #expect(data.objects.allSatisfy { $0.relationships.isEmpty }, "\(mismatch.report)")
        // The report holds the data, the request and both answers.
        #expect(mismatch.report.contains("\"entityName\""))
        #expect(mismatch.report.contains("\"@id\""))
        #expect(mismatch.report.contains("(reference)") && mismatch.report.contains("(candidate)"))

        // The seeds in the report regenerate the original case.
        let again = try DifferentialHarness.check(dataSeed: mismatch.dataSeed, requestSeed: mismatch.requestSeed,
                                                  reference: Self.inMemory, candidate: dropping)
        #expect(again != nil)
        #expect(again.map { $0.original.data.importJSON } == mismatch.original.data.importJSON)
    }

    /// A subtler fault — `!=` false on nil, as in Apple's SQLite store — shrinks to one
    /// object and one `!=` comparison.
    @Test func shrinkerSimplifiesThePredicate() throws {
        var configuration = DifferentialHarness.Configuration(cases: 400, seed: 43)
        configuration.reportLimit = 1
        let faulty = DifferentialStore("FaultyStore (nil fails !=)") { model in FaultyStore(model: model, fault: .nilFailsNotEqual) }
        let summary = DifferentialHarness.run(reference: Self.inMemory, candidate: faulty, configuration: configuration, recordIssues: false)
        #expect(summary.mismatchCount > 0)
        let mismatch = try #require(summary.mismatches.first)
        let (data, request) = mismatch.minimal
        #expect(data.objects.count == 1, "\(mismatch.report)")
        let predicate = try #require(request.predicate, "\(mismatch.report)")
        guard case .comparison(let comparison) = predicate.kind else {
            Issue.record("not one comparison: \(mismatch.report)")
            return
        }
        #expect(comparison.operator == .notEqualTo, "\(mismatch.report)")
        #expect(request.sortDescriptors.isEmpty && request.fetchLimit == 0 && request.fetchOffset == 0, "\(mismatch.report)")
    }

    /// Predicate shrinking steps: a compound gives its parts, NOT its operand, a qualified
    /// comparison its unqualified form.
    @Test func predicateSimplifications() throws {
        let predicate = try PredicateNode(format: "(name == \"a\" OR NOT ANY tags.name ==[c] \"b\") AND count > 1")
        let simpler = DifferentialShrinker.simplifications(predicate).map(CanonicalPrinter.format)
        #expect(simpler.contains("name == \"a\" OR (NOT ANY tags.name ==[c] \"b\")"))
        #expect(simpler.contains("count > 1"))
        #expect(simpler.contains("(name == \"a\" OR ANY tags.name ==[c] \"b\") AND count > 1"))
        #expect(simpler.contains("(name == \"a\" OR (NOT tags.name ==[c] \"b\")) AND count > 1"))
        #expect(simpler.contains("(name == \"a\" OR (NOT ANY tags.name == \"b\")) AND count > 1"))
    }

    // MARK: The generators

    /// Every generated predicate parses, and its canonical text parses back to it.
    @Test func generatedPredicatesParseAndRoundTrip() throws {
        let model = try DifferentialModel.make()
        var dataGenerator = DataSetGenerator(model: model)
        let requests = RequestGenerator(model: model)
        var problems: [String] = []
        var predicates = 0
        for dataSet in 0..<20 {
            let data = dataGenerator.make(seed: DifferentialRandom.derive(99, dataSet))
            for index in 0..<100 {
                let generated = requests.make(dataSet: data, seed: DifferentialRandom.derive(UInt64(dataSet), index))
                if generated.generatedPredicate != nil { predicates += 1 }
                problems += generated.problems
            }
        }
        #expect(predicates > 1500)
        #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n\n"))")
    }

    /// A seed makes the same data set and the same request every time.
    @Test func seedsReproduce() throws {
        let model = try DifferentialModel.make()
        var first = DataSetGenerator(model: model)
        var second = DataSetGenerator(model: model)
        for seed: UInt64 in [1, 2, 0xDEAD_BEEF] {
            let a = first.make(seed: seed), b = second.make(seed: seed)
            #expect(a.importJSON == b.importJSON)
            let requests = RequestGenerator(model: model)
            let x = requests.make(dataSet: a, seed: seed).request, y = requests.make(dataSet: b, seed: seed).request
            #expect(DifferentialMismatch.requestJSON(x) == DifferentialMismatch.requestJSON(y))
        }
    }

    /// The data sets are varied: empty ones, ones near the maximum size, every entity, nils.
    @Test func dataSetsCoverTheModel() throws {
        let model = try DifferentialModel.make()
        var generator = DataSetGenerator(model: model)
        var sizes: [Int] = []
        var entities: Set<String> = []
        var nils = 0, forwardParents = 0
        for seed in 0..<200 {
            let data = generator.make(seed: DifferentialRandom.derive(5, seed))
            sizes.append(data.objects.count)
            let positions = Dictionary(uniqueKeysWithValues: data.objects.enumerated().map { ($1.id, $0) })
            for (position, object) in data.objects.enumerated() {
                entities.insert(object.entity)
                nils += object.attributes.filter { $0.value.isNull }.count
                for (name, targets) in object.relationships where name == "parent" {
                    if let target = targets.first, let targetPosition = positions[target], targetPosition > position { forwardParents += 1 }
                }
            }
        }
        #expect(sizes.contains(0))
        #expect(sizes.max() ?? 0 >= 35)
        #expect(entities == ["Person", "Tag", "Item", "SpecialItem"])
        #expect(nils > 100)
        #expect(forwardParents > 0)
    }

    /// The import JSON a report prints is the data set: imported into a store, it gives the
    /// same objects, in the same order, as filling a store through the API.
    @Test func importJSONReproducesTheDataSet() throws {
        let model = try DifferentialModel.make()
        var generator = DataSetGenerator(model: model)
        for seed: UInt64 in [3, 4, 5, 6, 7, 8] {
            let data = generator.make(seed: seed)
            let filled = AtomicStore.inMemory(model: model)
            try data.fill(filled)
            let imported = AtomicStore.inMemory(model: model)
            try StoreImporter.importJSON(Data(data.importJSON.utf8), into: imported)
            for entity in DifferentialModel.fetchableEntities {
                let request = FetchRequest(entityName: entity)
                let a = DifferentialObservation.observe(request, on: filled)
                let b = DifferentialObservation.observe(request, on: imported)
                #expect(a.difference(from: b) == nil, "seed \(seed), \(entity): \(a.difference(from: b) ?? "")\n\(data.importJSON)")
            }
        }
    }
}
