import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Testing

/// The store rules, differentially: the same random sequence of changes — inserts (with and
/// without IDs, with relationships), updates of attributes and relationships, deletes, batch
/// updates and deletes, saves, rollbacks, units of changes that fail or are undone, closing and
/// reopening — applied to a JSON store and a SQLite store must give, at every step, the same
/// result or the same `StoreError` (code and message), the same `hasChanges`, the same objects,
/// and after every save, rollback, unit and reopen the same contents (every attribute value and
/// every relationship, to-many in order) and the same answers to fetches over relationships.
///
/// Everything comes from the seed: sequence `i` from `derive(seed, i)`. A disagreement is
/// reported with the seed, the step and the operations, shrunk to a short sequence printed as
/// Swift. `SIFT_CHANGE_SEQUENCES` (default 30), `SIFT_CHANGE_OPERATIONS` (default 60) and
/// `SIFT_CHANGE_SEED` (else `SIFT_DIFFERENTIAL_SEED`) set the run; `SIFT_CHANGE_SEQUENCE_SEED`
/// runs the one sequence a report names; `SIFT_CHANGE_FULL_CHECKS=1` compares every object after
/// every operation; `SIFT_CHANGE_TRACE=1` prints every operation and the reference's outcome;
/// `SIFT_CHANGE_REPORT_LIMIT` (default 3) says how many disagreements are shrunk and reported.
@Suite struct ChangeSequenceDifferentialTests {
    @Test func sqliteStoreKeepsTheStoreRulesOfTheJSONStore() throws {
        let configuration = ChangeSequenceHarness.Configuration.standard
        let summary = try ChangeSequenceHarness.run(configuration)
        print("change sequences (JSON vs SQLite): \(summary)")
        for failure in summary.failures.prefix(configuration.reportLimit) {
            Issue.record(Comment(rawValue: failure.report))
        }
        if summary.failures.count > configuration.reportLimit {
            Issue.record("\(summary.failures.count) sequences disagree in all; the first \(configuration.reportLimit) are reported above")
        }
        #expect(summary.sequences == configuration.sequences)
    }

    /// A seed makes the same operations every time (they depend on the reference store's
    /// answers, so this also checks the reference is deterministic).
    @Test func seedsReproduce() throws {
        let model = try ChangeSequenceModel.make()
        for seed: UInt64 in [1, 0xC0FFEE] {
            let first = try ChangeSequenceHarness.runSequence(seed: seed, operations: 40, model: model, shrink: false)
            let second = try ChangeSequenceHarness.runSequence(seed: seed, operations: 40, model: model, shrink: false)
            #expect(first.operations.map { $0.swift() } == second.operations.map { $0.swift() })
        }
    }

    /// The generated sequences reach the rules: across a fixed run (another seed, so it also
    /// must find no disagreement) both stores refuse changes with every kind of error, and many
    /// saves succeed.
    @Test func sequencesCoverTheRules() throws {
        var configuration = ChangeSequenceHarness.Configuration(sequences: 20, operations: 60, seed: 0xC4A1)
        configuration.shrink = false
        let summary = try ChangeSequenceHarness.run(configuration)
        let codes = Set(summary.agreedErrors.keys)
        for code in ["unknownEntity", "unknownKey", "invalidValue", "missingValue", "constraintViolation", "deleteDenied",
                     "unknownObject", "duplicateObjectID", "abstractEntity", "relationshipCount"] {
            #expect(codes.contains(code), "no \(code) error in \(summary)")
        }
        #expect(summary.successfulSaves > 50, "\(summary)")
        #expect(summary.reopens > 5, "\(summary)")
        #expect(summary.failures.isEmpty, "\(summary.failures.first.map(\.report) ?? "")")
    }
}

/// Runs change sequences on a JSON store and a SQLite store and compares them.
enum ChangeSequenceHarness {
    struct Configuration {
        var sequences: Int
        var operations: Int
        var seed: UInt64
        /// Run only this sequence seed (from a report).
        var sequenceSeed: UInt64?
        var shrink = true
        var checksContentsEveryStep = false
        var reportLimit = 3
        /// Replays one shrink may take.
        var shrinkBudget = 400

