import Foundation
import Sift

/// fuzz-sql: a differential fuzzer. Any bytes as a statement (a fetch — FETCH, COUNT,
/// SELECT, an entity with clauses — or an UPDATE / DELETE) on a seed app's data, run by the
/// SQLite store (in memory; its predicate compiled to SQL) and by the in-memory atomic store
/// (the evaluator). The two must agree as the differential tests require (the same object IDs
/// in the same order with the same values, the same counts, rows and sections; after a change,
/// the same count and the same objects in every entity), except that an error agrees with an
/// error, and the SQLite store may refuse what the evaluator answers. A disagreement traps.
/// Changes are rolled back, and both stores must then hold what they held before.
public enum SQLDifferentialHarness {
    struct Pair {
        let memory: AtomicStore
        let sql: SQLiteStore
        let baseline: [FuzzObservation.Answer]
    }

    nonisolated(unsafe) static let pairs: [Pair] = SeedApps.all.map { app in
        let memory = SeedApps.atomicStore(app)
        let sql = SeedApps.sqliteStore(app)
        let baseline = FuzzObservation.contents(of: memory)
        for (entity, (a, b)) in zip(app.model.entities.map(\.name), zip(baseline, FuzzObservation.contents(of: sql))) {
            if let difference = FuzzObservation.difference(a, b) {
                fatalError("the seed app \(app.name) reads differently from the two stores (\(entity)): \(difference)")
            }
        }
        return Pair(memory: memory, sql: sql, baseline: baseline)
    }

    public static func run(_ data: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: data, as: UTF8.self)
        guard let statement = FuzzStatement.parse(text, checkingRoundTrip: false),
              let app = SeedApps.app(forEntity: statement.entityName),
              Determinism.isDeterministic(statement) else { return }
        let pair = pairs[app]
        switch statement {
        case .fetch(let fetch):
            let request = FetchRequest(fetch)
            let memory = FuzzObservation.observe(request, on: pair.memory)
            let sql = FuzzObservation.observe(request, on: pair.sql)
            compare(memory.answer, sql.answer, what: "the results", input: text, memory, sql)
            if let a = memory.sections, let b = sql.sections { compare(a, b, what: "the sections", input: text, memory, sql) }
        case .update(let update):
            change(pair, input: text) { store in
                try store.batchUpdate(entity: update.entityName, predicate: update.predicate, set: update.values)
            }
        case .delete(let delete):
            change(pair, input: text) { store in
                try store.batchDelete(entity: delete.entityName, predicate: delete.predicate)
            }
        }
    }

    /// The rule: errors agree with errors; the SQLite store may refuse; otherwise the answers
    /// must be identical.
    static func compare(_ memory: FuzzObservation.Answer, _ sql: FuzzObservation.Answer, what: String, input: String,
                        _ memoryObservation: @autoclosure () -> Any, _ sqlObservation: @autoclosure () -> Any) {
        switch (isError(memory), isError(sql)) {
        case (true, true), (false, true):
            return  // both refuse, or the SQLite store refuses
        case (true, false):
            fuzzFailure("the evaluator fails and SQL answers (\(what)):\n  statement: \(quoted(input))\n  memory: \(memoryObservation())\n  sql: \(sqlObservation())")
        case (false, false):
            if let difference = FuzzObservation.difference(memory, sql) {
                fuzzFailure("the engines differ (\(what)): \(difference)\n  statement: \(quoted(input))\n  memory: \(memoryObservation())\n  sql: \(sqlObservation())")
            }
        }
    }

    static func isError(_ answer: FuzzObservation.Answer) -> Bool {
        if case .error = answer { return true }
        return false
    }

    /// Runs a batch change on both stores, compares the counts and every entity's objects, and
    /// rolls both back.
    static func change(_ pair: Pair, input: String, _ body: (any PersistentStore) throws -> Int) {
        let memoryCount: FuzzObservation.Answer
        let sqlCount: FuzzObservation.Answer
        do { memoryCount = .lines(["changed \(try body(pair.memory))"]) } catch { memoryCount = .error("\(error)") }
        do { sqlCount = .lines(["changed \(try body(pair.sql))"]) } catch { sqlCount = .error("\(error)") }
        compare(memoryCount, sqlCount, what: "the change", input: input, memoryCount, sqlCount)
        if !isError(memoryCount) && !isError(sqlCount) {
            let entities = pair.memory.model.entities.map(\.name)
            for (name, (a, b)) in zip(entities, zip(FuzzObservation.contents(of: pair.memory), FuzzObservation.contents(of: pair.sql))) {
                compare(a, b, what: "\(name) after the change", input: input, a, b)
            }
        }
        for store in [pair.memory, pair.sql] as [any PersistentStore] {
            store.rollback()
            fuzzCheck(!store.hasChanges, "\(type(of: store)) has changes after a rollback: \(quoted(input))")
            for (name, (a, b)) in zip(store.model.entities.map(\.name), zip(pair.baseline, FuzzObservation.contents(of: store))) {
                if let difference = FuzzObservation.difference(a, b) {
                    fuzzFailure("rollback did not restore \(name) in \(type(of: store)): \(difference)\n  statement: \(quoted(input))")
                }
            }
        }
    }
}
