import Foundation
import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLiteStore
import SiftStore
import Synchronization
import Testing

/// `interrupt()` during a change, on both kinds of store: a batch update or delete stops
/// between objects and leaves nothing of itself; a save asked to stop before its commit
/// commits nothing; and the evaluator's long loops (a SUBQUERY nested deep) stop too.
@Suite struct ChangeInterruptTests {
    enum Kind: String, CaseIterable, Sendable {
        case sqlite, atomic
    }

    static let rows = 2_000

    static func store(_ kind: Kind) throws -> any PersistentStore & InterruptibleStore {
        let model = try JSONModelFormat.read(Data(#"{"entities": [{"name": "Item", "attributes": [{"name": "n", "type": "Integer 64"}]}]}"#.utf8))
        let store: any PersistentStore & InterruptibleStore = switch kind {
        case .sqlite: try SQLiteStore.inMemory(model: model)
        case .atomic: AtomicStore.inMemory(model: model)
        }
        for n in 0..<rows { try store.insert("Item", ["n": .int(Int64(n))]) }
        try store.save()
        return store
    }

    static func interrupt(_ store: any PersistentStore) {
        switch store {
        case let store as SQLiteStore: store.interrupt()
        case let store as AtomicStore: store.interrupt()
        default: Issue.record("no interrupt for \(type(of: store))")
        }
    }

    /// Calls `interrupt()` every 20 ms while `body` runs.
    static func interrupting<T>(_ store: any PersistentStore, _ body: () throws -> T) rethrows -> T {
        nonisolated(unsafe) let interrupted = store
        let finished = Atomic<Bool>(false)
        let stopped = DispatchSemaphore(value: 0)
        let interrupter = Thread {
            while !finished.load(ordering: .relaxed) {
                usleep(20_000)
                Self.interrupt(interrupted)
            }
            stopped.signal()
        }
        interrupter.start()
        defer {
            finished.store(true, ordering: .relaxed)
            stopped.wait()
        }
        return try body()
    }

    /// A value that takes a while on each object (its SUBQUERY's collection reads the object,
    /// so it is not computed once): the update runs for many seconds unless stopped.
    static let slowValue = try! ExpressionNode(format: "SUBQUERY({n, \((1..<200).map(String.init).joined(separator: ", "))}, $a, SUBQUERY({\((0..<200).map(String.init).joined(separator: ", "))}, $b, $a == $b).@count > 0).@count")

    @Test(arguments: Kind.allCases)
    func anInterruptedBatchUpdateChangesNothing(_ kind: Kind) throws {
        let store = try Self.store(kind)
        #expect(throws: StoreError.interrupted) {
            try Self.interrupting(store) { try store.batchUpdate(entity: "Item", predicate: nil, set: ["n": Self.slowValue]) }
        }
        #expect(!store.hasChanges)
        store.rollback()
        #expect(try store.count(FetchRequest(statement: "Item WHERE n == 0")) == 1)
        #expect(try store.count(FetchRequest(statement: "Item WHERE n >= 0")) == Self.rows)
    }

    /// A store copy (`.engine both`) stops at the source's interrupt, and the target keeps
    /// nothing of it; uninterrupted, it copies everything.
    @Test(arguments: Kind.allCases)
    func anInterruptedStoreCopyLeavesTheTargetEmpty(_ kind: Kind) throws {
        let source = try Self.store(kind)
        let target = AtomicStore.inMemory(model: source.model)
        #expect(throws: StoreError.interrupted) {
            try source.interruption.whileRunning {
                Self.interrupt(source)
                try source.copyObjects(into: target)
            }
        }
        #expect(!target.hasChanges)
        #expect(try target.count(FetchRequest(statement: "Item")) == 0)
        try source.copyObjects(into: target)
        #expect(try target.count(FetchRequest(statement: "Item")) == Self.rows)
    }

    /// A save that an interrupt of the change it ends reaches before its commit commits nothing
    /// (the changes stay pending, for the caller to roll back).
    @Test(arguments: Kind.allCases)
    func aSaveInterruptedBeforeItsCommitCommitsNothing(_ kind: Kind) throws {
        let store = try Self.store(kind)
        #expect(throws: StoreError.interrupted) {
            try store.interruption.whileRunning {
                try store.batchDelete(entity: "Item", predicate: nil)
                Self.interrupt(store)
                try store.save()
            }
        }
        #expect(store.hasChanges)
        store.rollback()
        #expect(try store.count(FetchRequest(statement: "Item")) == Self.rows)
        // With nothing running, an interrupt is forgotten: the next change is saved.
        Self.interrupt(store)
        #expect(try store.batchDelete(entity: "Item", predicate: PredicateNode(format: "n < 10")) == 10)
        try store.save()
        #expect(try store.count(FetchRequest(statement: "Item")) == Self.rows - 10)
    }

    /// A SUBQUERY nested 41 deep over a collection of the object, reading the outermost
    /// variable at the bottom (2⁴¹ tests for one object, past the work budget's 10,000,000):
    /// `interrupt()` stops it long before.
    @Test(arguments: Kind.allCases)
    func interruptStopsADeepSubquery(_ kind: Kind) throws {
        let store = try Self.store(kind)
        let predicate = try PredicateNode(format: EvaluationBudgetSupport.nestedSubquery(depth: 41, innermost: "$v41 == $v1", outermost: "{n, 1}"))
        // On SQLite the predicate runs in the evaluator, on SQL's rows.
        let request = FetchRequest(entityName: "Item", predicate: .and([try PredicateNode(format: "n == 5"), predicate]))
        var caught: (any Error)?
        do {
            _ = try Self.interrupting(store) { try store.count(request) }
        } catch {
            caught = error
        }
        #expect(caught as? StoreError == StoreError.interrupted, "\(String(describing: caught))")
    }
}

enum EvaluationBudgetSupport {
    /// `SUBQUERY(OUTERMOST, $vD, … SUBQUERY({1, 2}, $v1, INNERMOST).@count > 0 …).@count > 0`.
    static func nestedSubquery(depth: Int, innermost: String, outermost: String) -> String {
        var text = innermost
        for level in 1...depth { text = "SUBQUERY(\(level == depth ? outermost : "{1, 2}"), $v\(level), \(text)).@count > 0" }
        return text
    }
}