        static let defaultSequences = 30
        static let defaultOperations = 60
        static let defaultSeed: UInt64 = 0x5E0_C4A5

        init(sequences: Int, operations: Int, seed: UInt64) {
            self.sequences = sequences
            self.operations = operations
            self.seed = seed
        }

        static var standard: Configuration {
            let environment = ProcessInfo.processInfo.environment
            func number(_ name: String) -> Int? { environment[name].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
            let seed = environment["SIFT_CHANGE_SEED"].flatMap(DifferentialHarness.Configuration.parseSeed)
                ?? environment["SIFT_DIFFERENTIAL_SEED"].flatMap(DifferentialHarness.Configuration.parseSeed) ?? defaultSeed
            var configuration = Configuration(sequences: max(0, number("SIFT_CHANGE_SEQUENCES") ?? defaultSequences),
                                              operations: max(1, number("SIFT_CHANGE_OPERATIONS") ?? defaultOperations), seed: seed)
            configuration.sequenceSeed = environment["SIFT_CHANGE_SEQUENCE_SEED"].flatMap(DifferentialHarness.Configuration.parseSeed)
            if configuration.sequenceSeed != nil { configuration.sequences = 1 }
            configuration.checksContentsEveryStep = environment["SIFT_CHANGE_FULL_CHECKS"] == "1"
            if let limit = number("SIFT_CHANGE_REPORT_LIMIT") { configuration.reportLimit = limit }
            return configuration
        }
    }

    struct Summary: CustomStringConvertible {
        var sequences = 0
        var operations = 0
        var failures: [Failure] = []
        /// Operations both stores refused, by error code.
        var agreedErrors: [String: Int] = [:]
        var successfulSaves = 0
        var refusedSaves = 0
        var reopens = 0
        var units = 0
        /// Per operation kind: how many both stores carried out, and refused.
        var outcomes: [String: (done: Int, refused: Int)] = [:]
        var duration: Duration = .zero

        var description: String {
            "\(sequences) sequences, \(operations) operations in \(duration.formatted(.units(allowed: [.seconds, .milliseconds]))): "
                + "\(failures.count) disagreeing sequences"
                + (failures.isEmpty ? "" : " (" + Dictionary(grouping: failures, by: \.mismatch.category)
                    .map { "\($0.key): \($0.value.count), first SIFT_CHANGE_SEQUENCE_SEED=0x\(String($0.value[0].sequenceSeed, radix: 16))" }
                    .sorted().joined(separator: "; ") + ")")
                + "; \(successfulSaves) saves succeeded, \(refusedSaves) refused by both, "
                + "\(reopens) reopens, \(units) units; errors both stores gave: "
                + agreedErrors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "; operations done/refused: "
                + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.done)/\($0.value.refused)" }.joined(separator: ", ")
        }
    }

    /// A sequence on which the stores disagree.
    struct Failure {
        var sequenceIndex: Int
        var sequenceSeed: UInt64
        var step: Int
        var mismatch: ChangeMismatch
        var operations: [ChangeOperation]
        /// The shrunk sequence and its mismatch (nil when shrinking was off).
        var minimal: (operations: [ChangeOperation], step: Int, mismatch: ChangeMismatch)?
        var shrinkReplays = 0

        var report: String {
            var text = """
            Change sequence disagreement: SQLiteStore and the JSON AtomicStore differ
            Sequence \(sequenceIndex) (SIFT_CHANGE_SEQUENCE_SEED=0x\(String(sequenceSeed, radix: 16))), step \(step + 1) of \(operations.count): \(mismatch)
            """
            if let minimal {
                text += """


                Minimal sequence (\(minimal.operations.count) operations, shrunk in \(shrinkReplays) replays), failing at step \(minimal.step + 1): \(minimal.mismatch)
                Model: ChangeSequenceModel.json. Apply to a JSON store (AtomicStore.create(at: x.json)) and a SQLite store (SQLiteStore.create(at: x.sqlite)):

                \(ChangeSequenceHarness.swift(minimal.operations, failingAt: minimal.step))
                """
            }
            text += "\n\nThe operations up to the failing one:\n\n" + ChangeSequenceHarness.swift(Array(operations.prefix(step + 1)), failingAt: step)
            return text
        }
    }

    /// The operations as Swift, numbered, the failing one marked.
    static func swift(_ operations: [ChangeOperation], failingAt step: Int) -> String {
        operations.enumerated().map { index, operation in
            let code = operation.swift()
            let marker = index == step ? "   // ← step \(index + 1): disagreement" : ""
            return "/* \(index + 1) */ " + code.replacingOccurrences(of: "\n", with: "\n        ") + marker
        }.joined(separator: "\n")
    }

    /// What one sequence did.
    struct SequenceResult {
        var operations: [ChangeOperation] = []
        var failure: Failure?
        var agreedErrors: [String: Int] = [:]
        var successfulSaves = 0
        var refusedSaves = 0
        var reopens = 0
        var units = 0
        var outcomes: [String: (done: Int, refused: Int)] = [:]
    }

    static func run(_ configuration: Configuration) throws -> Summary {
        let clock = ContinuousClock()
        let start = clock.now
        let model = try ChangeSequenceModel.make()
        var summary = Summary()
        for index in 0..<configuration.sequences {
            let seed = configuration.sequenceSeed ?? DifferentialRandom.derive(configuration.seed, index)
            let result = try runSequence(seed: seed, operations: configuration.operations, model: model,
                                         shrink: configuration.shrink && summary.failures.count < configuration.reportLimit,
                                         shrinkBudget: configuration.shrinkBudget, checksContentsEveryStep: configuration.checksContentsEveryStep,
                                         index: index)
            summary.sequences += 1
            summary.operations += result.operations.count
            summary.successfulSaves += result.successfulSaves
            summary.refusedSaves += result.refusedSaves
            summary.reopens += result.reopens
            summary.units += result.units
            summary.agreedErrors.merge(result.agreedErrors, uniquingKeysWith: +)
            summary.outcomes.merge(result.outcomes) { ($0.done + $1.done, $0.refused + $1.refused) }
            if let failure = result.failure { summary.failures.append(failure) }
        }
        summary.duration = clock.now - start
        return summary
    }

    /// Generates and runs one sequence, stopping at the first disagreement (then shrunk).
    static func runSequence(seed: UInt64, operations count: Int, model: DataModel, shrink: Bool, shrinkBudget: Int = 400,
                            checksContentsEveryStep: Bool = false, index: Int = 0) throws -> SequenceResult {
        let directory = try DifferentialTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = try ChangeSequencePair(model: model, directory: directory, name: "s")
        defer { pair.close() }
        pair.checksContentsEveryStep = checksContentsEveryStep
        var generator = ChangeSequenceGenerator(model: model, seed: seed)
        var result = SequenceResult()
        var live: [ChangeSequenceGenerator.LiveObject] = []
        var lastSaveError: StoreError?
        let traces = ProcessInfo.processInfo.environment["SIFT_CHANGE_TRACE"] == "1"
        for step in 0..<count {
            let operation = generator.next(live: live, lastSaveError: lastSaveError)
            result.operations.append(operation)
            let outcome = pair.apply(operation)
            live = outcome.live
            if traces { print("[\(step + 1)] \(operation.swift())\n    → \(outcome.reference)") }
            for code in outcome.reference.errorCodes { result.agreedErrors[code, default: 0] += 1 }
            if outcome.reference.isFailure {
                result.outcomes[operation.kind, default: (0, 0)].refused += 1
            } else {
                result.outcomes[operation.kind, default: (0, 0)].done += 1
            }
            switch operation {
            case .save, .reopen(saveFirst: true):
                if case .failed(let code, _) = outcome.reference {
                    result.refusedSaves += 1
                    lastSaveError = referenceSaveError(code: code, pair: pair)
                } else {
                    result.successfulSaves += 1
                    lastSaveError = nil
                }
                if case .reopen = operation, !outcome.reference.isFailure { result.reopens += 1 }
            case .reopen, .rollback:
                lastSaveError = nil
                if case .reopen = operation { result.reopens += 1 }
            case .unit:
                result.units += 1
            default:
                break
            }
            if let mismatch = outcome.mismatch {
                result.failure = failure(index: index, seed: seed, step: step, mismatch: mismatch, operations: result.operations,
                                         model: model, shrink: shrink, budget: shrinkBudget)
                return result
            }
        }
        let end = pair.compareContents(after: "the last operation")
        if let end {
            result.failure = failure(index: index, seed: seed, step: count - 1, mismatch: end, operations: result.operations,
                                     model: model, shrink: shrink, budget: shrinkBudget)
        }
        return result
    }

    /// The reference's save error as a `StoreError` (the generator repairs what it names): the
    /// save is tried again on the reference alone, which changes nothing.
    private static func referenceSaveError(code: String, pair: ChangeSequencePair) -> StoreError? {
        guard let store = pair.reference.store else { return nil }
        do throws(StoreError) {
            try store.save()
            return nil
        } catch {
            return error
        }
    }

    private static func failure(index: Int, seed: UInt64, step: Int, mismatch: ChangeMismatch, operations: [ChangeOperation],
                                model: DataModel, shrink: Bool, budget: Int) -> Failure {
        var failure = Failure(sequenceIndex: index, sequenceSeed: seed, step: step, mismatch: mismatch, operations: operations)
        if shrink {
            var shrinker = ChangeSequenceShrinker(model: model, category: mismatch.category, budget: budget)
            failure.minimal = shrinker.shrink(Array(operations.prefix(step + 1)))
            failure.shrinkReplays = shrinker.replays
        }
        return failure
    }

    /// Replays fixed operations on two new stores: the first disagreement (step and mismatch),
    /// or nil.
    static func replay(_ operations: [ChangeOperation], model: DataModel) -> (step: Int, mismatch: ChangeMismatch)? {
        guard let directory = try? DifferentialTests.temporaryDirectory() else { return nil }
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let pair = try? ChangeSequencePair(model: model, directory: directory, name: "r") else { return nil }
        defer { pair.close() }
        for (step, operation) in operations.enumerated() {
            if let mismatch = pair.apply(operation).mismatch { return (step, mismatch) }
        }
        if let mismatch = pair.compareContents(after: "the last operation") { return (operations.count - 1, mismatch) }
        return nil
    }
}

/// Shrinks a failing sequence: drops runs of operations (halves, quarters, ... single ones),
/// takes units apart, and simplifies single operations, keeping each change that still fails
/// the same way (the same category of mismatch).
struct ChangeSequenceShrinker {
    let model: DataModel
    let category: String
    let budget: Int
    private(set) var replays = 0

    init(model: DataModel, category: String, budget: Int) {
        self.model = model
        self.category = category
        self.budget = budget
    }

    private mutating func fails(_ operations: [ChangeOperation]) -> (step: Int, mismatch: ChangeMismatch)? {
        guard replays < budget else { return nil }
        replays += 1
        guard let found = ChangeSequenceHarness.replay(operations, model: model), found.mismatch.category == category else { return nil }
        return found
    }

    mutating func shrink(_ operations: [ChangeOperation]) -> (operations: [ChangeOperation], step: Int, mismatch: ChangeMismatch)? {
        guard var best = fails(operations) else { return nil }
        var current = Array(operations.prefix(best.step + 1))
        var improved = true
        while improved && replays < budget {
            improved = false
            // Drop runs of operations, longest first.
            var chunk = max(1, current.count / 2)
            while chunk >= 1 && replays < budget {
                var start = 0
                while start < current.count && replays < budget {
                    var candidate = current
                    candidate.removeSubrange(start..<min(current.count, start + chunk))
                    if !candidate.isEmpty, let found = fails(candidate) {
                        current = Array(candidate.prefix(found.step + 1))
                        best = found
                        improved = true
                    } else {
                        start += chunk
                    }
                }
                chunk /= 2
            }
            // Take units apart and simplify operations.
            var index = 0
            while index < current.count && replays < budget {
                var replacements: [[ChangeOperation]] = []
                if case .unit(let body, _, let aborts) = current[index], !aborts { replacements.append(body) }
                replacements += current[index].simplifications.map { [$0] }
                for replacement in replacements where replays < budget {
                    var candidate = current
                    candidate.replaceSubrange(index...index, with: replacement)
                    if let found = fails(candidate) {
                        current = Array(candidate.prefix(found.step + 1))
                        best = found
                        improved = true
                        break
                    }
                }
                index += 1
            }
        }
        return (current, best.step, best.mismatch)
    }
}
